"""Transcripts written as text ("Customer: ...", "Agent: ..."): their turn labels as speakers,
and each speaker's "I" with their label."""
import pytest
import spacy

from spacy_coref.annotations import SPEAKERS_KEY, get_speakers, set_speakers
from spacy_coref.decoding.steps.quotes import link_quote_pronouns
from spacy_coref.linguistics.transcripts import mark_transcript_speakers, turn_labels

CHAT = (
    "Customer: Hello, my laptop won't start.\n"
    "Agent: I'm sorry. Have you charged it?\n"
    "Customer: Yes, I did.\n"
    "Agent: Then I will book a repair for you."
)
NLP = spacy.blank("en")


def offsets(doc, *words):
    """The (start, end) offsets of each word's first occurrence at or after the last one's."""
    found, at = [], 0
    for word in words:
        token = next(t for t in doc[at:] if t.text == word)
        found.append((token.i, token.i + 1))
        at = token.i + 1
    return found


def test_turn_labels_open_a_transcripts_lines():
    doc = NLP(CHAT)
    assert [doc[s:e].text for s, e in turn_labels(doc)] == ["Customer", "Agent", "Customer",
                                                             "Agent"]
    # labels of up to three words, and Q and A
    interview = NLP("Dr. Ana Silva: Welcome.\nQ: Why?\nDr. Ana Silva: Because.\nQ: Thanks.")
    assert [interview[s:e].text for s, e in turn_labels(interview)] == [
        "Dr. Ana Silva", "Q", "Dr. Ana Silva", "Q"]


@pytest.mark.parametrize(
    "text",
    [
        "From: Daniel\nTo: Priya\nSubject: Slides\nCould you send them?",  # no label repeats
        "Customer: Hello.\nAgent: Hi.",  # two turns
        "Note: this is one line.\nNote: and another.\nNote: a third.",  # one label
        "He said: no. She said: yes. He said: fine.",  # not at the start of a line
    ],
)
def test_text_that_is_no_transcript_has_no_turn_labels(text):
    doc = NLP(text)
    assert turn_labels(doc) == []
    assert SPEAKERS_KEY not in mark_transcript_speakers(doc).spans


def test_a_transcript_gets_its_speakers_unless_given():
    doc = mark_transcript_speakers(NLP(CHAT))
    speakers = get_speakers(doc)
    laptop, sorry, did = (doc[s] for s, _ in offsets(doc, "laptop", "sorry", "did"))
    assert (speakers[laptop.i], speakers[sorry.i], speakers[did.i]) == (
        "Customer", "Agent", "Customer")
    given = NLP(CHAT)
    set_speakers(given, ["A"] * len(given))
    assert set(get_speakers(mark_transcript_speakers(given))) == {"A"}


def test_each_speakers_i_goes_with_their_label_and_you_with_the_other():
    doc = NLP(CHAT)
    my, i_agent, you, i_customer, i_agent2, you2 = offsets(doc, "my", "I", "you", "I", "I", "you")
    labels = turn_labels(doc)
    # the model's clusters: every "I" in one, the first "you" with it
    clusters = [sorted([my, i_agent, you, i_customer, i_agent2, you2])]
    out = {frozenset(doc[s:e].text + str(s) for s, e in c) for c in
           link_quote_pronouns(doc, clusters)}
    customer, agent = labels[0], labels[1]
    expected_customer = {customer, labels[2], my, you, i_customer, you2}
    expected_agent = {agent, labels[3], i_agent, i_agent2}
    as_text = {frozenset(doc[s:e].text + str(s) for s, e in group)
               for group in (expected_customer, expected_agent)}
    assert out == as_text


def test_the_fast_pipeline_reads_a_transcripts_speakers():
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": "fast"})
    doc = nlp(CHAT)
    assert len(doc.spans[SPEAKERS_KEY]) == 4
    by_mention = {}
    for index, cluster in enumerate(doc._.coref_clusters):
        for mention in cluster.mentions:
            by_mention[(mention.start, mention.end)] = index
    customer, agent = turn_labels(doc)[:2]
    my, i_agent, _, i_customer = offsets(doc, "my", "I", "you", "I")
    assert by_mention[my] == by_mention[i_customer] == by_mention[customer]
    assert by_mention[i_agent] == by_mention[agent] != by_mention[customer]


def test_a_speakers_label_leaves_whoever_the_model_put_it_with():
    # Jones: My grandmother ... she ... Jones: I: the model put both labels with "she"
    doc = NLP("Interviewer: Did she paint?\nJones: My grandmother did, and she taught me.\n"
              "Interviewer: When?\nJones: When I was six.")
    labels = turn_labels(doc)
    she_asked, my, grandmother, she, me, i = offsets(doc, "she", "My", "grandmother", "she",
                                                     "me", "I")
    grandmother = (my[0], grandmother[1])
    clusters = [sorted([labels[1], she_asked, grandmother, she, labels[3]]), sorted([my, me, i])]
    out = link_quote_pronouns(doc, clusters)
    assert sorted([labels[1], labels[3], my, me, i]) in out
    assert sorted([she_asked, grandmother, she]) in out

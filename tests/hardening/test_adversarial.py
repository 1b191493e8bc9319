"""About forty hand-picked hostile inputs on the full `coref` stack: emoji sequences, right-to-left
scripts, combining marks, invisible and control characters, huge tokens, thousands of
pronouns. Each keeps its text and gives valid clusters."""

import time

import pytest
from hardening_invariants import check_doc, snapshot

from spacy_coref.annotations import get_clusters

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one grapheme from three emoji and two ZWJ
STORY = "Anna met her brother in Paris. She told him that he had to come home."
# fmt: off
ADVERSARIAL = {
    "empty": "",
    "space": " ",
    "whitespace only": " \n\n\t \r\n ",
    "one token": "He",
    "two tokens": "He left",
    "punctuation only": "?!... --- ;;; ,,,",
    "zwj emoji": FAMILY + " " + STORY + " \U0001F468\u200d\U0001F4BB",
    "emoji glued to words": "Anna\U0001F600met\U0001F600her brother.\U0001F44D\U0001F3FD She ran.",
    "flags and variation selectors": "\U0001F1EB\U0001F1F7 \u2764\ufe0f " + STORY,
    "hebrew with points": "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd, " + STORY,
    "arabic with harakat": STORY + " \u0645\u064e\u0631\u0652\u062d\u064e\u0628\u064b\u0627",
    "rtl override": "\u202e" + STORY + "\u202c",
    "bidi marks between words": STORY.replace(" ", " \u200f"),
    "combining marks": "Ane\u0301 met her brother. She\u0308 told him\u0323 he was late.",
    "stacked combining marks": "Z\u0351\u036b\u0343\u036a\u0302\u033d\u0334alg\u0301o said it.",
    "lone combining mark": "\u0301 " + STORY,
    "nbsp": STORY.replace(" ", "\u00a0"),
    "zwsp": STORY.replace(" ", " \u200b"),
    "bom": "\ufeff" + STORY,
    "nul": STORY.replace(".", ".\x00"),
    "crlf": STORY.replace(". ", ".\r\n"),
    "bare cr": STORY.replace(". ", ".\r"),
    "vertical tab, form feed": STORY.replace(". ", ".\x0b\x0c"),
    "ansi escape": "\x1b[31m" + STORY + "\x1b[0m",
    "line and paragraph separators": STORY.replace(". ", ".\u2028\u2029"),
    "ideographic space": STORY.replace(" ", "\u3000"),
    "fullwidth latin": "\uff21\uff4e\uff4e\uff41 met her brother. She told him to come.",
    "mixed cjk": "\u4e2d\u6587 Anna \u4e2d\u6587 said she \u65e5\u672c\u8a9e left.",
    "ligatures": "The \ufb01rst of\ufb01cer met his \ufb02ock. He \ufb01nally left.",
    "math alphanumerics": "\U0001D400\U0001D427\U0001D427\U0001D41A met her. She left.",
    "3000-character token": "x" * 3000 + " " + STORY,
    "long token inside a mention": "The " + "very" * 500 + " old man said he was tired.",
    "gap-style asterisks": "*ngel *lvarez met her sister. *ngel said she was glad.",
    "quotes and brackets": "\"She (Anna) said: 'he [Bob] left'\" -- {him}.",
    "all caps": STORY.upper(),
    "no spaces": STORY.replace(" ", ""),
    "repeated names": "Anna. " * 300,
    "many short sentences": "He did. She did. They did. It did. " * 100,
    "url and email": "Anna (anna@example.org, https://example.org/her/page?x=1) said she left.",
    "numbers and dates": "On 12/03/1999 at 10:30, 3 men met 2 women. They said they left.",
}
# fmt: on


@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_adversarial_text(coref_nlp, text):
    doc = coref_nlp(text)
    check_doc(doc, text)
    assert snapshot(coref_nlp(text)) == snapshot(doc)


def test_adversarial_texts_in_one_batch_equal_one_by_one(coref_nlp):
    texts = list(ADVERSARIAL.values())
    one_by_one = [get_clusters(coref_nlp(text)) for text in texts]
    batched = [get_clusters(doc) for doc in coref_nlp.pipe(texts, batch_size=8)]
    assert batched == one_by_one


def test_the_story_itself_gets_clusters(coref_nlp):
    """The hostile variants above would pass trivially if nothing were ever clustered."""
    doc = coref_nlp(STORY)
    assert doc._.coref_clusters
    assert coref_nlp(ADVERSARIAL["nbsp"])._.coref_clusters


def test_thousands_of_pronouns(coref_nlp):
    text = "he " * 5000
    start = time.perf_counter()
    doc = coref_nlp(text)
    seconds = time.perf_counter() - start
    check_doc(doc, text)
    assert seconds < 60, f"'he ' * 5000 took {seconds:.1f} s"


@pytest.mark.slow
def test_a_sentence_of_20000_words(coref_nlp):
    text = " ".join(["Anna", "said", "that", "he", "and", "she", "saw", "him"] * 2500) + "."
    doc = coref_nlp(text)
    check_doc(doc, text)

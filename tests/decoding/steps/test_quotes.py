"""Who speaks a quote, and the pronouns moved after it: docs parsed by hand (words, heads,
deps, POS, lemmas), so that the tests read the rules and not a parser's mistakes."""
import spacy
from spacy.tokens import Doc

from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import AGREEMENT, BINDING, QUOTES
from spacy_coref.decoding.steps.quotes import link_quote_pronouns
from spacy_coref.linguistics.quotations import find_quotes, letter_parties, quote_speakers

from decoding_helpers import scores_for  # noqa: E402 (tests/)


def parsed(rows):
    """A doc from (word, head, dep, pos, lemma) rows."""
    words, heads, deps, pos, lemmas = map(list, zip(*rows))
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, pos=pos,
               lemmas=lemmas)


def told_doc():
    # " I am late , " Tom told Anna .
    return parsed([
        ('"', 7, "punct", "PUNCT", '"'), ("I", 2, "nsubj", "PRON", "I"),
        ("am", 7, "ccomp", "AUX", "be"), ("late", 2, "acomp", "ADJ", "late"),
        (",", 7, "punct", "PUNCT", ","), ('"', 7, "punct", "PUNCT", '"'),
        ("Tom", 7, "nsubj", "PROPN", "Tom"), ("told", 7, "ROOT", "VERB", "tell"),
        ("Anna", 7, "dobj", "PROPN", "Anna"), (".", 7, "punct", "PUNCT", "."),
    ])


def said_to_doc():
    # Maria said to her brother , " You look tired . "
    return parsed([
        ("Maria", 1, "nsubj", "PROPN", "Maria"), ("said", 1, "ROOT", "VERB", "say"),
        ("to", 1, "prep", "ADP", "to"), ("her", 4, "poss", "PRON", "her"),
        ("brother", 2, "pobj", "NOUN", "brother"), (",", 1, "punct", "PUNCT", ","),
        ('"', 1, "punct", "PUNCT", '"'), ("You", 8, "nsubj", "PRON", "you"),
        ("look", 1, "ccomp", "VERB", "look"), ("tired", 8, "acomp", "ADJ", "tired"),
        (".", 8, "punct", "PUNCT", "."), ('"', 1, "punct", "PUNCT", '"'),
    ])


def inverted_doc():
    # " We won , " said the players . " You lost , " he said .
    doc = parsed([
        ('"', 5, "punct", "PUNCT", '"'), ("We", 2, "nsubj", "PRON", "we"),
        ("won", 5, "ccomp", "VERB", "win"), (",", 5, "punct", "PUNCT", ","),
        ('"', 5, "punct", "PUNCT", '"'), ("said", 5, "ROOT", "VERB", "say"),
        ("the", 7, "det", "DET", "the"), ("players", 5, "dobj", "NOUN", "player"),
        (".", 5, "punct", "PUNCT", "."),
        ('"', 14, "punct", "PUNCT", '"'), ("You", 11, "nsubj", "PRON", "you"),
        ("lost", 14, "ccomp", "VERB", "lose"), (",", 14, "punct", "PUNCT", ","),
        ('"', 14, "punct", "PUNCT", '"'), ("he", 15, "nsubj", "PRON", "he"),
        ("said", 15, "ROOT", "VERB", "say"), (".", 15, "punct", "PUNCT", "."),
    ])
    doc[7].tag_ = "NNS"
    return doc


def test_quotes_are_paired_marks_of_each_kind():
    words = ["“", "Hi", "”", "she", "said", ",", "``", "go", "''", "and", '"', "stray", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    assert find_quotes(doc) == [(1, 2), (7, 8)]  # the last mark is never closed
    empty = Doc(spacy.blank("en").vocab, words=['"', '"', "x"])
    assert find_quotes(empty) == []


def test_single_marks_quote_where_no_apostrophe_stands():
    # ' Mr. Heathcliff ? ' I said . The girls ' room was cold . " She said , ' No . ' "
    words = ["'", "Mr.", "Heathcliff", "?", "'", "I", "said", ".", "The", "girls", "'", "room",
             "was", "cold", ".", '"', "She", "said", ",", "'", "No", ".", "'", '"']
    doc = Doc(spacy.blank("en").vocab, words=words)
    # a plural's apostrophe opens nothing; a quote inside a quote is its speaker's words
    assert find_quotes(doc) == [(1, 4), (16, 23)]
    curly = Doc(spacy.blank("en").vocab, words=["‘", "Go", ",", "’", "she", "said", "."])
    assert find_quotes(curly) == [(1, 3)]


def full_stop_doc(end):
    # " You look tired END " Tom laughed .  (the quote a sentence of its own)
    return parsed([
        ('"', 2, "punct", "PUNCT", '"'), ("You", 2, "nsubj", "PRON", "you"),
        ("look", 2, "ROOT", "VERB", "look"), ("tired", 2, "acomp", "ADJ", "tired"),
        (end, 2, "punct", "PUNCT", end), ('"', 2, "punct", "PUNCT", '"'),
        ("Tom", 7, "nsubj", "PROPN", "Tom"), ("laughed", 7, "ROOT", "VERB", "laugh"),
        (".", 7, "punct", "PUNCT", "."),
    ])


def test_a_quote_ending_in_a_full_stop_takes_no_tag_after_it():
    # '"You look tired," Tom laughed.' is Tom's; '"You look tired." Tom laughed.' is not
    assert [q.speaker for q in quote_speakers(full_stop_doc(","))] == [(6, 7)]
    assert quote_speakers(full_stop_doc(".")) == []


def test_speaker_and_addressee_from_the_speech_tag():
    quotes = quote_speakers(told_doc())
    assert [(q.start, q.end, q.speaker, q.addressee) for q in quotes] == [(1, 5, (6, 7), (8, 9))]
    quotes = quote_speakers(said_to_doc())
    # the addressee is the whole noun phrase of the "to" phrase
    assert [(q.start, q.end, q.speaker, q.addressee) for q in quotes] == [(7, 11, (0, 1), (3, 5))]


def test_inverted_tag_and_a_plural_speaker():
    quotes = quote_speakers(inverted_doc())
    # '"..." said the players': the parser's object after the verb is the speaker
    assert [(q.speaker, q.addressee, q.plural_speaker) for q in quotes] == [
        ((6, 8), None, True), ((14, 15), None, False)]


def test_first_person_goes_to_the_speaker_and_leaves_the_addressee():
    doc = told_doc()
    # the scores put "I" with Anna; the tag says Tom said it
    clusters = link_quote_pronouns(doc, [[(1, 2), (8, 9)]])
    assert clusters == [[(1, 2), (6, 7)]]


def test_second_person_goes_to_the_addressee_phrase():
    doc = said_to_doc()
    clusters = link_quote_pronouns(doc, [[(0, 1), (7, 8)]])
    assert clusters == [[(3, 5), (7, 8)]]
    # a mention of the addressee that ends on its head counts as the addressee ("brother")
    clusters = link_quote_pronouns(doc, [[(0, 1), (7, 8)], [(3, 4), (4, 5)]])
    assert clusters == [[(3, 4), (4, 5), (7, 8)]]


def test_we_follows_a_plural_speaker_and_you_leaves_the_speaker():
    doc = inverted_doc()
    # "We" with nothing, "You" with "he" (its own speaker)
    clusters = link_quote_pronouns(doc, [[(10, 11), (14, 15)]])
    assert clusters == [[(1, 2), (6, 8)]]


def test_nothing_changes_without_a_speech_tag():
    # " I am late . " ( no verb of saying near it )
    untagged = parsed([
        ('"', 2, "punct", "PUNCT", '"'), ("I", 2, "nsubj", "PRON", "I"),
        ("am", 2, "ROOT", "AUX", "be"), ("late", 2, "acomp", "ADJ", "late"),
        (".", 2, "punct", "PUNCT", "."), ('"', 2, "punct", "PUNCT", '"'),
    ])
    assert quote_speakers(untagged) == []


def test_decoding_applies_quotes_only_when_asked():
    doc = told_doc()
    spans = [(1, 2), (6, 7), (8, 9)]  # I, Tom, Anna
    scores = scores_for(spans, [[], [-1.0], [2.0, -1.0]])  # Anna's best antecedent: "I"
    assert decode_clusters(doc, scores, 0.0, [AGREEMENT, BINDING]) == [[(1, 2), (8, 9)]]
    assert decode_clusters(doc, scores, 0.0, [QUOTES]) == [[(1, 2), (6, 7)]]
    assert decode_clusters(doc, scores, 0.0, [AGREEMENT, BINDING, QUOTES]) == [[(1, 2), (6, 7)]]


def letter_doc(greeting="Dear"):
    # Dear Mr. Hallworth , I wrote to you . " I am late , " he said . Yours sincerely , Peter Amos
    words = [greeting, "Mr.", "Hallworth", ",", "I", "wrote", "to", "you", ".", '"', "I", "am",
             "late", ",", '"', "he", "said", ".", "Yours", "sincerely", ",", "Peter", "Amos"]
    pos = ["ADJ", "PROPN", "PROPN", "PUNCT", "PRON", "VERB", "ADP", "PRON", "PUNCT", "PUNCT",
           "PRON", "AUX", "ADJ", "PUNCT", "PUNCT", "PRON", "VERB", "PUNCT", "PRON", "ADV",
           "PUNCT", "PROPN", "PROPN"]
    heads = [2, 2, 5, 2, 5, 5, 5, 6, 5, 16, 11, 16, 11, 16, 16, 16, 16, 16, 18, 18, 18, 22, 18]
    deps = ["amod", "compound", "npadvmod", "punct", "nsubj", "ROOT", "prep", "pobj", "punct",
            "punct", "nsubj", "ccomp", "acomp", "punct", "punct", "nsubj", "ROOT", "punct",
            "ROOT", "advmod", "punct", "compound", "appos"]
    lemmas = ["say" if w == "said" else w.lower() for w in words]
    return Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps,
               lemmas=lemmas)


def test_a_letter_s_writer_and_reader():
    doc = letter_doc()
    writer, reader = letter_parties(doc)
    assert doc[writer[0] : writer[1]].text == "Peter Amos"
    assert doc[reader[0] : reader[1]].text == "Mr. Hallworth"
    # outside the quote, "I" goes with the signature and "you" with the greeting; the quote's
    # "I" goes with its own speaker
    clusters = link_quote_pronouns(doc, [[(4, 5), (7, 8)]])
    assert clusters == [[(1, 3), (7, 8), (18, 19)], [(4, 5), (21, 23)], [(10, 11), (15, 16)]]
    # "Hi everyone" greets no one by name
    assert letter_parties(letter_doc("Hello"))[1] == (1, 3)
    everyone = Doc(spacy.blank("en").vocab, words=["Hi", "everyone", ",", "I", "am", "back"],
                   pos=["INTJ", "PRON", "PUNCT", "PRON", "AUX", "ADV"],
                   heads=[4, 0, 4, 4, 4, 4], deps=["intj", "npadvmod", "punct", "nsubj", "ROOT",
                                                   "advmod"])
    assert letter_parties(everyone) == (None, None)
    # without tags, a capitalised word that is no common word is a name
    unparsed = Doc(spacy.blank("en").vocab, words=["Dear", "Ann", ","])
    assert letter_parties(unparsed) == (None, (1, 2))
    # narration that ends in "thanks , Tom" signs nothing: a sign-off opens with a capital
    words = ["I", "said", "thanks", ",", "Tom", "."]
    narration = Doc(spacy.blank("en").vocab, words=words,
                    pos=["PRON", "VERB", "NOUN", "PUNCT", "PROPN", "PUNCT"],
                    heads=[1, 1, 1, 1, 1, 1], deps=["nsubj", "ROOT", "dobj", "punct", "npadvmod",
                                                    "punct"])
    assert letter_parties(narration) == (None, None)
    signed = Doc(spacy.blank("en").vocab, words=["I", "left", ".", "Thanks", ",", "Tom"],
                 pos=["PRON", "VERB", "PUNCT", "NOUN", "PUNCT", "PROPN"],
                 heads=[1, 1, 1, 3, 3, 3], deps=["nsubj", "ROOT", "punct", "ROOT", "punct",
                                                  "appos"])
    assert letter_parties(signed) == ((5, 6), None)


def reply_doc(verb="replied", lemma="reply"):
    # " Where is my hat ? " Tom asked . " On your head , " Ann replied .
    return parsed([
        ('"', 8, "punct", "PUNCT", '"'), ("Where", 2, "advmod", "ADV", "where"),
        ("is", 8, "ccomp", "AUX", "be"), ("my", 4, "poss", "PRON", "my"),
        ("hat", 2, "nsubj", "NOUN", "hat"), ("?", 2, "punct", "PUNCT", "?"),
        ('"', 8, "punct", "PUNCT", '"'), ("Tom", 8, "nsubj", "PROPN", "Tom"),
        ("asked", 8, "ROOT", "VERB", "ask"), (".", 8, "punct", "PUNCT", "."),
        ('"', 17, "punct", "PUNCT", '"'), ("On", 17, "prep", "ADP", "on"),
        ("your", 13, "poss", "PRON", "your"), ("head", 11, "pobj", "NOUN", "head"),
        (",", 17, "punct", "PUNCT", ","), ('"', 17, "punct", "PUNCT", '"'),
        ("Ann", 17, "nsubj", "PROPN", "Ann"), (verb, 17, "ROOT", "VERB", lemma),
        (".", 17, "punct", "PUNCT", "."),
    ])


def question_doc():
    # " I lost my keys , " said Oliver . " Did you leave them ? " asked his wife .  (the parse
    # makes "asked" a conjunct of the quote's "leave", and "his wife" its object)
    return parsed([
        ('"', 7, "punct", "PUNCT", '"'), ("I", 2, "nsubj", "PRON", "I"),
        ("lost", 7, "ccomp", "VERB", "lose"), ("my", 4, "poss", "PRON", "my"),
        ("keys", 2, "dobj", "NOUN", "key"), (",", 7, "punct", "PUNCT", ","),
        ('"', 7, "punct", "PUNCT", '"'), ("said", 7, "ROOT", "VERB", "say"),
        ("Oliver", 7, "nsubj", "PROPN", "Oliver"), (".", 7, "punct", "PUNCT", "."),
        ('"', 13, "punct", "PUNCT", '"'), ("Did", 13, "aux", "AUX", "do"),
        ("you", 13, "nsubj", "PRON", "you"), ("leave", 13, "ROOT", "VERB", "leave"),
        ("them", 13, "dobj", "PRON", "they"), ("?", 13, "punct", "PUNCT", "?"),
        ('"', 17, "punct", "PUNCT", '"'), ("asked", 13, "conj", "VERB", "ask"),
        ("his", 19, "poss", "PRON", "his"), ("wife", 17, "dobj", "NOUN", "wife"),
        (".", 17, "punct", "PUNCT", "."),
    ])


def test_a_question_after_a_quote_is_asked_of_its_speaker():
    doc = question_doc()
    quotes = quote_speakers(doc)
    # the inverted subject after the closing mark, not the quote's own "you"; the question
    # goes to the speaker of the quote before
    assert [(q.speaker, q.addressee) for q in quotes] == [((8, 9), None), ((18, 20), (8, 9))]
    spans = [(1, 2), (3, 4), (8, 9), (12, 13), (18, 19), (18, 20)]
    # the model links "you" to "his wife" best
    scores = scores_for(spans, [[], [3.0], [2.0, 2.0], [-1.0, -1.0, -1.0], [-2.0] * 4,
                                [-2.0, -2.0, -2.0, 3.0, -2.0]])
    clusters = decode_clusters(doc, scores, 0.0, [QUOTES])
    assert [(1, 2), (3, 4), (8, 9), (12, 13)] in clusters
    assert not any((12, 13) in c and (18, 20) in c for c in clusters)


def test_a_reply_is_said_to_the_speaker_of_the_quote_before():
    quotes = quote_speakers(reply_doc())
    assert [(q.speaker, q.addressee) for q in quotes] == [((7, 8), None), ((16, 17), (7, 8))]
    spans = [(3, 4), (7, 8), (12, 13), (16, 17)]
    scores = scores_for(spans, [[], [-2.0], [-2.0, -2.0], [-2.0, -2.0, -2.0]])
    clusters = decode_clusters(reply_doc(), scores, 0.0, [QUOTES])
    assert [(3, 4), (7, 8), (12, 13)] in clusters  # "my" and "your" are Tom
    # a quote that is only said, not replied, has no addressee from the one before
    said = quote_speakers(reply_doc("said", "say"))
    assert said[1].addressee is None

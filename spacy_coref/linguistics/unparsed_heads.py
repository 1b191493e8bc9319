"""The head nouns of common noun phrases without a parse (the fast pipeline), read off each
word's usual tag (`word_tags.py`), in singular form (`singular`): the other_heads step
(`decoding/steps/other_heads.py`) compares them, and the resolved text reads plurals by them.
"""
from typing import Dict, Optional

import numpy
from spacy.tokens import Doc

from .word_tags import TAG_CODES, load_word_tags, tag_codes

# Without a parse (the fast pipeline), a common noun phrase is a short run of lower-case words
# that ends in a noun, before any preposition: "the old plan", "your account", "the top" of
# "the top of the hill"; not "Apple's chip" (a capital) nor "the plan that failed" (it ends in
# a verb)
UNPARSED_BEFORE_HEAD = {"DET", "ADJ", "NOUN", "NUM", "PRON"}
MAX_UNPARSED_WORDS = 4


def unparsed_head_lemmas(
    doc: Doc, spans: numpy.ndarray, tags: Optional[Dict[str, str]] = None
) -> numpy.ndarray:
    """For a doc without a parse: each mention's head noun in singular form (a hash), where the
    word tags make it a common noun phrase; 0 for any other mention.

    doc (Doc): the doc.
    spans (numpy.ndarray): [M, 2] (start, end) token offsets, end exclusive.
    tags (Optional[Dict[str, str]]): word -> usual tag; the shipped table by default.
    RETURNS (numpy.ndarray): [M] uint64.
    """
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    lemmas = numpy.zeros(len(spans), dtype="uint64")
    if not len(spans):
        return lemmas
    tags = load_word_tags() if tags is None else tags
    # what each token is, read once as arrays (the fast pipeline keeps several spans a token)
    n = len(doc)
    columns = doc.to_array(["LOWER", "IS_LOWER", "IS_PUNCT", "SENT_START"]).reshape((n, 4))
    lower_hash, is_lower, is_punct, sent_start = columns.T
    codes = tag_codes(lower_hash, tags)  # [T]
    adp = numpy.append(codes == TAG_CODES["ADP"], False)  # [T + 1]
    lower = numpy.append(is_lower.astype(bool), False)
    after_punct = numpy.concatenate([[True], is_punct[:-1].astype(bool)])
    starts_sentence = numpy.append((sent_start == 1) | after_punct, False)
    phrase_codes = [TAG_CODES[t] for t in UNPARSED_BEFORE_HEAD]
    before_head = numpy.append(numpy.isin(codes, phrase_codes), False)
    noun = lower & numpy.append(codes == TAG_CODES["NOUN"], False)
    # a prepositional phrase after the noun ("the top of the hill") ends the head's part
    positions = numpy.where(adp, numpy.arange(n + 1), n)
    next_adp = numpy.minimum.accumulate(positions[::-1])[::-1]  # [T + 1]
    first, end = spans[:, 0], spans[:, 1]
    end = numpy.minimum(end, next_adp[numpy.minimum(first + 1, n)])
    head = end - 1
    # words before the head: lower-case ones of a noun phrase (a capital makes a name, except
    # the capital that starts a sentence: "The old plan")
    good = before_head & lower
    bad_count = numpy.concatenate([[0], numpy.cumsum(~good)])  # [T + 2]
    first_good = before_head[first] & (lower[first] | starts_sentence[first])
    rest_bad = bad_count[numpy.maximum(head, first + 1)] - bad_count[first + 1]
    ok = (end - first <= MAX_UNPARSED_WORDS) & noun[head] & (rest_bad == 0)
    ok &= (head == first) | first_good
    strings = doc.vocab.strings
    singulars: Dict[int, int] = {}
    for i in numpy.flatnonzero(ok).tolist():
        h = int(head[i])
        if h not in singulars:
            singulars[h] = strings.add(singular(doc[h].text))
        lemmas[i] = singulars[h]
    return lemmas


def singular(noun: str) -> str:
    """A regular plural's singular ("companies" -> "company", "boxes" -> "box", "dogs" ->
    "dog"); any other word as it is. Both sides of a comparison get the same treatment, so an
    irregular plural only makes a link need the margin."""
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    if noun.endswith(("ches", "shes", "sses", "xes")):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith(("ss", "us", "is")) and len(noun) > 3:
        return noun[:-1]
    return noun

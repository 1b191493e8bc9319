"""Candidate mentions for the clustering model: the rule-based spans from `coref_mentions`, all
spans up to a width, or both (so the recall ceiling of the rules can be measured against learned
candidates); or the spans up to a width that a mention can be without a parse
("sentence_spans": within one sentence or transcript turn, not starting or ending on
punctuation or a function word, nor starting with a subject pronoun, nor running from a verb
into its object pronoun, nor ending in a comma, a coordinator and a subject pronoun)."""
from typing import Literal

import numpy
from spacy.strings import hash_string

from ..annotations import MENTIONS_KEY
from ..lang.en import english
from ..linguistics.transcripts import turn_labels
from ..linguistics.word_tags import TAG_CODES, load_word_tags, tag_codes
from ..types import MentionOffsets

CandidateSource = Literal["rules", "spans", "both", "sentence_spans"]
# the sources that need no rule-based mentions on the doc
SPAN_SOURCES = ("spans", "sentence_spans")
_EN = english()  # the word lists (spacy_coref/lang/en/function_words.json, pronouns.json)
# function words no mention starts or ends with ("the", "and her"), for "sentence_spans"
NOT_AT_START = _EN.words("not_mention_starts")
NOT_AT_END = _EN.words("not_mention_ends")
# a subject pronoun starts no mention of two words or more but a coordination ("She and her
# husband"): "He told her", "she became its" are clauses
# ("i", "he", "she", "we", "they": the subject forms that are not object forms too)
SUBJECT_PRONOUNS = frozenset(_EN.pronouns(case="nominative", not_case="accusative"))
COORDINATORS = _EN.words("phrase_coordinators")  # "and", "or"
# nor does a span end in a verb and its object pronoun ("The city hired her" is a clause, not
# one of Maria's mentions), but where a relative word or "to" makes it a noun phrase with its
# clause ("the man who saw him", "the best time to drink them"); the verb by its usual tag
# ("him", "her", "them", "me", "us": the object forms that are not subject forms too)
OBJECT_PRONOUNS = frozenset(
    _EN.pronouns(case="accusative", not_case="nominative", reflexive=False)
)
# "who", "whom", "whose", "which", "that", "to"
NOUN_PHRASE_CLAUSE_WORDS = _EN.words("noun_phrase_clause_words")
_NOT_AT_START_IDS = numpy.asarray([hash_string(w) for w in NOT_AT_START], dtype="uint64")
_SUBJECT_PRONOUN_IDS = numpy.asarray([hash_string(w) for w in SUBJECT_PRONOUNS], dtype="uint64")
_COORDINATOR_IDS = numpy.asarray([hash_string(w) for w in COORDINATORS], dtype="uint64")
_COMMA_ID = numpy.uint64(hash_string(","))
_NOT_AT_END_IDS = numpy.asarray([hash_string(w) for w in NOT_AT_END], dtype="uint64")
_OBJECT_PRONOUN_IDS = numpy.asarray([hash_string(w) for w in OBJECT_PRONOUNS], dtype="uint64")
_CLAUSE_WORD_IDS = numpy.asarray(
    [hash_string(w) for w in NOUN_PHRASE_CLAUSE_WORDS], dtype="uint64"
)


def doc_candidates(
    doc, *, source: CandidateSource = "rules", key: str = MENTIONS_KEY, max_width: int = 10
) -> numpy.ndarray:
    """Candidate mentions of a doc as an int array [C, 2] of (start, end) token offsets, end
    exclusive, sorted by (start, end), unique. No candidate starts or ends on a space token.

    doc (Doc): the doc, with `doc.spans[key]` set when source includes "rules".
    source (str): "rules", "spans", "both" or "sentence_spans".
    key (str): the `doc.spans` key of the rule-based candidates.
    max_width (int): the widest span enumerated when source includes "spans".
    RETURNS (numpy.ndarray): [C, 2] int64.
    """
    pairs: MentionOffsets = []
    if source in ("rules", "both") and key in doc.spans:
        pairs.extend((span.start, span.end) for span in doc.spans[key])
    arr = numpy.asarray(pairs, dtype="int64").reshape((-1, 2))
    if source in ("spans", "both", "sentence_spans"):
        arr = numpy.concatenate([arr, _all_spans(len(doc), max_width)])
    if not len(arr):
        return arr
    is_space = doc.to_array("IS_SPACE").astype(bool)  # [T]
    keep = (arr[:, 1] > arr[:, 0]) & ~is_space[arr[:, 0]] & ~is_space[arr[:, 1] - 1]
    if source == "sentence_spans":
        # "her son Daniel runs the shop. He" is no mention: no sentence end or punctuation
        # at either edge (a doc without sentence boundaries is one sentence)
        is_punct = doc.to_array("IS_PUNCT").astype(bool)  # [T]
        sentence = numpy.zeros(len(doc), dtype="int64")
        if doc.has_annotation("SENT_START"):
            sentence = numpy.cumsum(doc.to_array("SENT_START").astype("int64") == 1)  # [T]
        last = numpy.maximum(arr[:, 1] - 1, 0)
        # a transcript's turn is a sentence too, punctuated or not ("the dog\nB: Nice"), and
        # so is its speaker's label ("B", not "B: Nice")
        bounds = [i for start, end in turn_labels(doc) for i in (start, end + 1) if i < len(doc)]
        sentence += numpy.cumsum(numpy.bincount(bounds, minlength=len(doc)))
        keep &= ~is_punct[arr[:, 0]] & ~is_punct[last] & (sentence[arr[:, 0]] == sentence[last])
        lower = doc.to_array("LOWER")  # [T] hashes, compared as arrays: no loop over spans
        keep &= ~numpy.isin(lower[arr[:, 0]], _NOT_AT_START_IDS)
        keep &= ~numpy.isin(lower[last], _NOT_AT_END_IDS)
        second = numpy.minimum(arr[:, 0] + 1, len(doc) - 1)
        clause = numpy.isin(lower[arr[:, 0]], _SUBJECT_PRONOUN_IDS) & (arr[:, 1] - arr[:, 0] > 1)
        keep &= ~(clause & ~numpy.isin(lower[second], _COORDINATOR_IDS))
        keep &= ~_verb_and_object(lower, arr)
        keep &= ~_ends_in_a_subject(lower, arr)

    return numpy.unique(arr[keep], axis=0)  # unique() also sorts rows lexicographically


def _verb_and_object(lower: numpy.ndarray, arr: numpy.ndarray) -> numpy.ndarray:
    """[C] whether each span of two words or more ends in a verb and its object pronoun and
    holds no relative word or "to"; `lower` [T] the doc's lower-case hashes."""
    last = numpy.maximum(arr[:, 1] - 1, 0)
    before = numpy.maximum(last - 1, 0)
    verb = tag_codes(lower, load_word_tags()) == TAG_CODES["VERB"]  # [T]
    clause_word = numpy.concatenate([[0], numpy.cumsum(numpy.isin(lower, _CLAUSE_WORD_IDS))])
    return (
        (arr[:, 1] - arr[:, 0] > 1)
        & numpy.isin(lower[last], _OBJECT_PRONOUN_IDS)
        & verb[before]
        & (clause_word[last] == clause_word[arr[:, 0]])
    )


def _ends_in_a_subject(lower: numpy.ndarray, arr: numpy.ndarray) -> numpy.ndarray:
    """[C] whether each span of four words or more ends in a comma, "and" or "or", and a
    subject pronoun: a clause begins there ("her ten years later, and he"; a list such as
    "Ann, Bo, and I" is lost with it). `lower` [T] the doc's lower-case hashes."""
    last = numpy.maximum(arr[:, 1] - 1, 0)
    before = numpy.maximum(last - 1, 0)
    comma = numpy.maximum(last - 2, 0)
    return (
        (arr[:, 1] - arr[:, 0] > 3)
        & numpy.isin(lower[last], _SUBJECT_PRONOUN_IDS)
        & numpy.isin(lower[before], _COORDINATOR_IDS) & (lower[comma] == _COMMA_ID)
    )


def _all_spans(n_tokens: int, max_width: int) -> numpy.ndarray:
    starts = numpy.repeat(numpy.arange(n_tokens), max_width)  # [T * W]
    ends = starts + numpy.tile(numpy.arange(1, max_width + 1), n_tokens)  # [T * W]
    keep = ends <= n_tokens
    return numpy.stack([starts[keep], ends[keep]], axis=1)  # [C, 2]

"""Shared helpers of the decoding tests: docs parsed by hand (words, heads, deps, tags) and
antecedent scores made up for them."""
import numpy
import spacy
from spacy.tokens import Doc

from spacy_coref.types import CorefScores
from spacy_coref.ml.torch.constants import MASKED_SCORE

# The coarse tag of each fine tag the tests use.
POS = {
    "DT": "DET", "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "VBD": "VERB",
    "VBZ": "VERB", "PRP": "PRON", "PRP$": "PRON", "CC": "CCONJ", "IN": "ADP", ".": "PUNCT",
    "WP": "PRON", "WDT": "DET", "WRB": "SCONJ", "JJ": "ADJ", "CD": "NUM", ":": "PUNCT",
    "RB": "ADV", ",": "PUNCT", "POS": "PART", "``": "PUNCT", "''": "PUNCT",
}


def parsed(words, heads, deps, tags, ents=None):
    """A doc with this parse (heads as absolute token indices), the coarse tags from POS."""
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, tags=tags,
               pos=[POS[t] for t in tags], ents=ents)


def scores_for(spans, pair_scores):
    """CorefScores of kept `spans` in document order, where pair_scores[i][j] is the score of
    antecedent j < i (every earlier mention is a candidate)."""
    n = len(spans)
    k = max(n - 1, 1)
    antecedents = numpy.zeros((n, k), dtype="int64")
    scores = numpy.full((n, 1 + k), MASKED_SCORE, dtype="float32")
    scores[:, 0] = 0.0
    for i in range(n):
        for j in range(i):
            antecedents[i, j] = j
            scores[i, 1 + j] = pair_scores[i][j]
    candidates = numpy.asarray(spans, dtype="int64")
    return CorefScores(candidates, numpy.zeros(n), numpy.arange(n), antecedents, scores)

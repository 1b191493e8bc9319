"""salience: which earlier mention a "he" or "she" prefers, besides what the model scores. The
person such a pronoun refers to is more often the subject of an earlier clause than its
object, more often in the pronoun's own or the last sentence than further back, closer rather
than farther, and more often in the pronoun's own role ("he" a subject, "him" an object) than
in another (Lappin and Leass, 1994, weighed the same cues by hand).

Each of a he/she pronoun's candidate antecedents gets the weighted sum of four features, read
off the parse, less its mean over the pronoun's candidates, added to its score:

* subject: the candidate is a subject (nsubj, nsubjpass);
* sentences: how many sentences back it is (0 to 3);
* log_distance: log(1 + the words between it and the pronoun);
* parallel: it has the pronoun's role (subject, object, prepositional object, possessor,
  apposition or other).

WEIGHTS are fitted, with the model's scores left out, to the he/she pronouns of the LitBank and
OntoGUM training portions: the likelihood of each pronoun's gold antecedents under a softmax
over its candidates (`scripts/fit_salience.py`, `spacy project run fit-salience`). The model's
scores already hold part of what the features say, so they are added at SCALE, chosen on the
dev sets and on everyday texts: of 0.25, 0.5, 0.75 and 1, 0.5 gave GAP the most and 1 LitBank
the most, and 1 took more pronouns from the object to the subject where the model had them
right ("Dr. Lee examined the patient ... She told him that he would need surgery").

Without a parse nothing changes (`needs_parse`): sentence and distance alone, fitted the same
way, gave the fast pipeline LitBank dev +0.5 but links a user sees at once ("he" to "the
code").
"""
import dataclasses
from typing import Dict, Optional, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc
from spacy.util import registry

from ...errors import Errors
from ...lang.en import english
from ...ml.torch.constants import FIRST_ANTECEDENT_COLUMN
from ...types import CorefScores
from ..state import DecodingState
from ..step import DecodingStep

FEATURES = ("subject", "sentences", "log_distance", "parallel")
# python scripts/fit_salience.py (the default pipeline; corpus/train/{litbank,gum}.spacy)
WEIGHTS = {"subject": 1.235, "sentences": -1.047, "log_distance": -0.363, "parallel": 0.942}
SCALE = 0.5
# "he", "him", "his", "himself", "she", "her", "hers", "herself"
GENDERED_PRONOUNS = frozenset(english().pronouns(gender=("masculine", "feminine")))
MAX_SENTENCES = 3
# roles a pronoun and its antecedent may share; every other dependency is one more role
ROLE_DEPS = (("nsubj", "nsubjpass"), ("dobj", "iobj", "dative"), ("pobj",), ("poss",), ("appos",))
SUBJECT_ROLE, OTHER_ROLE = 0, len(ROLE_DEPS)
_GENDERED_HASHES = numpy.array([hash_string(w) for w in GENDERED_PRONOUNS], dtype="uint64")


def salience_features(
    doc: Doc, spans: numpy.ndarray, heads: numpy.ndarray, antecedents: numpy.ndarray
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The salience features of the he/she pronouns' candidate antecedents, from the parse.

    doc (Doc): a parsed doc.
    spans (numpy.ndarray): [M, 2] the mentions' (start, end) token offsets.
    heads (numpy.ndarray): [M] the token index of each mention's syntactic head
        (`mention_analysis.MentionConstraints.heads`).
    antecedents (numpy.ndarray): [M, K] each mention's candidate antecedents (indices into
        `spans`; padding columns get features too, of whichever mention they hold).
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): the pronouns' rows [R] and their
        candidates' features [R, K, 4] in the order of FEATURES.
    """
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    antecedents = numpy.asarray(antecedents, dtype="int64").reshape((len(spans), -1))
    lower = doc.to_array("LOWER").astype("uint64")
    one_word = spans[:, 1] - spans[:, 0] == 1
    rows = numpy.flatnonzero(one_word & numpy.isin(lower[spans[:, 0]], _GENDERED_HASHES))
    features = numpy.zeros((len(rows), antecedents.shape[1], len(FEATURES)), dtype="float32")
    if not len(rows) or not antecedents.shape[1]:
        return rows, features
    # the vocab gives a label's ID: a symbol's for spaCy's own labels, else the string's hash
    deps = doc.to_array("DEP").astype("uint64")[numpy.asarray(heads, dtype="int64")]  # [M]
    role = numpy.full(len(spans), OTHER_ROLE, dtype="int64")
    for index, labels in enumerate(ROLE_DEPS):
        ids = numpy.array([doc.vocab.strings[label] for label in labels], dtype="uint64")
        role[numpy.isin(deps, ids)] = index
    sentence = numpy.cumsum(doc.to_array("SENT_START").astype("int64") == 1)  # [T]
    cands = numpy.clip(antecedents[rows], 0, len(spans) - 1)  # [R, K]
    pronoun_starts = spans[rows, 0][:, None]  # [R, 1]
    back = sentence[pronoun_starts] - sentence[spans[cands, 0]]
    features[..., 0] = role[cands] == SUBJECT_ROLE
    features[..., 1] = numpy.clip(back, 0, MAX_SENTENCES)
    features[..., 2] = numpy.log1p(numpy.maximum(0, pronoun_starts - spans[cands, 1]))
    features[..., 3] = role[cands] == role[rows][:, None]
    return rows, features


def with_salience(
    doc: Doc, scores: CorefScores, spans: numpy.ndarray, heads: numpy.ndarray,
    valid: numpy.ndarray, *, weights: Optional[Dict[str, float]] = None, scale: float = SCALE,
) -> CorefScores:
    """The scores with each he/she pronoun's salience added to its valid candidates' scores,
    less its mean over them, at `scale` (`salience_features`, `weights`: by default WEIGHTS).
    Without a parse, and for a pronoun with fewer than two candidates, the scores stay as
    they are.

    doc (Doc): the doc.
    scores (CorefScores): the model's output for the doc.
    spans (numpy.ndarray): [M, 2] the kept mentions' token offsets.
    heads (numpy.ndarray): [M] the token index of each one's syntactic head.
    valid (numpy.ndarray): [M, K] bool, the real (mention, antecedent) pairs.
    RETURNS (CorefScores): the scores, a copy where any changed.
    """
    if not doc.has_annotation("DEP"):
        return scores
    rows, features = salience_features(doc, spans, heads, scores.antecedents)
    valid = numpy.asarray(valid, dtype=bool)[rows]  # [R, K]
    counts = valid.sum(axis=1)
    valid &= (counts >= 2)[:, None]  # one candidate has nothing to be preferred to
    if not valid.any():
        return scores
    weights = WEIGHTS if weights is None else weights
    unknown = sorted(set(weights) - set(FEATURES))
    if unknown:
        raise ValueError(Errors.CE146.format(unknown=unknown, features=list(FEATURES)))
    weight_array = numpy.array([weights.get(f, 0.0) for f in FEATURES], dtype="float32") * scale
    salience = features @ weight_array  # [R, K]
    mean = (salience * valid).sum(axis=1) / numpy.maximum(counts, 1)
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair_scores[rows, FIRST_ANTECEDENT_COLUMN:] += numpy.where(valid, salience - mean[:, None], 0)
    return dataclasses.replace(scores, scores=pair_scores)


class Salience(DecodingStep):
    name = "salience"
    needs_parse = True

    def __init__(self, weights: Optional[Dict[str, float]] = None, scale: float = SCALE) -> None:
        unknown = sorted(set(weights or {}) - set(FEATURES))
        if unknown:  # at construction: a config's misspelled feature fails on loading
            raise ValueError(Errors.CE146.format(unknown=unknown, features=list(FEATURES)))
        self.weights = {**WEIGHTS, **(weights or {})}  # a weight left out keeps its value
        self.scale = scale

    def scores(self, state: DecodingState) -> None:
        state.scores = with_salience(
            state.doc, state.scores, state.spans, state.mentions.heads, state.valid(),
            weights=self.weights, scale=self.scale,
        )


@registry.misc("spacy_coref.decode.salience.v1")
def make_salience(weights: Optional[Dict[str, float]] = None, scale: float = SCALE) -> Salience:
    """weights (Optional[Dict[str, float]]): each salience feature's weight (fitted on the dev
        sets by scripts/fit_salience.py; None: those).
    scale (float): how much of the salience is added to the scores."""
    return Salience(weights=weights, scale=scale)

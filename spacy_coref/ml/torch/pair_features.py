"""Linguistic features for the s2e head (spacy_coref.S2ECoref.v3): what the parse, the morphology,
the entities and the speakers say about each candidate mention, and what follows for each
(query, candidate antecedent) pair. Plain torch: the attributes arrive as an int tensor
[C, N_ATTRIBUTES] per doc (computed from the Doc by `spacy_coref.ml.coref_features`), and every
pair feature is computed here, vectorised over a block of pairs, never in a Python loop.

The scores they add, all zero at initialisation (so a head loaded from one without features
computes exactly what that head computed):

* mention: u = the sum of one embedding per categorical attribute ([C, width]); f_m += w . u.
* antecedent: u_q^T W u_c (he vs she, it vs a person, plural vs singular), plus one learned
  scalar per value of each pair feature (distances, string and head match, speakers, binding,
  nesting), added before the top-K antecedents are chosen so that pruning sees them. The
  scalars of a block of pairs are looked up without gradients; those of the K pairs kept are
  computed again with them (see S2ECorefHead._top_with_features).
"""
from typing import NamedTuple

import torch
from torch import Tensor, nn

# fmt: off
# Columns of a doc's attribute array [C, N_ATTRIBUTES]. The first N_EMBEDDED are categorical,
# embedded for the mention vector u (0 = unknown); the others are positions and doc-local ids,
# compared between the two mentions of a pair (-1 = none).
MENTION_TYPE, PERSON, NUMBER, GENDER, REFLEXIVE, ENTITY, SHAPE, WIDTH = range(8)
SENTENCE, START, END, HEAD, SUBJECT, TEXT, LEMMA, SPEAKER = range(8, 16)
N_EMBEDDED = 8
N_ATTRIBUTES = 16
ATTRIBUTE_NAMES = ("mention_type", "person", "number", "gender", "reflexive", "entity", "shape",
                   "width", "sentence", "start", "end", "head", "subject", "text", "lemma",
                   "speaker")

# Values of the categorical attributes.
OTHER_TYPE, PERSONAL_PRONOUN, OTHER_PRONOUN, PROPER, NOMINAL, EVENT = range(6)
UNKNOWN_PERSON, FIRST, SECOND, THIRD = range(4)
UNKNOWN_NUMBER, SINGULAR, PLURAL = range(3)
UNKNOWN_GENDER, MASCULINE, FEMININE, NEUTER = range(4)
OTHER_SHAPE, LOWER, CAPITALISED, CAPITALISED_FIRST_WORD, ALL_CAPS = range(5)
N_ENTITY_VALUES = 20  # none, the 18 OntoNotes labels, any other label
# How many values each embedded attribute takes (columns 0 .. N_EMBEDDED - 1).
MENTION_VALUES = (6, 4, 3, 4, 2, N_ENTITY_VALUES, 5, 7)

# Buckets of widths and distances: 0, 1, 2, 3, 4, 5-7, 8-15, 16-31, 32-63, 64+.
BUCKET_BOUNDARIES = (1, 2, 3, 4, 5, 8, 16, 32, 64)
N_BUCKETS = len(BUCKET_BOUNDARIES) + 1
# The pair features and how many values each takes (one learned scalar per value).
TOKEN_DISTANCE, SENTENCE_DISTANCE, MENTION_DISTANCE, STRING_MATCH, HEAD_MATCH, SPEAKER_MATCH, \
    BINDING, NESTING = range(8)
PAIR_FEATURES = (("token_distance", N_BUCKETS), ("sentence_distance", N_BUCKETS),
                 ("mention_distance", N_BUCKETS), ("string_match", 3), ("head_match", 3),
                 ("speaker", 6), ("binding", 5), ("nesting", 4))
# fmt: on
# Where each pair feature's scalars start in the one vector of them.
PAIR_OFFSETS = tuple(sum(n for _, n in PAIR_FEATURES[:i]) for i in range(len(PAIR_FEATURES)))
MAX_DISTANCE = BUCKET_BOUNDARIES[-1]  # longer distances share the last bucket
# The pair scalars enter the scores times this gain. A scalar has to move by whole units to
# change a ranking of antecedent scores (their spread is several units), and with Adam a
# parameter moves about one learning rate per step: at a transformer's rates (about 1e-4) it
# could not get there in a few thousand steps otherwise (as the scheme parameters in s2e.py).
PAIR_GAIN = 10.0


# The head's parameters of each group of features (an ablation can leave a group out).
FEATURE_GROUPS = ("mention", "pair")
FEATURE_GROUP_PARAMETERS = {
    "mention": (
        "feature_scorer.embed.weight",
        "feature_scorer.mention_out.weight",
        "feature_scorer.pair_bilinear.weight",
    ),
    "pair": ("feature_scorer.pair_bias",),
}


def bucket(values: Tensor, boundaries: Tensor) -> Tensor:
    """The bucket of each non-negative value (see BUCKET_BOUNDARIES), same shape."""
    return torch.bucketize(values, boundaries, right=True)


class KeptFeatures(NamedTuple):
    """The features of a doc's kept mentions, ready for pair scoring."""

    columns: Tensor  # [N_ATTRIBUTES, M] int32: the attributes, one row per column
    u: Tensor  # [M, width] mention feature vectors
    uq: Tensor  # [M, width] W u, the query side of the bilinear term
    speakers: bool  # whether any mention's speaker is known


class FeatureScorer(nn.Module):
    """The mention and pair feature scores of the s2e head."""

    def __init__(self, width: int):
        super().__init__()
        self.embed = nn.Embedding(sum(MENTION_VALUES), width)
        # u (a sum of N_EMBEDDED rows) starts with unit-variance components
        nn.init.normal_(self.embed.weight, std=N_EMBEDDED**-0.5)
        self.mention_out = nn.Linear(width, 1, bias=False)  # f_m += w . u
        self.pair_bilinear = nn.Linear(width, width, bias=False)  # u_q^T W u_c
        self.pair_bias = nn.Parameter(torch.zeros(sum(n for _, n in PAIR_FEATURES)))  # scalars
        nn.init.zeros_(self.mention_out.weight)
        nn.init.zeros_(self.pair_bilinear.weight)
        offsets = torch.tensor((0,) + MENTION_VALUES[:-1]).cumsum(0)  # [N_EMBEDDED]
        self.register_buffer("mention_offsets", offsets, persistent=False)
        # the bucket of every distance up to MAX_DISTANCE
        distances = torch.arange(MAX_DISTANCE + 1)  # [MAX_DISTANCE + 1]
        distance_buckets = bucket(distances, torch.tensor(BUCKET_BOUNDARIES))
        self.register_buffer("distance_buckets", distance_buckets, persistent=False)

    def mention_vectors(self, attributes: Tensor) -> Tensor:
        """u for each row of attributes [C, N_ATTRIBUTES]. RETURNS (Tensor): [C, width]."""
        values = attributes[:, :N_EMBEDDED] + self.mention_offsets  # [C, N_EMBEDDED]
        return self.embed(values).sum(dim=1)  # [C, width]

    def mention_scores(self, u: Tensor) -> Tensor:
        """w . u: what the attributes add to f_m. RETURNS (Tensor): [C]."""
        return self.mention_out(u).squeeze(1)  # [C]

    def kept_features(self, attributes: Tensor, u: Tensor) -> KeptFeatures:
        """attributes [M, N_ATTRIBUTES] and u [M, width] of the kept mentions, in document
        order."""
        columns = attributes.T.to(torch.int32).contiguous()  # [N_ATTRIBUTES, M]
        speakers = bool((columns[SPEAKER] >= 0).any())
        return KeptFeatures(columns, u, self.pair_bilinear(u), speakers)

    def block_scores(self, kept: KeptFeatures, q0: int, q1: int, c0: int) -> Tensor:
        """The feature scores of queries q0..q1-1 against the mentions c0..q1-1. Pairs where
        the candidate does not precede the query get some score (the caller masks them).
        RETURNS (Tensor): [q1 - q0, q1 - c0]."""
        b, c = q1 - q0, q1 - c0
        bilinear = kept.uq[q0:q1] @ kept.u[c0:q1].T  # [b, c]
        aq = kept.columns[:, q0:q1, None]  # [A, b, 1]
        ac = kept.columns[:, None, c0:q1]  # [A, 1, c]
        # the mention distance (q0 + i) - (c0 + j) is constant along each diagonal of the block
        diagonals = torch.arange(q0 - c0 - c + 1, q0 - c0 + b, device=bilinear.device)  # [b+c-1]
        by_diagonal = self._distance_scores(MENTION_DISTANCE, diagonals)  # [b + c - 1]
        # element [i, c - 1 - j] of the strided view is by_diagonal[i + c - 1 - j]: for i - j
        mention_distance = by_diagonal.as_strided((b, c), (1, 1)).flip(1)  # [b, c]
        return bilinear + self.pair_scores(aq, ac, mention_distance, kept.speakers)  # [b, c]

    def gathered_scores(self, kept: KeptFeatures, q0: int, antecedents: Tensor) -> Tensor:
        """The feature scores of queries q0.. against their candidate antecedents [b, K]
        (indices into the kept mentions, each before its query or masked by the caller).
        RETURNS (Tensor): [b, K]."""
        q1 = q0 + antecedents.shape[0]
        bilinear = (kept.uq[q0:q1, None, :] * kept.u[antecedents]).sum(dim=2)  # [b, K]
        aq = kept.columns[:, q0:q1, None]  # [A, b, 1]
        ac = kept.columns[:, antecedents]  # [A, b, K]
        q = torch.arange(q0, q1, device=antecedents.device)[:, None]  # [b, 1]
        mention_distance = self._distance_scores(MENTION_DISTANCE, q - antecedents)  # [b, K]
        return bilinear + self.pair_scores(aq, ac, mention_distance, kept.speakers)  # [b, K]

    def pair_scores(
        self, aq: Tensor, ac: Tensor, mention_distance: Tensor, speakers: bool = True
    ) -> Tensor:
        """The sum of the learned scalars of the pairs' feature values. aq, ac: the attribute
        columns of queries and candidates ([A, b, 1] and [A, *, c]), the candidate first in
        document order; mention_distance: the pairs' mention distance scores ([b, c]);
        speakers: whether any mention's speaker is known (False: all unknown, no comparison).
        Each relation that holds adds its value's scalar minus that of "no relation", which is
        added once per query. RETURNS (Tensor): [b, c]."""
        bias = PAIR_GAIN * self.pair_bias  # [n_values]
        token_distance = aq[START] - ac[START]  # [b, c]
        score = mention_distance + self._distance_scores(TOKEN_DISTANCE, token_distance)
        sentence_distance = aq[SENTENCE] - ac[SENTENCE]  # [b, c]
        score = score + self._distance_scores(SENTENCE_DISTANCE, sentence_distance)  # [b, c]
        string, head, speaker, binding, nesting = PAIR_OFFSETS[STRING_MATCH:]
        # matches: 1 the same pronoun, 2 the same name or noun phrase
        q_type = aq[MENTION_TYPE]  # [b, 1]
        matched = 2 - ((q_type == PERSONAL_PRONOUN) | (q_type == OTHER_PRONOUN)).int()  # [b, 1]
        score = torch.addcmul(score, aq[TEXT] == ac[TEXT], bias[string + matched] - bias[string])
        score = torch.addcmul(score, aq[LEMMA] == ac[LEMMA], bias[head + matched] - bias[head])
        # speakers: 0 unknown, 1 same, 2 different; + 3 for a first or second person query
        local = speaker + 3 * ((aq[PERSON] == FIRST) | (aq[PERSON] == SECOND)).int()  # [b, 1]
        if speakers:
            known = (aq[SPEAKER] >= 0) & (ac[SPEAKER] >= 0)  # [b, c]
            same = aq[SPEAKER] == ac[SPEAKER]  # [b, c]
            score = torch.addcmul(score, known & same, bias[local + 1] - bias[local])
            score = torch.addcmul(score, known & ~same, bias[local + 2] - bias[local])
        # binding: the candidate is the subject of the query's clause (1, reflexive query 2),
        # or the other way round (3, reflexive candidate 4); a subject -1 equals no head
        c_binds = aq[SUBJECT] == ac[HEAD]  # [b, c]
        score = torch.addcmul(score, c_binds, bias[binding + 1 + aq[REFLEXIVE]] - bias[binding])
        q_binds = ac[SUBJECT] == aq[HEAD]  # [b, c]
        score = torch.addcmul(score, q_binds, bias[binding + 3 + ac[REFLEXIVE]] - bias[binding])
        # nesting: 1 the candidate contains the query, 2 the query contains the candidate (they
        # start together), 3 they overlap otherwise; the candidate starts first, ends exclusive
        apart, contains, inside, crossing = bias[nesting : nesting + 4]
        score = torch.addcmul(score, ac[END] > aq[START], crossing - apart)  # [b, c]
        score = torch.addcmul(score, ac[END] >= aq[END], contains - crossing)
        score = torch.addcmul(score, ac[START] == aq[START], inside - crossing)
        row = bias[string] + bias[head] + bias[local] + bias[binding] + apart  # [b, 1]
        return score + row  # [b, c]

    def _distance_scores(self, feature: int, distances: Tensor) -> Tensor:
        """The scalar of each distance's bucket (distances clamped to 0..MAX_DISTANCE)."""
        scalars = self.pair_bias[PAIR_OFFSETS[feature] + self.distance_buckets]  # [65]
        table = PAIR_GAIN * scalars  # [65]
        return table[distances.clamp(0, MAX_DISTANCE)]

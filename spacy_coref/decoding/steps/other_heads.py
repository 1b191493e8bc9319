"""other_heads: a common noun phrase takes one with another head noun ("the plan" after "the
government", "your account" after "your letter") only where the link scores well above "no
antecedent". Such a link is seldom right, and the model makes it often: on
LitBank and OntoGUM dev, the shipped default put 129 common noun phrases in a cluster with no
earlier mention of their head lemma, and 42 of them belonged there. Synonyms
("the firm" ... "the company") and descriptions ("the stranger" ... "a man") do corefer, so
the link is not forbidden: it needs OTHER_HEAD_MARGIN more than the null score to be made.

Names and pronouns are left alone on both sides: "Apple ... the company" and "the company
... it" are the usual ways to go on about one entity. Without a parse (the fast pipeline), the
heads of short lower-case phrases come from each word's usual tag
(`linguistics/unparsed_heads.py`).
"""
import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...linguistics.unparsed_heads import unparsed_head_lemmas
from ..score_edits import lowered_scores
from ..state import DecodingState
from ..step import DecodingStep

# entities whose lower-case nouns are part of a name ("the third quarter")
NUMERIC_ENTS = frozenset(
    ("DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL")
)
# how much more than "no antecedent" the link must score; from 3 to 6 the dev sets gave the
# same LitBank (+0.49), OntoGUM -0.01 to -0.03 and GAP unchanged (docs/constraints_and_features.md)
OTHER_HEAD_MARGIN = 4.0


def other_head_pairs(doc: Doc, heads: numpy.ndarray, antecedents: numpy.ndarray) -> numpy.ndarray:
    """Which candidate antecedents are a common noun phrase with another head lemma than the
    mention's, where the mention is one too.

    doc (Doc): the doc, with part-of-speech tags (a parse); without them nothing is marked.
    heads (numpy.ndarray): [M] token index of each kept mention's head, -1 where not parsed.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (numpy.ndarray): [M, K] bool.
    """
    antecedents = numpy.asarray(antecedents, dtype="int64")
    marked = numpy.zeros(antecedents.shape, dtype=bool)
    heads = numpy.asarray(heads, dtype="int64")
    if not antecedents.size or not doc.has_annotation("POS") or (heads < 0).all():
        return marked
    lemmas = numpy.zeros(len(heads), dtype="uint64")  # 0: not a common noun phrase
    strings = doc.vocab.strings
    for i in numpy.flatnonzero(heads >= 0).tolist():
        head = doc[int(heads[i])]
        # a noun inside a named entity ("the third quarter", "the Labour Party") is a name,
        # but not a lower-case one that the NER took for a name ("the fox": ORG)
        named = head.ent_type and (head.is_title or head.ent_type_ in NUMERIC_ENTS)
        if head.pos_ == "NOUN" and not named:
            lemmas[i] = strings.add((head.lemma_ or head.lower_).lower())
    theirs = lemmas[antecedents]  # [M, K]
    return (lemmas[:, None] != 0) & (theirs != 0) & (theirs != lemmas[:, None])


def unparsed_other_head_pairs(
    doc: Doc, spans: numpy.ndarray, antecedents: numpy.ndarray
) -> numpy.ndarray:
    """`other_head_pairs` for a doc without a parse, the heads read off the word tags.
    RETURNS (numpy.ndarray): [M, K] bool."""
    antecedents = numpy.asarray(antecedents, dtype="int64")
    if not antecedents.size:
        return numpy.zeros(antecedents.shape, dtype=bool)
    lemmas = unparsed_head_lemmas(doc, spans)
    theirs = lemmas[antecedents]  # [M, K]
    return (lemmas[:, None] != 0) & (theirs != 0) & (theirs != lemmas[:, None])


class OtherHeads(DecodingStep):
    name = "other_heads"

    def __init__(self, margin: float = OTHER_HEAD_MARGIN) -> None:
        self.margin = margin

    def scores(self, state: DecodingState) -> None:
        if state.parsed:
            other = other_head_pairs(state.doc, state.mentions.heads, state.scores.antecedents)
        else:
            other = unparsed_other_head_pairs(state.doc, state.spans, state.scores.antecedents)
        state.scores = lowered_scores(state.scores, other & state.valid(), self.margin)


@registry.misc("spacy_coref.decode.other_heads.v1")
def make_other_heads(margin: float = OTHER_HEAD_MARGIN) -> OtherHeads:
    """margin (float): how much a link to another head loses (tuned on the dev sets)."""
    return OtherHeads(margin=margin)

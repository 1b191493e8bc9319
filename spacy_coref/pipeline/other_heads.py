"""Common noun phrases with different head nouns: "the plan" after "the government", "your
account" after "your letter". Such a link is seldom right, and the model makes it often: on
LitBank and OntoGUM dev, the shipped default put 129 common noun phrases in a cluster with no
earlier mention of their head lemma, and 42 of them belonged there. Synonyms
("the firm" ... "the company") and descriptions ("the stranger" ... "a man") do corefer, so
the link is not forbidden: it needs OTHER_HEAD_MARGIN more than the null score to be made.

Names and pronouns are left alone on both sides: "Apple ... the company" and "the company
... it" are the usual ways to go on about one entity.
"""
import numpy
from spacy.tokens import Doc

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
        # a noun inside a named entity ("the third quarter", "the Labour Party") is a name
        if head.pos_ == "NOUN" and not head.ent_type:
            lemmas[i] = strings.add((head.lemma_ or head.lower_).lower())
    theirs = lemmas[antecedents]  # [M, K]
    return (lemmas[:, None] != 0) & (theirs != 0) & (theirs != lemmas[:, None])

"""binding: pair masks over a doc's kept mentions and their candidate antecedents: an
argument is not the subject of its own clause, a reflexive is (`binding_masks`); a possessor is
not the noun phrase it is part of (`part_possessors`). The roles are read by
`linguistics/mention_analysis.py` (`linguistics/clause_roles.py`); without a parse by
`linguistics/unparsed_clauses.py`.
"""
from typing import Dict, List, Optional, Set, Tuple

import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...linguistics.mention_constraints import MentionConstraints
from ...linguistics.mention_classes import AGREEMENT_BY_PRONOUN
from ...linguistics.unparsed_clauses import unparsed_clause_subjects
from ...types import ClusterOffsets, CorefScores, MentionOffset, valid_antecedents
from ..state import DecodingState
from ..step import DecodingStep


def binding_masks(mentions: MentionConstraints, antecedents: numpy.ndarray):
    """Which candidate antecedents binding forbids, and which it requires.

    mentions (MentionConstraints): the doc's kept mentions.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): forbidden [M, K] (an argument and the subject
        of its clause, either way round, and two objects of one verb where one is a pronoun)
        and required [M, K] (a reflexive's own subject).
    """
    roots, subjects = mentions.roots, mentions.clause_subjects
    # the mention's clause subject is the antecedent's head, or the other way round
    mention_bound = (subjects[:, None] >= 0) & (subjects[:, None] == roots[antecedents])
    antecedent_bound = (subjects[antecedents] >= 0) & (subjects[antecedents] == roots[:, None])
    apposed = mentions.apposed_to
    if apposed is not None and (apposed >= 0).any():
        # an appositive of the subject is the subject: "the pianist Glenn Gould ... named him"
        mention_bound |= (subjects[:, None] >= 0) & (subjects[:, None] == apposed[antecedents])
        antecedent_bound |= ((subjects[antecedents] >= 0)
                             & (subjects[antecedents] == apposed[:, None]))
    reflexive = mentions.reflexive[:, None]  # [M, 1]
    forbidden = (mention_bound & ~reflexive) | (antecedent_bound & ~mentions.reflexive[antecedents])
    co = mentions.co_subjects
    if co is not None and (co >= 0).any():
        # a second subject of the same verb is kept from the object too (not required of it)
        forbidden |= (co[:, None] >= 0) & (co[:, None] == roots[antecedents]) & ~reflexive
        forbidden |= ((co[antecedents] >= 0) & (co[antecedents] == roots[:, None])
                      & ~mentions.reflexive[antecedents])
    relative = mentions.relative_head
    if relative is not None and (relative >= 0).any():
        # "the book that she wrote": she is not the book, nor "he" the dictator of "the
        # dictator who he believed was...", nor the butler of "The butler, a man he had met"
        heads = [roots] if apposed is None else [roots, apposed]
        for head in heads:
            forbidden |= (relative[:, None] >= 0) & (relative[:, None] == head[antecedents])
            forbidden |= (relative[antecedents] >= 0) & (relative[antecedents] == head[:, None])
    required = mention_bound & reflexive  # [M, K]
    # two objects of one verb, one of them a pronoun: "serve them with the fish"
    verbs, pronoun = mentions.argument_of, mentions.pronoun
    objects = (verbs[:, None] >= 0) & (verbs[:, None] == verbs[antecedents])
    objects &= pronoun[:, None] | pronoun[antecedents]
    objects &= ~reflexive & ~mentions.reflexive[antecedents]
    objects &= roots[:, None] != roots[antecedents]
    return forbidden | objects, required


def part_possessors(
    clusters: ClusterOffsets, spans: numpy.ndarray, mentions: MentionConstraints
) -> ClusterOffsets:
    """The clusters without each noun phrase whose own possessor shares its cluster ("her
    mother" with "her"). The noun phrase stands alone and is not relinked: its next best
    antecedents were wrong more often than not on the dev sets. Mentions linked through it
    stay.

    clusters (ClusterOffsets): decoded clusters.
    spans (numpy.ndarray): [M, 2] the kept mentions that `mentions` describes.
    mentions (MentionConstraints): their heads and what they are the possessors of.
    RETURNS (ClusterOffsets): the clusters, each sorted, in document order.
    """
    if not (mentions.possessed >= 0).any():
        return clusters
    index = {(int(s), int(e)): i for i, (s, e) in enumerate(spans.tolist())}
    out = []
    for cluster in clusters:
        members = [index.get(tuple(m), -1) for m in cluster]
        owned = {int(mentions.possessed[i]) for i in members if i >= 0} - {-1}
        kept = [m for m, i in zip(cluster, members) if i < 0 or mentions.heads[i] not in owned]
        if len(kept) > 1:
            out.append(kept)
    return sorted(out)


def forbidden_pronoun_pairs(
    doc: Doc, scores: CorefScores, spans: numpy.ndarray, forbidden: Optional[numpy.ndarray]
) -> Set[Tuple[MentionOffset, MentionOffset]]:
    """The (pronoun, antecedent) offsets that `forbidden` ([M, K]) keeps apart ("Grace later
    told her"), for the rules that merge clusters after the clustering. Pairs of a name and
    an earlier pronoun are left out: a parse error that gives a verb the wrong subject ("he
    believed ..., but managed to beat Jenkins") would keep a repeated name from its own."""
    if forbidden is None:
        return set()
    q, k = numpy.nonzero(forbidden & valid_antecedents(scores))
    a = numpy.asarray(scores.antecedents)[q, k]
    return {
        (tuple(m), tuple(o))
        for m, o in zip(spans[q].tolist(), spans[a].tolist())
        if m[1] - m[0] == 1 and doc[m[0]].lower_ in AGREEMENT_BY_PRONOUN
    }


def possessor_pairs(
    spans: numpy.ndarray, mentions: MentionConstraints
) -> Set[Tuple[MentionOffset, MentionOffset]]:
    """The (noun phrase, its own possessor) offsets that `part_possessors` keeps apart."""
    owners = numpy.flatnonzero(mentions.possessed >= 0)
    if not len(owners):
        return set()
    by_head: Dict[int, List[int]] = {}
    for j, head in enumerate(mentions.heads.tolist()):
        by_head.setdefault(head, []).append(j)
    return {
        (tuple(spans[j].tolist()), tuple(spans[i].tolist()))
        for i in owners.tolist()
        for j in by_head.get(int(mentions.possessed[i]), ())
    }


class Binding(DecodingStep):
    name = "binding"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        bound = state.mentions
        if not state.parsed:
            # read off the words (decoding only: the features keep no subjects, as the fast
            # model was trained)
            roots, subjects = unparsed_clause_subjects(state.doc, state.spans)
            bound = bound._replace(roots=roots, clause_subjects=subjects)
        forbidden, required = binding_masks(bound, state.antecedents)
        state.forbid(forbidden)
        state.require(required)

    def clusters(self, state: DecodingState) -> None:
        if state.n_mentions:
            state.clusters = part_possessors(state.clusters, state.spans, state.mentions)


@registry.misc("spacy_coref.decode.binding.v1")
def make_binding() -> Binding:
    return Binding()

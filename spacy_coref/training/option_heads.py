"""Pronoun problems name their options by a head word, not a mention: WinoGrande's options are
often a bare noun ("trophy" in "The trophy did not fit in the suitcase"). Matched exactly, such
a problem teaches a model whose candidates come from the parse's mention rules ("The trophy")
nothing, and a student whose candidates are short spans to link the bare noun ("trophy", not
"the trophy"), as it then did in the behaviour suite's sentences. In training, a candidate
stands for an option as the scorer matches them (`scoring.gap.matches_name`): it is the
option's span, or it ends on the option's last token and overlaps neither the pronoun nor the
other option. The options' boundaries are not known, so the mention loss reads only the
pronoun's.
"""
from typing import Dict, Iterable, Optional, Set, Tuple

from spacy.training import Example

from ..annotations import GOLD_MENTIONS_KEY
from ..formats.gap import PRONOUN
from ..scoring.gap import matches_name
from ..scoring.pronoun_problems import is_pronoun_problem_doc
from ..types import MentionOffset

Annotation = Tuple[Dict[MentionOffset, int], Set[MentionOffset], Set[MentionOffset]]


def match_option_heads(
    eg: Example,
    cluster_of: Dict[MentionOffset, int],
    labelled: Optional[Set[MentionOffset]],
    candidates: Iterable[Tuple[int, int]],
) -> Optional[Annotation]:
    """The partial annotation of a pronoun problem with its options matched by head among the
    candidates, or None where the doc is not a pronoun problem (the annotation stays as it is).

    eg (Example): the training example (its reference a pronoun problem, or not).
    cluster_of (Dict[MentionOffset, int]): `gold_annotation`'s mention -> cluster, on eg.x.
    labelled (Optional[Set[MentionOffset]]): `gold_annotation`'s labelled spans, on eg.x.
    candidates (Iterable[Tuple[int, int]]): the candidates' (start, end) offsets, end exclusive.
    RETURNS (Optional[Annotation]): (mention -> cluster, the labelled spans for the antecedent
        loss, the labelled spans for the mention loss: the pronoun's alone).
    """
    if labelled is None or not is_pronoun_problem_doc(eg.reference):
        return None
    group = eg.reference.spans[GOLD_MENTIONS_KEY]
    aligned = eg.get_aligned_spans_y2x(group, allow_overlap=True)
    pronouns = [(s.start, s.end) for s in aligned if s.label_ == PRONOUN]
    options = [(s.start, s.end) for s in aligned if s.label_ != PRONOUN]
    if len(pronouns) != 1:
        return None
    pronoun = pronouns[0]
    cluster_of, labelled = dict(cluster_of), set(labelled)
    spans = [(int(start), int(end)) for start, end in candidates]
    for option in options:
        others = [pronoun] + [o for o in options if o != option]
        for span in spans:
            if matches_name(span, option, others):
                labelled.add(span)
                if option in cluster_of:
                    cluster_of.setdefault(span, cluster_of[option])
    return cluster_of, labelled, {pronoun}

"""The two self-supervised tasks of seed 000 as pure functions over parsed docs: which spans to
mask (repeated PERSON names, personal pronouns) and how (BERT's 80/10/10 rule).

Masking replaces spaCy tokens, one for one, so a masked doc keeps the original's token offsets:
the gold clusters, the parse and the candidate mentions of the original text carry over as they
are, and whatever encoder the pipeline has (a transformer's wordpieces, a CNN's hashed features)
sees only the masked words.
"""

import random
from typing import Dict, List, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..lang.en import english
from ..types import MentionOffset

# BERT's masking strategy (seed 000, appendix A.1): mask token, random token, unchanged.
MASK_PROB = 0.8
RANDOM_PROB = 0.1
# Seed 000 down-samples masculine pronouns by excluding 60% of them from the objective.
MASCULINE_DROP = 0.6
NAME_LABEL = "PERSON"

# The pronouns to predict: third-person personal pronouns, the ones that point at an antecedent
# mention (first and second person point at speakers, which unlabeled prose does not mark).
# The class of a masked pronoun is its lower-cased form, in the order of the lexicon's pronoun
# table: "he", "him", "his", "himself", "she", ..., "it", ..., "they", ..., "themselves".
MASCULINE_PRONOUNS = english().pronouns(person=3, gender="masculine")
PRONOUN_CLASSES: Tuple[str, ...] = english().pronouns(person=3, generic=False)
PRONOUN_INDEX: Dict[str, int] = {form: i for i, form in enumerate(PRONOUN_CLASSES)}


def name_key(span: Span) -> str:
    """Occurrences of a name with the same key are taken to corefer: the lower-cased words,
    without a trailing possessive."""
    words = [t.lower_ for t in span if not (t.i == span.end - 1 and t.tag_ == "POS")]
    return " ".join(words)


def name_clusters(doc: Doc, *, label: str = NAME_LABEL) -> List[List[MentionOffset]]:
    """Clusters of the named entities with `label` whose name occurs twice or more in the doc
    (seed 000, section 3.1), in document order.

    doc (Doc): a doc with entities.
    label (str): the entity label of names.
    RETURNS (List[List[Tuple[int, int]]]): clusters of (start, end) token offsets.
    """
    groups: Dict[str, List[MentionOffset]] = {}
    for ent in doc.ents:
        if ent.label_ == label and any(t.is_alpha for t in ent):
            end = ent.end - 1 if len(ent) > 1 and ent[-1].tag_ == "POS" else ent.end
            groups.setdefault(name_key(ent), []).append((ent.start, end))
    return [mentions for mentions in groups.values() if len(mentions) >= 2]


def pronoun_targets(
    doc: Doc, rng: random.Random, *, masculine_drop: float = MASCULINE_DROP
) -> List[Tuple[int, int]]:
    """The personal pronouns of a doc to mask and predict, as (token index, class), with a
    share `masculine_drop` of masculine pronouns left out (seed 000, appendix A.1).

    doc (Doc): a doc (POS tags are used when present, so 'her' as a noun is never taken).
    rng (random.Random): the random source of the down-sampling.
    masculine_drop (float): the share of masculine pronouns to exclude.
    RETURNS (List[Tuple[int, int]]): (token index, index into PRONOUN_CLASSES).
    """
    has_pos = doc.has_annotation("POS")
    targets = []
    for token in doc:
        form = token.lower_
        if form not in PRONOUN_INDEX or (has_pos and token.pos_ != "PRON"):
            continue
        if form in MASCULINE_PRONOUNS and rng.random() < masculine_drop:
            continue
        targets.append((token.i, PRONOUN_INDEX[form]))
    return targets


def mask_spans(
    words: Sequence[str],
    spans: Sequence[MentionOffset],
    rng: random.Random,
    *,
    mask_token: str,
    random_words: Sequence[str],
) -> Tuple[List[str], List[str]]:
    """Mask whole spans with BERT's rule: each span's words all become `mask_token` (80%), all
    become random words (10%) or stay (10%).

    words (Sequence[str]): the doc's words.
    spans (Sequence[Tuple[int, int]]): (start, end) token offsets to perturb.
    rng (random.Random): the random source.
    mask_token (str): the encoder's mask token, e.g. "[MASK]".
    random_words (Sequence[str]): the words to draw random replacements from.
    RETURNS (Tuple[List[str], List[str]]): the masked words, and per span what was done
        ("mask", "random" or "keep").
    """
    masked = list(words)
    actions = []
    for start, end in spans:
        draw = rng.random()
        if draw < MASK_PROB:
            action = "mask"
            masked[start:end] = [mask_token] * (end - start)
        elif draw < MASK_PROB + RANDOM_PROB:
            action = "random"
            masked[start:end] = [rng.choice(random_words) for _ in range(end - start)]
        else:
            action = "keep"
        actions.append(action)
    return masked, actions

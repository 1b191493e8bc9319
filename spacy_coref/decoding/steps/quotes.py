"""quotes: a quote's "I" is its speaker and its "you" the one it is said to; after the merging
steps, as who speaks a quote outranks what the scores say.

`link_quote_pronouns` moves each attributed quote's first-person pronouns into the speaker's
cluster and its second-person pronouns into the addressee's (taking each out of the cluster it
was in). "We" goes with a plural speaker only ("the players shouted"); a quote whose tag is not
found is left as it is. Outside its quotes, a letter's "I" goes with the signature and its "you"
with the greeting, as a quote's do with its speaker and addressee; where only one of the two is
found, "I" leaves the reader's cluster and "you" the writer's. A transcript's turns move their
"I" and "you" likewise (`_turn_moves`). Who speaks, to whom, and the letter's parties are read
in `linguistics/quotations.py` (without a parse, `linguistics/unparsed_quotes.py`), the turns
in `linguistics/transcripts.py`.
"""
from typing import Dict, List, Tuple

from spacy.tokens import Doc
from spacy.util import registry

from ...linguistics.quotations import (
    FIRST_PLURAL,
    FIRST_SINGULAR,
    SECOND,
    find_quotes,
    letter_parties,
    quote_speakers,
)
from ...linguistics.transcripts import turn_labels
from ...types import ClusterOffsets, MentionOffset
from ..state import DecodingState
from ..step import DecodingStep


def link_quote_pronouns(doc: Doc, clusters: ClusterOffsets) -> ClusterOffsets:
    """The clusters with each attributed quote's "I" in its speaker's cluster and its "you" in
    its addressee's; "you" leaves a cluster holding the speaker and "I" one holding the
    addressee.

    doc (Doc): the doc the clusters are for (with or without a parse: see `quote_speakers`).
    clusters (ClusterOffsets): clusters of (start, end) offsets.
    RETURNS (ClusterOffsets): the clusters, each sorted, in document order (two mentions or
        more each).
    """
    marked = find_quotes(doc)
    quotes = quote_speakers(doc, marked)
    writer, reader = letter_parties(doc, marked)
    labels = turn_labels(doc)
    if not quotes and writer is None and reader is None and not labels:
        return clusters
    moves, separations = _turn_moves(doc, labels, marked) if labels else ([], [])
    n_turn_moves = len(moves)
    if writer is not None or reader is not None:
        quoted = {i for start, end in marked for i in range(start, end)}
        for token in doc:
            form = token.lower_
            if token.i in quoted or (form not in FIRST_SINGULAR and form not in SECOND):
                continue
            target, other = (writer, reader) if form in FIRST_SINGULAR else (reader, writer)
            if target is not None:
                moves.append(((token.i, token.i + 1), target))
            else:  # "Hi Grace, ... I": the writer unknown, "I" is still not Grace
                separations.append(((token.i, token.i + 1), other))
    for quote in quotes:
        for token in doc[quote.start : quote.end]:
            form = token.lower_
            if form in FIRST_SINGULAR or (form in FIRST_PLURAL and quote.plural_speaker):
                target, other = quote.speaker, quote.addressee
            elif form in SECOND:
                target, other = quote.addressee, quote.speaker
            else:
                continue
            pronoun = (token.i, token.i + 1)
            if target is not None:
                moves.append((pronoun, target))
            elif other is not None:
                separations.append((pronoun, other))
    groups = _Clusters(clusters)
    if labels:
        # a speaker's label names the speaker alone: the model may have put it with whoever
        # the speaker talks about ("Jones: My grandmother ... she ... Jones: I")
        for label in {target for _, target in moves[:n_turn_moves]}:
            groups.detach(label)
    for pronoun, target in moves:
        groups.move(pronoun, groups.mention_of(target))
    # after every move: a later move may have brought the other into the pronoun's cluster
    for pronoun, other in separations:
        groups.separate(pronoun, groups.mention_of(other))
    return groups.clusters()


def _turn_moves(
    doc: Doc, labels: List[MentionOffset], quotes: List[Tuple[int, int]]
) -> Tuple[List[Tuple[MentionOffset, MentionOffset]], List[Tuple[MentionOffset, MentionOffset]]]:
    """A transcript's moves (`transcripts.turn_labels`): each speaker's later labels and the
    "I" of their turns go with their first label; between two speakers, a turn's "you" with
    the other's. Quoted words are someone else's. RETURNS: (moves, separations), each a list
    of (mention, target)."""
    first: Dict[str, MentionOffset] = {}
    for start, end in labels:
        first.setdefault(doc[start:end].text, (start, end))
    quoted = {i for start, end in quotes for i in range(start, end)}
    moves: List[Tuple[MentionOffset, MentionOffset]] = []
    separations: List[Tuple[MentionOffset, MentionOffset]] = []
    bounds = [start for start, _ in labels] + [len(doc)]
    for (start, end), turn_end in zip(labels, bounds[1:]):
        speaker = first[doc[start:end].text]
        others = [label for label in first.values() if label != speaker]
        if (start, end) != speaker:
            moves.append(((start, end), speaker))
        for token in doc[end:turn_end]:
            pronoun = (token.i, token.i + 1)
            if token.i in quoted:
                continue
            if token.lower_ in FIRST_SINGULAR:
                moves.append((pronoun, speaker))
            elif token.lower_ in SECOND and len(others) == 1:
                moves.append((pronoun, others[0]))
            elif token.lower_ in SECOND:  # one of several others, never the speaker
                separations.append((pronoun, speaker))
    return moves, separations


class _Clusters:
    """Clusters that pronouns move between, indexed by mention and by end token, so that a
    novel's thousands of quotes do not each scan every cluster."""

    def __init__(self, clusters: ClusterOffsets):
        self.groups: List[List[MentionOffset]] = [list(map(tuple, c)) for c in clusters]
        self.group_of: Dict[MentionOffset, int] = {}
        self.ending_at: Dict[int, List[MentionOffset]] = {}
        for index, group in enumerate(self.groups):
            for mention in group:
                self._add(mention, index)

    def _add(self, mention: MentionOffset, index: int) -> None:
        self.group_of[mention] = index
        self.ending_at.setdefault(mention[1], []).append(mention)

    def mention_of(self, phrase: MentionOffset) -> MentionOffset:
        """The phrase as a clustered mention: the longest clustered mention ending on the
        phrase's head ("Mrs. Gray" for "Gray"), else the phrase itself."""
        if phrase in self.group_of:
            return phrase
        ending = [
            m for m in self.ending_at.get(phrase[1], ())
            if m in self.group_of and m[0] <= phrase[1] - 1
        ]
        return max(ending, key=lambda m: m[1] - m[0]) if ending else phrase

    def move(self, pronoun: MentionOffset, target: MentionOffset) -> None:
        """Put the pronoun in the target's cluster, out of any other."""
        here, there = self.group_of.get(pronoun), self.group_of.get(target)
        if here is not None and here == there:
            return
        if here is not None:
            self.groups[here].remove(pronoun)
        if there is None:
            there = len(self.groups)
            self.groups.append([target])
            self._add(target, there)
        self.groups[there].append(pronoun)
        self._add(pronoun, there)

    def detach(self, mention: MentionOffset) -> None:
        """Take the mention out of its cluster, if it is in one."""
        here = self.group_of.pop(mention, None)
        if here is not None:
            self.groups[here].remove(mention)

    def separate(self, pronoun: MentionOffset, other: MentionOffset) -> None:
        """Take the pronoun out of the other mention's cluster, if it is there."""
        here = self.group_of.get(pronoun)
        if here is not None and here == self.group_of.get(other):
            self.groups[here].remove(pronoun)
            del self.group_of[pronoun]

    def clusters(self) -> ClusterOffsets:
        """The clusters of two mentions or more, each sorted, in document order."""
        return sorted(sorted(set(g)) for g in self.groups if len(set(g)) > 1)


class Quotes(DecodingStep):
    name = "quotes"

    def clusters(self, state: DecodingState) -> None:
        state.clusters = link_quote_pronouns(state.doc, state.clusters)


@registry.misc("spacy_coref.decode.quotes.v1")
def make_quotes() -> Quotes:
    return Quotes()

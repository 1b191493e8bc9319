"""The `Cluster` view of one cluster of a doc (`Doc._.coref_clusters`), built on the fly from
its `SpanGroup`; its main mention is chosen by `linguistics/main_mention.py`. Both the
extensions (`extensions.py`) and the resolved text (`resolved_text.py`) read it.
"""
from typing import Iterator, List, Optional, Set

from spacy.tokens import Doc, Span, SpanGroup

from .errors import Errors
from .linguistics.main_mention import choose_main
from .types import MentionOffset


class Cluster:
    """A view of one cluster, built on the fly from its `SpanGroup` in `doc.spans`.

    Like neuralcoref's `Cluster`: `.i`, `.main`, `.mentions`, iteration, `len`, indexing and a
    `repr` such as `Alice: [Alice, She]`. Two clusters are equal when they have the same doc and
    the same `doc.spans` key. A `Cluster` is a snapshot: read `doc._.coref_clusters` again after
    changing `doc.spans`.
    """

    def __init__(self, group: SpanGroup, i: int, *, key: Optional[str] = None) -> None:
        """group (SpanGroup): The cluster's span group.
        i (int): The 0-based index of the cluster in `doc._.coref_clusters`.
        key (Optional[str]): The `doc.spans` key. Defaults to the group's name.
        """
        self.doc: Doc = group.doc
        self.i = i
        self.key: str = key if key is not None else group.name
        if not len(group):
            raise ValueError(Errors.CE143.format(key=self.key))
        seen: Set[MentionOffset] = set()
        mentions: List[Span] = []
        for span in sorted(group, key=mention_offsets):
            if mention_offsets(span) not in seen:
                seen.add(mention_offsets(span))
                mentions.append(span)
        self.mentions: List[Span] = mentions
        self.main: Span = choose_main(mentions)

    def __iter__(self) -> Iterator[Span]:
        return iter(self.mentions)

    def __len__(self) -> int:
        return len(self.mentions)

    def __getitem__(self, index: int) -> Span:
        return self.mentions[index]

    def __contains__(self, span: object) -> bool:
        if not isinstance(span, Span) or span.doc is not self.doc:
            return False
        return any(mention_offsets(m) == mention_offsets(span) for m in self.mentions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cluster):
            return NotImplemented
        return self.doc is other.doc and self.key == other.key

    def __hash__(self) -> int:
        return hash((id(self.doc), self.key))

    def __repr__(self) -> str:
        return f"{self.main}: {self.mentions}"


def mention_offsets(span: Span) -> MentionOffset:
    """A span's (start, end) token offsets."""
    return (span.start, span.end)

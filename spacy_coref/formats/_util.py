"""Helpers shared by the format readers and writers."""
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..annotations import get_doc_id, set_clusters, set_doc_id, set_speakers
from ..errors import Warnings, warn
from ..types import ClusterOffsets, MentionOffset

PathLike = Union[str, Path]
# Column values that mean "nothing here" (OntoNotes writes "-", LitBank "_").
PLACEHOLDERS = frozenset(("-", "_", ""))


def location(path: PathLike, line: int) -> str:
    """`file:line`, the prefix of every reader error."""
    return f"{path}:{line}"


def make_doc(
    vocab: Vocab,
    words: List[str],
    sent_starts: List[bool],
    *,
    spaces: Optional[List[bool]] = None,
    tags: Optional[List[str]] = None,
) -> Doc:
    """A doc over given tokens with every sentence start set (no `None` left to guess).

    vocab (Vocab): The vocab the doc belongs to.
    words (List[str]): The tokens.
    sent_starts (List[bool]): True where a sentence starts.
    spaces (Optional[List[bool]]): Trailing whitespace per token; by default a space after every
        token but the last.
    tags (Optional[List[str]]): Fine-grained tags ("" where unknown) or None.
    RETURNS (Doc): The doc.
    """
    if spaces is None:
        spaces = [True] * len(words)
        if spaces:
            spaces[-1] = False
    if tags is not None and not any(tags):
        tags = None
    return Doc(vocab, words=words, spaces=spaces, tags=tags, sent_starts=sent_starts)


def annotate(
    doc: Doc,
    clusters: Iterable[Sequence[MentionOffset]],
    *,
    speakers: Optional[Sequence[Optional[str]]] = None,
    name: Optional[str] = None,
    part: Optional[str] = None,
    header: Optional[str] = None,
) -> None:
    """Store clusters, speakers and document identity on a freshly read doc."""
    set_clusters(doc, clusters)
    if speakers is not None and any(speaker is not None for speaker in speakers):
        set_speakers(doc, speakers)
    if name is not None:
        set_doc_id(doc, name, part=part, header=header)


def check_clusters(path: PathLike, named_clusters: Iterable[Tuple[str, ClusterOffsets]]) -> None:
    """Warn once per file about spans in several clusters and mentions repeated in a cluster.

    Neither is an error: OntoGUM has spans in two clusters, and both are kept as annotated.

    path (PathLike): The file, for the message.
    named_clusters (Iterable[Tuple[str, ClusterOffsets]]): (document name, clusters as read,
        before de-duplication) per document.
    """
    shared: List[str] = []
    repeated: List[str] = []
    for name, clusters in named_clusters:
        owners: Dict[MentionOffset, int] = Counter()
        for cluster in clusters:
            counts = Counter(cluster)
            repeated.extend(f"{name} [{s}:{e}]" for (s, e), n in counts.items() if n > 1)
            owners.update(counts.keys())
        shared.extend(f"{name} [{s}:{e}]" for (s, e), n in sorted(owners.items()) if n > 1)
    if shared:
        warn(Warnings.CW001.format(path=path, n=len(shared), examples=shared[0]))
    if repeated:
        warn(Warnings.CW002.format(path=path, n=len(repeated), examples=repeated[0]))


def doc_names(docs: Sequence[Doc]) -> List[str]:
    """Each doc's source name, or a stable `doc_<i>` (its position) where it has none."""
    return [get_doc_id(doc)["name"] or f"doc_{i}" for i, doc in enumerate(docs)]


def sentence_bounds(doc: Doc) -> List[Tuple[int, int]]:
    """(start, end) token offsets of the sentences; one sentence when none are marked."""
    starts = [i for i, token in enumerate(doc) if i == 0 or token.is_sent_start]
    return list(zip(starts, starts[1:] + [len(doc)]))

"""Word-level jsonlines as used by s2e-coref, fastcoref and wl-coref: read and write.

One JSON object per line: `doc_key`, `sentences` (lists of words), `clusters` (lists of
`[start, end]` word offsets into the flattened sentences, end INCLUSIVE) and optionally
`speakers` (shaped like `sentences`, `-` where unknown). We also write `part` when the document
has one, so that CoNLL output after a round trip repeats the original `#begin document` line;
other readers ignore it.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..annotations import get_clusters, get_doc_id, get_speakers
from ..errors import DataFormatError, Errors
from ..types import ClusterOffsets
from ._util import (
    PLACEHOLDERS,
    PathLike,
    annotate,
    check_clusters,
    doc_names,
    location,
    make_doc,
    sentence_bounds,
)

JSONL_SUFFIXES = (".jsonl", ".jsonlines")
NO_SPEAKER = "-"


def read_jsonlines(path: PathLike, *, vocab: Optional[Vocab] = None) -> Iterator[Doc]:
    """Read a word-level jsonlines file, one doc per line.

    path (PathLike): The file.
    vocab (Optional[Vocab]): The vocab of the docs; a new one by default.
    YIELDS (Doc): Docs with gold clusters, sentence starts, speakers and `doc_key` as name.
    """
    vocab = vocab if vocab is not None else Vocab()
    path = Path(path)
    read: List[Tuple[str, ClusterOffsets]] = []
    with path.open(encoding="utf8") as file_:
        for line, text in enumerate(file_, start=1):
            if text.strip():
                doc, clusters = _read_line(text, vocab, location(path, line))
                read.append((get_doc_id(doc)["name"] or location(path, line), clusters))
                yield doc
    check_clusters(path, read)


def _read_line(text: str, vocab: Vocab, loc: str) -> Tuple[Doc, ClusterOffsets]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataFormatError(Errors.CE030.format(loc=loc, error=e)) from e
    if not isinstance(obj, dict):
        raise DataFormatError(Errors.CE030.format(loc=loc, error=f"found {type(obj).__name__}"))
    if "subtoken_map" in obj:
        raise DataFormatError(Errors.CE034.format(loc=loc))
    sentences = _sentences(obj, loc)
    words = [word for sentence in sentences for word in sentence]
    sent_starts = [i == 0 for sentence in sentences for i in range(len(sentence))]
    clusters = _clusters(obj, len(words), loc)
    doc = make_doc(vocab, words, sent_starts)
    name = obj.get("doc_key")
    part = obj.get("part")
    annotate(
        doc,
        clusters,
        speakers=_speakers(obj, sentences, loc),
        name=None if name is None else str(name),
        part=None if part is None else str(part),
    )
    return doc, clusters


def _expect(obj: Dict[str, Any], key: str, ok: bool, expected: str, loc: str) -> None:
    if not ok:
        found = repr(obj.get(key))[:80] if key in obj else "nothing"
        raise DataFormatError(Errors.CE031.format(loc=loc, key=key, expected=expected, found=found))


def _sentences(obj: Dict[str, Any], loc: str) -> List[List[str]]:
    sentences = obj.get("sentences")
    ok = isinstance(sentences, list) and all(isinstance(s, list) for s in sentences)
    _expect(obj, "sentences", ok, "a list of lists of words", loc)
    for sentence in sentences:  # type: ignore[union-attr]
        bad = [w for w in sentence if not isinstance(w, str) or not w]
        if bad:
            raise DataFormatError(Errors.CE035.format(loc=loc, found=repr(bad[0])))
    return sentences  # type: ignore[return-value]


def _clusters(obj: Dict[str, Any], n_words: int, loc: str) -> ClusterOffsets:
    """Clusters as token offsets, end exclusive, checked against the number of words."""
    clusters = obj.get("clusters", [])
    ok = isinstance(clusters, list) and all(isinstance(c, list) for c in clusters)
    _expect(obj, "clusters", ok, "a list of clusters, each a list of [start, end]", loc)
    result: ClusterOffsets = []
    for i, cluster in enumerate(clusters):
        result.append([])
        for j, mention in enumerate(cluster):
            if not _valid_mention(mention, n_words):
                raise DataFormatError(
                    Errors.CE032.format(
                        loc=loc, cluster=i, mention=j, value=json.dumps(mention), n_words=n_words
                    )
                )
            result[-1].append((mention[0], mention[1] + 1))
    return result


def _valid_mention(mention: Any, n_words: int) -> bool:
    if not isinstance(mention, (list, tuple)) or len(mention) != 2:
        return False
    # bool is an int to Python, but `[true, false]` is no mention.
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in mention):
        return False
    return 0 <= mention[0] <= mention[1] < n_words


def _speakers(
    obj: Dict[str, Any], sentences: List[List[str]], loc: str
) -> Optional[List[Optional[str]]]:
    speakers = obj.get("speakers")
    if speakers is None:
        return None
    shape = [len(s) for s in sentences]
    ok = isinstance(speakers, list) and all(isinstance(s, list) for s in speakers)
    if not ok or [len(s) for s in speakers] != shape:
        found = [len(s) if isinstance(s, list) else s for s in speakers] if ok else speakers
        raise DataFormatError(Errors.CE033.format(loc=loc, expected=shape, found=repr(found)[:80]))
    return [None if s is None or s in PLACEHOLDERS else str(s) for sent in speakers for s in sent]


def write_jsonlines(docs: Iterable[Doc], path: PathLike) -> None:
    """Write docs as word-level jsonlines (see the module docstring).

    docs (Iterable[Doc]): The docs; clusters may be gold or predicted.
    path (PathLike): The output file.
    """
    docs = list(docs)
    with Path(path).open("w", encoding="utf8") as file_:
        for doc, name in zip(docs, doc_names(docs)):
            file_.write(json.dumps(doc_to_json(doc, name), ensure_ascii=False) + "\n")


def doc_to_json(doc: Doc, name: str) -> Dict[str, Any]:
    """One doc as a jsonlines object.

    doc (Doc): The doc.
    name (str): Its `doc_key`.
    RETURNS (Dict[str, Any]): The object.
    """
    bounds = sentence_bounds(doc)
    speakers = [speaker or NO_SPEAKER for speaker in get_speakers(doc)]
    obj: Dict[str, Any] = {"doc_key": name}
    part = get_doc_id(doc)["part"]
    if part is not None:
        obj["part"] = str(part)
    obj["sentences"] = [[token.text for token in doc[start:end]] for start, end in bounds]
    obj["speakers"] = [speakers[start:end] for start, end in bounds]
    obj["clusters"] = [[[s, e - 1] for s, e in cluster] for cluster in get_clusters(doc)]
    return obj

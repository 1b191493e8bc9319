"""Coreference data formats: CoNLL-2012, GAP TSV, jsonlines and spaCy DocBin.

`read_docs` and `write_docs` pick the format from the file name, so the CLI and the training
readers need not know about formats.
"""
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..errors import DataFormatError, Errors
from ._util import PathLike
from .conll import CONLL_SUFFIXES, SeenDocs, _read_conll, is_conll_path, read_conll, write_conll
from .gap import GAP_ID, GAP_SUFFIXES, GAP_URL, read_gap, write_gap
from .jsonlines import JSONL_SUFFIXES, read_jsonlines, write_jsonlines
from .pronoun_problems import is_pronoun_problem_file, read_pronoun_problems

__all__ = [
    "read_docs",
    "write_docs",
    "read_conll",
    "write_conll",
    "read_gap",
    "write_gap",
    "read_jsonlines",
    "write_jsonlines",
    "read_pronoun_problems",
    "read_docbin",
    "write_docbin",
    "data_format",
    "GAP_ID",
    "GAP_URL",
]

SPACY_SUFFIXES = (".spacy",)
CONLL, GAP, JSONL, SPACY = "conll", "gap", "jsonl", "spacy"
KNOWN_NAMES = ", ".join((*CONLL_SUFFIXES, "*_conll", *GAP_SUFFIXES, *JSONL_SUFFIXES, ".spacy"))


def data_format(path: PathLike) -> Optional[str]:
    """The format a file name stands for: "conll", "gap", "jsonl", "spacy", or None.

    path (PathLike): The file name.
    RETURNS (Optional[str]): The format, None for other names.
    """
    name = Path(path).name
    if is_conll_path(name):
        return CONLL
    for fmt, suffixes in ((GAP, GAP_SUFFIXES), (JSONL, JSONL_SUFFIXES), (SPACY, SPACY_SUFFIXES)):
        if name.endswith(suffixes):
            return fmt
    return None


def data_files(path: PathLike) -> List[Path]:
    """The data files a path stands for: the file itself, or the data files directly inside
    a directory, sorted (other files, such as LICENSE or brat `.ann`, are left out).

    path (PathLike): A file or a directory.
    RETURNS (List[Path]): The files.
    """
    path = Path(path)
    if not path.is_dir():
        if data_format(path) is None:
            raise DataFormatError(Errors.CE001.format(path=path, expected=KNOWN_NAMES))
        return [path]
    files = sorted(p for p in path.iterdir() if p.is_file() and data_format(p) is not None)
    if not files:
        raise DataFormatError(Errors.CE002.format(path=path, expected=KNOWN_NAMES))
    return files


def read_docs(path: PathLike, *, vocab: Optional[Vocab] = None) -> List[Doc]:
    """Read the docs of a data file, or of every data file in a directory (in name order).

    The format comes from the file name: CoNLL-2012 (`.conll`, `.gold_conll`,
    `.v4_gold_conll`, `*_conll`), GAP (`.tsv`), jsonlines (`.jsonl`, `.jsonlines`: coreference
    documents, or pronoun problems, see `read_pronoun_problems`) or a spaCy DocBin (`.spacy`).

    path (PathLike): A file or a directory.
    vocab (Optional[Vocab]): The vocab of the docs; one new vocab for all files by default.
    RETURNS (List[Doc]): The docs.
    """
    vocab = vocab if vocab is not None else Vocab()
    # CoNLL documents are matched by (name, part) when scored, so they must be unique across
    # the files read together, not only within one file.
    seen: SeenDocs = {}
    docs: List[Doc] = []
    for file_path in data_files(path):
        fmt = data_format(file_path)
        if fmt == CONLL:
            docs.extend(_read_conll(file_path, vocab, seen))
        else:
            docs.extend(_READERS[fmt](file_path, vocab=vocab))
    return docs


def write_docs(docs: Iterable[Doc], path: PathLike) -> None:
    """Write docs in the format the file name stands for (see `read_docs`); GAP output needs
    docs with GAP's PRONOUN, A and B spans.

    docs (Iterable[Doc]): The docs.
    path (PathLike): The output file; its directory is created if needed.
    """
    path = Path(path)
    fmt = data_format(path)
    if fmt is None or path.is_dir():
        raise DataFormatError(Errors.CE001.format(path=path, expected=KNOWN_NAMES))
    path.parent.mkdir(parents=True, exist_ok=True)
    _WRITERS[fmt](docs, path)


def read_docbin(path: PathLike, *, vocab: Optional[Vocab] = None) -> Iterator[Doc]:
    """Read a spaCy DocBin file.

    path (PathLike): The `.spacy` file.
    vocab (Optional[Vocab]): The vocab of the docs; a new one by default.
    YIELDS (Doc): The docs, with their spans and user data.
    """
    data = Path(path).read_bytes()
    # Bad zlib or msgpack data gives ValueError; well-formed data of the wrong shape gives
    # KeyError or TypeError from DocBin.
    try:
        doc_bin = DocBin(store_user_data=True).from_bytes(data)
    except (ValueError, KeyError, TypeError) as e:
        raise DataFormatError(Errors.CE003.format(path=path, error=e)) from e
    yield from doc_bin.get_docs(vocab if vocab is not None else Vocab())


def write_docbin(docs: Iterable[Doc], path: PathLike) -> None:
    """Write docs to a spaCy DocBin with their spans and user data (document names).

    docs (Iterable[Doc]): The docs.
    path (PathLike): The `.spacy` file.
    """
    DocBin(store_user_data=True, docs=docs).to_disk(path)


def _read_any_jsonlines(path: PathLike, *, vocab: Optional[Vocab] = None) -> Iterable[Doc]:
    """Coreference jsonlines, or pronoun problems (WinoGrande, WSC, PDP, BUG: their keys, and
    no 'sentences', tell them apart) as GAP-like partial examples."""
    if is_pronoun_problem_file(path):
        return read_pronoun_problems(path, vocab=vocab)
    return read_jsonlines(path, vocab=vocab)


_READERS: Dict[str, Callable[..., Iterable[Doc]]] = {
    GAP: read_gap,
    JSONL: _read_any_jsonlines,
    SPACY: read_docbin,
}
_WRITERS: Dict[str, Callable[[Iterable[Doc], Path], None]] = {
    CONLL: write_conll,
    GAP: write_gap,
    JSONL: write_jsonlines,
    SPACY: write_docbin,
}

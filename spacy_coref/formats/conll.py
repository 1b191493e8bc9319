"""CoNLL-2012 coreference files (OntoNotes `*_conll`, LitBank, OntoGUM): read and write.

A document runs from `#begin document (NAME); part N` to `#end document`; one token per line,
blank lines between sentences. Columns: document, part, word number, word, then (in 12+ column
files) POS in column 5 and the speaker in column 10; coreference is always the last column.
Brackets `(N` open a mention of cluster N, `N)` close one and `(N)` is a one-token mention; a
token's items are written together (`(3(4)`, `2)3)`) or separated by `|` (`(3)|(4`).
"""
import re
from collections import defaultdict
from pathlib import Path
from typing import IO, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..annotations import get_clusters, get_doc_id, get_speakers
from ..errors import DataFormatError, Errors
from ..types import ClusterOffsets, MentionOffset
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

CONLL_SUFFIXES = (".conll", ".gold_conll", ".v4_gold_conll")
# `#begin document (NAME); part 000`, matched as loosely as the reference scorer matches it.
BEGIN_RE = re.compile(r"^#\s*begin document\b(.*)$")
HEADER_NAME_RE = re.compile(r"^\((.*)\);\s*part\s+(\S+)$")
END_RE = re.compile(r"^#\s*end document\b")
BRACKET_RE = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")
MIN_COLUMNS = 5
WORD_NUMBER_COLUMN = 2
WORD_COLUMN = 3
# Only files in the OntoNotes layout (12 or more columns) carry POS and speakers.
ONTONOTES_COLUMNS = 12
POS_COLUMN = 4
SPEAKER_COLUMN = 9
DEFAULT_PART = "000"

# (document name, part) -> where it was read, to reject duplicates across files.
SeenDocs = Dict[Tuple[str, Optional[str]], str]


def is_conll_path(path: PathLike) -> bool:
    """Whether a file name is a CoNLL-2012 name (`.conll`, `.gold_conll`, `*_conll`)."""
    name = Path(path).name
    return name.endswith(CONLL_SUFFIXES) or name.endswith("_conll")


def read_conll(path: PathLike, *, vocab: Optional[Vocab] = None) -> Iterator[Doc]:
    """Read the documents of a CoNLL-2012 file, one `Doc` per (document, part).

    path (PathLike): The file.
    vocab (Optional[Vocab]): The vocab of the docs; a new one by default.
    YIELDS (Doc): Docs with gold clusters, sentence starts, speakers and document identity.
    """
    yield from _read_conll(Path(path), vocab if vocab is not None else Vocab(), {})


def parse_brackets(field: str, loc: str) -> Tuple[List[int], List[int], List[int]]:
    """The cluster ids of one token's one-token mentions, opening and closing brackets.

    field (str): The coreference column.
    loc (str): `file:line`, for the error.
    RETURNS (Tuple[List[int], List[int], List[int]]): Singles, opens and closes.
    """
    singles: List[int] = []
    opens: List[int] = []
    closes: List[int] = []
    if field in PLACEHOLDERS:
        return singles, opens, closes
    for segment in field.split("|"):
        matches = list(BRACKET_RE.finditer(segment))
        if not matches or "".join(m.group(0) for m in matches) != segment:
            raise DataFormatError(Errors.CE012.format(loc=loc, item=segment, field=field))
        for single, open_, close in (m.groups() for m in matches):
            if single:
                singles.append(int(single))
            elif open_:
                opens.append(int(open_))
            else:
                closes.append(int(close))
    return singles, opens, closes


class _Brackets:
    """Pairs brackets into mentions the way the reference scorer (v8.01) does: per token,
    one-token mentions first, then opens, then closes, each close taking the latest open
    bracket of its cluster.

    Clusters are kept in v8.01's order too: a cluster id is registered at its first bracket
    (v8.01's `GetIndex`), not when its first mention closes. Where a span belongs to two
    clusters, MUC and B-cubed depend on that order, and `set_clusters` keeps it for clusters
    whose first mentions tie (its sort is stable)."""

    def __init__(self) -> None:
        self.open: Dict[int, List[Tuple[int, int]]] = defaultdict(list)  # id -> (token, line)
        self.clusters: Dict[int, List[MentionOffset]] = {}

    def add(self, i: int, brackets: Tuple[List[int], List[int], List[int]], line: int) -> int:
        """Apply token i's brackets. RETURNS (int): a cluster id closed but never opened, or -1."""
        singles, opens, closes = brackets
        for cid in singles:
            self.clusters.setdefault(cid, []).append((i, i + 1))
        for cid in opens:
            self.clusters.setdefault(cid, [])
            self.open[cid].append((i, line))
        for cid in closes:
            if not self.open[cid]:
                return cid
            start, _ = self.open[cid].pop()
            self.clusters[cid].append((start, i + 1))
        return -1

    def unclosed(self) -> Optional[Tuple[int, int]]:
        """The first bracket still open, as (cluster id, line), or None."""
        pending = [(line, cid) for cid, stack in self.open.items() for _, line in stack]
        return (min(pending)[1], min(pending)[0]) if pending else None


class _Document:
    """The tokens and brackets of one document while it is read."""

    def __init__(self, header: str, path: Path, begin: int) -> None:
        rest = BEGIN_RE.match(header).group(1).strip()  # type: ignore[union-attr]
        match = HEADER_NAME_RE.match(rest)
        # A header that does not read `(NAME); part N` is still a document: its name is the rest
        # of the line, which is what the reference scorer matches on.
        self.name, self.part = (match.group(1), match.group(2)) if match else (rest, None)
        self.header = header
        self.path = path
        self.begin = begin
        self.words: List[str] = []
        self.sent_starts: List[bool] = []
        self.speakers: List[Optional[str]] = []
        self.tags: List[str] = []
        self.n_columns = 0
        self.first_line = 0
        self.next_word = 0
        self.brackets = _Brackets()

    def loc(self, line: int) -> str:
        return location(self.path, line)

    def add_token(self, fields: List[str], line: int) -> None:
        self._check_columns(fields, line)
        self._check_word_number(fields[WORD_NUMBER_COLUMN], line)
        if not fields[WORD_COLUMN]:
            raise DataFormatError(Errors.CE011.format(loc=self.loc(line)))
        i = len(self.words)
        self.words.append(fields[WORD_COLUMN])
        wide = self.n_columns >= ONTONOTES_COLUMNS
        speaker = fields[SPEAKER_COLUMN] if wide else "-"
        self.speakers.append(None if speaker in PLACEHOLDERS else speaker)
        tag = fields[POS_COLUMN] if wide else "-"
        self.tags.append("" if tag in PLACEHOLDERS else tag)
        field = fields[-1].strip()
        if field not in PLACEHOLDERS:
            unopened = self.brackets.add(i, parse_brackets(field, self.loc(line)), line)
            if unopened >= 0:
                loc = self.loc(line)
                raise DataFormatError(Errors.CE013.format(loc=loc, cid=unopened, doc=self.name))

    def _check_columns(self, fields: List[str], line: int) -> None:
        if not self.n_columns:
            if len(fields) < MIN_COLUMNS:
                raise DataFormatError(Errors.CE009.format(loc=self.loc(line), found=len(fields)))
            self.n_columns, self.first_line = len(fields), line
        elif len(fields) != self.n_columns:
            raise DataFormatError(
                Errors.CE008.format(
                    loc=self.loc(line),
                    expected=self.n_columns,
                    first=self.first_line,
                    found=len(fields),
                )
            )

    def _check_word_number(self, value: str, line: int) -> None:
        # A number that restarts at 0 without a blank line also starts a sentence: files
        # without blank lines still give their sentences, and nothing is lost.
        expected = self.next_word
        if value.isdecimal() and int(value) in (expected, 0):
            self.sent_starts.append(int(value) == 0)
            self.next_word = int(value) + 1
            return
        why = "a sentence starts at 0" if expected == 0 else "the next in the sentence"
        raise DataFormatError(
            Errors.CE010.format(loc=self.loc(line), expected=expected, why=why, found=value)
        )

    def end_sentence(self) -> None:
        self.next_word = 0

    def check_closed(self, line: int) -> None:
        """Fail on a bracket still open at the document's end (line)."""
        unclosed = self.brackets.unclosed()
        if unclosed is not None:
            cid, open_line = unclosed
            raise DataFormatError(
                Errors.CE014.format(loc=self.loc(open_line), cid=cid, doc=self.name, end=line)
            )

    def finish(self, vocab: Vocab, line: int) -> Tuple[Doc, ClusterOffsets]:
        """Build the doc at `#end document` (line).

        RETURNS (Tuple[Doc, ClusterOffsets]): The doc, and its clusters as read (before
            de-duplication, for the warnings).
        """
        self.check_closed(line)
        doc = make_doc(vocab, self.words, self.sent_starts, tags=self.tags)
        clusters = list(self.brackets.clusters.values())
        annotate(
            doc,
            clusters,
            speakers=self.speakers,
            name=self.name,
            part=self.part,
            header=self.header,
        )
        return doc, clusters


def _read_conll(path: Path, vocab: Vocab, seen: SeenDocs) -> Iterator[Doc]:
    """Read one file; `seen` holds the documents of the files read before it."""
    current: Optional[_Document] = None
    read: List[Tuple[str, ClusterOffsets]] = []
    line = 0
    with path.open(encoding="utf8") as file_:
        for line, text in enumerate(file_, start=1):
            text = text.rstrip("\r\n")
            if text.startswith("#") and BEGIN_RE.match(text):
                if current is not None:
                    loc = location(path, line)
                    raise DataFormatError(
                        Errors.CE005.format(loc=loc, doc=current.name, begin=current.begin)
                    )
                current = _begin(text, path, line, seen)
            elif text.startswith("#") and END_RE.match(text):
                if current is None:
                    raise DataFormatError(Errors.CE007.format(loc=location(path, line)))
                doc, clusters = current.finish(vocab, line)
                read.append((current.name, clusters))
                current = None
                yield doc
            elif not text.strip():
                if current is not None:
                    current.end_sentence()
            elif current is None:
                raise DataFormatError(Errors.CE004.format(loc=location(path, line)))
            else:
                current.add_token(_split(text), line)
    if current is not None:
        # An unclosed bracket is the likelier cause of a missing `#end document`: report it first.
        current.check_closed(line)
        loc = location(path, line)
        raise DataFormatError(Errors.CE006.format(loc=loc, doc=current.name, begin=current.begin))
    check_clusters(path, read)


def _begin(header: str, path: Path, line: int, seen: SeenDocs) -> _Document:
    loc = location(path, line)
    document = _Document(header, path, line)
    key = (document.name, document.part)
    if key in seen:
        raise DataFormatError(
            Errors.CE015.format(loc=loc, doc=document.name, part=document.part, first=seen[key])
        )
    seen[key] = loc
    return document


def _split(text: str) -> List[str]:
    # Tab-separated files may hold empty fields (LitBank ends each line with a tab: an empty
    # coreference column); the OntoNotes release aligns its columns with spaces instead.
    return text.split("\t") if "\t" in text else text.split()


def write_conll(docs: Iterable[Doc], path_or_file: Union[PathLike, IO[str]]) -> None:
    """Write docs (gold or predicted clusters) as CoNLL-2012, TAB-separated.

    Each doc keeps its `#begin document` line as read; docs without one get
    `#begin document (NAME); part NNN` from their name and part (`doc_<i>` and 000 by default).
    Columns: document, part, word number, word, POS, four `-`, speaker, `*`, coreference.

    docs (Iterable[Doc]): The docs.
    path_or_file (Union[PathLike, IO[str]]): A file name, or a text file open for writing.
    """
    docs = list(docs)
    names = doc_names(docs)
    headers = _headers(docs, names)
    # Format everything first, so that a doc that cannot be written leaves no partial file.
    chunks = [_format_doc(doc, name, header) for doc, name, header in zip(docs, names, headers)]
    if isinstance(path_or_file, (str, Path)):
        with Path(path_or_file).open("w", encoding="utf8") as file_:
            file_.writelines(chunks)
    else:
        path_or_file.writelines(chunks)


def coref_column(doc: Doc, *, name: str = "") -> List[str]:
    """The coreference column of a doc's clusters: per token its closing brackets (innermost
    first), one-token mentions, then opening brackets (outermost first), written together.

    In that order no item can run into the next one, and the reference scorer reads it back
    the same. Clusters are numbered 0, 1, ... in key order.

    doc (Doc): The doc.
    name (str): Its name, for the error.
    RETURNS (List[str]): One field per token (`-` where no mention starts or ends).
    """
    clusters = get_clusters(doc)
    singles: Dict[int, List[int]] = defaultdict(list)
    opens: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
    closes: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
    for cid, cluster in enumerate(clusters):
        for start, end in cluster:
            if end - start == 1:
                singles[start].append(cid)
            else:
                opens[start].append((-end, cid))
                closes[end - 1].append((-start, cid))
    column = []
    for i in range(len(doc)):
        items = [f"{cid})" for _, cid in sorted(closes[i])]
        items.extend(f"({cid})" for cid in singles[i])
        items.extend(f"({cid}" for _, cid in sorted(opens[i]))
        column.append("".join(items) or "-")
    _check_readable(column, clusters, name)
    return column


def _check_readable(column: List[str], clusters: ClusterOffsets, name: str) -> None:
    """Read the brackets back: mentions of one cluster that overlap without nesting have no
    bracket form, and writing them anyway would give the scorer other mentions."""
    brackets = _Brackets()
    for i, field in enumerate(column):
        brackets.add(i, parse_brackets(field, name), 0)
    for cid, cluster in enumerate(clusters):
        if sorted(brackets.clusters.get(cid, [])) != cluster:
            mentions = ", ".join(f"[{s}:{e}]" for s, e in cluster)
            raise DataFormatError(Errors.CE016.format(doc=name, mentions=mentions))


def _headers(docs: List[Doc], names: List[str]) -> List[str]:
    headers: List[str] = []
    first: Dict[str, str] = {}
    for doc, name in zip(docs, names):
        header = get_doc_id(doc)["header"]
        if header is None:
            header = f"#begin document ({_escape(name)}); part {_part(doc)}"
        if header in first:
            raise DataFormatError(
                Errors.CE017.format(header=header, first=first[header], second=name)
            )
        first[header] = name
        headers.append(header)
    return headers


def _part(doc: Doc) -> str:
    """The part as the header writes it: as read, or zero-padded when it is a number."""
    part = get_doc_id(doc)["part"]
    if part is None:
        return DEFAULT_PART
    return f"{part:03d}" if isinstance(part, int) else str(part)


def _format_doc(doc: Doc, name: str, header: str) -> str:
    part = _part(doc)
    part_column = str(int(part)) if part.isdecimal() else part
    coref = coref_column(doc, name=name)
    speakers = get_speakers(doc)
    name_column = _escape(name)
    lines = [header]
    for start, end in sentence_bounds(doc):
        for i in range(start, end):
            token = doc[i]
            speaker = _escape(speakers[i]) if speakers[i] else "-"
            # fmt: off
            lines.append("\t".join((
                name_column, part_column, str(i - start), _escape(token.text),
                token.tag_ or "-", "-", "-", "-", "-", speaker, "*", coref[i],
            )))
            # fmt: on
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    # One token per line whatever the token: whitespace tokens of predicted docs ("\n\n")
    # would otherwise break the line structure that the scorer counts tokens by.
    return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")

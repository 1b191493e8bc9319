"""GAP (Webster et al., 2018) TSV files: read and write.

One row is one example: a text, an ambiguous pronoun and two candidate names given as character
offsets, and whether each name corefers with the pronoun. A doc keeps the three spans, labelled
PRONOUN, A and B, under `GOLD_MENTIONS_KEY` (they are the only mentions with gold decisions)
and the coreferent pairs as its gold clusters.
"""
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

import spacy
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import get_words_and_spaces
from spacy.vocab import Vocab

from ..annotations import GOLD_MENTIONS_KEY, get_clusters, set_clusters, set_doc_id
from ..errors import DataFormatError, Errors
from ..lang.en import english
from ._util import PathLike, doc_names, location

GAP_SUFFIXES = (".tsv",)
# doc.user_data keys of the example's ID and its Wikipedia URL (page-context setting only).
GAP_ID = "gap_id"
GAP_URL = "gap_url"
PRONOUN, A, B = "PRONOUN", "A", "B"
GAP_ROLES = (PRONOUN, A, B)
# fmt: off
GAP_COLUMNS = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref",
               "B", "B-offset", "B-coref", "URL")
# fmt: on
# The span columns of each role, and the coref flag column (None: the pronoun has none).
ROLE_COLUMNS = ((PRONOUN, "Pronoun", None), (A, "A", "A-coref"), (B, "B", "B-coref"))
# "she", "her", "hers", "herself"; "he", "him", "his", "himself" (the lexicon's pronoun table)
FEMININE_PRONOUNS = frozenset(english().pronouns(gender="feminine"))
MASCULINE_PRONOUNS = frozenset(english().pronouns(gender="masculine"))


class GapExample(NamedTuple):
    """One checked row of a GAP file."""

    id: str
    text: str
    spans: Dict[str, Tuple[int, int]]  # role -> (start, end) character offsets
    coref: Dict[str, bool]  # "A"/"B" -> corefers with the pronoun
    url: str


def read_gap(path: PathLike, *, vocab: Optional[Vocab] = None) -> Iterator[Doc]:
    """Read a GAP TSV file (header row and 11 columns, no quoting), one doc per example.

    path (PathLike): The file.
    vocab (Optional[Vocab]): The vocab of the docs; an English one by default.
    YIELDS (Doc): Docs with the PRONOUN/A/B spans, clusters for the coreferent pairs, sentence
        starts, and the ID and URL in `doc.user_data`.
    """
    nlp: Optional[Language] = None
    sentencizer = Sentencizer()
    path = Path(path)
    with path.open(encoding="utf8") as file_:
        for line, text in enumerate(file_, start=1):
            # Split on tabs only: GAP is unquoted, so a `"` in the text is just a character.
            fields = text.rstrip("\r\n").split("\t")
            if line == 1:
                _check_header(fields, path)
            elif text.strip():
                example = parse_gap_row(fields, location(path, line))
                if nlp is None:
                    nlp = spacy.blank("en", vocab=vocab) if vocab is not None else spacy.blank("en")
                yield sentencizer(_make_gap_doc(nlp, example, location(path, line)))


def _check_header(fields: List[str], path: Path) -> None:
    if tuple(fields) != GAP_COLUMNS:
        raise DataFormatError(
            Errors.CE020.format(
                loc=location(path, 1), expected=" ".join(GAP_COLUMNS), found=" ".join(fields)
            )
        )


def parse_gap_row(fields: List[str], loc: str) -> GapExample:
    """Check one row's columns, offsets and labels.

    fields (List[str]): The row's tab-separated fields.
    loc (str): `file:line`, for errors.
    RETURNS (GapExample): The example.
    """
    if len(fields) != len(GAP_COLUMNS):
        raise DataFormatError(
            Errors.CE021.format(loc=loc, expected=len(GAP_COLUMNS), found=len(fields))
        )
    row = dict(zip(GAP_COLUMNS, fields))
    text = row["Text"]
    spans: Dict[str, Tuple[int, int]] = {}
    coref: Dict[str, bool] = {}
    for role, column, coref_column in ROLE_COLUMNS:
        spans[role] = _char_span(text, row[column], row[f"{column}-offset"], column, loc)
        if coref_column is not None:
            coref[role] = parse_flag(row[coref_column], coref_column, loc)
    return GapExample(row["ID"], text, spans, coref, row["URL"])


def _char_span(text: str, span: str, offset: str, column: str, loc: str) -> Tuple[int, int]:
    if not offset.isdecimal():
        raise DataFormatError(Errors.CE022.format(loc=loc, column=f"{column}-offset", found=offset))
    start = int(offset)
    found = text[start : start + len(span)]
    if not span or found != span:
        raise DataFormatError(
            Errors.CE023.format(loc=loc, column=column, span=span, offset=start, found=found)
        )
    return start, start + len(span)


def parse_flag(value: str, column: str, loc: str) -> bool:
    """GAP's TRUE/FALSE (any case); CE024 names the place (`loc`) and column otherwise."""
    if value.upper() not in ("TRUE", "FALSE"):
        raise DataFormatError(Errors.CE024.format(loc=loc, column=column, found=value))
    return value.upper() == "TRUE"


def tokenize_at_spans(nlp: Language, text: str, spans: Iterable[Tuple[int, int]]) -> Doc:
    """The text as a doc with a token boundary at every edge of the (start, end) character
    spans, even inside a word (`Simon` in `Simon's`): the pieces between span edges are
    tokenized separately."""
    bounds = sorted({0, len(text)} | {i for span in spans for i in span})
    words = [
        token.text
        for start, end in zip(bounds, bounds[1:])
        for token in nlp.tokenizer(text[start:end])
        if not token.is_space
    ]
    words, spaces = get_words_and_spaces(words, text)
    return Doc(nlp.vocab, words=words, spaces=spaces)


def _make_gap_doc(nlp: Language, example: GapExample, loc: str) -> Doc:
    """Tokenize so that every labelled span is a token span, and annotate the doc."""
    text = example.text
    doc = tokenize_at_spans(nlp, text, example.spans.values())
    spans: Dict[str, Span] = {}
    for role, column, _ in ROLE_COLUMNS:
        start, end = example.spans[role]
        span = doc.char_span(start, end, label=role)
        if span is None:
            raise DataFormatError(
                Errors.CE025.format(loc=loc, column=column, span=text[start:end], offset=start)
            )
        spans[role] = span
    group = SpanGroup(doc, name=GOLD_MENTIONS_KEY, spans=list(spans.values()))
    doc.spans[GOLD_MENTIONS_KEY] = group
    cluster = [spans[PRONOUN]] + [spans[role] for role in (A, B) if example.coref[role]]
    if len(cluster) > 1:
        set_clusters(doc, [[(span.start, span.end) for span in cluster]])
    set_doc_id(doc, example.id)
    doc.user_data[GAP_ID] = example.id
    doc.user_data[GAP_URL] = example.url
    return doc


def write_gap(docs: Iterable[Doc], path: PathLike) -> None:
    """Write docs as a GAP TSV file, with A-coref/B-coref from their clusters (gold or
    predicted): TRUE when the name is in the pronoun's cluster.

    docs (Iterable[Doc]): Docs with the PRONOUN, A and B spans under `GOLD_MENTIONS_KEY`.
    path (PathLike): The output file.
    """
    docs = list(docs)
    rows = ["\t".join(GAP_COLUMNS)]
    rows.extend("\t".join(gap_row(doc, name)) for doc, name in zip(docs, doc_names(docs)))
    Path(path).write_text("\n".join(rows) + "\n", encoding="utf8")


def gap_spans(doc: Doc) -> Optional[Dict[str, Span]]:
    """The PRONOUN, A and B spans of a GAP doc, or None if it does not have exactly those.

    doc (Doc): The doc.
    RETURNS (Optional[Dict[str, Span]]): Role -> span.
    """
    group = doc.spans.get(GOLD_MENTIONS_KEY, [])
    spans = {span.label_: span for span in group}
    return spans if len(group) == len(GAP_ROLES) and set(spans) == set(GAP_ROLES) else None


def gap_coref(doc: Doc, spans: Dict[str, Span]) -> Dict[str, bool]:
    """Whether A and B are in the pronoun's cluster.

    doc (Doc): The doc, with clusters.
    spans (Dict[str, Span]): Its GAP spans (see `gap_spans`).
    RETURNS (Dict[str, bool]): "A"/"B" -> coreferent.
    """
    offsets = {role: (span.start, span.end) for role, span in spans.items()}
    clusters = [set(cluster) for cluster in get_clusters(doc) if offsets[PRONOUN] in cluster]
    return {role: any(offsets[role] in cluster for cluster in clusters) for role in (A, B)}


def gap_row(doc: Doc, name: str) -> List[str]:
    """The GAP columns of one doc (see `write_gap`).

    doc (Doc): The doc.
    name (str): The ID to write when `doc.user_data` has none.
    RETURNS (List[str]): The 11 fields.
    """
    spans = gap_spans(doc)
    if spans is None:
        found = [span.label_ for span in doc.spans.get(GOLD_MENTIONS_KEY, [])]
        raise DataFormatError(Errors.CE026.format(doc=name, key=GOLD_MENTIONS_KEY, found=found))
    if any(char in doc.text for char in "\t\n\r"):
        raise DataFormatError(Errors.CE027.format(doc=name))
    coref = gap_coref(doc, spans)
    fields = [doc.user_data.get(GAP_ID) or name, doc.text]
    for role, _, _ in ROLE_COLUMNS:
        fields.extend((spans[role].text, str(spans[role].start_char)))
        if role in coref:
            fields.append("TRUE" if coref[role] else "FALSE")
    fields.append(doc.user_data.get(GAP_URL) or "")
    return fields

"""Resolve records with a coreference pipeline and build the output records that
`spacy-coref resolve` writes, one per document (the format is described in `cli/resolve.py`).

Shared by the serial command and the Ray workers (`spacy_coref.scaleout.workers`), which
import this module and not the command line. Also the checks of one input record or line, which
raise a `DataFormatError` that names where the input is.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from .annotations import cluster_number
from .errors import DataFormatError, Errors
from .ml.precision import check_precision
from .pipeline.cluster import CorefCluster
from .pipeline.coref import SHIPPED_PIPELINES, CorefStack
from .pipeline.loading import BASE_PIPELINE, follow_scheme, load_coref_nlp

COREF_FACTORIES = ("coref", "coref_cluster")

Record = Dict[str, Any]


def load_resolver(
    model: str,
    *,
    base: str = BASE_PIPELINE,
    scores: bool = False,
    scheme: Optional[str] = None,
    precision: Optional[str] = None,
) -> Language:
    """Load a pipeline that parses and resolves coreference (see `load_coref_nlp`).

    model (str): "default", "fast" or "accurate" (shipped), a pipeline directory, or an
        installed package.
    base (str): The parser pipeline to stack a coreference pipeline on.
    scores (bool): Make the coreference components store their pair scores.
    scheme (Optional[str]): The annotation scheme for every `coref_cluster` to follow; None:
        their own setting.
    precision (Optional[str]): The precision of the encoder every coreference component reads
        ("fp32", "bf16", "auto"); None: their own setting. An unknown one raises CE370.
    RETURNS (Language): The pipeline.
    """
    if precision is not None:  # a wrong name fails before the model loads
        check_precision(precision)
    nlp = load_coref_nlp(_model_location(model), base=base)
    coref_pipes = [pipe for _, pipe in nlp.pipeline if isinstance(pipe, (CorefStack, CorefCluster))]
    if not coref_pipes:
        names = ", ".join(nlp.pipe_names) or "no components"
        factories = " or ".join(COREF_FACTORIES)
        raise ValueError(Errors.CE209.format(factories=factories, model=model, names=names))
    for pipe in coref_pipes:
        _prepare(pipe, scores=scores)
        if precision is not None:
            pipe.use_precision(precision)
    if scheme is not None:  # one the model does not know fails here, before any output
        follow_scheme(nlp, scheme)
    return nlp


def _prepare(pipe: Union[CorefStack, CorefCluster], *, scores: bool) -> None:
    """Load a `coref` stack's own pipeline now (it loads on first use), so that a broken one
    fails here and not in the middle of the output; with `scores`, make every `coref_cluster`
    store its pair scores."""
    pipes: List[Any] = [pipe]
    if isinstance(pipe, CorefStack):
        pipes += [inner for _, inner in pipe.inner.pipeline if isinstance(inner, CorefCluster)]
    if scores:
        for each in pipes:
            each.cfg["store_scores"] = True


def resolve_records(
    nlp: Language, records: Iterable[Record], *, batch_size: int = 16, scores: bool = False
) -> Iterator[Tuple[Doc, Record]]:
    """Resolve each record's "text" and build its output record.

    nlp (Language): A pipeline from `load_resolver`.
    records (Iterable[Record]): Records with a "text" field.
    batch_size (int): Documents per batch.
    scores (bool): Add the pair scores (the pipeline must store them).
    YIELDS (Tuple[Doc, Record]): Each doc and its output record, in input order.
    """
    pairs = ((record["text"], record) for record in records)
    for doc, record in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        title = record.get("title", record.get("id"))
        if title is not None:
            doc.user_data["title"] = str(title)
        yield doc, doc_record(doc, record, scores=scores)


def doc_record(doc: Doc, record: Optional[Record] = None, *, scores: bool = False) -> Record:
    """The output record of a resolved doc.

    doc (Doc): The resolved doc.
    record (Optional[Record]): Input fields to keep ("text" is the doc's text).
    scores (bool): Add "scores", the stored pair scores.
    RETURNS (Record): The fields of the input record, "text", "clusters", "resolved" and,
        with `scores`, "scores".
    """
    out: Record = dict(record or {})
    out["text"] = doc.text
    out["clusters"] = [
        {
            "id": cluster_number(cluster.key),
            "main": _mention(cluster.main),
            "mentions": [_mention(span) for span in cluster.mentions],
        }
        for cluster in doc._.coref_clusters
    ]
    out["resolved"] = doc._.coref_resolved
    if scores:
        out["scores"] = [
            {
                "mention": _mention(doc[m_start:m_end]),
                "antecedent": _mention(doc[a_start:a_end]),
                "score": score,
            }
            for (m_start, m_end), antecedents in sorted(doc._.coref_scores.items())
            for (a_start, a_end), score in sorted(antecedents.items())
        ]
    return out


def _mention(span: Span) -> Dict[str, Any]:
    return {"start": span.start_char, "end": span.end_char, "text": span.text}


def _model_location(model: str) -> str:
    """What `load_coref_nlp` takes: a shipped pipeline's name ("default", "fast", "accurate"),
    or the directory of a pipeline (a package's data directory, which holds its config.cfg)."""
    if model in SHIPPED_PIPELINES or Path(model).exists() or not spacy.util.is_package(model):
        return model
    package_dir = spacy.util.get_package_path(model)
    configs = sorted(package_dir.glob("*/config.cfg"))
    return str(configs[0].parent) if configs else model


def decode_text(data: bytes, name: str, first_line: int) -> str:
    """Decode input bytes as UTF-8, without a byte order mark at the start of the input.

    data (bytes): The bytes of a whole input or of one of its lines.
    name (str): The input's name, for the message.
    first_line (int): The line number of the first byte, from 1.
    RETURNS (str): The text. Raises CE203, naming the line, where it is not UTF-8.
    """
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError as e:
        line = first_line + data[: e.start].count(b"\n")
        raise DataFormatError(Errors.CE203.format(loc=f"{name}:{line}", error=e.reason)) from e
    # a byte order mark opens some files written on Windows; it is not text
    return text[1:] if first_line == 1 and text.startswith("\ufeff") else text


def parse_record(line: str, loc: str) -> Record:
    """Parse one jsonlines input record.

    line (str): The JSON text of the record.
    loc (str): Where it is ("file:line"), for the message.
    RETURNS (Record): The record. Raises CE200 (not JSON), CE201 (no string "text") or CE210
        (an unpaired surrogate).
    """
    try:
        value = json.loads(line)
    except json.JSONDecodeError as e:
        raise DataFormatError(Errors.CE200.format(loc=loc, error=e.msg)) from e
    _check_unicode(line, value, loc)
    if not isinstance(value, dict):
        found = f"a JSON {type(value).__name__}"
    elif "text" not in value:
        found = f"an object with the fields {sorted(value)}"
    elif not isinstance(value["text"], str):
        found = f"a \"text\" of type {type(value['text']).__name__}"
    else:
        return value
    raise DataFormatError(Errors.CE201.format(loc=loc, found=found))


def _check_unicode(line: str, value: Any, loc: str) -> None:
    """JSON can spell an unpaired surrogate ("\\ud800"): spaCy would take it, the UTF-8 output
    could not."""
    if "\\u" not in line:  # only an escape can make one
        return
    decoded = json.dumps(value, ensure_ascii=False)
    for char in decoded:
        if "\ud800" <= char <= "\udfff":
            raise DataFormatError(Errors.CE210.format(loc=loc, char=ascii(char)))

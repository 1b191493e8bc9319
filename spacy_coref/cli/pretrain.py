"""`spacy-coref pretrain`: self-supervised pre-training of the coreference model (name and
pronoun masking, seed 000) on unlabeled text; `spacy train ... --paths.init_coref OUTPUT` then
starts from it."""

from pathlib import Path

import typer
from spacy.cli._util import parse_config_overrides, setup_gpu
from wasabi import msg

from ..util import check_at_least_one
from ..training.pretraining import pretrain
from ._app import app, fail_one_line


@app.command(
    "pretrain", context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
)
def pretrain_cli(
    # fmt: off
    ctx: typer.Context,
    config: Path = typer.Argument(..., help="Training config with a coref_cluster component (e.g. configs/coref_trf_frozen.cfg)", exists=True, dir_okay=False),
    data: Path = typer.Argument(..., help="Unlabeled text: a .jsonl file, a directory of them or a quoted pattern of their names (e.g. '../shared/data/modern/wikipedia-*.jsonl')"),
    output: Path = typer.Argument(..., help="Output directory (pass it to `spacy train` as --paths.init_coref)"),
    max_texts: int = typer.Option(200, "--max-texts", help="Use at most this many texts"),
    max_words: int = typer.Option(600, "--max-words", help="Split chunks at paragraph breaks into texts of about this many words"),
    max_steps: int = typer.Option(300, "--max-steps", help="Optimizer steps"),
    batch_size: int = typer.Option(8, "--batch-size", help="Texts per batch (both kinds in each)"),
    seed: int = typer.Option(0, "--seed", help="Seed of text order, masking and initialization"),
    hidden: int = typer.Option(512, "--hidden", help="Hidden width of the pronoun FFNN"),
    gpu_id: int = typer.Option(-1, "--gpu-id", "-g", help="GPU id, or -1 for the CPU (as `spacy train`)"),
    # fmt: on
) -> None:
    """Pre-train coref_cluster with name masking and pronoun masking. Extra --section.key value
    options override the config (e.g. --paths.base_model training/base)."""
    overrides = parse_config_overrides(ctx.args)
    try:
        check_at_least_one(
            max_texts=max_texts, max_steps=max_steps, batch_size=batch_size,
            max_words=max_words, hidden=hidden,
        )
        setup_gpu(gpu_id)
        stats = pretrain(
            config,
            data,
            output,
            overrides=overrides,
            max_texts=max_texts,
            max_words=max_words,
            max_steps=max_steps,
            batch_size=batch_size,
            seed=seed,
            hidden=hidden,
        )
    except ValueError as e:
        fail_one_line(str(e))
    msg.info(
        f"{stats['texts']} texts ({stats['words']} words): {stats['name_examples']} "
        f"name examples ({stats['name_mentions']} masked names), "
        f"{stats['pronoun_examples']} pronoun examples ({stats['pronouns']} pronouns)"
    )
    first, last = stats["losses"][0], stats["losses"][-1]
    msg.info(
        f"losses (names / pronouns): {first['names']:.3f} / {first['pronouns']:.3f} at step "
        f"{first['step']}, {last['names']:.3f} / {last['pronouns']:.3f} at step {last['step']}"
    )
    msg.good(f"Saved {output} in {stats['seconds']:.0f} s")

"""`spacy-coref train`: `spacy train` with checkpoints (pipeline, optimizer state, step, schedules,
random states) written every N steps into a directory best kept outside the repository, and
--resume to go on from the last one after the run stopped (killed, machine gone)."""
import signal
from pathlib import Path

import typer
from spacy.cli._util import parse_config_overrides, setup_gpu, show_validation_error
from wasabi import msg

from ..training.resumable import LOG_FILE, train
from ._app import app, fail_one_line


@app.command(
    "train", context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
)
def train_cli(
    # fmt: off
    ctx: typer.Context,
    config: Path = typer.Argument(..., help="Training config (as for `spacy train`)", exists=True, dir_okay=False),
    output: Path = typer.Option(..., "--output", "-o", help="Output directory: model-best, model-last and train_log.json"),
    checkpoints: Path = typer.Option(..., "--checkpoints", help="Checkpoint directory, best outside the repository (a disk that outlives the machine)"),
    checkpoint_every: int = typer.Option(500, "--checkpoint-every", help="Write a checkpoint every N steps (also at the end and on SIGTERM/SIGINT)"),
    resume: bool = typer.Option(False, "--resume", help="Go on from the last checkpoint up to training.max_steps (the total)"),
    force: bool = typer.Option(False, "--force", help="With --resume: go on although settings other than max_steps, patience and evaluation changed"),
    gpu_id: int = typer.Option(-1, "--gpu-id", "-g", help="GPU id, or -1 for the CPU (as `spacy train`)"),
    # fmt: on
) -> None:
    """Train like `spacy train` (same steps, same weights), writing checkpoints to go on from
    with --resume. Extra --section.key value options override the config."""
    overrides = parse_config_overrides(ctx.args)
    try:
        setup_gpu(gpu_id)
        with show_validation_error(config, hint_fill=False):
            summary = train(
                config,
                output,
                checkpoints,
                overrides=overrides,
                checkpoint_every=checkpoint_every,
                resume=resume,
                force=force,
                use_gpu=gpu_id,
            )
    except ValueError as e:
        fail_one_line(str(e))
    best = summary["best_score"]
    best_text = f"best score {best:.4f} at step {summary['best_step']}" if best is not None else ""
    msg.info(
        f"Step {summary['step']} (epoch {summary['epoch']}): {summary['steps_per_hour']:.0f} "
        f"steps/h in this session, {summary['cpu_hours']:.3f} CPU hours in all; {best_text}"
    )
    msg.info(f"Checkpoint: {summary['checkpoint']}; log: {output / LOG_FILE}")
    if summary["stopped_by"]:
        msg.warn(f"Stopped by {summary['stopped_by']}: go on with the same command and --resume")
        raise typer.Exit(128 + signal.Signals[summary["stopped_by"]].value)
    msg.good("Saved pipeline to output directory", output / "model-last")

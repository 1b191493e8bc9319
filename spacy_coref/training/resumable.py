"""Training runs that stop at any step (killed, machine gone) and go on from their last checkpoint.

`ResumableTraining` runs spaCy's training pieces (`init_nlp`, `create_train_batches`, the
evaluation callback, the logger, `before_update`, model-best and model-last), so a run gives the
weights of `spacy train` with the same config and seed. Every N steps, at the end and on
SIGTERM/SIGINT it writes a checkpoint (a temporary directory, renamed): the pipeline, the
optimizer's state keyed by where each parameter sits (Thinc's ids differ in another process),
step, epoch, evaluations, random states (Python, NumPy, PyTorch) and the config; the best
pipeline is copied beside it. A resumed run loads the pipeline, advances the schedules and
replays the seeded batch stream to the step (the random state of each epoch's shuffle is kept),
so it ends with the weights of an uninterrupted run. Not restored: CuPy's random state, the
mixed-precision grad scaler, the `_rehearsal_model` of sourced components.
"""
import hashlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from contextlib import contextmanager
from functools import partial
from itertools import islice
from pathlib import Path
from timeit import default_timer as timer
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy
import srsly
from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.training import loop
from spacy.training.initialize import init_nlp
from spacy.util import (
    SimpleFrozenDict,
    dict_to_dot,
    load_config,
    load_model_from_config,
    registry,
    resolve_dot_names,
)
from thinc.api import Config, Optimizer, constant, fix_random_seed
from thinc.api import set_gpu_allocator
from wasabi import Printer

from ..errors import Errors, Warnings, warn
from ..util import check_at_least_one
from .optimizer_state import get_optimizer_state, set_optimizer_state
from .random_state import get_python_state, get_random_states, set_python_state
from .random_state import set_random_states

CHECKPOINT_PREFIX = "step-"
BEST_PREFIX = "best-"
NLP_DIR = "nlp"
STATE_FILE = "state.json"
ARRAYS_FILE = "arrays.msgpack"  # optimizer state, random states, epoch start states
CONFIG_FILE = "config.cfg"  # the training config with its overrides, not interpolated
LOG_FILE = "train_log.json"  # in the output directory: one record per evaluation
# what a resumed run may change without --force: when to stop and how to evaluate
RESUMABLE_SETTINGS = (
    "training.max_steps", "training.eval_frequency", "training.patience", "training.logger",
    "training.score_weights", "training.dev_corpus", "corpora.dev", "paths.dev",
)


def config_changes(saved: Config, config: Config) -> List[str]:
    """The settings that differ between two configs (not interpolated), RESUMABLE_SETTINGS aside.

    RETURNS (List[str]): One 'section.key: old -> new' line per changed setting.
    """
    old, new = dict_to_dot(saved), dict_to_dot(config)
    keys = [k for k in sorted(old.keys() | new.keys()) if not _resumable(k)]
    return [f"{k}: {old.get(k, '(none)')!r} -> {new.get(k, '(none)')!r}" for k in keys
            if old.get(k, "(none)") != new.get(k, "(none)")]


def config_hash(config: Config) -> str:
    """SHA-256 of the settings of a config (not interpolated), RESUMABLE_SETTINGS aside."""
    flat = {key: value for key, value in dict_to_dot(config).items() if not _resumable(key)}
    return hashlib.sha256(json.dumps(flat, sort_keys=True, default=str).encode()).hexdigest()


def _resumable(key: str) -> bool:
    return any(key == name or key.startswith(name + ".") for name in RESUMABLE_SETTINGS)


def _recorded(stream: Iterator, epoch_states: List[List[Any]], n_replay: int) -> Iterator:
    """The batches of spaCy's `create_train_batches`, recording into `epoch_states` the Python
    random state that each epoch's shuffle starts from; the first `n_replay` batches start from
    the recorded states, so they are those of the run that recorded them."""
    epoch, n = -1, 0
    while True:
        if n < n_replay and epoch + 1 < len(epoch_states):  # this batch may start an epoch
            set_python_state(epoch_states[epoch + 1])
        state = get_python_state()
        item = next(stream, None)
        if item is None:
            return
        if item[0] > epoch:
            epoch = item[0]
            if epoch == len(epoch_states):
                epoch_states.append(state)
        n += 1
        yield item


def latest_checkpoint(directory: Path, prefix: str = CHECKPOINT_PREFIX) -> Optional[Path]:
    """The checkpoint of the highest step in `directory` (BEST_PREFIX: the best pipeline), or
    None."""
    found = [p for p in directory.glob(prefix + "*") if p.name[len(prefix) :].isdigit()]
    return max(found, default=None)


def _write_atomically(directory: Path, name: str, write: Callable[[Path], Any]) -> Path:
    """Write the directory `name` as a temporary one and rename it, then remove the others of
    its prefix ('step-', 'best-') and the temporary ones that killed runs left."""
    directory.mkdir(parents=True, exist_ok=True)
    target, tmp = directory / name, directory / f".tmp-{name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    write(tmp)
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)
    for old in [*directory.glob(name.split("-")[0] + "-*"), *directory.glob(".tmp-*")]:
        if old != target:
            shutil.rmtree(old, ignore_errors=True)
    return target


def _write_checkpoint(path: Path, *, nlp: Language, state: Dict, arrays: Dict, config: Config):
    path.mkdir(parents=True)
    nlp.to_disk(path / NLP_DIR)
    (path / ARRAYS_FILE).write_bytes(srsly.msgpack_dumps(arrays))
    config.to_disk(path / CONFIG_FILE, interpolate=False)
    srsly.write_json(path / STATE_FILE, state)


class ResumableTraining:
    """One session of a training run: a new run, or the run of the last checkpoint in
    `checkpoints` going on (`resume`). Iterate `steps()`, then call `finish()` (see `train`)."""

    def __init__(
        self,
        config: Config,
        checkpoints: Path,
        *,
        output: Optional[Path] = None,
        checkpoint_every: int = 500,
        resume: bool = False,
        force: bool = False,
        use_gpu: int = -1,
        stdout: IO = sys.stdout,
        stderr: IO = sys.stderr,
    ) -> None:
        check_at_least_one(checkpoint_every=checkpoint_every)
        self.clock = (timer(), time.process_time())
        self.config, self.checkpoints, self.output = config, checkpoints, output
        self.every, self.stdout, self.printer = checkpoint_every, stdout, Printer(no_print=True)
        self.stop_signal: Optional[int] = None
        last = latest_checkpoint(checkpoints)
        if resume and last is None:
            raise ValueError(Errors.CE360.format(path=checkpoints))
        if last is not None and not resume:
            raise ValueError(Errors.CE362.format(path=last))
        arrays: Optional[Dict[str, Any]] = None
        if last is not None:
            self.nlp, self.state, arrays = self._load(last, force=force)
        else:
            self.nlp = init_nlp(config, use_gpu=use_gpu)
            self.state = {"step": -1, "epoch": 0, "words": 0, "seconds": 0.0,
                          "cpu_seconds": 0.0, "results": [], "losses": {}, "log": []}
            loop.clean_output_dir(output)
        if output is not None:
            output.mkdir(parents=True, exist_ok=True)
        self.state["config_hash"] = config_hash(config)
        self.start_step = self.saved_step = self.state["step"]
        self.epoch_states: List[List[Any]] = arrays["epoch_states"] if arrays else []
        self._setup(use_gpu, stderr)
        if last is not None and arrays is not None:
            self._restore(last, arrays)

    def _load(self, path: Path, *, force: bool) -> Tuple[Language, Dict, Dict]:
        state = srsly.read_json(path / STATE_FILE)
        if state["config_hash"] != config_hash(self.config):
            saved = Config().from_disk(path / CONFIG_FILE, interpolate=False)
            changes = "; ".join(config_changes(saved, self.config))
            if not force:
                raise ValueError(Errors.CE361.format(path=path / CONFIG_FILE, changes=changes,
                                                     allowed=", ".join(RESUMABLE_SETTINGS)))
            warn(Warnings.CW361.format(changes=changes))
        nlp = load_model_from_config(self.config, auto_fill=True)
        nlp.from_disk(path / NLP_DIR, exclude=["config"])  # keep this run's config
        return nlp, state, srsly.msgpack_loads((path / ARRAYS_FILE).read_bytes())

    def _setup(self, use_gpu: int, stderr: IO) -> None:
        """What spaCy's `train` does before its loop; the batches and schedules go to the step."""
        nlp, n_done = self.nlp, self.state["step"] + 1
        config = nlp.config.interpolate()
        if config["training"]["seed"] is not None:
            fix_random_seed(config["training"]["seed"])
        if use_gpu >= 0 and config["training"]["gpu_allocator"]:
            set_gpu_allocator(config["training"]["gpu_allocator"])
        T = self.T = registry.resolve(config["training"], schema=ConfigSchemaTraining)
        train_corpus, dev_corpus = resolve_dot_names(config, [T["train_corpus"], T["dev_corpus"]])
        self.optimizer: Optimizer = T["optimizer"]
        self.evaluate = loop.create_evaluation_callback(nlp, dev_corpus, T["score_weights"])
        self.before_to_disk = loop.create_before_to_disk_callback(T["before_to_disk"])
        dropout = T["dropout"]
        self.dropouts = constant(dropout) if isinstance(dropout, float) else dropout
        batches = loop.create_train_batches(nlp, train_corpus, T["batcher"], T["max_epochs"])
        self.batches = _recorded(batches, self.epoch_states, n_done)
        for _ in islice(self.batches, n_done):
            self.optimizer.step_schedules()
            next(self.dropouts)
        self._print(f"Pipeline: {nlp.pipe_names}")
        if T["frozen_components"]:
            self._print(f"Frozen components: {T['frozen_components']}")
        if T["annotating_components"]:
            self._print(f"Set annotations on update for: {T['annotating_components']}")
        self._print(f"Initial learn rate: {self.optimizer.learn_rate}")
        with nlp.select_pipes(disable=T["frozen_components"]):
            self.log_step, self.finalize_logger = T["logger"](nlp, self.stdout, stderr)

    def _restore(self, path: Path, arrays: Dict[str, Any]) -> None:
        saved = arrays["optimizer"]
        set_optimizer_state(self.optimizer, self.nlp, saved)
        if not numpy.isclose(self.optimizer.learn_rate, saved["learn_rate"]):
            warn(Warnings.CW360.format(step=self.state["step"], saved=saved["learn_rate"],
                                       found=self.optimizer.learn_rate))
        best = latest_checkpoint(self.checkpoints, BEST_PREFIX)
        if self.output and best and not (self.output / loop.DIR_MODEL_BEST).exists():
            shutil.copytree(best, self.output / loop.DIR_MODEL_BEST)
        if self.output:  # the log up to the checkpoint (a lost run's later records go)
            srsly.write_json(self.output / LOG_FILE, self.state["log"])
        set_random_states(arrays["random"])  # last: building and replaying drew numbers
        results = self.state["results"]
        best_text = f", best score {max(results)[0]:.4f}" if results else ""
        self._print(f"Resuming from {path}: step {self.state['step']}, epoch "
                    f"{self.state['epoch']}{best_text}")

    def steps(self) -> Iterator[Dict[str, Any]]:
        """Train from the step after the checkpoint's as spaCy's `train_while_improving` does,
        and yield each step's info (after its evaluation and checkpoint, if any)."""
        T, nlp, state = self.T, self.nlp, self.state
        exclude, annotates = T["frozen_components"], T["annotating_components"]
        if state["step"] >= 0 and self._done():
            return
        for epoch, batch in self.batches:
            step = state["step"] + 1
            if T["before_update"]:
                T["before_update"](nlp, {"step": step, "epoch": epoch})
            dropout = next(self.dropouts)
            for subbatch in loop.subdivide_batch(batch, T["accumulate_gradient"]):
                nlp.update(subbatch, drop=dropout, losses=state["losses"],
                           sgd=False, exclude=exclude, annotates=annotates)  # type: ignore
            for name, proc in nlp.pipeline:
                if name not in exclude and getattr(proc, "is_trainable", False) and (
                    proc.model not in (True, False, None)  # type: ignore[attr-defined]
                ):
                    proc.finish_update(self.optimizer)  # type: ignore[attr-defined]
            self.optimizer.step_schedules()
            words = state["words"] + sum(len(eg) for eg in batch)
            state.update(step=step, epoch=epoch, words=words)
            yield self._after_update()
            if self._done() or self.stop_signal is not None:
                break

    def _after_update(self) -> Dict[str, Any]:
        T, state = self.T, self.state
        step, score, other_scores, is_best = state["step"], None, None, None
        if not step % T["eval_frequency"]:
            with self.nlp.use_params(self.optimizer.averages):
                score, other_scores = self.evaluate()
            state["results"].append([float(score), step])
            is_best = score == max(state["results"])[0]
        info = {
            "epoch": state["epoch"], "step": step, "score": score, "other_scores": other_scores,
            "losses": state["losses"], "checkpoints": [tuple(r) for r in state["results"]],
            "seconds": int(self._totals()[0]), "words": state["words"],
        }
        if is_best is not None:
            state["losses"] = {}
            with self.nlp.select_pipes(disable=T["frozen_components"]):
                loop.update_meta(T, self.nlp, info)
            self._save_models(is_best)
            self._log_evaluation(info)
        self.log_step(info if is_best is not None else None)
        if (step and not step % self.every) or self.stop_signal is not None:
            self.save_checkpoint()
        return info

    def _done(self) -> bool:
        T, step, results = self.T, self.state["step"], self.state["results"]
        best_step = -max((score, -at) for score, at in results)[1] if results else step
        patience = bool(T["patience"]) and step - best_step >= T["patience"]
        return patience or bool(T["max_steps"]) and step >= T["max_steps"]

    def _save_models(self, is_best: bool) -> None:
        """model-last, and model-best if `is_best`, as spaCy's `train`; the best is copied to
        the checkpoints too."""
        if self.output is None:
            return
        last, best = self.output / loop.DIR_MODEL_LAST, self.output / loop.DIR_MODEL_BEST
        with self.nlp.use_params(self.optimizer.averages):
            self.before_to_disk(self.nlp).to_disk(last)
        if is_best:
            if best.exists():
                shutil.rmtree(best)
            shutil.copytree(last, best)
            name = f"{BEST_PREFIX}{self.state['step']:08d}"
            _write_atomically(self.checkpoints, name, partial(shutil.copytree, last))

    def _log_evaluation(self, info: Dict[str, Any]) -> None:
        """Add the evaluation to the log (dev score against wall and CPU time) and write it."""
        seconds, cpu_seconds = self._totals()
        weighted = [key for key, weight in self.T["score_weights"].items() if weight is not None]
        scores = {key: float(info["other_scores"].get(key, 0.0)) for key in weighted}
        record = {"step": info["step"], "epoch": info["epoch"], "words": info["words"],
                  "seconds": round(seconds, 1), "cpu_hours": round(cpu_seconds / 3600, 4),
                  "score": float(info["score"]), "scores": scores}
        self.state["log"].append(record)
        if self.output is not None:
            srsly.write_json(self.output / LOG_FILE, self.state["log"])

    def save_checkpoint(self) -> Path:
        """Write the checkpoint of the current step (atomically) and remove the older one."""
        seconds, cpu_seconds = self._totals()
        state = {**self.state, "seconds": seconds, "cpu_seconds": cpu_seconds,
                 "losses": {k: float(v) for k, v in self.state["losses"].items()}}
        arrays = {"optimizer": get_optimizer_state(self.optimizer, self.nlp),
                  "random": get_random_states(), "epoch_states": self.epoch_states}
        write = partial(_write_checkpoint, nlp=self.nlp, state=state, arrays=arrays,
                        config=self.config)
        path = _write_atomically(self.checkpoints, f"{CHECKPOINT_PREFIX}{state['step']:08d}", write)
        self.saved_step = state["step"]
        self._print(f"Checkpoint {path} ({self.steps_per_hour():.0f} steps/h, "
                    f"{cpu_seconds / 3600:.3f} CPU hours)")
        return path

    def finish(self, *, checkpoint: bool = True) -> Dict[str, Any]:
        """End the session: close the logger, write the last checkpoint (unless `checkpoint` is
        False, after an error) and model-last.

        RETURNS (Dict[str, Any]): The step, epoch, best score and its step, steps per hour of
            this session, wall and CPU hours of the run, and the signal that stopped it.
        """
        self.finalize_logger()
        if checkpoint and self.state["step"] not in (-1, self.saved_step):
            self.save_checkpoint()
        self._save_models(is_best=False)
        seconds, cpu_seconds = self._totals()
        results = self.state["results"]
        best = max(((score, -at) for score, at in results), default=(None, 1))
        stopped = signal.Signals(self.stop_signal).name if self.stop_signal else None
        return {
            "step": self.state["step"], "epoch": self.state["epoch"], "best_score": best[0],
            "best_step": -best[1] if results else None, "steps_per_hour": self.steps_per_hour(),
            "hours": seconds / 3600, "cpu_hours": cpu_seconds / 3600, "stopped_by": stopped,
            "checkpoint": latest_checkpoint(self.checkpoints),
        }

    def steps_per_hour(self) -> float:
        """Steps per hour of this session (loading and checkpoints count)."""
        hours = (timer() - self.clock[0]) / 3600
        return (self.state["step"] - self.start_step) / hours if hours else 0.0

    def _totals(self) -> Tuple[float, float]:
        """Wall and CPU seconds of the run so far (the sessions before this one included)."""
        return (self.state["seconds"] + timer() - self.clock[0],
                self.state["cpu_seconds"] + time.process_time() - self.clock[1])

    def _print(self, text: str) -> None:
        self.stdout.write(self.printer.info(text) + "\n")


@contextmanager
def stop_on_signals(run: ResumableTraining) -> Iterator[None]:
    """Make the first SIGTERM or SIGINT stop the run after the current step, with a checkpoint;
    a second one stops it at once (KeyboardInterrupt). Only in the main thread."""

    def stop(signum: int, frame: Any) -> None:
        if run.stop_signal is not None:
            raise KeyboardInterrupt
        run.stop_signal = signum

    main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT) if main}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def train(
    config_path: Path,
    output: Optional[Path],
    checkpoints: Path,
    *,
    overrides: Dict[str, Any] = SimpleFrozenDict(),
    checkpoint_every: int = 500,
    resume: bool = False,
    force: bool = False,
    use_gpu: int = -1,
    stdout: IO = sys.stdout,
    stderr: IO = sys.stderr,
) -> Dict[str, Any]:
    """Train a pipeline as `spacy train` does, with checkpoints in `checkpoints`; with `resume`,
    go on from the last one up to `training.max_steps`.

    config_path (Path): The training config.
    output (Optional[Path]): Where model-best, model-last and the training log go.
    checkpoints (Path): The checkpoint directory (best kept outside the repository).
    overrides (Dict[str, Any]): Config overrides ('section.key' -> value).
    checkpoint_every (int): Steps between checkpoints.
    resume (bool): Go on from the last checkpoint.
    force (bool): Go on although the config changed beyond RESUMABLE_SETTINGS.
    use_gpu (int): GPU id, or -1 for the CPU (set up the GPU first).
    stdout (IO): Where the log goes.
    stderr (IO): Where the logger's errors go.
    RETURNS (Dict[str, Any]): What `ResumableTraining.finish` returns.
    """
    config = load_config(config_path, overrides=overrides, interpolate=False)
    run = ResumableTraining(
        config, checkpoints, output=output, checkpoint_every=checkpoint_every, resume=resume,
        force=force, use_gpu=use_gpu, stdout=stdout, stderr=stderr,
    )
    completed = False
    with stop_on_signals(run):
        try:
            for _ in run.steps():
                pass
            completed = True
        finally:
            summary = run.finish(checkpoint=completed)
    return summary

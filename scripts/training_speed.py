"""Seconds per training step of configs/coref_continue.cfg under each speed setting.

The same batches (about 2,500 words each, from the training corpus) are trained on under each
setting: fp32 or bf16 autocast, the lower 3 encoder layers frozen and cached or none, and the
encoder windows (256 tokens with a stride of 192, or up to 512 wordpieces). Each setting first
runs over the batches once (this fills the frozen layers' cache, as the first epoch of a run
does), then the timed pass runs over them again: the figure is the steady state of a long run.

    python scripts/training_speed.py --n-batches 10 --output metrics/training_speed.json
"""
import json
import time
from pathlib import Path

import spacy
import torch
import typer
from spacy.training.initialize import init_nlp
from spacy.util import load_config, registry, resolve_dot_names
from thinc.api import fix_random_seed

import spacy_coref  # noqa: F401 (registers the components, architectures and readers)
from spacy_coref.ml.frozen_layers import layer_cache

SETTINGS = [  # (name, precision, frozen_layers, windows)
    ("fp32, all layers, 256/192 token windows", "fp32", 0, "strided"),
    ("bf16, all layers, 256/192 token windows", "bf16", 0, "strided"),
    ("bf16, 3 layers frozen, 256/192 token windows (the `continue` config)", "bf16", 3,
     "strided"),
    ("fp32, 3 layers frozen, 512-wordpiece windows", "fp32", 3, "wordpieces"),
    ("bf16, all layers, 512-wordpiece windows", "bf16", 0, "wordpieces"),
    ("bf16, 3 layers frozen, 512-wordpiece windows (configs/coref_continue_512.cfg)", "bf16", 3,
     "wordpieces"),
]


def main(
    config_path: Path = typer.Option(Path("configs/coref_continue.cfg"), "--config"),
    train: Path = typer.Option(Path("corpus/train/litbank.spacy"), "--train"),
    init_coref: Path = typer.Option(Path("training/features/model-best"), "--init-coref"),
    n_batches: int = typer.Option(10, "--n-batches"),
    output: Path = typer.Option(None, "--output"),
) -> None:
    torch.set_num_threads(2)
    fix_random_seed(0)
    config = load_config(config_path, overrides={
        "paths.train": str(train), "paths.dev": str(train),
        "paths.init_coref": str(init_coref),
        "paths.init_encoder": str(init_coref / "transformer"),
        "corpora.train.augment": [], "corpora.train.max_docs": 12,
    }, interpolate=False)
    nlp = init_nlp(config)
    (train_corpus,) = resolve_dot_names(nlp.config.interpolate(), ["corpora.train"])
    examples = list(train_corpus(nlp))
    batcher = registry.batchers.get("spacy.batch_by_words.v1")(
        size=2500, tolerance=0.2, discard_oversize=False
    )
    batches = list(batcher(examples))[:n_batches]
    n_words = sum(len(eg.reference) for batch in batches for eg in batch)
    transformer = nlp.get_pipe("transformer").model
    strided = registry.span_getters.get("spacy-transformers.strided_spans.v1")(
        window=256, stride=192
    )
    wordpieces = registry.span_getters.get("spacy_coref.wordpiece_windows.v1")(max_wordpieces=512)
    optimizer = registry.resolve(nlp.config.interpolate()["training"])["optimizer"]
    rows = []
    for name, precision, frozen, windows in SETTINGS:
        transformer.attrs["precision"] = precision
        transformer.attrs["frozen_layers"] = frozen
        transformer.attrs["get_spans"] = strided if windows == "strided" else wordpieces
        layer_cache(transformer.layers[0].shims[0]._model).states.clear()
        _run(nlp, batches, optimizer)  # fills the cache; the first pass of a run
        start = time.perf_counter()
        _run(nlp, batches, optimizer)
        seconds = (time.perf_counter() - start) / len(batches)
        rows.append({"setting": name, "precision": precision, "frozen_layers": frozen,
                     "windows": windows, "seconds_per_step": seconds,
                     "steps_per_hour": 3600 / seconds,
                     "words_per_second": n_words / len(batches) / seconds})
        print(f"{name:72s} {seconds:6.2f} s/step  {3600 / seconds:6.0f} steps/h")
    cache = layer_cache(transformer.layers[0].shims[0]._model)
    result = {"n_batches": len(batches), "words": n_words, "rows": rows,
              "cache_bytes_per_word": cache.nbytes / max(1, n_words),
              "threads": torch.get_num_threads()}
    print(f"frozen-layer cache: {cache.nbytes / 2**20:.1f} MB for {n_words:,} words")
    if output:
        output.write_text(json.dumps(result, indent=2))


def _run(nlp: spacy.Language, batches, optimizer) -> None:
    for batch in batches:
        nlp.update(batch, sgd=optimizer, drop=0.1, losses={},
                   exclude=["tok2vec", "tagger", "parser", "attribute_ruler", "ner"])


if __name__ == "__main__":
    typer.run(main)

"""A pre-training output (`spacy-coref pretrain`) as a pipeline directory, to export and
compare it before any fine-tuning (docs/record/distillation_rounds.md, "On Wikipedia"):

    python scripts/pretrained_pipeline.py configs/coref_continue.cfg PRETRAIN_DIR OUTPUT_DIR
    spacy-coref export-default OUTPUT_DIR EXPORT --with-encoder ...

The config is initialised as `spacy train` initialises it, with `init_coref` = the pre-training
output (its `coref_cluster`, and its `encoder` where the encoder was pre-trained too), on a few
parsed texts of `../shared/data/modern` for the components' shapes.
"""
import random
from pathlib import Path

import typer
from spacy import util
from spacy.schemas import ConfigSchemaTraining

from spacy_coref.training.pretraining import make_examples, parse_texts
from spacy_coref.training.unlabeled import read_texts

SAMPLE = Path(__file__).resolve().parents[2] / "shared/data/modern/wikipedia-00.jsonl"


def main(config: Path, pretrained: Path, output: Path, sample: Path = SAMPLE) -> None:
    overrides = {"paths.init_coref": str(pretrained), "paths.init_encoder": None}
    cfg = util.load_config(config, overrides=overrides, interpolate=False)
    nlp = util.load_model_from_config(cfg, auto_fill=True)
    training = util.registry.resolve(
        nlp.config.interpolate()["training"], schema=ConfigSchemaTraining
    )
    texts = read_texts(sample, max_texts=4, max_words=300, seed=0)
    docs = parse_texts(nlp, [text for _, text in texts], skip=["coref_cluster", "transformer"])
    examples = [eg.example for eg in make_examples(docs, random.Random(0))]
    # as `spacy train`: frozen and sourced components keep their weights
    keep = set(training["frozen_components"]) | set(util.get_sourced_components(cfg))
    with nlp.select_pipes(disable=[name for name in nlp.pipe_names if name in keep]):
        nlp.initialize(lambda: examples, sgd=training["optimizer"])
    nlp.to_disk(output)
    typer.echo(f"Wrote {output}")


if __name__ == "__main__":
    typer.run(main)

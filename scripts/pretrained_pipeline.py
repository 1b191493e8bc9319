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

from spacy_coref.training.pretraining import (
    initialize_as_spacy_train, make_examples, parse_texts, training_pipeline,
)
from spacy_coref.training.unlabeled import read_texts

SAMPLE = Path(__file__).resolve().parents[2] / "shared/data/modern/wikipedia-00.jsonl"


def main(config: Path, pretrained: Path, output: Path, sample: Path = SAMPLE) -> None:
    overrides = {"paths.init_coref": str(pretrained), "paths.init_encoder": None}
    nlp, cfg, training = training_pipeline(config, overrides)
    texts = read_texts(sample, max_texts=4, max_words=300, seed=0)
    docs = parse_texts(nlp, [text for _, text in texts], skip=["coref_cluster", "transformer"])
    initialize_as_spacy_train(nlp, cfg, training, make_examples(docs, random.Random(0)))
    nlp.to_disk(output)
    typer.echo(f"Wrote {output}")


if __name__ == "__main__":
    typer.run(main)

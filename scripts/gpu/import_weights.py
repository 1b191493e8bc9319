"""Make a coreference pipeline of the weights `train.py` wrote: the pipeline they were trained
from (its config, mention rules and the encoder weights train.py kept frozen) with the trained
encoder weights and head, saved in the layout the base has.

* A coreference pipeline directory or shipped name (spacy_coref/default_model, "accurate",
  spacy_coref/accurate_model): saved as `save_coref_pipeline` saves it; for one whose encoder
  is read from a package (the accurate pipeline: all-mpnet-base-v2 installed in parts) only the
  weights that differ from the package's, the trained upper layers, go into
  encoder_changes.safetensors (float16), as `spacy-coref export-default` leaves it.
* A whole pipeline (`spacy train`'s model-best, parser and all, e.g. training/accurate/
  model-best): saved whole, so that `spacy-coref export-default OUT spacy_coref/accurate_model
  --kind accurate` (or `spacy package`) takes it as it takes the CPU-trained one.

With --pipeline, the same weights also go into another whole pipeline (e.g. `continue`'s
model-best, for `spacy package`).

    python scripts/gpu/import_weights.py RUN_DIR spacy_coref/default_model OUT_DIR \
        [--pipeline training/continue/model-best --pipeline-out training/gpu/model-best]
    python scripts/gpu/import_weights.py RUN_DIR training/accurate/model-best \
        training/gpu/accurate/model-best
"""
import argparse
import json
from pathlib import Path

import spacy
import torch

from spacy_coref.ml.s2e_coref import head_module
from spacy_coref.pipeline.coref import ENCODER_WEIGHTS_MARKER, save_coref_pipeline
from spacy_coref.training.evaluation import load_coref_nlp


def read_run(run: Path):
    """The trained encoder weights (encoder_00.pt ...; encoder_a.pt and encoder_b.pt of the
    first rounds) and the head's checkpoint of a train.py run."""
    files = sorted(run.glob("encoder_*.pt"))
    if not files:
        raise SystemExit(f"{run}: no encoder_*.pt")
    trained = {}
    for path in files:
        trained.update(torch.load(path))
    return trained, torch.load(run / "head.pt")


def give_weights(nlp, trained, head_state):
    """Copy the trained encoder weights and the head into a pipeline with transformer and
    coref_cluster. RETURNS the encoder's whole state (float32)."""
    encoder = nlp.get_pipe("transformer").model.transformer
    state = encoder.state_dict()
    unknown = sorted(k for k, v in trained.items()
                     if k not in state or state[k].shape != v.shape)
    if unknown:
        raise SystemExit(f"weights the encoder does not have (in that shape): {unknown[:5]}")
    with torch.no_grad():
        for key, value in trained.items():
            state[key].copy_(value.to(state[key].dtype))
    head = head_module(nlp.get_pipe("coref_cluster").model)
    head.load_state_dict(head_state)
    return state


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("run", type=Path, help="encoder_*.pt and head.pt of train.py")
    parser.add_argument("base", help="the pipeline prepare.py read (a directory, a shipped "
                        "name, or a whole spacy train output)")
    parser.add_argument("out", type=Path)
    parser.add_argument("--pipeline", type=Path, help="a whole pipeline to give the weights too")
    parser.add_argument("--pipeline-out", type=Path, help="where that pipeline is saved")
    args = parser.parse_args(argv)
    if (args.pipeline is None) != (args.pipeline_out is None):
        parser.error("--pipeline and --pipeline-out go together")
    trained, saved = read_run(args.run)
    nlp = load_coref_nlp(args.base)
    whole = "coref" not in nlp.pipe_names
    inner = nlp if whole else nlp.get_pipe("coref").inner
    state = give_weights(inner, trained, saved["state"])
    if args.pipeline is not None:
        # before the base is saved: `out` may be `base`, and the weights are read from memory
        other = spacy.load(args.pipeline)
        other.get_pipe("transformer").model.transformer.load_state_dict(state)
        other_head = head_module(other.get_pipe("coref_cluster").model)
        other_head.load_state_dict(saved["state"])
        other.to_disk(args.pipeline_out)
        print(f"{args.pipeline_out}: {args.pipeline} with the same weights")
    if whole:
        nlp.to_disk(args.out)
    else:
        save_coref_pipeline(inner, args.out, half=True,
                            encoder_from_package=bool(inner.meta.get(ENCODER_WEIGHTS_MARKER)))
    print(f"{args.out}: {len(trained)} encoder tensors and the head from {args.run} "
          f"({saved.get('frozen_layers', 0)} layers were frozen); dev proxy "
          f"{json.dumps(saved['figures'])}")


if __name__ == "__main__":
    main()

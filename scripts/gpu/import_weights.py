"""Make a coreference pipeline of the weights `train.py` wrote: the pipeline they were trained
from (its config, mention rules and the word embeddings train.py kept frozen) with the trained
encoder layers and head. With --pipeline, the same weights also go into a whole trained
pipeline (parser and all, e.g. `continue`'s model-best), for `spacy package`.

    python scripts/gpu/import_weights.py RUN_DIR spacy_coref/default_model OUT_DIR \
        [--pipeline training/continue/model-best --pipeline-out training/gpu/model-best]
"""
import argparse
import json
from pathlib import Path

import spacy
import torch

from spacy_coref.pipeline.coref import save_coref_pipeline
from spacy_coref.training.evaluation import load_coref_nlp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run", type=Path, help="encoder_a.pt, encoder_b.pt and head.pt")
    parser.add_argument("base", help="the pipeline train.py started from")
    parser.add_argument("out", type=Path)
    parser.add_argument("--pipeline", type=Path, help="a whole pipeline to give the weights too")
    parser.add_argument("--pipeline-out", type=Path, help="where that pipeline is saved")
    args = parser.parse_args()
    if (args.pipeline is None) != (args.pipeline_out is None):
        parser.error("--pipeline and --pipeline-out go together")
    inner = load_coref_nlp(args.base).get_pipe("coref").inner
    encoder = inner.get_pipe("transformer").model.transformer
    state = encoder.state_dict()
    trained = {**torch.load(args.run / "encoder_a.pt"), **torch.load(args.run / "encoder_b.pt")}
    unknown = set(trained) - set(state)
    if unknown:
        raise SystemExit(f"weights the encoder does not have: {sorted(unknown)[:5]}")
    state.update({k: v.float() for k, v in trained.items()})
    encoder.load_state_dict(state)
    saved = torch.load(args.run / "head.pt")
    head = inner.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    head.load_state_dict(saved["state"])
    if args.pipeline is not None:
        # before the default is saved: `out` may be `base`, and the weights are read from memory
        whole = spacy.load(args.pipeline)
        whole.get_pipe("transformer").model.transformer.load_state_dict(state)
        whole_head = whole.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
        whole_head.load_state_dict(saved["state"])
        whole.to_disk(args.pipeline_out)
        print(f"{args.pipeline_out}: {args.pipeline} with the same weights")
    save_coref_pipeline(inner, args.out, half=True)
    print(f"{args.out}: {len(trained)} encoder tensors and the head from {args.run}; dev proxy "
          f"{json.dumps(saved['figures'])}")


if __name__ == "__main__":
    main()

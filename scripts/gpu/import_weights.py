"""Make a coreference pipeline of the weights `train.py` wrote: the pipeline they were trained
from (its config, mention rules and the word embeddings train.py kept frozen) with the trained
encoder layers and head.

    python scripts/gpu/import_weights.py RUN_DIR spacy_coref/default_model OUT_DIR
"""
import argparse
import json
from pathlib import Path

import torch

from spacy_coref.pipeline.coref import save_coref_pipeline
from spacy_coref.training.evaluation import load_coref_nlp


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run", type=Path, help="encoder_a.pt, encoder_b.pt and head.pt")
    parser.add_argument("base", help="the pipeline train.py started from")
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
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
    save_coref_pipeline(inner, args.out, half=True)
    print(f"{args.out}: {len(trained)} encoder tensors and the head from {args.run}; dev proxy "
          f"{json.dumps(saved['figures'])}")


if __name__ == "__main__":
    main()

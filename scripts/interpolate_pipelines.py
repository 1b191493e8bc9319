"""Interpolate the weights of two coreference pipelines trained from one start (WiSE-FT,
Wortsman et al. 2022): every weight becomes (1 - t) * A + t * B, A's settings and files kept.

    python scripts/interpolate_pipelines.py A B OUT --t 0.5

A and B are exported pipelines (`spacy-coref export-default ... --with-encoder`) of one
architecture, e.g. the shipped default and a round that went on from it; OUT loads as any
exported pipeline. A weight that is not a float (or differs in shape), or one outside the
encoder's and the head's torch modules, stops the script.
"""
from pathlib import Path

import spacy
import torch
import typer

from spacy_coref.ml.s2e_coref import head_module
from spacy_coref.pipeline.coref import load_coref_pipeline, save_coref_pipeline


def torch_modules(nlp):
    """The pipeline's torch modules by name: the encoder and the coref head."""
    return {
        "transformer": nlp.get_pipe("transformer").model.transformer,
        "coref_cluster": head_module(nlp.get_pipe("coref_cluster").model),
    }


def thinc_weights(nlp):
    """Weights held by Thinc layers outside the torch modules (none in the shipped
    architectures); the script refuses them rather than leave them at A's."""
    return [
        f"{name}: {node.name}.{param}"
        for name in ("transformer", "coref_cluster")
        for node in nlp.get_pipe(name).model.walk()
        for param in node.param_names
        if node.has_param(param)
    ]


def interpolate(a_nlp, b_nlp, t: float) -> int:
    """Move A's weights to (1 - t) * A + t * B in place; returns the number of tensors."""
    outside = thinc_weights(a_nlp) + thinc_weights(b_nlp)
    if outside:
        raise ValueError(f"weights outside the torch modules: {', '.join(outside)}")
    count = 0
    b_modules = torch_modules(b_nlp)
    for name, a_module in torch_modules(a_nlp).items():
        b_state = b_modules[name].state_dict()
        with torch.no_grad():
            for key, a_value in a_module.state_dict().items():
                b_value = b_state[key]
                if a_value.shape != b_value.shape or not a_value.is_floating_point():
                    if torch.equal(a_value, b_value):
                        continue
                    raise ValueError(f"{name}.{key}: the pipelines differ in shape or kind")
                a_value.copy_(torch.lerp(a_value, b_value.to(a_value.dtype), t))
                count += 1
    return count


def main(
    model_a: Path = typer.Argument(..., help="The start, e.g. spacy_coref/default_model"),
    model_b: Path = typer.Argument(..., help="A pipeline trained on from A"),
    output: Path = typer.Argument(..., help="Output directory"),
    t: float = typer.Option(0.5, "--t", help="B's share: 0 gives A, 1 gives B"),
):
    vocab = spacy.blank("en").vocab
    a_nlp = load_coref_pipeline(str(model_a), vocab)
    b_nlp = load_coref_pipeline(str(model_b), vocab)
    n = interpolate(a_nlp, b_nlp, t)
    # A's config and model card, which say where the weights came from
    a_nlp.meta["interpolated"] = {"a": str(model_a), "b": str(model_b), "t": t}
    save_coref_pipeline(a_nlp, output, half=True)
    print(f"{n} weight tensors at t={t} -> {output}")


if __name__ == "__main__":
    typer.run(main)

"""Fit the salience weights of `spacy_coref/decoding/steps/salience.py` (WEIGHTS) to the he/she
pronouns of training corpora, and print them as the module writes them.

    python scripts/fit_salience.py [--model default] [CORPUS.spacy ...]

The pipeline (`--model`: "default" or the path of another parsed one) parses each doc and
finds its mentions and their candidate antecedents; the model's scores are left out. For each
he/she pronoun with a gold cluster and two or more candidates, one of them in its gold
cluster, the weights maximise the likelihood that a softmax over the candidates' weighted
features gives its gold antecedents (L2 penalty 0.01). The default corpora are LitBank's and
OntoGUM's training portions (`spacy project run convert`). About 2 minutes on 2 cores.
"""
import sys
from typing import List, Tuple

import numpy
import torch

from spacy_coref.annotations import get_clusters
from spacy_coref.formats import read_docs
from spacy_coref.decoding.clustering import valid_antecedents
from spacy_coref.decoding.steps.salience import FEATURES, salience_features
from spacy_coref.linguistics.mention_analysis import mention_constraints
from spacy_coref.training.evaluation import load_coref_nlp, scored_docs

CORPORA = ("corpus/train/litbank.spacy", "corpus/train/gum.spacy")
L2 = 0.01


def examples(model: str, paths) -> List[Tuple[numpy.ndarray, numpy.ndarray]]:
    """(features [C, F], gold [C]) over each usable pronoun's candidates."""
    nlp = load_coref_nlp(model)
    out = []
    for path in paths:
        refs = read_docs(path)
        for ref, (doc, scores) in zip(refs, scored_docs(nlp, refs)):
            if not doc.has_annotation("DEP"):
                raise SystemExit(f"{model}: salience reads the parse, and this pipeline has none")
            gold = {tuple(m): c for c, cluster_ in enumerate(get_clusters(ref)) for m in cluster_}
            spans = numpy.asarray(scores.candidates, dtype="int64").reshape((-1, 2))
            spans = spans[numpy.asarray(scores.kept, dtype="int64")]
            antecedents = numpy.asarray(scores.antecedents)
            valid = valid_antecedents(scores)
            heads = mention_constraints(doc, spans).heads
            rows, features = salience_features(doc, spans, heads, antecedents)
            for row, row_features in zip(rows.tolist(), features):
                own = gold.get(tuple(spans[row].tolist()))
                if own is None or valid[row].sum() < 2:
                    continue
                cands = antecedents[row][valid[row]]
                is_gold = numpy.array([gold.get(tuple(spans[c].tolist())) == own for c in cands])
                if is_gold.any():
                    out.append((row_features[valid[row]], is_gold))
        print(f"{path}: {len(out)} pronouns so far", flush=True)
    return out


def fit(data) -> numpy.ndarray:
    weights = torch.zeros(len(FEATURES), requires_grad=True)
    tensors = [(torch.tensor(f), torch.tensor(g)) for f, g in data]
    optimizer = torch.optim.LBFGS([weights], max_iter=300)

    def closure():
        optimizer.zero_grad()
        loss = sum(
            torch.logsumexp(f @ weights, 0) - torch.logsumexp((f @ weights)[g], 0)
            for f, g in tensors
        ) / len(tensors) + L2 * (weights ** 2).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    return weights.detach().numpy()


def main(model: str = "default", paths=CORPORA) -> None:
    data = examples(model, paths)
    weights = fit(data)
    print(f"{len(data)} pronouns")
    print("{" + ", ".join(f'"{f}": {w:.3f}' for f, w in zip(FEATURES, weights)) + "}")


if __name__ == "__main__":
    args = sys.argv[1:]
    model = "default"
    if args[:1] == ["--model"]:
        model, args = args[1], args[2:]
    main(model, tuple(args) or CORPORA)

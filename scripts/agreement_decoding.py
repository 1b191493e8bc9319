"""Would pronoun agreement constraints at decoding time help? A diagnostic, not a feature.

Runs a coreference pipeline once over a dev set, then decodes its antecedent scores two ways and
prints CoNLL F1 (singletons removed), or GAP F1 for GAP data:

* "greedy": each mention links to its best-scoring antecedent above the null score, as
  `coref_cluster` does (this reproduces `spacy-coref evaluate`);
* "agreement": the same, in document order, but skipping an antecedent whose cluster holds a
  third-person pronoun of another gender or number than one in the mention's (he / she / it /
  they): the next-best antecedent is taken instead.

    python scripts/agreement_decoding.py default corpus/dev/litbank.spacy --null-score 0
"""
import argparse
from typing import Dict, List, Optional, Set, Tuple

import numpy
from spacy.tokens import Doc

from spacy_coref.annotations import GOLD_MENTIONS_KEY, set_clusters
from spacy_coref.formats import read_docs
from spacy_coref.ml.s2e_coref import CorefScores
from spacy_coref.ml.torch.constants import NULL_COLUMN
from spacy_coref.pipeline import cluster
from spacy_coref.pipeline.clustering import predict_clusters
from spacy_coref.training.evaluation import _conll_scores, _gap_scores, load_coref_nlp
from spacy_coref.types import ClusterOffsets
from spacy_coref.util import bare_copy

PRONOUN_CLASS = {
    word: name
    for name, words in {
        "masculine": "he him his himself",
        "feminine": "she her hers herself",
        "neuter": "it its itself",
        "plural": "they them their theirs themselves",
    }.items()
    for word in words.split()
}


def agreement_clusters(doc: Doc, scores: CorefScores, null_score: float) -> ClusterOffsets:
    pair_scores = numpy.array(scores.scores)
    pair_scores[:, NULL_COLUMN] = null_score
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]
    antecedents = numpy.asarray(scores.antecedents)
    classes: List[Optional[str]] = [
        PRONOUN_CLASS.get(doc[start:end].text.lower()) if end - start == 1 else None
        for start, end in spans
    ]
    root = list(range(len(spans)))
    held: Dict[int, Set[str]] = {i: {c} if c else set() for i, c in enumerate(classes)}
    for m in range(len(spans)):
        for column in numpy.argsort(-pair_scores[m], kind="stable"):
            if column == NULL_COLUMN:
                break
            r = root[antecedents[m, column - 1]]
            # clusters hold one class at most (merges across classes are skipped)
            if held[m] and held[r] and held[m] != held[r]:
                continue  # the antecedent's cluster holds a pronoun of another class
            root[m] = r
            held[r] |= held[m]
            break
    groups: Dict[int, List[Tuple[int, int]]] = {}
    for i, (start, end) in enumerate(spans):
        groups.setdefault(root[i], []).append((int(start), int(end)))
    return sorted(sorted(g) for g in groups.values() if len(g) >= 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", help="'default', a trained pipeline or a coreference pipeline")
    parser.add_argument("data", help="gold dev data (.spacy, CoNLL, GAP .tsv)")
    parser.add_argument("--null-score", type=float, default=0.0)
    args = parser.parse_args()
    scored: List[Tuple[Doc, CorefScores]] = []
    set_annotations = cluster.CorefCluster.set_annotations

    def keep_scores(self, docs, scores):  # the scores are not kept on the doc otherwise
        docs = list(docs)
        scored.extend(zip(docs, scores))
        return set_annotations(self, docs, scores)

    cluster.CorefCluster.set_annotations = keep_scores
    nlp = load_coref_nlp(args.model)
    references = read_docs(args.data, vocab=nlp.vocab)
    list(nlp.pipe((bare_copy(ref, nlp.vocab) for ref in references), batch_size=8))
    for name, decode in (
        ("greedy", lambda doc, s: predict_clusters(s, args.null_score)),
        ("agreement", lambda doc, s: agreement_clusters(doc, s, args.null_score)),
    ):
        predicted = []
        for doc, doc_scores in scored:
            out = doc.copy()
            set_clusters(out, decode(doc, doc_scores))
            predicted.append(out)
        if GOLD_MENTIONS_KEY in references[0].spans:
            result = f"GAP F1 {_gap_scores(references, predicted)['overall']['f']:.1f}"
        else:
            result = f"CoNLL F1 {_conll_scores(references, predicted, False)['conll_f1']:.2f}"
        print(f"{args.data}, null score {args.null_score}, {name}: {result}")


if __name__ == "__main__":
    main()

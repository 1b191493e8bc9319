"""Compare two decodings of one pipeline on gold documents (`spacy-coref compare`): the model
runs once, its antecedent scores are kept (`scored_docs`), the clusters are decoded under the
constraint lists A and B (`redecode_docs`), and each document's metric counts go to a paired
bootstrap over documents (`spacy_coref.scoring.bootstrap`): CoNLL metrics for fully annotated
docs, GAP F1 (detected mentions) for GAP docs, each GAP example resampled as a unit, and the
accuracy on pronoun problems (WinoGrande, the Winograd schemas, PDP), each problem a unit. Two
pipelines compare the same way (`compare_models`, `spacy-coref compare A DATA --model-b B`),
each decoded as it ships."""
import time
from typing import Any, Dict, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from ..annotations import GOLD_MENTIONS_KEY
from ..decoding.decoder import in_order
from ..errors import Errors
from ..pipeline.cluster import CorefCluster
from ..pipeline.constraints import check_constraints
from ..scoring.bootstrap import (
    accuracy_counts_array,
    bootstrap_accuracy,
    bootstrap_conll,
    bootstrap_gap,
    conll_counts_array,
    gap_counts_array,
)
from ..scoring.pronoun_problems import (
    is_pronoun_problem_doc, problem_roles, pronoun_problem_outcomes,
)
from .evaluation import (
    cluster_components,
    conll_doc_counts,
    gap_example_counts,
    parse_constraints,
    redecode_docs,
    scored_docs,
)

# The value of --a or --b that names the model's own constraint list.
DEFAULT = "default"


def the_cluster_component(nlp: Language) -> CorefCluster:
    """The pipeline's one `coref_cluster` (directly or inside a `coref` stack); CE427 if it has
    none or several."""
    found = cluster_components(nlp)
    if len(found) != 1:
        raise ValueError(Errors.CE427.format(n=len(found), pipes=nlp.pipe_names))
    return found[0]


def decoding_constraints(text: str, default: List[str], *, name: str) -> List[str]:
    """The constraint list of a --a or --b value: "default" for the model's own list, "" or
    "none" for none, else comma-separated names (CE108 for an unknown one).

    text (str): the option's value.
    default (List[str]): the model's own constraint list.
    name (str): the component's name, for the error message.
    RETURNS (List[str]): the constraint names, in decoding order.
    """
    if text.strip().lower() == DEFAULT:
        return list(default)
    return check_constraints(parse_constraints(text), name)


def compared_decodings(
    default: List[str],
    *,
    a: Optional[str] = None,
    b: Optional[str] = None,
    without: Optional[str] = None,
    with_step: Optional[str] = None,
    name: str = "coref_cluster",
) -> Tuple[List[str], List[str]]:
    """Decodings A and B from the command line's options. With `without` (a step of the default
    list), A is the default list without the step and B the default list, so that B - A is what
    the step adds; with `with_step` (a step the default leaves off), A is the default list and
    B the default list with the step; otherwise A is `a` (default: "default") and B is `b`.

    default (List[str]): the model's own constraint list.
    a (Optional[str]): decoding A's constraints (see `decoding_constraints`).
    b (Optional[str]): decoding B's constraints.
    without (Optional[str]): a step of the default list to measure.
    with_step (Optional[str]): a step off in the default list to measure.
    name (str): the component's name, for error messages.
    RETURNS (Tuple[List[str], List[str]]): A's and B's constraint lists.
    """
    if without is not None or with_step is not None:
        if a is not None or b is not None or (without is not None and with_step is not None):
            found = "--without or --with together with --a, --b or each other"
            raise ValueError(Errors.CE425.format(found=found))
        (step,) = check_constraints([(without or with_step).strip()], name)
        if without is not None:
            if step not in default:
                raise ValueError(Errors.CE426.format(step=step, default=default))
            return [c for c in default if c != step], list(default)
        if step in default:
            raise ValueError(Errors.CE428.format(step=step, default=default))
        return list(default), in_order([*default, step])
    if b is None:
        raise ValueError(Errors.CE425.format(found="neither"))
    constraints_a = decoding_constraints(DEFAULT if a is None else a, default, name=name)
    return constraints_a, decoding_constraints(b, default, name=name)


def compare_decodings(
    nlp: Language,
    references: List[Doc],
    constraints_a: List[str],
    constraints_b: List[str],
    *,
    keep_singletons: bool = False,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    batch_size: int = 8,
) -> Dict[str, Any]:
    """Run the pipeline once over the references, decode twice and bootstrap the difference.

    nlp (Language): a pipeline from `load_coref_nlp` with one `coref_cluster`.
    references (List[Doc]): the gold docs (CoNLL-style and GAP docs may be mixed).
    constraints_a (List[str]): decoding A's constraints.
    constraints_b (List[str]): decoding B's constraints.
    keep_singletons (bool): score singleton clusters in the CoNLL metrics.
    n_resamples (int): bootstrap resamples.
    seed (int): the seed of the resamples.
    confidence (float): the coverage of the intervals.
    batch_size (int): docs per batch.
    RETURNS (Dict[str, Any]): "a", "b" (each {"constraints": [...]}), "conll" (by metric:
        muc, b3, ceafe, conll_f1), "gap" (gap_f1) and "problems" (accuracy), each a
        `PairedDifference.to_dict()` or None without such docs, "n_conll_docs",
        "n_gap_examples", "n_problems", "n_problems_skipped", the settings, "seconds".
    """
    options = _checked_options(n_resamples, seed, confidence)
    cluster = the_cluster_component(nlp)
    constraints_a = check_constraints(constraints_a, cluster.name)
    constraints_b = check_constraints(constraints_b, cluster.name)
    start = time.perf_counter()
    gold = _GoldSplit(references)
    scored = scored_docs(nlp, references, batch_size=batch_size)
    docs = [doc for doc, _ in scored]
    scores = [doc_scores for _, doc_scores in scored]
    counts = []
    for constraints in (constraints_a, constraints_b):
        redecode_docs(docs, scores, cluster.cfg, constraints=constraints, decoder=cluster.decoder)
        counts.append(gold.counts(docs, keep_singletons))
    return {
        "a": {"constraints": constraints_a},
        "b": {"constraints": constraints_b},
        **gold.bootstrapped(*counts, options),
        "keep_singletons": keep_singletons,
        **options,
        "seconds": time.perf_counter() - start,
    }


def compare_models(
    nlp_a: Language,
    nlp_b: Language,
    references_a: List[Doc],
    references_b: List[Doc],
    *,
    keep_singletons: bool = False,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    batch_size: int = 8,
) -> Dict[str, Any]:
    """Run two pipelines over the same gold documents, each with its own decoding, and
    bootstrap the difference B - A over the documents: whether a model trained another way
    (another encoder, Entity Equalization, more steps) is better beyond what the choice of
    documents explains.

    nlp_a (Language): pipeline A, from `load_coref_nlp`, with one `coref_cluster`.
    nlp_b (Language): pipeline B, likewise.
    references_a (List[Doc]): the gold docs, in A's vocab.
    references_b (List[Doc]): the same gold docs in the same order, in B's vocab.
    RETURNS (Dict[str, Any]): as `compare_decodings`, with "a" and "b" each {"constraints":
        the model's own list}.
    """
    options = _checked_options(n_resamples, seed, confidence)
    texts_a, texts_b = [ref.text for ref in references_a], [ref.text for ref in references_b]
    if texts_a != texts_b:
        i = next((i for i, (x, y) in enumerate(zip(texts_a, texts_b)) if x != y), len(texts_a))
        raise ValueError(Errors.CE429.format(i=i, n_a=len(texts_a), n_b=len(texts_b)))
    start = time.perf_counter()
    gold = _GoldSplit(references_a)
    counts, sides = [], {}
    for key, nlp, references in (("a", nlp_a, references_a), ("b", nlp_b, references_b)):
        cluster = the_cluster_component(nlp)
        constraints = list(cluster.cfg.get("constraints", []))
        scored = scored_docs(nlp, references, batch_size=batch_size)
        docs = [doc for doc, _ in scored]
        scores = [doc_scores for _, doc_scores in scored]
        redecode_docs(docs, scores, cluster.cfg, constraints=constraints, decoder=cluster.decoder)
        counts.append(gold.counts(docs, keep_singletons))
        sides[key] = {"constraints": constraints}
    return {
        **sides,
        **gold.bootstrapped(*counts, options),
        "keep_singletons": keep_singletons,
        **options,
        "seconds": time.perf_counter() - start,
    }


def _checked_options(n_resamples: int, seed: int, confidence: float) -> Dict[str, Any]:
    """The bootstrap's options, checked before any model runs (as the bootstrap would after)."""
    if n_resamples < 1:
        raise ValueError(Errors.CE422.format(value=n_resamples))
    if not 0 < confidence < 1:
        raise ValueError(Errors.CE423.format(value=confidence))
    return {"n_resamples": n_resamples, "seed": seed, "confidence": confidence}


class _GoldSplit:
    """The gold docs split into fully annotated ones (CoNLL metrics), GAP examples (GAP F1) and
    pronoun problems (accuracy). A problem with no choice to get right (BUG's one candidate)
    is skipped, for both sides alike, and counted."""

    def __init__(self, references: List[Doc]):
        self.kinds = [_kind(ref) for ref in references]
        self.conll = self._of(references, "conll")
        self.gap = self._of(references, "gap")
        self.problems = self._of(references, "problem")
        self.scored = [problem_roles(ref) is not None for ref in self.problems]
        if not self.conll and not self.gap and not any(self.scored):
            raise ValueError(Errors.CE421.format(what="document in the data"))

    def _of(self, docs: List[Doc], kind: str) -> List[Doc]:
        return [doc for doc, k in zip(docs, self.kinds) if k == kind]

    def counts(self, docs: List[Doc], keep_singletons: bool) -> Tuple[Any, Any, Any]:
        """Each document's CoNLL counts, each GAP example's and each problem's, as arrays."""
        conll = conll_doc_counts(self.conll, self._of(docs, "conll"),
                                 keep_singletons=keep_singletons)
        gap = gap_example_counts(self.gap, self._of(docs, "gap"))
        outcomes = pronoun_problem_outcomes(self._of(docs, "problem"), self.problems)
        right = [outcome[1] for outcome in outcomes if outcome is not None]
        return conll_counts_array(conll), gap_counts_array(gap), accuracy_counts_array(right)

    def bootstrapped(self, counts_a, counts_b, options: Dict[str, Any]) -> Dict[str, Any]:
        (conll_a, gap_a, right_a), (conll_b, gap_b, right_b) = counts_a, counts_b
        conll = bootstrap_conll(conll_a, conll_b, **options) if self.conll else None
        gap = bootstrap_gap(gap_a, gap_b, **options) if self.gap else None
        n_problems = sum(self.scored)
        problems = bootstrap_accuracy(right_a, right_b, **options) if n_problems else None
        return {
            "conll": _as_dicts(conll),
            "gap": _as_dicts(gap),
            "problems": _as_dicts(problems),
            "n_conll_docs": len(self.conll),
            "n_gap_examples": len(self.gap),
            "n_problems": n_problems,
            "n_problems_skipped": len(self.problems) - n_problems,
        }


def _kind(reference: Doc) -> str:
    """Which metric scores a gold doc: "problem", "gap" (labelled spans) or "conll"."""
    if is_pronoun_problem_doc(reference):
        return "problem"
    return "gap" if GOLD_MENTIONS_KEY in reference.spans else "conll"


def _as_dicts(result: Optional[Dict[str, Any]]) -> Optional[Dict[str, Dict[str, Any]]]:
    if result is None:
        return None
    return {metric: difference.to_dict() for metric, difference in result.items()}

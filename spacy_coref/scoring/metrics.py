"""CoNLL-2012 coreference metrics, equal to the official reference scorer v8.01.

Reference: github.com/conll/reference-coreference-scorers, `lib/CorScorer.pm` v8.01 (Pradhan et
al., 2014). LEA is not in v8.01: it follows Moosavi & Strube (2016) as implemented in their
`coval` scorer. The code here is written from those definitions; none of it is copied.

Inputs are plain data: a document's clusters are a sequence of clusters, a cluster a sequence of
mentions, a mention any hashable (e.g. `(start, end)` token offsets). Mentions match only when
equal (exact spans, as in v8.01). Empty clusters are ignored.

How v8.01 reads a document (`IdentifMentions`), mirrored by `identify_mentions`:
* every key mention gets an id; a span repeated in the key ("Repeated mention in the key") keeps
  one id that stays in every key cluster holding it;
* a response mention equal to a key mention takes its id; a key-matched span repeated in the
  response ("Repeated mention in the response") is kept at its first occurrence only and clusters
  left empty are dropped; response spans not in the key get new ids (a repeated one keeps its
  repeats, as in v8.01, which only de-duplicates key-matched spans);
* mention identification: recall = matched / distinct key spans, precision = matched / distinct
  response spans.
MUC, B-cubed, CEAF-m, CEAF-e and BLANC then run on those id chains exactly as v8.01 does; where
a key id sits in several clusters, MUC and B-cubed attribute it to the last one (v8.01's
`Indexa`). v8.01 refuses to score more than 10 repeated response mentions; here they are scored
and counted (`CorefEvaluator` warns once).

Every metric returns numerators and denominators (`Counts`) so that documents can be summed:
the corpus score is the micro average (summed numerators over summed denominators), as v8.01
does, not a mean of per-document F1. BLANC (Luo et al., 2014) sums coreference and
non-coreference link counts and combines them the way v8.01 prints them: the mean of the two
link types' R, P and F; only one type where the key has no link of the other type; 0 where the
key has no link at all. Singletons: `CorefEvaluator(keep_singletons=False)` removes clusters with
one distinct mention from key and response before scoring (OntoNotes-style numbers).
"""
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Dict, Hashable, Iterable, List, Sequence, Set, Tuple

from ..errors import Warnings, warn
from .assignment import max_assignment

Clusters = Sequence[Sequence[Hashable]]
Chains = List[List[int]]
# Output keys of `CorefEvaluator.scores`, in order.
METRICS = ("muc", "b3", "ceafe", "ceafm", "blanc", "lea")


@dataclass
class Counts:
    """Recall and precision as numerators and denominators (sum them over documents)."""

    r_num: float = 0.0
    r_den: float = 0.0
    p_num: float = 0.0
    p_den: float = 0.0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(
            self.r_num + other.r_num,
            self.r_den + other.r_den,
            self.p_num + other.p_num,
            self.p_den + other.p_den,
        )

    @property
    def recall(self) -> float:
        return self.r_num / self.r_den if self.r_den else 0.0

    @property
    def precision(self) -> float:
        return self.p_num / self.p_den if self.p_den else 0.0

    @property
    def f1(self) -> float:
        return _f1(self.precision, self.recall)


@dataclass
class BlancCounts:
    """BLANC's coreference and non-coreference link counts (sum them over documents)."""

    coref: Counts = field(default_factory=Counts)
    non_coref: Counts = field(default_factory=Counts)

    def __add__(self, other: "BlancCounts") -> "BlancCounts":
        return BlancCounts(self.coref + other.coref, self.non_coref + other.non_coref)

    def rpf(self) -> Tuple[float, float, float]:
        """Recall, precision and F as v8.01 reports them (fractions, not percent)."""
        c, n = self.coref, self.non_coref
        if not c.r_den and not n.r_den:
            return 0.0, 0.0, 0.0
        if not c.r_den:
            return n.recall, n.precision, n.f1
        if not n.r_den:
            return c.recall, c.precision, c.f1
        return (
            (c.recall + n.recall) / 2,
            (c.precision + n.precision) / 2,
            (c.f1 + n.f1) / 2,
        )


@dataclass
class Identified:
    """A document's key and response as v8.01's integer mention-id chains."""

    key: Chains
    response: Chains
    mentions: Counts
    n_repeated_key: int = 0
    n_repeated_response: int = 0


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _percent(precision: float, recall: float, f1: float) -> Dict[str, float]:
    return {"p": 100 * precision, "r": 100 * recall, "f": 100 * f1}


def remove_singletons(clusters: Clusters) -> List[List[Hashable]]:
    """Clusters with at least two distinct mentions (the others are singletons)."""
    return [list(c) for c in clusters if len(set(c)) > 1]


def identify_mentions(key: Clusters, response: Clusters) -> Identified:
    """Map key and response mentions to ids the way v8.01's `IdentifMentions` does.

    key (Clusters): The gold clusters.
    response (Clusters): The predicted clusters.
    RETURNS (Identified): Id chains, mention identification counts and repeat counts.
    """
    ids: Dict[Hashable, int] = {}
    n_ids = 0
    n_repeated_key = 0
    for cluster in key:
        for mention in cluster:
            n_repeated_key += mention in ids
            ids[mention] = n_ids
            n_ids += 1
    mapped: Dict[Hashable, int] = {}
    kept_clusters = []
    n_repeated_response = 0
    seen_twinless: Set[Hashable] = set()
    for cluster in response:
        kept = []
        for mention in cluster:
            if mention in mapped:
                n_repeated_response += 1
                continue
            if mention in ids:
                mapped[mention] = ids[mention]
            elif mention in seen_twinless:
                n_repeated_response += 1  # kept, as v8.01 does
            else:
                seen_twinless.add(mention)
            kept.append(mention)
        if kept:
            kept_clusters.append(kept)
    n_matched = len(mapped)
    for cluster in kept_clusters:
        for mention in cluster:
            if mention not in mapped:
                mapped[mention] = n_ids
                n_ids += 1
    key_chains = [[ids[m] for m in c] for c in key if len(c)]
    response_chains = [[mapped[m] for m in c] for c in kept_clusters]
    mentions = Counts(n_matched, len(ids), n_matched, len(mapped))
    return Identified(key_chains, response_chains, mentions, n_repeated_key, n_repeated_response)


def _last_chain(chains: Chains) -> Dict[int, int]:
    """Id -> index of the last chain holding it (v8.01's `Indexa`)."""
    return {m: i for i, chain in enumerate(chains) for m in chain}


def _holders(chains: Chains) -> Dict[int, Set[int]]:
    """Id -> indices of all chains holding it."""
    result: Dict[int, Set[int]] = defaultdict(set)
    for i, chain in enumerate(chains):
        for m in chain:
            result[m].add(i)
    return result


def _muc(doc: Identified) -> Counts:
    key_of = _last_chain(doc.key)
    correct = 0
    for chain in doc.response:
        groups = Counter(key_of[m] for m in chain if m in key_of)
        correct += sum(n - 1 for n in groups.values())
    key_links = sum(len(c) - 1 for c in doc.key)
    response_links = sum(len(c) - 1 for c in doc.response)
    return Counts(correct, key_links, correct, response_links)


def _b_cubed(doc: Identified) -> Counts:
    key_of = _last_chain(doc.key)
    holders = _holders(doc.key)
    r_num = p_num = 0.0
    for chain in doc.response:
        # Elements of this response chain that are members of each key chain.
        overlap: Counter = Counter(k for m in chain for k in holders.get(m, ()))
        for m in chain:
            if m in key_of:
                common = overlap[key_of[m]]
                p_num += common / len(chain)
                r_num += common / len(doc.key[key_of[m]])
    n_key = sum(len(c) for c in doc.key)
    n_response = sum(len(c) for c in doc.response)
    return Counts(r_num, n_key, p_num, n_response)


def _overlaps(doc: Identified) -> Dict[Tuple[int, int], int]:
    """(key chain, response chain) -> v8.01's intersection: the key chain's elements (repeats
    included) that occur in the response chain. Only non-zero entries."""
    holders = _holders(doc.response)
    overlaps: Dict[Tuple[int, int], int] = defaultdict(int)
    for i, chain in enumerate(doc.key):
        for m in chain:
            for j in holders.get(m, ()):
                overlaps[i, j] += 1
    return overlaps


def _ceaf(doc: Identified, overlaps: Dict[Tuple[int, int], int], *, entity: bool) -> Counts:
    if entity:
        weights = {
            (i, j): 2 * n / (len(doc.key[i]) + len(doc.response[j]))
            for (i, j), n in overlaps.items()
        }
        r_den, p_den = len(doc.key), len(doc.response)
    else:
        weights = {pair: float(n) for pair, n in overlaps.items()}
        r_den = sum(len(c) for c in doc.key)
        p_den = sum(len(c) for c in doc.response)
    similarity = max_assignment(weights)
    return Counts(similarity, r_den, similarity, p_den)


def _comb2(n: int) -> int:
    return n * (n - 1) // 2


def _blanc(doc: Identified, overlaps: Dict[Tuple[int, int], int]) -> BlancCounts:
    key_ids = [m for c in doc.key for m in c]
    response_ids = [m for c in doc.response for m in c]
    if len(set(key_ids)) < len(key_ids) or len(set(response_ids)) < len(response_ids):
        return _blanc_from_links(doc)
    common = set(key_ids) & set(response_ids)
    key_c = sum(_comb2(len(c)) for c in doc.key)
    response_c = sum(_comb2(len(c)) for c in doc.response)
    key_n = _comb2(len(key_ids)) - key_c
    response_n = _comb2(len(response_ids)) - response_c
    both_c = sum(_comb2(n) for n in overlaps.values())
    # Pairs of common mentions in different key clusters and different response clusters.
    both_n = (
        _comb2(len(common))
        - sum(_comb2(sum(m in common for m in c)) for c in doc.key)
        - sum(_comb2(sum(m in common for m in c)) for c in doc.response)
        + both_c
    )
    return BlancCounts(
        Counts(both_c, key_c, both_c, response_c), Counts(both_n, key_n, both_n, response_n)
    )


def _links(chains: Chains) -> Tuple[Set[Tuple[int, int]], Set[Tuple[int, int]]]:
    """v8.01's coreference links (pairs within a chain) and non-coreference links (pairs across
    two chains), as sets of sorted id pairs; an id repeated in a chain links to itself."""
    coref = {(min(a, b), max(a, b)) for chain in chains for a, b in combinations(chain, 2)}
    non_coref = {
        (min(a, b), max(a, b))
        for first, second in combinations(chains, 2)
        for a in first
        for b in second
    }
    return coref, non_coref


def _blanc_from_links(doc: Identified) -> BlancCounts:
    key_c, key_n = _links(doc.key)
    response_c, response_n = _links(doc.response)
    both_c, both_n = len(key_c & response_c), len(key_n & response_n)
    return BlancCounts(
        Counts(both_c, len(key_c), both_c, len(response_c)),
        Counts(both_n, len(key_n), both_n, len(response_n)),
    )


def _first_occurrences(chains: Chains) -> Chains:
    seen: Set[int] = set()
    result = []
    for chain in chains:
        kept = []
        for m in chain:
            if m not in seen:
                seen.add(m)
                kept.append(m)
        if kept:
            result.append(kept)
    return result


def _lea_side(inputs: Chains, outputs: Chains) -> Tuple[float, float]:
    """coval's `lea(input_clusters, output_clusters, mention_to_output_cluster)`."""
    where = {m: i for i, chain in enumerate(outputs) for m in chain}
    num = 0.0
    den = 0
    for chain in inputs:
        if len(chain) == 1:
            m = chain[0]
            common = float(m in where and len(outputs[where[m]]) == 1)
            links = 1.0
        else:
            groups = Counter(where[m] for m in chain if m in where)
            common = float(sum(_comb2(n) for n in groups.values()))
            links = _comb2(len(chain))
        num += len(chain) * common / links
        den += len(chain)
    return num, den


def _lea(doc: Identified) -> Counts:
    # LEA counts every mention once: repeats keep their first occurrence.
    key = _first_occurrences(doc.key)
    response = _first_occurrences(doc.response)
    r_num, r_den = _lea_side(key, response)
    p_num, p_den = _lea_side(response, key)
    return Counts(r_num, r_den, p_num, p_den)


def muc(key: Clusters, response: Clusters) -> Counts:
    """MUC (Vilain et al., 1995) link counts, as v8.01.

    key (Clusters): The gold clusters.
    response (Clusters): The predicted clusters.
    RETURNS (Counts): Recall and precision numerators and denominators.
    """
    return _muc(identify_mentions(key, response))


def b_cubed(key: Clusters, response: Clusters) -> Counts:
    """B-cubed (Bagga & Baldwin, 1998) counts, as v8.01. Arguments as for `muc`."""
    return _b_cubed(identify_mentions(key, response))


def ceafe(key: Clusters, response: Clusters) -> Counts:
    """Entity-based CEAF (Luo, 2005) with the optimal assignment, as v8.01."""
    doc = identify_mentions(key, response)
    return _ceaf(doc, _overlaps(doc), entity=True)


def ceafm(key: Clusters, response: Clusters) -> Counts:
    """Mention-based CEAF (Luo, 2005) with the optimal assignment, as v8.01."""
    doc = identify_mentions(key, response)
    return _ceaf(doc, _overlaps(doc), entity=False)


def blanc(key: Clusters, response: Clusters) -> BlancCounts:
    """BLANC for predicted mentions (Luo et al., 2014) link counts, as v8.01."""
    doc = identify_mentions(key, response)
    return _blanc(doc, _overlaps(doc))


def lea(key: Clusters, response: Clusters) -> Counts:
    """LEA (Moosavi & Strube, 2016) counts, as coval computes them."""
    return _lea(identify_mentions(key, response))


def mention_counts(key: Clusters, response: Clusters) -> Counts:
    """Mention identification (exact spans) counts, as v8.01 reports them."""
    return identify_mentions(key, response).mentions


class CorefEvaluator:
    """Sum coreference metrics over documents and report them in percent."""

    def __init__(self, *, keep_singletons: bool = True) -> None:
        """keep_singletons (bool): Score singleton clusters (False removes them first)."""
        self.keep_singletons = keep_singletons
        self.counts: Dict[str, Counts] = {
            name: Counts() for name in ("muc", "b3", "ceafe", "ceafm", "lea", "mentions")
        }
        self.blanc = BlancCounts()
        self.n_docs = 0
        self.n_repeated_key = 0
        self.n_repeated_response = 0

    def add(self, key: Clusters, response: Clusters) -> Dict[str, Any]:
        """Score one document and add its counts.

        key (Clusters): The document's gold clusters.
        response (Clusters): The document's predicted clusters.
        RETURNS (Dict[str, Any]): The document's own counts, by metric name.
        """
        if not self.keep_singletons:
            key, response = remove_singletons(key), remove_singletons(response)
        doc = identify_mentions(key, response)
        overlaps = _overlaps(doc)
        doc_counts: Dict[str, Any] = {
            "muc": _muc(doc),
            "b3": _b_cubed(doc),
            "ceafe": _ceaf(doc, overlaps, entity=True),
            "ceafm": _ceaf(doc, overlaps, entity=False),
            "lea": _lea(doc),
            "mentions": doc.mentions,
        }
        for name, counts in doc_counts.items():
            self.counts[name] = self.counts[name] + counts
        doc_counts["blanc"] = _blanc(doc, overlaps)
        self.blanc = self.blanc + doc_counts["blanc"]
        self.n_docs += 1
        self.n_repeated_key += doc.n_repeated_key
        self.n_repeated_response += doc.n_repeated_response
        return doc_counts

    def scores(self) -> Dict[str, Any]:
        """The summed scores in percent; warns once if mentions were repeated.

        RETURNS (Dict[str, Any]): `muc`, `b3`, `ceafe`, `ceafm`, `blanc`, `lea` and `mentions`
            as {"p", "r", "f"}, and `conll_f1`, the mean F1 of MUC, B-cubed and CEAF-e.
        """
        if self.n_repeated_key or self.n_repeated_response:
            warn(
                Warnings.CW050.format(
                    n_key=self.n_repeated_key, n_response=self.n_repeated_response
                )
            )
        result: Dict[str, Any] = {}
        for name in METRICS:
            if name == "blanc":
                r, p, f = self.blanc.rpf()
            else:
                c = self.counts[name]
                r, p, f = c.recall, c.precision, c.f1
            result[name] = _percent(p, r, f)
        result["conll_f1"] = sum(result[name]["f"] for name in ("muc", "b3", "ceafe")) / 3
        c = self.counts["mentions"]
        result["mentions"] = _percent(c.precision, c.recall, c.f1)
        return result


def score_documents(
    documents: Iterable[Tuple[Clusters, Clusters]], *, keep_singletons: bool = True
) -> Dict[str, Any]:
    """Score (key, response) cluster pairs, one per document, summed over documents.

    documents (Iterable[Tuple[Clusters, Clusters]]): Gold and predicted clusters per document.
    keep_singletons (bool): Score singleton clusters (False removes them first).
    RETURNS (Dict[str, Any]): As `CorefEvaluator.scores`, in percent.
    """
    evaluator = CorefEvaluator(keep_singletons=keep_singletons)
    for key, response in documents:
        evaluator.add(key, response)
    return evaluator.scores()

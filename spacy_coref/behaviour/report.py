"""Run a behaviour suite through a pipeline and score the predicted clusters, per category.

Matching rule. A mention of the suite matches a predicted mention (a span of a predicted
cluster) when, on the predicted doc, both have the same syntactic head (`Span.root`) and either
both or neither are coordinations of that head (the head has a `conj` child inside the span).
The suite's mention is the span of its characters, widened to whole tokens. So "the plumber"
matches a predicted "plumber" or "the plumber from Leeds", while "Ann and Bo" (a group) never
matches a predicted "Ann". An appositive stands for the phrase it describes: a head attached as
`appos` counts as the head it is attached to, so in "Our neighbour, Mrs. Ellis, ..." a
predicted "Mrs. Ellis" matches "Our neighbour" (a suite names the first phrase of an
apposition, and never asks to keep the two apart). On docs without a dependency parse, mentions
match on exact token offsets only.

A must_link pair passes when one predicted cluster matches both mentions; a must_not_link pair
passes when no cluster does. A mention that is in no predicted cluster therefore fails its
must_link pairs and passes its must_not_link pairs. An item passes when all its pairs pass.

Where a category has items marked "stereotype" (`suite.PRO`, `suite.ANTI`), the report also
scores its pro- and anti-stereotypical halves apart and gives the difference of their pass
rates: a model that resolves by meaning, not by the occupation's stereotype, keeps them within
`STEREOTYPE_TARGET` points of each other.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Set, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span
from wasabi import table

from ..annotations import get_clusters
from .suite import ANTI, PRO, BehaviourItem, Pair

# (head token, 1 for a coordination else 0) on parsed docs; (start, end) tokens otherwise
MentionKey = Tuple[int, int]
OVERALL = "overall"
# the aim for the pass rates of a category's pro- and anti-stereotypical halves: at most this
# many percentage points apart
STEREOTYPE_TARGET = 5.0


@dataclass
class ConstraintResult:
    kind: str  # "must_link" or "must_not_link"
    pair: Pair
    passed: bool


@dataclass
class ItemResult:
    item: BehaviourItem
    constraints: List[ConstraintResult]
    clusters: List[List[str]]  # the predicted clusters, as the texts of their mentions

    @property
    def passed(self) -> bool:
        return all(result.passed for result in self.constraints)

    def to_dict(self) -> Dict[str, Any]:
        constraints = [
            {"kind": c.kind, "mentions": list(c.pair), "passed": c.passed} for c in self.constraints
        ]
        return {
            "id": self.item.id,
            "category": self.item.category,
            "text": self.item.text,
            "passed": self.passed,
            "constraints": constraints,
            "clusters": self.clusters,
            **({"stereotype": self.item.stereotype} if self.item.stereotype else {}),
        }


@dataclass
class CategoryScore:
    items: int = 0
    passed: int = 0
    constraints: int = 0
    constraints_passed: int = 0

    def add(self, result: ItemResult) -> None:
        self.items += 1
        self.passed += int(result.passed)
        self.constraints += len(result.constraints)
        self.constraints_passed += sum(c.passed for c in result.constraints)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.items if self.items else 0.0

    @property
    def constraint_rate(self) -> float:
        return self.constraints_passed / self.constraints if self.constraints else 0.0

    def to_dict(self) -> Dict[str, Any]:
        return {
            "items": self.items,
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "constraints": self.constraints,
            "constraints_passed": self.constraints_passed,
            "constraint_rate": self.constraint_rate,
        }


@dataclass
class StereotypeSplit:
    """A category's pro- and anti-stereotypical items, scored apart."""

    pro: CategoryScore = field(default_factory=CategoryScore)
    anti: CategoryScore = field(default_factory=CategoryScore)

    def add(self, result: ItemResult) -> None:
        if result.item.stereotype == PRO:
            self.pro.add(result)
        elif result.item.stereotype == ANTI:
            self.anti.add(result)

    @property
    def difference(self) -> float:
        """The pass rate of the pro half minus that of the anti half, in percentage points."""
        return 100 * (self.pro.pass_rate - self.anti.pass_rate)

    @property
    def within_target(self) -> bool:
        return abs(self.difference) <= STEREOTYPE_TARGET

    def to_dict(self) -> Dict[str, Any]:
        return {
            PRO: self.pro.to_dict(),
            ANTI: self.anti.to_dict(),
            "difference": self.difference,
            "within_target": self.within_target,
        }


@dataclass
class BehaviourReport:
    results: List[ItemResult]

    def categories(self) -> Dict[str, CategoryScore]:
        """Scores per category, in the order the categories first occur."""
        scores: Dict[str, CategoryScore] = {}
        for result in self.results:
            scores.setdefault(result.item.category, CategoryScore()).add(result)
        return scores

    def overall(self) -> CategoryScore:
        score = CategoryScore()
        for result in self.results:
            score.add(result)
        return score

    def stereotypes(self) -> Dict[str, StereotypeSplit]:
        """The pro and anti halves of each category with items marked "stereotype", in the
        order the categories first occur (other categories are left out)."""
        splits: Dict[str, StereotypeSplit] = {}
        for result in self.results:
            if result.item.stereotype is not None:
                splits.setdefault(result.item.category, StereotypeSplit()).add(result)
        return splits

    def failures(self) -> List[ItemResult]:
        return [result for result in self.results if not result.passed]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "categories": {name: s.to_dict() for name, s in self.categories().items()},
            OVERALL: self.overall().to_dict(),
            "stereotypes": {name: s.to_dict() for name, s in self.stereotypes().items()},
            "items": [result.to_dict() for result in self.results],
        }


def run_suite(
    nlp: Language, items: List[BehaviourItem], *, batch_size: int = 32
) -> BehaviourReport:
    """Resolve the items' texts (one `nlp.pipe` over all of them) and check their constraints.

    nlp (Language): A pipeline that writes coreference clusters (`get_clusters`).
    items (List[BehaviourItem]): The suite, from `load_suite`.
    batch_size (int): Texts per batch.
    RETURNS (BehaviourReport): A result per item.
    """
    docs = nlp.pipe((item.text for item in items), batch_size=batch_size)
    return BehaviourReport([score_item(item, doc) for item, doc in zip(items, docs)])


def score_item(item: BehaviourItem, doc: Doc) -> ItemResult:
    """Check an item's constraints against the clusters predicted on its doc.

    item (BehaviourItem): The item.
    doc (Doc): The item's text, resolved.
    RETURNS (ItemResult): Which constraints pass, and the predicted clusters.
    """
    clusters = get_clusters(doc)
    parsed = doc.has_annotation("DEP")
    in_clusters: Dict[MentionKey, Set[int]] = {}
    for number, cluster in enumerate(clusters):
        for start, end in cluster:
            in_clusters.setdefault(mention_key(doc[start:end], parsed), set()).add(number)
    found = {}
    for mention, (start, end) in item.spans.items():
        span = doc.char_span(start, end, alignment_mode="expand")
        # None only where a pipeline changed the text: then nothing can match
        found[mention] = (
            set() if span is None else in_clusters.get(mention_key(span, parsed), set())
        )
    results = []
    for kind, (a, b) in item.constraints():
        together = bool(found[a] & found[b])
        results.append(ConstraintResult(kind, (a, b), together == (kind == "must_link")))
    texts = [[doc[start:end].text for start, end in cluster] for cluster in clusters]
    return ItemResult(item, results, texts)


def mention_key(span: Span, parsed: bool) -> MentionKey:
    """What a mention is matched on (see the module docstring)."""
    if not parsed:
        return span.start, span.end
    root = span.root
    group = any(
        child.dep_ == "conj" and span.start <= child.i < span.end for child in root.children
    )
    while root.dep_ == "appos" and root.head.i != root.i:  # an appositive is what it describes
        root = root.head
    return root.i, int(group)


def format_table(report: BehaviourReport) -> str:
    """A table of items and constraints passed per category, with an "overall" row; under it,
    for each category with stereotype items, a line with the pass rates of its pro and anti
    halves and their difference (`format_stereotypes`).

    report (BehaviourReport): The report.
    RETURNS (str): The table, and the stereotype lines.
    """
    header = ("category", "items", "passed", "pass rate", "constraints passed")
    rows = [_row(name, score) for name, score in report.categories().items()]
    footer = _row(OVERALL, report.overall())
    text = table(rows, header=header, footer=footer, divider=True, aligns=("l", "r", "r", "r", "r"))
    stereotypes = format_stereotypes(report)
    return text.rstrip("\n") + f"\n{stereotypes}\n" if stereotypes else text


def format_stereotypes(report: BehaviourReport) -> str:
    """One line per category with stereotype items: the pass rates of its pro- and
    anti-stereotypical halves and the difference, pro - anti, in percentage points.

    report (BehaviourReport): The report.
    RETURNS (str): The lines ("" when no item is marked).
    """
    lines = []
    for name, split in report.stereotypes().items():
        halves = ", ".join(
            f"{half} {score.passed}/{score.items} ({100 * score.pass_rate:.1f}%)"
            for half, score in ((PRO, split.pro), (ANTI, split.anti))
        )
        lines.append(
            f"{name}: {halves}; pro - anti {split.difference:+.1f} points "
            f"(target: within {STEREOTYPE_TARGET:g})"
        )
    return "\n".join(lines)


def format_failures(results: Iterable[ItemResult]) -> str:
    """The failing items: text, failed pairs and the predicted clusters.

    results (Iterable[ItemResult]): Results (passing ones are left out).
    RETURNS (str): One block per failing item.
    """
    blocks = []
    for result in results:
        if result.passed:
            continue
        failed = "; ".join(
            f"{c.kind} '{c.pair[0]}' ~ '{c.pair[1]}'" for c in result.constraints if not c.passed
        )
        clusters = " ".join("[" + " | ".join(c) + "]" for c in result.clusters) or "none"
        item = result.item
        blocks.append(
            f"{item.id} ({item.category}): {item.text}\n"
            f"  failed: {failed}\n"
            f"  predicted clusters: {clusters}"
        )
    return "\n".join(blocks)


def _row(name: str, score: CategoryScore) -> Tuple[str, int, int, str, str]:
    constraints = (
        f"{score.constraints_passed}/{score.constraints} ({100 * score.constraint_rate:.1f}%)"
    )
    return name, score.items, score.passed, f"{100 * score.pass_rate:.1f}%", constraints

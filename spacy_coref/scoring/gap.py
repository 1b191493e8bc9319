"""GAP metrics (Webster et al., 2018), predicted clusters -> GAP decisions, prediction TSVs.

Metrics, as the official `gap_scorer.py` (google-research-datasets/gap-coreference) defines
them: every example gives two decisions, A-coref and B-coref, each counted as a true or false
positive or negative against gold (a missing system decision counts as a false negative).
Recall, precision and F1 are in percent, overall and per gender of the pronoun (feminine: she,
her, hers; masculine: he, his, him); bias = F1 feminine / F1 masculine, undefined (None) when
either is 0. A prediction file is what the official scorer reads: no header, one line per
example, `ID<TAB>A-coref<TAB>B-coref` with TRUE/FALSE (any case).

From predicted clusters to decisions (`gap_decision`), given the example's three labelled spans
PRONOUN, A and B (token offsets on the doc holding the clusters):
1. The pronoun matches only a predicted mention with exactly its span (a mention such as
   "his mother" that contains the pronoun is another entity). The pronoun's clusters are all
   predicted clusters holding such a mention.
2. A name N (A or B) matches a predicted mention m when m equals N's span, or when m ends on
   N's last token (the head of an English name phrase: "Smith", "the lawyer John Smith") and m
   overlaps neither the pronoun nor the other name. A possessive mention counts without its
   marker (`clusters_without_possessive_markers`): "Herring's" in "Herring's novel" is
   Herring, and GAP's span for the name leaves the "'s" out.
3. A-coref is TRUE when one of the pronoun's clusters holds a mention matching A; likewise B.
4. GAP never has both TRUE. When the pronoun's clusters match both names, only the name with
   the matching mention nearest to the pronoun (in tokens between the two spans) is TRUE; on a
   tie the name before the pronoun wins (the anaphoric reading), then A.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc, Span

from ..annotations import CLUSTER_PREFIX, GOLD_MENTIONS_KEY, get_clusters
from ..errors import DataFormatError, Errors, Warnings, warn
from ..formats.gap import GAP_ID, gap_spans, parse_flag
from ..lang.en import english
from ..types import ClusterOffsets, MentionOffset

PathLike = Union[str, Path]
FEMININE, MASCULINE = "feminine", "masculine"
# The official scorer's pronoun forms (GAP has no reflexives): "she", "her", "hers", "he",
# "him", "his" (the lexicon's pronoun table)
PRONOUN_GENDERS = {
    form: gender
    for gender in (FEMININE, MASCULINE)
    for form in english().pronouns(gender=gender, reflexive=False)
}
# the possessive marker as its own token ("Herring 's", "the Joneses '")
POSSESSIVE_MARKERS = frozenset(("'s", "'", "’s", "’"))
PREDICTION_COLUMNS = ("ID", "A-coref", "B-coref")
GOLD_COLUMNS = ("ID", "Pronoun", "A-coref", "B-coref")


@dataclass(frozen=True)
class GapDecision:
    """One GAP example's decisions (gold or predicted)."""

    gap_id: str
    a_coref: bool
    b_coref: bool
    # For gold decisions: the pronoun's gender and the line in the gold file.
    gender: Optional[str] = None
    line: int = 0


@dataclass
class GapCounts:
    """True and false positives and negatives over (pronoun, name) decisions."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0

    def add(self, gold: bool, predicted: Optional[bool]) -> None:
        if predicted is None or (gold and not predicted):
            self.fn += 1
        elif predicted:
            self.tp += gold
            self.fp += not gold
        else:
            self.tn += 1

    def scores(self) -> Dict[str, float]:
        """Recall, precision and F1 in percent, and the counts."""
        r = 100.0 * self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        p = 100.0 * self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"p": p, "r": r, "f": f, "tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn}


@dataclass
class GapEvaluator:
    """Sum GAP decisions overall and per gender."""

    counts: Dict[str, GapCounts] = field(
        default_factory=lambda: {name: GapCounts() for name in ("overall", MASCULINE, FEMININE)}
    )

    def add(
        self, gender: Optional[str], gold: Tuple[bool, bool], predicted: Tuple[bool, bool]
    ) -> None:
        """Add one example: its gender (None: overall only), gold and predicted (A, B)."""
        for name in ("overall", gender):
            if name is not None:
                for g, p in zip(gold, predicted):
                    self.counts[name].add(g, p)

    def scores(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): "overall", "masculine", "feminine" (each with "p", "r",
        "f" in percent and the counts) and "bias" (F1 feminine / F1 masculine, or None)."""
        result: Dict[str, Any] = {name: c.scores() for name, c in self.counts.items()}
        f_m, f_f = result[MASCULINE]["f"], result[FEMININE]["f"]
        result["bias"] = f_f / f_m if f_m and f_f else None
        return result


def pronoun_gender(pronoun: str) -> Optional[str]:
    """ "feminine" or "masculine" for GAP's pronoun forms (and reflexives), else None."""
    form = pronoun.lower()
    return PRONOUN_GENDERS.get(form, {"herself": FEMININE, "himself": MASCULINE}.get(form))


def _distance(a: MentionOffset, b: MentionOffset) -> int:
    """Tokens strictly between two spans (0 when adjacent or overlapping)."""
    return max(0, b[0] - a[1], a[0] - b[1])


def matches_name(m: MentionOffset, name: MentionOffset, others: Sequence[MentionOffset]) -> bool:
    """Whether a predicted mention stands for a labelled name: its span, or one that ends on
    its last token and overlaps none of the `others` (the pronoun, the other name)."""
    if m == name:
        return True
    overlaps = any(m[0] < o[1] and o[0] < m[1] for o in others)
    return m[1] == name[1] and m[0] < m[1] and not overlaps


def gap_decision(
    clusters: ClusterOffsets,
    pronoun: MentionOffset,
    a: MentionOffset,
    b: MentionOffset,
    *,
    exact: bool = False,
) -> Tuple[bool, bool]:
    """A-coref and B-coref from predicted clusters, by the rule in the module docstring.

    clusters (ClusterOffsets): Clusters as (start, end) token offsets.
    pronoun (MentionOffset): The pronoun's span.
    a (MentionOffset): Name A's span.
    b (MentionOffset): Name B's span.
    exact (bool): Match the names by exact span only and keep both decisions as they are (for
        gold clusters, as `read_gap` writes them).
    RETURNS (Tuple[bool, bool]): (A-coref, B-coref).
    """
    linked = [m for cluster in clusters if pronoun in cluster for m in cluster if m != pronoun]
    if exact:
        return (a in linked, b in linked)
    nearest: List[Optional[Tuple[int, int]]] = []
    for name, other in ((a, b), (b, a)):
        matching = [m for m in linked if matches_name(m, name, (pronoun, other))]
        # Rank: distance to the pronoun, then before the pronoun (0) ahead of after it (1).
        ranks = [(_distance(m, pronoun), int(m[0] >= pronoun[1])) for m in matching]
        nearest.append(min(ranks) if ranks else None)
    near_a, near_b = nearest
    if near_a is not None and near_b is not None:
        return (near_a <= near_b, near_b < near_a)
    return (near_a is not None, near_b is not None)


def _doc_name(doc: Doc, index: int) -> str:
    return str(doc.user_data.get(GAP_ID) or f"#{index}")


def checked_gap_spans(doc: Doc, index: int = 0) -> Dict[str, Span]:
    """The PRONOUN, A and B spans of a GAP doc; an error naming the doc if it lacks them.

    doc (Doc): The doc.
    index (int): Its position, to name it when it has no GAP ID.
    RETURNS (Dict[str, Span]): Role -> span.
    """
    spans = gap_spans(doc)
    if spans is None:
        found = [span.label_ for span in doc.spans.get(GOLD_MENTIONS_KEY, [])]
        raise ValueError(
            Errors.CE061.format(doc=_doc_name(doc, index), key=GOLD_MENTIONS_KEY, found=found)
        )
    return spans


def _role_offsets(doc: Doc, index: int) -> Dict[str, MentionOffset]:
    spans = checked_gap_spans(doc, index)
    return {role: (span.start, span.end) for role, span in spans.items()}


def clusters_without_possessive_markers(doc: Doc, clusters: ClusterOffsets) -> ClusterOffsets:
    """The clusters with each mention of two or more tokens that ends on a possessive marker
    ("'s", "'") cut before it: the span of the possessor, which GAP labels.

    doc (Doc): the doc the clusters are on.
    clusters (ClusterOffsets): clusters as (start, end) token offsets.
    RETURNS (ClusterOffsets): the same clusters, possessive mentions cut.
    """
    return [
        [
            (start, end - 1) if end - start > 1 and doc[end - 1].text.lower() in POSSESSIVE_MARKERS
            else (start, end)
            for start, end in cluster
        ]
        for cluster in clusters
    ]


def doc_gap_decision(doc: Doc, *, prefix: str = CLUSTER_PREFIX) -> Tuple[bool, bool]:
    """A-coref and B-coref for a GAP doc from its clusters (see `gap_decision`).

    doc (Doc): A doc with the PRONOUN, A and B spans in `doc.spans[GOLD_MENTIONS_KEY]`.
    prefix (str): The prefix of the cluster keys to read.
    RETURNS (Tuple[bool, bool]): (A-coref, B-coref).
    """
    roles = _role_offsets(doc, 0)
    clusters = clusters_without_possessive_markers(doc, get_clusters(doc, prefix))
    return gap_decision(clusters, roles["PRONOUN"], roles["A"], roles["B"])


def gap_decisions(docs: Iterable[Doc], *, prefix: str = CLUSTER_PREFIX) -> List[GapDecision]:
    """GAP decisions for predicted docs (e.g. `nlp.pipe` over `read_gap` docs).

    docs (Iterable[Doc]): Docs with the GAP spans and `doc.user_data["gap_id"]`.
    prefix (str): The prefix of the cluster keys to read.
    RETURNS (List[GapDecision]): One decision per doc, in order.
    """
    decisions = []
    for index, doc in enumerate(docs):
        roles = _role_offsets(doc, index)
        if not doc.user_data.get(GAP_ID):
            raise ValueError(Errors.CE062.format(doc=f"#{index}"))
        clusters = clusters_without_possessive_markers(doc, get_clusters(doc, prefix))
        a, b = gap_decision(clusters, roles["PRONOUN"], roles["A"], roles["B"])
        pronoun = doc[roles["PRONOUN"][0] : roles["PRONOUN"][1]].text
        gender = pronoun_gender(pronoun)
        decisions.append(GapDecision(str(doc.user_data[GAP_ID]), a, b, gender=gender))
    return decisions


def write_gap_predictions(decisions: Iterable[GapDecision], path: PathLike) -> None:
    """Write decisions as the official scorer's system TSV (no header).

    decisions (Iterable[GapDecision]): The decisions.
    path (PathLike): The output file; its directory is created if needed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = (
        f"{d.gap_id}\t{'TRUE' if d.a_coref else 'FALSE'}\t{'TRUE' if d.b_coref else 'FALSE'}\n"
        for d in decisions
    )
    path.write_text("".join(lines), encoding="utf8")


def _add_unique(result: Dict[str, GapDecision], decision: GapDecision, path: Path) -> None:
    if decision.gap_id in result:
        loc = f"{path}:{decision.line}"
        first = result[decision.gap_id].line
        raise DataFormatError(Errors.CE057.format(loc=loc, gap_id=decision.gap_id, first=first))
    result[decision.gap_id] = decision


def read_gap_predictions(path: PathLike) -> Dict[str, GapDecision]:
    """Read a system TSV (ID, A-coref, B-coref; a header row `ID A-coref B-coref` is allowed).

    path (PathLike): The file.
    RETURNS (Dict[str, GapDecision]): Decisions by example ID.
    """
    path = Path(path)
    result: Dict[str, GapDecision] = {}
    for line, text in enumerate(path.read_text(encoding="utf8").splitlines(), start=1):
        fields = text.split("\t")
        if not text.strip() or (line == 1 and tuple(fields) == PREDICTION_COLUMNS):
            continue
        loc = f"{path}:{line}"
        if len(fields) != len(PREDICTION_COLUMNS):
            raise DataFormatError(
                Errors.CE055.format(
                    loc=loc, expected=3, columns=", ".join(PREDICTION_COLUMNS), found=len(fields)
                )
            )
        a, b = (parse_flag(v, c, loc) for v, c in zip(fields[1:], PREDICTION_COLUMNS[1:]))
        _add_unique(result, GapDecision(fields[0], a, b, line=line), path)
    return result


def read_gap_gold(path: PathLike) -> Dict[str, GapDecision]:
    """Read the ID, Pronoun, A-coref and B-coref columns of a GAP TSV with its header row.

    path (PathLike): The file.
    RETURNS (Dict[str, GapDecision]): Gold decisions (with gender and line) by example ID.
    """
    path = Path(path)
    lines = path.read_text(encoding="utf8").splitlines()
    header = lines[0].split("\t") if lines else []
    if not set(GOLD_COLUMNS) <= set(header):
        raise DataFormatError(
            Errors.CE059.format(
                loc=f"{path}:1", expected=", ".join(GOLD_COLUMNS), found=" ".join(header)
            )
        )
    index = {column: header.index(column) for column in GOLD_COLUMNS}
    result: Dict[str, GapDecision] = {}
    for line, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        loc = f"{path}:{line}"
        fields = text.split("\t")
        if len(fields) != len(header):
            raise DataFormatError(
                Errors.CE055.format(
                    loc=loc, expected=len(header), columns=", ".join(header), found=len(fields)
                )
            )
        pronoun = fields[index["Pronoun"]]
        gender = PRONOUN_GENDERS.get(pronoun.lower())
        if gender is None:
            expected = ", ".join(PRONOUN_GENDERS)
            raise DataFormatError(Errors.CE058.format(loc=loc, pronoun=pronoun, expected=expected))
        a, b = (parse_flag(fields[index[c]], c, loc) for c in ("A-coref", "B-coref"))
        _add_unique(result, GapDecision(fields[index["ID"]], a, b, gender, line), path)
    if not result:
        raise DataFormatError(Errors.CE060.format(path=path))
    return result


def score_gap(
    gold: Dict[str, GapDecision],
    predictions: Dict[str, GapDecision],
    *,
    gold_path: PathLike = "gold",
    pred_path: PathLike = "the predictions",
) -> Dict[str, Any]:
    """Score predicted decisions against gold ones, as the official scorer does.

    gold (Dict[str, GapDecision]): Gold decisions (with gender and line) by ID.
    predictions (Dict[str, GapDecision]): Predicted decisions by ID; every gold ID needs one.
    gold_path (PathLike): The gold file, for error messages.
    pred_path (PathLike): The predictions file, for error messages.
    RETURNS (Dict[str, Any]): As `GapEvaluator.scores`.
    """
    evaluator = GapEvaluator()
    for gap_id, g in gold.items():
        p = predictions.get(gap_id)
        if p is None:
            loc = f"{gold_path}:{g.line}"
            raise DataFormatError(Errors.CE056.format(loc=loc, gap_id=gap_id, pred=pred_path))
        evaluator.add(g.gender, (g.a_coref, g.b_coref), (p.a_coref, p.b_coref))
    extra = [gap_id for gap_id in predictions if gap_id not in gold]
    if extra:
        warn(Warnings.CW052.format(n=len(extra), ids=", ".join(extra[:5])))
    return evaluator.scores()


def score_gap_files(gold_path: PathLike, pred_path: PathLike) -> Dict[str, Any]:
    """Score a system TSV against a GAP TSV (see `read_gap_gold`, `read_gap_predictions`).

    gold_path (PathLike): The gold GAP file.
    pred_path (PathLike): The predictions.
    RETURNS (Dict[str, Any]): As `GapEvaluator.scores`.
    """
    gold = read_gap_gold(gold_path)
    predictions = read_gap_predictions(pred_path)
    return score_gap(gold, predictions, gold_path=gold_path, pred_path=pred_path)


def char_offsets(doc: Doc, span: Span) -> Optional[MentionOffset]:
    """The token offsets on `doc` covering another doc's span's characters (None if none)."""
    mapped = doc.char_span(span.start_char, span.end_char, alignment_mode="expand")
    return (mapped.start, mapped.end) if mapped is not None and len(mapped) else None

"""Read a behaviour suite: short texts with pairs of mentions that must, or must not, be in one
cluster. Reading is strict so that an authoring slip fails with its file, line and item instead
of quietly scoring something else.

One JSON object per line: "id", "category", "text", "must_link" and "must_not_link" (lists of
[mention, mention] pairs; at least one pair between them), an optional "note" and an optional
"stereotype": "pro" where the pronoun's gender matches the stereotype of the occupation it
refers to, "anti" where it does not (the report scores the two halves of a category apart and
gives their difference). A mention is an exact, case-sensitive substring of the text that
stands as whole words ("he" never matches inside "the" or "she"). Where it occurs more than
once, its number says which, from 1: "him#2" is the second "him"; an unnumbered mention that
occurs more than once is an error.
"""
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import DataFormatError, Errors

SUITE_PATH = Path(__file__).resolve().parent / "suite.jsonl"
FIELDS = ("id", "category", "text", "must_link", "must_not_link", "note", "stereotype")
# the values of "stereotype": the pronoun's gender with or against the occupation's stereotype
PRO, ANTI = "pro", "anti"
STEREOTYPES = (PRO, ANTI)
CONSTRAINT_KINDS = ("must_link", "must_not_link")
# "him#2": a mention and the number of its occurrence
OCCURRENCE_RE = re.compile(r"^(.+)#(\d+)$", re.DOTALL)

Pair = Tuple[str, str]


@dataclass
class BehaviourItem:
    """One text and its constraints; `spans` gives each mention, as written, its character
    offsets (start, end) in the text."""

    id: str
    category: str
    text: str
    must_link: List[Pair] = field(default_factory=list)
    must_not_link: List[Pair] = field(default_factory=list)
    note: str = ""
    stereotype: Optional[str] = None  # PRO, ANTI or None (not a stereotype item)
    spans: Dict[str, Tuple[int, int]] = field(default_factory=dict)
    line: int = 0

    def constraints(self) -> List[Tuple[str, Pair]]:
        """(kind, pair) for every must_link pair, then every must_not_link pair."""
        return [(kind, pair) for kind in CONSTRAINT_KINDS for pair in getattr(self, kind)]


def load_suite(path: Optional[Union[str, Path]] = None) -> List[BehaviourItem]:
    """Read a behaviour suite, checking every item and mention.

    path (Optional[Union[str, Path]]): A .jsonl file; None reads the suite shipped with the
        package.
    RETURNS (List[BehaviourItem]): The items, in file order.
    """
    path = SUITE_PATH if path is None else Path(path)
    try:
        lines = path.read_text(encoding="utf8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise DataFormatError(Errors.CE309.format(path=path, error=e)) from e
    items: List[BehaviourItem] = []
    first_line: Dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        item = parse_item(line, loc=f"{path}:{number}")
        item.line = number
        if item.id in first_line:
            loc = f"{path}:{number}"
            raise DataFormatError(
                Errors.CE306.format(loc=loc, item=item.id, first=first_line[item.id])
            )
        first_line[item.id] = number
        items.append(item)
    if not items:
        raise DataFormatError(Errors.CE307.format(path=path))
    return items


def parse_item(line: str, *, loc: str) -> BehaviourItem:
    """Read one line of a suite.

    line (str): The JSON object.
    loc (str): "file:line", for the errors.
    RETURNS (BehaviourItem): The item, with the offsets of its mentions.
    """
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise DataFormatError(Errors.CE300.format(loc=loc, error=e)) from e
    if not isinstance(record, dict):
        raise DataFormatError(Errors.CE300.format(loc=loc, error=f"found {_show(record)}"))
    label = f"'{record['id']}'" if isinstance(record.get("id"), str) else "(no id)"
    unknown = sorted(set(record) - set(FIELDS))
    if unknown:
        expected = ", ".join(FIELDS)
        raise DataFormatError(
            Errors.CE302.format(loc=loc, item=label, unknown=unknown, expected=expected)
        )
    for key in ("id", "category", "text"):
        if not _is_text(record.get(key, None)):
            _fail_field(loc, label, record, key, "a non-empty string without outer spaces")
    if not isinstance(record.get("note", ""), str):
        _fail_field(loc, label, record, "note", "a string")
    stereotype = record.get("stereotype")
    if "stereotype" in record and stereotype not in STEREOTYPES:
        expected = " or ".join(f"'{value}'" for value in STEREOTYPES)
        raise DataFormatError(
            Errors.CE310.format(loc=loc, item=label, expected=expected, found=_show(stereotype))
        )
    item = BehaviourItem(
        id=record["id"],
        category=record["category"],
        text=record["text"],
        note=record.get("note", ""),
        stereotype=stereotype,
    )
    for kind in CONSTRAINT_KINDS:
        pairs = record.get(kind, [])
        if not isinstance(pairs, list) or not all(_is_pair(pair) for pair in pairs):
            _fail_field(loc, label, record, kind, "a list of [mention, mention] pairs of strings")
        setattr(item, kind, [(a, b) for a, b in pairs])
    if not item.must_link and not item.must_not_link:
        _fail_field(loc, label, record, "must_link", "at least one pair (or 'must_not_link')")
    for _, pair in item.constraints():
        for mention in pair:
            item.spans[mention] = find_mention(item.text, mention, loc=loc, item=item.id)
    _check_pairs(item, loc)
    return item


def find_mention(text: str, mention: str, *, loc: str, item: str) -> Tuple[int, int]:
    """The character offsets of a mention ("him", or "him#2" for the second "him").

    text (str): The item's text.
    mention (str): The mention as written in the suite.
    loc (str): "file:line", for the errors.
    item (str): The item's id, for the errors.
    RETURNS (Tuple[int, int]): start and end offsets (end exclusive).
    """
    match = OCCURRENCE_RE.match(mention)
    string, index = (match.group(1), int(match.group(2))) if match else (mention, None)
    pattern = rf"(?<!\w){re.escape(string)}(?!\w)"
    starts = [found.start() for found in re.finditer(pattern, text)]
    where = {"loc": loc, "item": item, "mention": mention}
    if not starts:
        raise DataFormatError(Errors.CE303.format(**where, text=json.dumps(text)))
    if index is None and len(starts) > 1:
        raise DataFormatError(Errors.CE305.format(**where, found=len(starts)))
    if index is not None and not 1 <= index <= len(starts):
        found = f"{len(starts)} occurrence(s)"
        raise DataFormatError(Errors.CE304.format(**where, index=index, string=string, found=found))
    start = starts[0 if index is None else index - 1]
    return start, start + len(string)


def _check_pairs(item: BehaviourItem, loc: str) -> None:
    """A pair must name two different spans, and no pair can be both linked and not linked."""
    linked = {frozenset(item.spans[m] for m in pair) for pair in item.must_link}
    for kind, pair in item.constraints():
        spans = frozenset(item.spans[m] for m in pair)
        if len(spans) == 1:
            problem = "names the same span twice"
        elif kind == "must_not_link" and spans in linked:
            problem = "is both in must_link and in must_not_link"
        else:
            continue
        raise DataFormatError(
            Errors.CE308.format(loc=loc, item=item.id, pair=list(pair), problem=problem)
        )


def _fail_field(loc: str, label: str, record: Dict[str, Any], key: str, expected: str) -> None:
    found = _show(record[key]) if key in record else "no such field"
    raise DataFormatError(
        Errors.CE301.format(loc=loc, item=label, key=key, expected=expected, found=found)
    )


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and value == value.strip()


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_text(v) for v in value)


def _show(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."

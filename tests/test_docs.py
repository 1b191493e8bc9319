"""The docs stay a guide and their links stay whole.

Every page directly in docs/ and BENCHMARKS.md is a guide of at most 400 lines (the history of
rounds, ablations and experiments lives in docs/record/, which has no limit). Every relative
markdown link in README.md, BENCHMARKS.md and docs/**/*.md points to a file or folder that
exists and, for `#anchor`, to a heading of that page (GitHub's slugs) or an explicit
`<a id="...">`.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400

GUIDES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "BENCHMARKS.md"]
LINKED = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def rel(path):
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def outside_fences(text):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0]
            elif marker[0] == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def prose_lines(text):
    """(line number, line) outside fenced code blocks, inline code spans blanked."""
    for number, line in outside_fences(text):
        yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def github_slug(heading):
    """The anchor GitHub gives a heading: its text, lower case, punctuation dropped, spaces
    turned to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text)  # html tags go
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path):
    text = path.read_text(encoding="utf8")
    found, seen = set(), {}
    for _, line in outside_fences(text):
        found.update(EXPLICIT_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading:
            slug = github_slug(heading.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links_of(path):
    text = path.read_text(encoding="utf8")
    for number, line in prose_lines(text):
        for target in INLINE_LINK.findall(line):
            yield number, target
        reference = REFERENCE_LINK.match(line)
        if reference:
            yield number, reference.group(1)


def broken_links(path):
    broken = []
    for number, target in links_of(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:...
            continue
        file_part, _, anchor = target.partition("#")
        dest = path if not file_part else (path.parent / file_part).resolve()
        where = f"{rel(path)}:{number}: {target}"
        if not dest.exists():
            broken.append(f"{where} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors_of(dest):
            broken.append(f"{where} (no heading #{anchor} in {rel(dest)})")
    return broken


def test_the_guides_are_found():
    names = {rel(p) for p in GUIDES}
    assert {"docs/training.md", "docs/constraints_and_features.md", "BENCHMARKS.md"} <= names
    assert not any(name.startswith("docs/record/") for name in names)


@pytest.mark.parametrize("page", GUIDES, ids=rel)
def test_a_guide_page_is_at_most_400_lines(page):
    n = len(page.read_text(encoding="utf8").splitlines())
    assert n <= MAX_LINES, (
        f"{rel(page)} has {n} lines; a guide page keeps at most {MAX_LINES}: move the history "
        "(rounds, ablations, superseded figures) to docs/record/ and link it"
    )


def test_the_record_is_linked_from_the_guides():
    record = ROOT / "docs" / "record"
    targets = set()
    for page in [ROOT / "README.md", *GUIDES]:
        for _, target in links_of(page):
            file_part = target.partition("#")[0]
            if file_part and "://" not in file_part:
                targets.add((page.parent / file_part).resolve())
    for page in sorted(record.glob("*.md")):
        if page.name == "README.md":
            continue
        assert page.resolve() in targets, f"{rel(page)} is linked from no guide page"


@pytest.mark.parametrize("page", LINKED, ids=rel)
def test_relative_links_resolve(page):
    assert broken_links(page) == []


def test_the_link_check_finds_a_broken_link_and_anchor(tmp_path):
    page = tmp_path / "page.md"
    other = tmp_path / "other.md"
    other.write_text("# Other page\n\n## What each step adds (`v3`, 2026-12-02)\n\n"
                     "## What each step adds (`v3`, 2026-12-02)\n", encoding="utf8")
    page.write_text(
        "[ok](other.md#what-each-step-adds-v3-2026-12-02) "
        "[ok too](other.md#what-each-step-adds-v3-2026-12-02-1) [self](#a-title)\n"
        "# A title\n"
        "[gone](missing.md) [no anchor](other.md#nowhere) `[code](missing.md)`\n"
        "```\n[in a fence](missing.md)\n```\n",
        encoding="utf8")
    broken = broken_links(page)
    assert len(broken) == 2, broken
    assert "missing.md (no such file)" in broken[0]
    assert "#nowhere" in broken[1]

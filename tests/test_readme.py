"""Run the ```python examples of README.md and check what their comments promise.

The blocks run in order in one namespace. A block preceded by `<!-- no-test: reason -->`
is skipped (keep these rare). In a block, a line that is a bare expression followed by a
comment makes a promise when the comment (or the part of it after its last ": ") is
`[...]` or `"..."`: the expression's value, as text, must equal it.
"""
import ast
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"(<!--\s*no-test:[^>]*-->\s*)?```python\n(.*?)```", re.S)


def readme_blocks():
    text = README.read_text(encoding="utf8")
    return [(m.group(2), bool(m.group(1))) for m in FENCE.finditer(text)]


def promise_of(comment):
    comment = comment.strip()
    for candidate in (comment, comment.rsplit(": ", 1)[-1]):
        if (candidate[:1], candidate[-1:]) in {("[", "]"), ('"', '"')}:
            return candidate
    return None


def as_text(value):
    if isinstance(value, str):
        return value
    return str(list(value))


def promises(code):
    """(line number, expression source, promised text) for each promising line."""
    out = []
    for lineno, line in enumerate(code.splitlines(), 1):
        if "#" not in line:
            continue
        src, comment = line.split("#", 1)
        promised = promise_of(comment)
        if promised is None or not src.strip():
            continue
        try:
            node = ast.parse(src.strip(), mode="eval")
        except SyntaxError:
            continue  # a statement (assignment, call with keywords...): no promise
        out.append((lineno, src.strip(), promised))
    return out


def test_readme_size():
    assert len(README.read_text(encoding="utf8")) <= 12000


def test_readme_links_exist():
    text = README.read_text(encoding="utf8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (README.parent / target).exists(), target


def test_readme_examples_run_and_keep_their_promises():
    blocks = readme_blocks()
    assert blocks, "no ```python blocks found in README.md"
    namespace = {"__name__": "__readme__"}
    checked = 0
    for index, (code, skipped) in enumerate(blocks):
        if skipped:
            continue
        exec(compile(code, f"README.md python block {index + 1}", "exec"), namespace)
        for lineno, expr, promised in promises(code):
            value = eval(expr, namespace)
            if promised.startswith('"'):
                promised = ast.literal_eval(promised)
            assert as_text(value) == promised, (
                f"README block {index + 1}, line {lineno}: {expr} gives "
                f"{as_text(value)!r}, the README promises {promised!r}"
            )
            checked += 1
    # the quickstart's three promises at least; if none parse, the check itself is broken
    assert checked >= 3

    # what the prose around the examples says, checked directly
    doc = namespace["nlp"]("Alice saw Bob. She waved at him.")
    clusters = [[m.text for m in c] for c in doc._.coref_clusters]
    assert clusters == [["Alice", "She"], ["Bob", "him"]]
    assert isinstance(namespace["html"], str) and "Alice" in namespace["html"]
    assert namespace["page"].lstrip().lower().startswith("<!doctype html")
    bound = namespace["doc"]  # the binding example: "him" never takes "The nurse"
    for cluster in bound._.coref_clusters:
        texts = {m.text for m in cluster}
        assert not ({"him"} <= texts and "The nurse" in texts)

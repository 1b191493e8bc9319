"""The package's layout: no module imports one that imports it back (directly or through
others, counting the package `__init__` that importing a submodule runs first, and imports made
inside functions; not those for type checkers alone), so that any module can be imported
first."""
import ast
import sys
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).parent.parent / "spacy_coref"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: Set[str]) -> Set[str]:
    """The package's modules that this file imports, and the packages whose __init__ that runs."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        targets = []
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            while target:  # the module and every package above it
                found.add(target)
                target = target.rpartition(".")[0]
    found.discard(name)
    return {m for m in found if not name.startswith(m + ".")}  # its own packages are loaded


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_back():
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    graph = {module_name(p): imports_of(p, modules) for p in paths}
    # (the graph is read right: a step imports what it reads)
    assert graph["spacy_coref.decoding.steps.names"] >= {"spacy_coref.pipeline.binding"}
    found = [group for group in cycles(graph) if group != ["spacy_coref"]]
    assert found == []


MAX_MODULE_LINES = 600


def test_no_module_is_over_600_lines():
    """One concept per module: a module that grows past this holds two."""
    sizes = {
        str(p.relative_to(PACKAGE.parent)): len(p.read_text(encoding="utf8").splitlines())
        for p in PACKAGE.rglob("*.py")
    }
    assert sizes["spacy_coref/pipeline/mention_analysis.py"] > 100  # the sizes are read
    assert {path: n for path, n in sizes.items() if n > MAX_MODULE_LINES} == {}

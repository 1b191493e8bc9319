"""The package's layout: no module imports one that imports it back (directly or through
others, counting the package `__init__` that importing a submodule runs first, imports made
inside functions and those for type checkers alone), so that any module can be imported
first; and the layers import one way down (docs/architecture.md): `pipeline/` (the spaCy
components) over `decoding/` and `ml/`, both over `linguistics/` (what is known of words and
mentions), over `lang/`."""
import ast
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

PACKAGE = Path(__file__).parent.parent / "spacy_coref"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: Set[str]) -> Set[str]:
    """The package's modules that this file imports, and the packages whose __init__ that runs."""
    return imports_in(path.read_text(encoding="utf8"), module_name(path),
                      path.name == "__init__.py", modules)


def imports_in(source: str, name: str, is_package: bool, modules: Set[str]) -> Set[str]:
    """The package's modules that the source of module `name` imports (under `if
    TYPE_CHECKING:` too: a type checker follows them), and the packages whose __init__ runs."""
    package = name if is_package else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
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


def package_graph() -> Dict[str, Set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


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
    graph = package_graph()
    # (the graph is read right: a step imports what it reads)
    assert graph["spacy_coref.decoding.steps.names"] >= {"spacy_coref.decoding.steps.binding"}
    found = [group for group in cycles(graph) if group != ["spacy_coref"]]
    assert found == []


def test_an_import_for_type_checkers_alone_counts():
    graph = package_graph()
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .annotations import X\n"
    graph["spacy_coref.types"] = imports_in(source, "spacy_coref.types", False, set(graph))
    assert ["spacy_coref.annotations", "spacy_coref.types"] in cycles(graph)


# The layers: what a package's modules may import of the package's subpackages and top-level
# modules. Every layer reads the shared top-level modules; they import none of the layers but
# the score layout's constants (SCORE_LAYOUT: leaves that the torch code ships alone with).
SHARED = frozenset(("types", "errors", "annotations", "profiling"))
SCORE_LAYOUT = frozenset(
    ("spacy_coref.ml.torch.constants", "spacy_coref.ml.torch", "spacy_coref.ml")
)
# a package: all it may import, directly
ONLY = {
    "lang": frozenset(("lang",)) | SHARED,
    "linguistics": frozenset(("linguistics", "lang")) | SHARED,
}
# a package: what it must not import, directly or through others
NEVER = {
    "lang": frozenset(("linguistics", "ml", "decoding", "pipeline")),
    "linguistics": frozenset(("ml", "decoding", "pipeline")),
    "ml": frozenset(("decoding", "pipeline")),
    "decoding": frozenset(("pipeline",)),
}


def layer(module: str) -> str:
    """The subpackage or top-level module of the package that `module` is part of."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def reach(graph: Dict[str, Set[str]], start: str) -> Set[str]:
    """The modules that importing `start` imports, through others too."""
    seen: Set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen - {start}


def layer_violations(graph: Dict[str, Set[str]]) -> List[Tuple[str, str]]:
    """(module, module it imports or reaches) for each import against the layers."""
    found = set()
    for module, imported in graph.items():
        own = layer(module)
        found |= {(module, t) for t in imported if own in ONLY and layer(t) not in ONLY[own]}
        if own in SHARED:
            found |= {(module, t) for t in imported - SCORE_LAYOUT if layer(t) not in SHARED}
        found |= {
            (module, t) for t in reach(graph, module)
            if layer(t) in NEVER.get(own, ()) and t not in SCORE_LAYOUT
        }
    return sorted(found)


def test_the_layers_import_one_way_down():
    graph = package_graph()
    # (the graph is read right: the features read the mention analysis, the steps the parts)
    assert graph["spacy_coref.ml.coref_features"] >= {"spacy_coref.linguistics.shared_analysis"}
    assert graph["spacy_coref.decoding.steps.quotes"] >= {"spacy_coref.linguistics.quotations"}
    assert all(not graph[leaf] for leaf in SCORE_LAYOUT)  # leaves: they reach nothing above
    assert layer_violations(graph) == []


@pytest.mark.parametrize("module,target", [
    ("spacy_coref.linguistics.word_tags", "spacy_coref.decoding.state"),
    ("spacy_coref.linguistics.persons", "spacy_coref.ml.torch.s2e"),
    ("spacy_coref.linguistics.quotations", "spacy_coref.extensions"),
    ("spacy_coref.lang.lexicon", "spacy_coref.linguistics.word_tags"),
    ("spacy_coref.ml.candidates", "spacy_coref.pipeline.cluster"),
    ("spacy_coref.ml.coref_features", "spacy_coref.decoding.steps.binding"),
    ("spacy_coref.decoding.state", "spacy_coref.pipeline.constraints"),
    ("spacy_coref.annotations", "spacy_coref.lang.en"),
])
def test_a_forbidden_import_breaks_the_layers(module, target):
    graph = package_graph()
    graph[module] = graph[module] | {target}
    assert (module, target) in layer_violations(graph)


def test_a_forbidden_import_counts_through_other_modules_and_for_type_checkers():
    graph = package_graph()
    # types.py is read by every layer: through it, linguistics would reach the components
    source = "import typing\nif typing.TYPE_CHECKING:\n    from .pipeline import cluster\n"
    graph["spacy_coref.types"] = imports_in(source, "spacy_coref.types", False, set(graph))
    found = layer_violations(graph)
    assert ("spacy_coref.linguistics.transcripts", "spacy_coref.pipeline.cluster") in found
    assert ("spacy_coref.ml.candidates", "spacy_coref.pipeline.cluster") in found


# the spaCy components and their settings; the decoding's rules and what is known of words
# live below them
MAX_PIPELINE_LINES = 2500


def test_the_pipeline_package_holds_the_components():
    lines = sum(
        len(p.read_text(encoding="utf8").splitlines()) for p in (PACKAGE / "pipeline").glob("*.py")
    )
    assert 1000 < lines <= MAX_PIPELINE_LINES


MAX_MODULE_LINES = 600


def test_no_module_is_over_600_lines():
    """One concept per module: a module that grows past this holds two."""
    sizes = {
        str(p.relative_to(PACKAGE.parent)): len(p.read_text(encoding="utf8").splitlines())
        for p in PACKAGE.rglob("*.py")
    }
    assert sizes["spacy_coref/linguistics/mention_analysis.py"] > 100  # the sizes are read
    assert {path: n for path, n in sizes.items() if n > MAX_MODULE_LINES} == {}

"""The layers stay apart: the engine knows nothing of the quiz, and the quiz core nothing of Textual."""

import ast
import json
import pkgutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import quiz

UI_PACKAGE = "quiz.ui"


def modules_after_import(*modules: str) -> set[str]:
    """Names in sys.modules after a fresh interpreter imports `modules`."""
    code = f"import json, sys\nfor m in {list(modules)!r}: __import__(m)\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout))


def loaded(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


def core_modules() -> list[str]:
    """Every module of the quiz package outside the UI."""
    found = pkgutil.walk_packages(quiz.__path__, prefix="quiz.")
    return sorted(
        m.name
        for m in found
        if m.name != "quiz.__main__" and not (m.name == UI_PACKAGE or m.name.startswith(UI_PACKAGE + "."))
    )


def test_engine_loads_no_quiz_textual_or_yaml():
    modules = modules_after_import("engine")
    for forbidden in ("quiz", "textual", "yaml"):
        assert not loaded(modules, forbidden), forbidden


def test_quiz_core_loads_no_textual():
    core = core_modules()
    assert "quiz.bank" in core and "quiz.format.model" in core
    assert not loaded(modules_after_import(*core), "textual")


# The import graph, read from the source (every import statement, in functions and under
# TYPE_CHECKING too: a lazy import still ties the two modules together).
SOURCE_ROOT = Path(quiz.__file__).resolve().parent.parent


def module_files(package: str = "quiz") -> dict[str, Path]:
    """Every module of `package` by its dotted name (a package by its own name, for its __init__)."""
    found = {}
    for path in sorted((SOURCE_ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(SOURCE_ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of `modules` that the module `name` (its source at `path`) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            # `from package import module` imports the module; `from module import name`, the module
            targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names)
    found = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def sibling_edges(graph: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """The graph between siblings: for each import, the two children of the closest package holding
    both ends (a module imports a sibling module, or its package imports a sibling package).

    An import of an enclosing package's __init__ is left out: every import of a module runs it."""
    edges: dict[str, set[str]] = {}
    for source, targets in graph.items():
        for target in targets:
            a, b = source.split("."), target.split(".")
            if a[: len(b)] == b or b[: len(a)] == a:
                continue  # into an enclosing package, or a package's __init__ into its own children
            common = 0
            while a[common] == b[common]:
                common += 1
            edges.setdefault(".".join(a[: common + 1]), set()).add(".".join(b[: common + 1]))
    return edges


def circles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one node (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    work.append((successor, iter(sorted(edges.get(successor, ())))))
                    break
                if successor in stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


QUIZ = module_files("quiz")
GRAPH = import_graph(QUIZ)


def test_no_two_modules_import_each_other_even_through_others():
    assert circles(GRAPH) == []


def test_no_two_packages_import_each_other_even_through_others():
    """Siblings at every level: two packages (or a package and a module beside it) that import
    each other would be one floor split in two."""
    assert circles(sibling_edges(GRAPH)) == []


def imported_from(prefixes: tuple[str, ...], importers: Iterable[str]) -> set[tuple[str, str]]:
    return {(a, b) for a in importers for b in GRAPH[a] if any(b == p or b.startswith(p + ".") for p in prefixes)}


def test_the_base_package_imports_nothing_else_of_the_quiz():
    base = [m for m in QUIZ if m.startswith("quiz.base")]
    assert base
    assert {(a, b) for a in base for b in GRAPH[a] if not b.startswith("quiz.base")} == set()


def test_the_core_imports_neither_the_interface_nor_the_command():
    core = [m for m in QUIZ if not m.startswith(("quiz.ui", "quiz.cli", "quiz.__main__"))]
    assert imported_from(("quiz.ui", "quiz.cli"), core) == set()


def test_the_interface_does_not_import_the_command():
    assert imported_from(("quiz.cli",), [m for m in QUIZ if m.startswith("quiz.ui")]) == set()


def test_the_graph_sees_a_circle_made_through_a_lazy_import(tmp_path):
    """The checks above would pass on a graph that missed imports: one written into a function of a
    copy of a base module is read, and the circles it makes are found."""
    copy = tmp_path / "numbers.py"
    source = QUIZ["quiz.base.numbers"].read_text(encoding="utf-8")
    copy.write_text(source + "\n\ndef late():\n    from quiz.types.present import answer_line\n", encoding="utf-8")
    graph = {**GRAPH, "quiz.base.numbers": imports_of("quiz.base.numbers", copy, QUIZ)}
    assert GRAPH["quiz.base.numbers"] == set() and graph["quiz.base.numbers"] == {"quiz.types.present"}
    assert any("quiz.base.numbers" in group for group in circles(graph))
    assert any("quiz.base" in group for group in circles(sibling_edges(graph)))


def test_the_app_is_one_class_and_its_flows_know_only_the_host():
    """One App class: no part of the app is a mixin of it, and the flows it holds reach the app
    only through the host protocol (`quiz.ui.host`), never by importing it."""
    from textual.app import App

    from quiz.ui.app import QuizApp

    assert QuizApp.__bases__ == (App,)
    flows = [m for m in QUIZ if m.endswith("_flow") and m.startswith("quiz.ui.")]
    assert flows
    for flow in flows:
        assert "quiz.ui.host" in GRAPH[flow] and "quiz.ui.app" not in GRAPH[flow], flow

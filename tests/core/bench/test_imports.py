"""The bench package's shape: its modules import each other one way only, and nothing
outside it needs the `bench` extra (memhop installs and runs without matplotlib)."""

from __future__ import annotations

import ast
from pathlib import Path

from memhop.core.bench.extra import BENCH_MODULES
from support.paths import REPO

CORE = REPO / "core"
BENCH = CORE / "bench"


def imported(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_no_module_outside_bench_imports_the_bench_extra() -> None:
    offenders = {
        str(path.relative_to(REPO)): sorted(n for n in imported(path) if n.split(".")[0] in BENCH_MODULES)
        for path in [*CORE.rglob("*.py"), *(REPO / "cli").rglob("*.py")]
        if BENCH not in path.parents
    }
    assert {p: names for p, names in offenders.items() if names} == {}


def test_bench_modules_import_each_other_without_cycles() -> None:
    modules = {p.stem for p in BENCH.glob("*.py")}
    graph = {
        p.stem: {n.split(".")[3] for n in imported(p) if n.startswith("memhop.core.bench.")} & modules - {p.stem}
        for p in BENCH.glob("*.py")
    }

    def reachable(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += graph[name]
        return seen

    assert sorted(m for m in graph if m in reachable(m)) == []
    assert "report" not in reachable("plots") and "runner" not in reachable("report")

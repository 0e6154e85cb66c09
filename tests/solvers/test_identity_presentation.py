"""Presentation modules (reports, figure helpers) stay out of problem versions and the numba
cache hash, and nothing that computes a result imports one."""

from __future__ import annotations

from pathlib import Path

from boardsweep import solvers
from boardsweep.solvers.identity import _imports, closure, is_presentation, module_file

PACKAGE = Path(solvers.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(("boardsweep", "solvers", *parts))] = path
    return out


def test_reports_and_figures_are_marked_and_left_out_of_every_version():
    marked = {name for name, path in _modules().items() if is_presentation(path)}
    assert {
        f"boardsweep.solvers.{name}"
        for name in (
            "figures",
            "nqueens.report",
            "queens_rooks.report",
            "slant.report",
            "max_rooks.report",
        )
    } <= marked
    assert not any(
        is_presentation(module_file(m))
        for m in ("boardsweep.solvers.max_rooks.exact", "boardsweep.solvers.contract")
    )
    for name in solvers.names():
        problem = solvers.get(name)
        inside = closure(problem.modules)
        assert not marked & set(inside), name
        assert (
            any(m.endswith("kernel") or m.endswith("match") for m in inside) or len(inside) > 2
        ), name  # the closure still holds the computing modules


def test_no_computing_module_imports_a_presentation_module():
    modules = _modules()
    marked = {name for name, path in modules.items() if is_presentation(path)}
    for name, path in modules.items():
        if is_presentation(path) or path.name == "__init__.py":
            continue  # a package's __init__ wires its report into PROBLEM
        assert not _imports(name, path) & marked, f"{name} imports a presentation module"

"""The Slant A/B script (benchmarks/slant_ab.py) copies a revision's engine into a scratch
package: every module that engine imports from the package must be among the copied files."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "slant_ab.py"


def _module():
    sys.path.insert(0, str(SCRIPT.parent))  # it imports benchmarks/common.py
    try:
        spec = importlib.util.spec_from_file_location("slant_ab", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


def _relative_imports(path: Path) -> set[str]:
    """The file names of the package modules that ``path`` imports (``from .x``, ``from ..y``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.module:
                names.add(node.module.split(".")[0] + ".py")
            else:
                names.update(alias.name + ".py" for alias in node.names)
    return names


def test_every_module_the_engine_imports_is_copied_with_it():
    ab = _module()
    copied = set(ab.FILES) | set(ab.KITS)
    sources = [ROOT / "solvers" / "slant" / name for name in ab.FILES]
    sources += [ROOT / "solvers" / name for name in ab.KITS]
    assert all(path.exists() for path in sources), [p for p in sources if not p.exists()]
    for path in sources:
        missing = _relative_imports(path) - copied
        assert not missing, f"{path.name} imports {sorted(missing)}, which slant_ab does not copy"

"""Code identity: a problem's version is a hash of the sources that decide its output.

``version(modules)`` hashes what the source of each module named does (its syntax tree,
docstrings left out, so comments and layout count for nothing) and of every module they import,
transitively, that lives in ``boardsweep.solvers`` or in the same package as the module named
(the top-level package of a problem from elsewhere)
(imports anywhere in a file count, those inside functions too).  Nobody types a version in,
so the results of edited code are never taken for those of the code that made them.

numba's on-disk cache keys a compiled function by its own file, so an edit in another file
whose function it inlines goes unnoticed (numba issues #1833, #9483).  :func:`use_numba_cache`
points numba at a cache folder named after a hash of every source a registered problem uses,
so any edit anywhere means a fresh folder, never a stale kernel.

A module that only presents results (a report, figure helpers) says so with a top-level
``__presentation__ = True``: it is left out of versions and of the cache hash, and its own
imports are not followed from it, so editing a figure neither recomputes stored results nor
recompiles kernels.  Nothing that computes a result may import one (the package's
``__init__`` wires its ``report`` in, and only reports import reports;
tests/solvers/test_identity_presentation.py checks this).  The folder lives under
``$BOARDSWEEP_CACHE`` (default ``$XDG_CACHE_HOME/boardsweep`` or ``~/.cache/boardsweep``),
which should be shared by the machines of a cluster; older folders are pruned.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

__all__ = [
    "SOLVERS",
    "module_file",
    "is_presentation",
    "closure",
    "version",
    "sources_hash",
    "cache_root",
    "use_numba_cache",
    "KEEP_CACHES",
    "PRUNE_AFTER",
    "LOCATORS",
]

KEEP_CACHES = 6  # numba cache folders kept (most recently used first) ...
PRUNE_AFTER = 24 * 3600.0  # ... and those beyond, until unused for this many seconds
SOLVERS = __name__.rpartition(".")[0]  # this package: boardsweep.solvers


@cache
def _package_dir(top: str) -> Path | None:
    """The folder of the package ``top``: a top-level one or :data:`SOLVERS` (whose finding
    imports only ``boardsweep`` itself, which imports nothing); None if it is not a package
    (or finding it fails: the registry's import then names the error)."""
    try:
        spec = importlib.util.find_spec(top)
    except Exception:
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def module_file(name: str) -> Path | None:
    """The source file of module ``name`` without importing it (None if not found)."""
    top, *rest = name.split(".")
    if _scope(name) == SOLVERS:
        top, rest = SOLVERS, name.split(".")[len(SOLVERS.split(".")) :]
    base = _package_dir(top)
    if base is None:
        try:
            spec = importlib.util.find_spec(top) if not rest else None
        except (ImportError, ValueError):
            return None
        found = Path(spec.origin) if spec is not None and spec.origin else None
        return found if found is not None and found.is_file() else None  # not 'frozen'
    path = base.joinpath(*rest)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _parsed(data: bytes, path: Path) -> ast.Module:
    """``data`` (the file at ``path``) parsed; an empty module if it cannot be parsed
    (importing it fails too, and the registry says so in one line)."""
    try:
        return ast.parse(data, str(path))
    except (SyntaxError, ValueError):
        return ast.Module(body=[], type_ignores=[])


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` at any depth (inside functions, classes, if, try, with,
    loops and match cases): imports are statements, so no expression needs a visit."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)


def _scan(data: bytes, path: Path) -> dict:
    """What identity needs of a source: whether it is a presentation module, and its import
    statements as ``[level, module, [names]]`` (relative ones unresolved)."""
    tree = _parsed(data, path)
    presentation = any(
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
        and any(isinstance(t, ast.Name) and t.id == "__presentation__" for t in node.targets)
        for node in tree.body
    )
    imports = []
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            imports += [[0, alias.name, []] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append([node.level, node.module or "", [a.name for a in node.names]])
    return {"presentation": presentation, "imports": imports, "code": _code(tree)}


def _code(tree: ast.Module) -> str:
    """A sha256 of what the module does: its syntax tree written back as source
    (``ast.unparse``) with docstrings dropped, so comments, docstrings and layout (a ``ruff
    format`` pass) change no version and recompile nothing, while any change of behaviour
    does."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.unparse(tree).encode()).hexdigest()


_FACTS: dict[str, dict] = {}  # content sha256 -> _scan of it, in this process


def _facts(path: Path) -> dict:
    """:func:`_scan` of the file at ``path``, memoised by its content's sha256 in this process
    and under the cache root (parsing every source again in every process is slow; a memo
    keyed by content cannot be stale).  An unreadable file has no imports."""
    try:
        data = path.read_bytes()
    except OSError:
        return {"presentation": False, "imports": [], "code": ""}
    key = hashlib.sha256(data).hexdigest()
    if key in _FACTS:
        return _FACTS[key]
    memo = cache_root() / "sources" / f"{key}.json"
    try:
        facts = json.loads(memo.read_text())
        if isinstance(facts, dict) and set(facts) == {"presentation", "imports", "code"}:
            _FACTS[key] = facts
            return facts
    except (OSError, ValueError):
        pass
    facts = _FACTS[key] = _scan(data, path)
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        temp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
        temp.write_text(json.dumps(facts))
        os.replace(temp, memo)
    except OSError:
        pass  # a read-only cache: parsed again next time
    return facts


def is_presentation(path: Path) -> bool:
    """Whether the module file at ``path`` sets ``__presentation__ = True`` at top level."""
    return bool(_facts(path)["presentation"])


def _imports(name: str, path: Path) -> set[str]:
    """Absolute names of the modules the file of ``name`` imports (any depth of the file)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for level, module, names in _facts(path)["imports"]:
        if level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - level + 1])
            module = f"{base}.{module}" if module else base
        found.add(module)
        found.update(f"{module}.{alias}" for alias in names)  # submodules
    return found


# modules that find and name code but never decide a result: editing them recomputes nothing
LOCATORS = (SOLVERS, f"{SOLVERS}.identity", f"{SOLVERS}.registry")


def _scope(name: str) -> str:
    """The package whose modules a problem's version follows: :data:`SOLVERS` for its own
    modules, else the top-level package (a problem from elsewhere)."""
    return SOLVERS if name == SOLVERS or name.startswith(f"{SOLVERS}.") else name.split(".")[0]


def closure(modules: Iterable[str]) -> dict[str, Path]:
    """Every module reachable from ``modules`` by imports inside :data:`SOLVERS` or the modules'
    own top-level packages, with its source file (:data:`LOCATORS` and presentation modules
    left out)."""
    roots = list(modules)
    tops = {SOLVERS} | {_scope(m) for m in roots}
    found: dict[str, Path] = {name: Path() for name in LOCATORS}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found or _scope(name) not in tops:
            continue
        path = module_file(name)
        if path is None:
            continue
        found[name] = path
        if is_presentation(path):
            continue
        todo.extend(_imports(name, path))
    return {k: v for k, v in sorted(found.items()) if k not in LOCATORS and not is_presentation(v)}


def _digest(files: dict[str, Path]) -> str:
    """A sha256 over each module's name and :func:`_code` of its source."""
    digest = hashlib.sha256()
    for name, path in files.items():
        digest.update(f"{name}\0{_facts(path)['code']}\0".encode())
    return digest.hexdigest()


@cache
def _version(modules: tuple[str, ...]) -> str:
    return _digest(closure(modules))[:16]


def version(modules: Iterable[str]) -> str:
    """The version of a problem whose output the sources of ``modules`` decide: 16 hex digits."""
    return _version(tuple(sorted(modules)))


def sources_hash(modules: Iterable[str]) -> str:
    """A hash of every source in the closure of ``modules`` (all of :data:`SOLVERS` included)."""
    files = closure(modules)
    package = _package_dir(SOLVERS)
    if package is not None:
        for path in sorted(package.rglob("*.py")):
            if is_presentation(path):
                continue
            files.setdefault(
                f"{SOLVERS}." + ".".join(path.relative_to(package).with_suffix("").parts), path
            )
    return _digest(dict(sorted(files.items())))[:16]


def cache_root() -> Path:
    """Where boardsweep keeps compiled kernels: ``$BOARDSWEEP_CACHE``, else the user cache."""
    if os.environ.get("BOARDSWEEP_CACHE"):
        return Path(os.environ["BOARDSWEEP_CACHE"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "boardsweep"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _prune(parent: Path, keep: Path) -> None:
    """Remove the cache folders beyond the :data:`KEEP_CACHES` most recently used that nobody
    has used for :data:`PRUNE_AFTER` seconds (a folder in use by a running process, one of
    many problem sets on the machine at once, is never taken from under it)."""
    try:
        folders = sorted(
            (p for p in parent.iterdir() if p.is_dir() and p != keep),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    now = time.time()
    for old in folders[KEEP_CACHES - 1 :]:
        try:
            if now - old.stat().st_mtime > PRUNE_AFTER:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


def use_numba_cache(modules: Iterable[str]) -> Path:
    """Point numba's cache at a folder named after :func:`sources_hash` of ``modules``.

    Call it before the kernel modules are imported: numba reads the folder when a cached
    function is defined.  Falls back to a temp folder when the cache root is not writable.
    """
    digest = sources_hash(modules)
    folder = cache_root() / "numba" / digest
    if not _writable(folder):
        folder = Path(tempfile.gettempdir()) / f"boardsweep-{os.getuid()}" / "numba" / digest
        folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    _prune(folder.parent, folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    import sys

    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported: it read the variable then
        config.CACHE_DIR = str(folder)
    return folder

"""Run the code blocks of README.md and the manual (docs/**/*.md) and check their output.

The conventions are in docs/examples.md. In short, per page (a Markdown file, with the pages
under docs/ that it ``{include}``-s inlined where they are included):

- ```` ```console ````: ``$ `` command lines run with bash in the page's scratch folder, each
  followed by its expected output (``...`` wildcards, a last ``[exit N]`` line);
- ```` ```python ```` and ```` ```pycon ````: one Python namespace per page, in a subprocess
  (:mod:`tests.docs.pyrunner`), pycon checked as a doctest;
- ```` ```yaml ````: a whole config, validated by planning it (``boardsweep.plan``);
- ``<!-- file: NAME -->`` before a block: the block is written to NAME instead;
- ``<!-- run elsewhere: tests/x.py -->`` before a block: not run here, but tests/x.py must
  exist and name the page.

:func:`pages` finds the pages, :func:`collect` parses one into :class:`Block` s (raising
:class:`ExampleError` for a block that breaks the conventions) and :func:`run_page` runs them.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

COMMAND_TIMEOUT = float(os.environ.get("BOARDSWEEP_EXAMPLE_TIMEOUT", "120"))
"""Seconds one console command, Python block or config check may take."""

SEEDS = ("config.yaml", "data")
"""What a page's scratch folder starts with: copies of these, from the repository root."""

RUNNER = Path(__file__).with_name("pyrunner.py")

DATA = ("benchmarks/results", "docs/figures")
"""Folders of files the benchmarks write: data that pages include, not examples."""

# A fence's language: these run; any other needs a file comment (or a run-elsewhere one).
RUN_LANGUAGES = {"console", "python", "pycon", "yaml"}
# Directive fences whose body is Markdown: their code blocks are examples too.
MARKDOWN_DIRECTIVES = set(
    (
        "admonition attention caution danger error hint important note seealso tip warning "
        "versionadded versionchanged deprecated dropdown sidebar topic margin card grid grid-item "
        "grid-item-card tab-set tab-item div only"
    ).split()
)
# Directive fences that are a code block with a language: run as a plain fence of it.
CODE_DIRECTIVES = {"code-block", "code", "sourcecode"}

ANNOTATION = re.compile(r"\A\s*<!--\s*(file|run elsewhere)\s*:\s*(.*?)\s*-->\s*\Z", re.S)
LOOKS_LIKE_ANNOTATION = re.compile(r"\A\s*<!--\s*(file|run[ -]elsewhere)\b", re.I)
EXIT_LINE = re.compile(r"\A\[exit (\d+)\]\Z")
OPTION_LINE = re.compile(r"\A:[\w-]+:")


class ExampleError(AssertionError):
    """A page's block broke a convention, or ran and did not do what the page shows."""


@dataclass
class Block:
    """One fenced block of a page, in page order."""

    lang: str  # console, python, pycon, yaml, or any language for a file/elsewhere block
    text: str  # its content, as the reader sees it
    file: str  # the Markdown file it is in, from the repository root
    line: int  # 1-based line of its opening fence in that file
    first: int  # 1-based line of its first content line in that file
    name: str | None = None  # <!-- file: NAME -->
    elsewhere: str | None = None  # <!-- run elsewhere: PATH -->
    via: tuple[str, ...] = ()  # "page.md:LINE" of each {include} that brought it in

    @property
    def where(self) -> str:
        """``file:line``, with the includes that brought the block into its page."""
        return f"{self.file}:{self.line}" + "".join(f" (included from {v})" for v in self.via)


@dataclass
class _Context:
    root: Path
    problems: list[str] = field(default_factory=list)
    included: set[Path] = field(default_factory=set)


# ------------------------------------------------------------------------------------ finding


def _ignored(root: Path, paths: list[Path]) -> set[Path]:
    """Those of ``paths`` that git ignores (generated files); none where git cannot tell."""
    if not paths or not (root / ".git").exists() or shutil.which("git") is None:
        return set()
    out = subprocess.run(
        ["git", "check-ignore", "--stdin", "-z"],
        input="\0".join(str(p.relative_to(root)) for p in paths) + "\0",
        capture_output=True,
        text=True,
        cwd=root,
    )
    return {root / p for p in out.stdout.split("\0") if p}


def _candidates(root: Path) -> list[Path]:
    found = [root / "README.md"] if (root / "README.md").is_file() else []
    docs = root / "docs"
    for path in sorted(docs.rglob("*.md")) if docs.is_dir() else []:
        parts = path.relative_to(docs).parts
        if parts[0] in ("_build", "build") or any(p.startswith((".", "_build")) for p in parts):
            continue
        if _is_data(root, path):
            continue
        found.append(path)
    ignored = _ignored(root, found)
    return [p for p in found if p not in ignored]


def _is_data(root: Path, path: Path) -> bool:
    return any((root / d).resolve() in path.resolve().parents for d in DATA)


def pages(root: Path) -> list[str]:
    """The pages to run, as paths from ``root``: README.md and docs/**/*.md, less docs/_build,
    hidden and git-ignored (generated) files, what the benchmarks write (:data:`DATA`), and
    pages that another page includes (their blocks run inside the including page)."""
    candidates = _candidates(root)
    included: set[Path] = set()
    for path in candidates:
        ctx = _Context(root)
        _blocks(ctx, path, (), ())
        included |= ctx.included
    return [str(p.relative_to(root).as_posix()) for p in candidates if p not in included]


# ------------------------------------------------------------------------------------ parsing


def collect(root: Path, page: str) -> list[Block]:
    """The blocks of ``page`` (a path from ``root``) that concern the examples, in page order,
    with those of the docs/ pages it includes; :class:`ExampleError` listing every block that
    breaks the conventions."""
    ctx = _Context(root)
    blocks = _blocks(ctx, root / page, (), ())
    if ctx.problems:
        raise ExampleError(
            f"{page}: {len(ctx.problems)} block(s) break docs/examples.md:\n"
            + "\n".join(f"  {p}" for p in ctx.problems)
        )
    return blocks


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _blocks(ctx: _Context, path: Path, via: tuple[str, ...], seen: tuple[Path, ...]):
    text = path.read_text(encoding="utf-8")
    return _parse(ctx, text, path, 0, via, seen + (path.resolve(),))


def _parse(ctx, text, path, offset, via, seen) -> list[Block]:
    """Blocks of Markdown ``text`` whose first line is line ``offset + 1`` of ``path``."""
    name = _rel(ctx.root, path)
    blocks: list[Block] = []
    pending: list[tuple[str, str, int]] = []  # annotations waiting for their block

    def problem(line: int, what: str) -> None:
        where = f"{name}:{line}" + "".join(f" (included from {v})" for v in via)
        ctx.problems.append(f"{where}: {what}")

    def orphans() -> None:
        for kind, _, line in pending:
            problem(line, f"<!-- {kind}: ... --> is not directly followed by a code block")
        pending.clear()

    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "html_block":
            orphans()
            comment = token.content.strip()
            match = ANNOTATION.match(comment)
            if match:
                pending.append((match[1], match[2], offset + token.map[0] + 1))
            elif LOOKS_LIKE_ANNOTATION.match(comment):
                problem(
                    offset + token.map[0] + 1,
                    f"malformed annotation {comment.splitlines()[0]!r}: write "
                    "<!-- file: NAME --> or <!-- run elsewhere: tests/PATH.py --> on one line",
                )
            continue
        if token.type == "code_block":
            orphans()
            problem(
                offset + token.map[0] + 1,
                "indented code block: say what this block is with a fence and a language",
            )
            continue
        if token.type != "fence":
            orphans()
            continue
        line = offset + token.map[0] + 1
        first = line + 1
        info = token.info.strip()
        words = info.split()
        lang = words[0].lower() if words else ""
        content = token.content
        notes = {kind: (value, at) for kind, value, at in pending}
        pending.clear()
        if lang.startswith("{"):
            directive = lang[1:].split("}")[0]
            if directive in CODE_DIRECTIVES:  # ```{code-block} python: a python fence
                lang = words[1].lower() if len(words) > 1 else ""
                skipped, content = _directive_body(content)
                first += skipped
            else:
                if notes:
                    problem(line, f"an annotation cannot precede a {{{directive}}} directive")
                if directive in MARKDOWN_DIRECTIVES:
                    skipped, body = _directive_body(content)
                    blocks += _parse(ctx, body, path, first - 1 + skipped, via, seen)
                elif directive == "include":
                    blocks += _include(ctx, path, words[1:], content, line, via, seen)
                continue  # other directives (literalinclude, toctree, ...): the docs build
        block = Block(lang, content, name, line, first, via=via)
        if "file" in notes:
            block.name = notes["file"][0]
            if not _safe_name(block.name):
                problem(
                    notes["file"][1],
                    f"file name {block.name!r}: give a relative path inside the page's folder",
                )
        if "run elsewhere" in notes:
            block.elsewhere = notes["run elsewhere"][0]
            _check_elsewhere(ctx, block, path, via, problem)
        if not lang:
            problem(
                line,
                "code block with no language: say what this block is "
                "(console, python, pycon, yaml; or a file comment and any language)",
            )
        elif block.name is None and block.elsewhere is None and lang not in RUN_LANGUAGES:
            problem(
                line,
                f"code block in {lang!r} with no <!-- file: NAME --> before it: "
                "only console, python, pycon and yaml blocks run",
            )
        elif block.name is not None and lang == "console":
            problem(line, "a console block cannot be a file: drop the file comment")
        elif lang == "console" and block.elsewhere is None:
            try:
                _commands(block)
            except ExampleError as exc:
                problem(line, str(exc))
        blocks.append(block)
    orphans()
    return blocks


def _directive_body(content: str) -> tuple[int, str]:
    """A directive fence's body less its options (``:key: value`` lines or a ``---`` block),
    and how many lines those took."""
    lines = content.splitlines(keepends=True)
    n = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            n = end + 1
    else:
        while n < len(lines) and OPTION_LINE.match(lines[n].strip()):
            n += 1
    return n, "".join(lines[n:])


def _options(content: str) -> dict[str, str]:
    n, _ = _directive_body(content)
    opts = {}
    for raw in content.splitlines()[:n]:
        match = re.match(r"\s*:([\w-]+):\s*(.*)", raw)
        if match:
            opts[match[1]] = match[2].strip()
    return opts


def _include(ctx, path, args, content, line, via, seen) -> list[Block]:
    """The blocks of a ``{include}``-d Markdown file under docs/, inlined in the page."""
    if not args:
        return []
    docs = (ctx.root / "docs").resolve()
    arg = " ".join(args)  # Sphinx reads "/x.md" from the source folder (docs/)
    target = (docs / arg.lstrip("/") if arg.startswith("/") else path.parent / arg).resolve()
    opts = _options(content)
    if (
        target.suffix != ".md"
        or docs not in target.parents
        or not target.is_file()
        or {"literal", "code"} & set(opts)
        or _is_data(ctx.root, target)
        or target in _ignored(ctx.root, [target])
    ):
        return []  # not Markdown examples of ours (the docs build checks that it exists)
    ctx.included.add(target)
    if target in seen:
        ctx.problems.append(f"{_rel(ctx.root, path)}:{line}: includes itself")
        return []
    here = via + (f"{_rel(ctx.root, path)}:{line}",)
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    start, end = 0, len(lines)
    if "start-line" in opts:
        start = int(opts["start-line"])
    if "end-line" in opts:
        end = int(opts["end-line"])
    text = "".join(lines[start:end])
    if "start-after" in opts and opts["start-after"] in text:
        cut = text.index(opts["start-after"]) + len(opts["start-after"])
        start += text[:cut].count("\n")
        text = text[cut:]
    if "end-before" in opts and opts["end-before"] in text:
        text = text[: text.index(opts["end-before"])]
    return _parse(ctx, text, target, start, here, seen + (target,))


def _safe_name(name: str) -> bool:
    p = Path(name)
    return bool(name) and not p.is_absolute() and ".." not in p.parts


def _mentions(text: str, root: Path, path: Path) -> bool:
    """Whether a test's source names the Markdown file ``path``: its path from the repository
    root, its path from docs/, or its file name in quotes."""
    rel = _rel(root, path)
    names = {rel}
    docs = root / "docs"
    if docs in path.parents:
        names.add(path.relative_to(docs).as_posix())
    quoted = {f"{q}{n}{q}" for n in names | {path.name} for q in "\"'"}
    return rel in text or any(q in text for q in quoted)


def _check_elsewhere(ctx, block: Block, path: Path, via, problem) -> None:
    test = ctx.root / block.elsewhere
    if not _safe_name(block.elsewhere) or not test.is_file():
        problem(block.line, f"run elsewhere: {block.elsewhere} is not a file of the repository")
        return
    text = test.read_text(encoding="utf-8", errors="replace")
    files = [path] + [ctx.root / v.rsplit(":", 1)[0] for v in via]
    if not any(_mentions(text, ctx.root, f) for f in files):
        names = " or ".join(_rel(ctx.root, f) for f in files)
        problem(
            block.line,
            f"run elsewhere: {block.elsewhere} does not read {names} (its text names neither)",
        )


# ------------------------------------------------------------------------------------ console


@dataclass
class Command:
    """A ``$ `` command of a console block and what the page shows it printing."""

    line: int  # in the block's file
    command: str
    expected: list[str]
    status: int  # the expected exit status


def _commands(block: Block) -> list[Command]:
    """A console block's commands; a line ending in ``\\`` continues on the next (which may
    start with ``> ``)."""
    commands: list[Command] = []
    lines = block.text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        if not raw.startswith("$ "):
            if commands:
                commands[-1].expected.append(raw)
                i += 1
                continue
            raise ExampleError(f"console block line {raw!r} is not a `$ ` command line")
        at = block.first + i
        command = raw[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            more = lines[i]
            command += "\n" + (more[2:] if more.startswith("> ") else more)
        if not command.strip():
            raise ExampleError(f"line {at}: `$ ` with no command")
        commands.append(Command(at, command, [], 0))
        i += 1
    for c in commands:
        c.expected = _trim([s.rstrip() for s in c.expected])
        if c.expected and (m := EXIT_LINE.match(c.expected[-1].strip())):
            c.status = int(m[1])
            c.expected = _trim(c.expected[:-1])
        if any(EXIT_LINE.match(s.strip()) for s in c.expected):
            raise ExampleError(f"line {c.line}: [exit N] must be the command's last line")
    return commands


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def _screen(output: str) -> list[str]:
    """Output as a terminal shows it: a carriage return rewrites its line."""
    lines = []
    for raw in output.split("\n"):
        parts = [p for p in raw.split("\r") if p] or [""]
        lines.append(parts[-1].rstrip())
    return _trim(lines)


def _line_pattern(expected: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")), re.S)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines fit ``expected``: a line ``...`` stands for any lines (none
    too), ``...`` within a line for any text within it; trailing whitespace is ignored."""
    pats = [None if e.strip() == "..." else _line_pattern(e.rstrip()) for e in expected]
    reach = {0}  # how many actual lines the expected lines so far can have matched
    for pat in pats:
        if pat is None:
            reach = set(range(min(reach), len(actual) + 1))
        else:
            reach = {j + 1 for j in reach if j < len(actual) and pat.fullmatch(actual[j])}
        if not reach:
            return False
    return len(actual) in reach


def example_env() -> dict[str, str]:
    """The environment of console commands and Python blocks: no colour, this interpreter's
    bin folder first on PATH (``boardsweep``, ``python``), unbuffered Python (stdout and
    stderr interleave as on a terminal), 80 columns, no user problem modules."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOARDSWEEP_PROBLEMS", "PYTHONPATH")}
    bindir = os.path.dirname(sys.executable)
    env.update(
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
        COLUMNS="80",
        LINES="24",
        PATH=bindir + os.pathsep + env.get("PATH", ""),
    )
    env.pop("FORCE_COLOR", None)
    return env


class Shell:
    """Runs a page's commands with bash, one process each, in its scratch folder; ``cd`` and
    ``export`` carry over from one command to the next, as in one terminal."""

    def __init__(self, folder: Path, state: Path):
        self.folder, self.state = folder, state
        (state / "pwd").write_text(str(folder))
        self.groups: list[int] = []

    def run(self, command: str, timeout: float) -> tuple[int | None, str]:
        """``(exit status or None on timeout, output)``."""
        s = shlex.quote(str(self.state))
        script = (
            f'cd "$(cat {s}/pwd)" 2>/dev/null; [ -f {s}/env ] && . {s}/env >/dev/null 2>&1\n'
            f"trap '__rc=$?; pwd > {s}/pwd; export -p > {s}/env; exit $__rc' EXIT\n"
            f"{command}\n"
        )
        proc = subprocess.Popen(
            ["bash", "-c", script],
            cwd=self.folder,
            env=example_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            out, _ = proc.communicate(timeout=timeout)
            status: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            _kill(proc.pid)
            out, _ = proc.communicate()
            status = None
        try:
            os.killpg(proc.pid, 0)  # something it started still runs: end it with the page
            self.groups.append(proc.pid)
        except (ProcessLookupError, PermissionError):
            pass
        return status, out.decode("utf-8", errors="replace")

    def close(self) -> None:
        """End whatever the page's commands left running (background servers)."""
        for pgid in self.groups:
            _kill(pgid)


def _kill(pgid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            return
        if sig == signal.SIGTERM:
            time.sleep(0.2)


def _diff(expected: list[str], actual: list[str]) -> str:
    """A unified diff in which an actual line that matches the next expected line with a
    ``...`` in it is shown as the page has it, so that only real differences stand out."""
    shown, k = [], 0
    for line in actual:
        while k < len(expected) and expected[k].strip() == "...":
            k += 1
        if k < len(expected) and _line_pattern(expected[k].rstrip()).fullmatch(line):
            line, k = expected[k].rstrip(), k + 1
        shown.append(line)
    lines = difflib.unified_diff(expected, shown, "expected (page)", "actual", lineterm="", n=3)
    return "\n".join(lines)


def _run_console(block: Block, shell: Shell, timeout: float) -> None:
    commands = _commands(block)
    check_output = any(c.expected for c in commands)
    for c in commands:
        status, output = shell.run(c.command, timeout)
        actual = _screen(output)
        where = f"{block.file}:{c.line}" + "".join(f" (included from {v})" for v in block.via)
        shown = "\n".join(f"    {s}" for s in actual[-60:]) or "    (nothing)"
        head = f"{where}: $ {c.command}\n"
        if status is None:
            raise ExampleError(
                f"{head}did not finish in {timeout:g} s (killed). A command that starts "
                f"something in the background must send its output to a file. "
                f"Output so far:\n{shown}"
            )
        if check_output and not matches(c.expected, actual):
            raise ExampleError(
                f"{head}output differs from the page (exit status {status}):\n"
                f"{_diff(c.expected, actual)}\n"
                f"expected:\n"
                + ("\n".join(f"    {s}" for s in c.expected) or "    (nothing)")
                + f"\nactual:\n{shown}"
            )
        if status != c.status:
            want = "0" if c.status == 0 else f"{c.status} (the page's [exit {c.status}])"
            raise ExampleError(
                f"{head}exit status {status}, the page expects {want}; output:\n{shown}"
            )


# ------------------------------------------------------------------------------------ python


class Python:
    """The page's Python namespace: a subprocess (tests/docs/pyrunner.py) that runs python
    blocks, checks pycon blocks as doctests and validates configs, one request at a time."""

    def __init__(self, folder: Path, log: Path):
        self.log_path = log
        self.log = open(log, "wb")  # closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, str(RUNNER)],
            cwd=folder,
            env=example_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            start_new_session=True,
        )
        self.buffer = b""

    def ask(self, request: dict, timeout: float) -> dict:
        """The runner's answer to ``request``; a timeout or a dead runner is an answer too."""
        before = self.log_path.stat().st_size
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return {"ok": False, "report": "the Python process had died", "output": ""}
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                _kill(self.proc.pid)
                return {
                    "ok": False,
                    "report": f"did not finish in {timeout:g} s (killed)",
                    "output": self._output(before),
                }
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    self.proc.wait()
                    return {
                        "ok": False,
                        "output": self._output(before),
                        "report": f"the Python process ended (exit status "
                        f"{self.proc.returncode}): did the block exit?",
                    }
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        answer = json.loads(line)
        answer["output"] = self._output(before)
        return answer

    def _output(self, start: int) -> str:
        self.log.flush()
        with open(self.log_path, "rb") as f:
            f.seek(start)
            return f.read().decode("utf-8", errors="replace")

    def close(self) -> None:
        """Stop the runner and whatever it started."""
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
            pass
        _kill(self.proc.pid)
        self.proc.wait()
        self.log.close()


def _run_python(block: Block, python: Python, root: Path, folder: Path, timeout: float) -> None:
    op = {"python": "python", "pycon": "pycon", "yaml": "config"}[block.lang]
    # the block's file by its full path: tracebacks then quote the page's lines
    request = {
        "op": op,
        "code": block.text,
        "file": str(root / block.file),
        "line": block.first,
        "folder": str(folder),
        "name": block.where,
    }
    answer = python.ask(request, timeout)
    if answer["ok"]:
        return
    what = {
        "python": "python block failed",
        "pycon": "pycon block does not print what the page shows",
        "config": "yaml block is not a valid boardsweep config (planning it failed); a block "
        "meant as a file needs <!-- file: NAME --> before it",
    }[op]
    output = answer["output"].rstrip()
    tail = "\n".join(output.splitlines()[-40:])
    raise ExampleError(
        f"{block.where}: {what}:\n{answer['report'].rstrip()}"
        + (f"\noutput (stdout and stderr, last 40 lines):\n{tail}" if tail else "")
    )


# ------------------------------------------------------------------------------------ pages


def prepare(root: Path, folder: Path) -> None:
    """Fill a page's scratch folder: copies of the repository's config.yaml and data/."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in SEEDS:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, folder / name)
        elif src.is_file():
            shutil.copy2(src, folder / name)


def run_page(root: Path, page: str, folder: Path, timeout: float = COMMAND_TIMEOUT) -> dict:
    """Run ``page``'s blocks in order in ``folder`` (prepared by :func:`prepare`); raise
    :class:`ExampleError` at the first that fails. Returns counts of what ran, by kind."""
    blocks = collect(root, page)
    counts = {"console": 0, "python": 0, "pycon": 0, "yaml": 0, "file": 0, "elsewhere": 0}
    with tempfile.TemporaryDirectory(prefix="boardsweep-example-") as state:
        shell = Shell(folder, Path(state))
        python: Python | None = None
        try:
            for block in blocks:
                if block.name is not None:
                    target = folder / block.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(block.text, encoding="utf-8")
                    counts["file"] += 1
                elif block.elsewhere is not None:
                    counts["elsewhere"] += 1
                elif block.lang == "console":
                    _run_console(block, shell, timeout)
                    counts["console"] += 1
                else:
                    if python is None:
                        python = Python(folder, Path(state) / "python.log")
                    _run_python(block, python, root, folder, timeout)
                    counts[block.lang] += 1
        finally:
            if python is not None:
                python.close()
            shell.close()
    return counts

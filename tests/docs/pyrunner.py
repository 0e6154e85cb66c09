"""One page's Python namespace, run by tests/docs/mdexamples.py as a subprocess.

It reads one JSON request a line on stdin and answers one JSON line on its original stdout:

- ``{"op": "python", "code", "file", "line"}``: run the block in the page's namespace;
- ``{"op": "pycon", ..., "name"}``: check the block as a doctest (ELLIPSIS, NORMALIZE_WHITESPACE)
  in the same namespace;
- ``{"op": "config", "code", "folder"}``: plan the YAML config with ``boardsweep.plan``
  in ``folder`` (validates it, computes nothing).

The answer is ``{"ok": bool, "report": str}``. What the blocks print, and what the
processes they start print, goes to this process's stderr (its stdout is moved there too),
which the caller keeps and shows with a failure. The working folder is the page's folder,
and it is first on ``sys.path``, as in ``python`` started there.
"""

from __future__ import annotations

import doctest
import json
import os
import sys
import traceback


def run_python(namespace: dict, code: str, file: str, line: int) -> tuple[bool, str]:
    """Run ``code`` (the block starting at ``line`` of ``file``) in ``namespace``."""
    try:
        compiled = compile("\n" * (line - 1) + code, file, "exec")
    except SyntaxError:
        return False, traceback.format_exc(limit=0)
    try:
        exec(compiled, namespace)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt in a block fail it too
        te = traceback.TracebackException.from_exception(exc)
        te.stack = traceback.StackSummary.from_list(te.stack[1:])  # less this frame
        return False, "".join(te.format())
    return True, ""


def run_pycon(namespace: dict, code: str, file: str, line: int, name: str) -> tuple[bool, str]:
    """Check ``code`` as a doctest in ``namespace`` (its names stay for later blocks)."""
    test = doctest.DocTestParser().get_doctest(code, namespace, name, file, line - 1)
    test.globs = namespace  # DocTest copies the globals it is given: share them instead
    runner = doctest.DocTestRunner(
        verbose=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    out: list[str] = []
    result = runner.run(test, out=out.append, clear_globs=False)
    return result.failed == 0, "".join(out)


def check_config(code: str, folder: str) -> tuple[bool, str]:
    """Validate a whole config by planning it in ``folder``: ``(ok, why not)``."""
    import yaml

    import boardsweep

    try:
        config = yaml.safe_load(code)
    except yaml.YAMLError as exc:
        return False, f"not YAML: {exc}"
    if not isinstance(config, dict):
        return False, f"a config is a mapping, not {type(config).__name__}"
    here = os.getcwd()
    os.chdir(folder)
    try:
        plan = boardsweep.plan(config)
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
    finally:
        os.chdir(here)
    return True, plan.to_string()


def main() -> None:
    """Serve requests until stdin closes."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # a block that reads stdin reads nothing, not the requests
    os.dup2(2, 1)  # what blocks print goes where the caller keeps it
    sys.path[0] = ""  # the page's folder, as for `python` started there
    namespace: dict = {"__name__": "__main__", "__builtins__": __builtins__}
    for raw in requests:
        request = json.loads(raw)
        op = request["op"]
        if op == "python":
            ok, report = run_python(namespace, request["code"], request["file"], request["line"])
        elif op == "pycon":
            ok, report = run_pycon(
                namespace, request["code"], request["file"], request["line"], request["name"]
            )
        elif op == "config":
            ok, report = check_config(request["code"], request["folder"])
        else:
            ok, report = False, f"unknown request {op!r}"
        sys.stdout.flush()
        sys.stderr.flush()
        answers.write(json.dumps({"ok": ok, "report": report}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()

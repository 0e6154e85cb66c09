"""One output, one lock, one state: what a run holds while it writes an output folder.

An output folder and its state folder name each other::

    <output>/_boardsweep/output.json   {"id": the output's id, "state": its state folder}
    <output>/_boardsweep/lock          flock: one run at a time writes this output
    <state>/owner.json                 {"id": the output's id, "output": its folder}
    <state>/lock                       flock: one run at a time uses this state

so a run locks the output itself, whatever its config's ``state:`` key says; a state folder
another output still uses is refused, and so is a second state folder for an output whose own
still exists.  The output's id is what its store is bound to (:class:`pipeline.store.Store`).
The kernel drops an flock when its holder dies, so a killed run leaves no stale lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import BoardsweepError, InputError
from .progress import log

__all__ = ["claim_output", "folder_lock", "output_id", "CLAIM_FOLDER"]

CLAIM_FOLDER = "_boardsweep"  # under <output>: a name Parquet readers skip
_OUTPUT_FILE = "output.json"
_OWNER_FILE = "owner.json"


@contextmanager
def folder_lock(folder: Path, what: str, named: Path | None = None) -> Iterator[None]:
    """Hold ``<folder>/lock`` (flock; never following a symlink), or refuse naming its holder:
    ``what`` and ``named`` (default ``folder``) name the folder in the refusal."""
    try:
        fd = os.open(folder / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise InputError(f"cannot use the {what}: {exc.strerror}", str(folder)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
            raise BoardsweepError(
                f"{named or folder}: the {what} is in use by {holder}; wait "
                "for it or choose another --output"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(
            fd,
            f"pid {os.getpid()} on {socket.gethostname()} since "
            f"{time.strftime('%Y-%m-%d %H:%M:%S')}\n".encode(),
            0,
        )
        yield
    finally:
        os.close(fd)


def _read(path: Path) -> dict | None:
    """A claim file's fields, or None where there is none (or it cannot be read)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        return None
    return data


def _write(path: Path, data: dict) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        os.replace(temporary, path)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", str(path)) from None


def _same(a: str | Path | None, b: Path) -> bool:
    return a is not None and Path(a).resolve() == b.resolve()


def output_id(output: Path) -> str | None:
    """The id of an output folder (None before its first run): read only."""
    found = _read(output / CLAIM_FOLDER / _OUTPUT_FILE)
    return None if found is None else found["id"]


def _in_use(owner: dict, output: Path) -> bool:
    """Whether the output an owner file names still exists elsewhere and still has its id."""
    other = owner.get("output")
    return (
        isinstance(other, str)
        and not _same(other, output)
        and output_id(Path(other)) == owner["id"]
    )


def _bind(output: Path, state: Path) -> str:
    """Check that ``output`` and ``state`` may belong to each other, record it, return the id."""
    mine = _read(output / CLAIM_FOLDER / _OUTPUT_FILE)
    owner = _read(state / _OWNER_FILE)
    ident = None if mine is None else mine["id"]
    if mine is not None and not _same(mine.get("state"), state):
        before = Path(str(mine.get("state")))
        kept = _read(before / _OWNER_FILE)
        if kept is not None and kept["id"] == ident and _same(kept.get("output"), output):
            raise InputError(
                f"this output's state folder is {before} (named in "
                f"{output / CLAIM_FOLDER / _OUTPUT_FILE}), not {state}: set "
                f"'state:' to it, or remove {before} to start another",
                str(output),
            )
        log(f"{output}: its state folder {before} is gone; {state} takes its place")
        ident = None  # a copied or moved output: it gets an id of its own
    if owner is not None and owner["id"] != ident:
        if _in_use(owner, output):
            raise InputError(
                f"belongs to the output folder {owner['output']}: give each "
                "output its own state folder ('state:')",
                str(state),
            )
        if ident is None and _same(owner.get("output"), output):
            ident = owner["id"]  # the output folder was removed: its state is still its own
    ident = ident or uuid.uuid4().hex
    if mine != {"id": ident, "state": str(state)}:
        _write(output / CLAIM_FOLDER / _OUTPUT_FILE, {"id": ident, "state": str(state)})
    if owner != {"id": ident, "output": str(output)}:
        _write(state / _OWNER_FILE, {"id": ident, "output": str(output)})
    return ident


@contextmanager
def claim_output(output: Path, state: Path) -> Iterator[str]:
    """Lock ``output`` (and ``state``), bind the two to each other, and yield the output's id.

    Bad input raised inside (:class:`InputError`) removes what this call made, where nothing
    else was written there: a refused run leaves no folder behind.
    """
    output, state = output.absolute(), state.absolute()
    claim = output / CLAIM_FOLDER
    made = [f for f in (output.parent, output, claim, state.parent, state) if not f.exists()]
    try:
        for folder in (output, claim):
            folder.mkdir(parents=True, exist_ok=True)
        for folder in (state.parent, state):  # private: only this user reads the state
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        _unmake(made, output, state)
        raise InputError(f"cannot make the folder: {exc.strerror}", exc.filename) from None
    try:
        if os.stat(output).st_dev != os.stat(state).st_dev:
            raise InputError(
                f"is on another file system than the output folder {output}: a "
                "new generation is built in it and renamed into the output, so "
                "put 'state:' on the output's file system",
                str(state),
            )
        with folder_lock(claim, "output folder", output), folder_lock(state, "state folder"):
            yield _bind(output, state)
    except InputError:
        _unmake(made, output, state)
        raise


def _unmake(made: list[Path], output: Path, state: Path) -> None:
    """Remove the folders in ``made`` that hold nothing but this module's files."""
    ours = {"lock", _OUTPUT_FILE, _OWNER_FILE, f".{_OUTPUT_FILE}.tmp", f".{_OWNER_FILE}.tmp"}
    for folder in (output / CLAIM_FOLDER, state):
        if folder in made and folder.is_dir() and {p.name for p in folder.iterdir()} <= ours:
            for name in ours:
                (folder / name).unlink(missing_ok=True)
    for folder in sorted(made, key=lambda f: -len(f.parts)):
        with contextlib.suppress(OSError):
            folder.rmdir()

"""Load and validate ``config.yaml``: the output folder, the cluster, and the jobs to run.

Every mapping read from YAML remembers the line it starts on and the line of each key, so a
bad value is reported as ``config.yaml:12: jobs[1] (queens): 'n' = 40 is out of range ...``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

import solvers
from solvers.interface import ParamError

from .errors import InputError

__all__ = ["Config", "ClusterSpec", "JobSpec", "load_config", "parse_job", "instance_source",
           "CLUSTER_KINDS"]

TOP_KEYS = {"output", "cluster", "jobs"}
CLUSTER_KINDS: dict[str, set[str]] = {
    "local": {"workers", "threads_per_worker", "memory_limit", "dashboard_address",
              "allowed_failures"},
    "address": {"address", "timeout"},
    "scheduler-file": {"path", "timeout"},
    "slurm": {"workers", "cores", "memory", "walltime", "queue", "account", "job_name",
              "job_extra_directives", "job_extra", "job_script_prologue", "local_directory",
              "log_directory", "interface", "dashboard_address", "timeout", "allowed_failures"},
}
# the slurm keys that hold a list of strings, and those that hold one string
SLURM_LISTS = {"job_extra_directives", "job_extra", "job_script_prologue"}
SLURM_STRINGS = {"memory", "walltime", "queue", "account", "job_name", "local_directory",
                 "log_directory", "interface", "dashboard_address"}
SLURM_LOG_DIRECTORY = "slurm-logs"  # the worker jobs' output, beside the config file
# keys every job may have whatever its problem; the rest belong to the problem's own spec
JOB_KEYS = {"name", "problem", "solutions"}
JOB_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class _LinedDict(dict):
    """A dict that remembers the YAML line of itself (``line``) and of each key (``key_line``)."""

    line: int = 0
    key_line: dict


class _LineLoader(yaml.SafeLoader):
    """SafeLoader whose mappings are :class:`_LinedDict` with 1-based line numbers."""

    def construct_mapping(self, node, deep=False):  # noqa: D102 - yaml hook
        mapping = _LinedDict(super().construct_mapping(node, deep=True))
        mapping.line = node.start_mark.line + 1
        mapping.key_line = {
            self.construct_object(k, deep=True): k.start_mark.line + 1 for k, _ in node.value
        }
        return mapping


_LineLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping
)


@dataclass(frozen=True)
class ClusterSpec:
    """Where tasks run: ``kind`` is one of :data:`CLUSTER_KINDS`, ``options`` its settings."""

    kind: str = "local"
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class JobSpec:
    """One job: a name, a registered problem, and the problem's own keys (``spec``)."""

    name: str
    problem: str
    spec: dict
    solutions: bool = False
    line: int | None = None


@dataclass(frozen=True)
class Config:
    """A whole config file, validated."""

    path: str
    output: str
    cluster: ClusterSpec
    jobs: list[JobSpec]


def _line_of(mapping: Any, key: str | None = None) -> int | None:
    if not isinstance(mapping, _LinedDict):
        return None
    if key is not None and key in mapping.key_line:
        return mapping.key_line[key]
    return mapping.line


def _plain(value: Any) -> Any:
    """Strip the line bookkeeping: plain dicts and lists all the way down."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _unknown_key(mapping: Mapping, allowed: set[str], what: str, path: str,
                 lines: Mapping | None = None) -> None:
    """InputError for the first key not in ``allowed``, at its line in ``lines`` (a YAML
    mapping with the same keys; ``mapping`` itself when None)."""
    for key in mapping:
        if key not in allowed:
            raise InputError(
                f"{what}: unknown key '{key}': expected one of {', '.join(sorted(allowed))}",
                path,
                _line_of(mapping if lines is None else lines, key),
            )


def _key_line(value: Any, key: str) -> int | None:
    """The line of the first ``key`` in the YAML mapping ``value`` or in those nested in it."""
    if isinstance(value, _LinedDict) and key in value.key_line:
        return value.key_line[key]
    children = value.values() if isinstance(value, dict) else value if isinstance(
        value, list) else ()
    for child in children:
        found = _key_line(child, key)
        if found is not None:
            return found
    return None


def _check_count(raw: Mapping, key: str, least: int, what: str, path: str) -> None:
    """An optional integer cluster key must be at least ``least``: InputError at its line."""
    value = raw.get(key)
    if value is not None and (
        not isinstance(value, int) or isinstance(value, bool) or value < least
    ):
        raise InputError(f"cluster: '{key}' must be {what}, not {value!r}", path,
                         _line_of(raw, key))


def parse_cluster(raw: Any, path: str, line: int | None = None) -> ClusterSpec:
    """Validate the ``cluster:`` mapping (``line``: where the ``cluster`` key is)."""
    if raw is None:
        return ClusterSpec()
    if not isinstance(raw, dict):
        raise InputError("'cluster' must be a mapping like {kind: local, workers: 2}", path,
                         line)
    kind = raw.get("kind", "local")
    if kind not in CLUSTER_KINDS:
        raise InputError(
            f"cluster: unknown kind '{kind}': expected one of {', '.join(CLUSTER_KINDS)}",
            path,
            _line_of(raw, "kind"),
        )
    options = {k: v for k, v in raw.items() if k != "kind"}
    _unknown_key(options, CLUSTER_KINDS[kind], f"cluster (kind {kind})", path, raw)
    _check_count(raw, "workers", 1, "a positive integer", path)
    _check_count(raw, "allowed_failures", 0, "an integer >= 0", path)
    required = {"address": "address", "scheduler-file": "path"}.get(kind)
    if required and required not in options:
        raise InputError(f"cluster (kind {kind}): missing key '{required}'", path, _line_of(raw))
    if kind == "slurm":
        _check_slurm(raw, path)
        log_directory = options.get("log_directory", SLURM_LOG_DIRECTORY)
        options["log_directory"] = str(Path(path).parent / Path(log_directory).expanduser())
    return ClusterSpec(kind, _plain(options))


def _check_slurm(raw: Mapping, path: str) -> None:
    """Types of the ``kind: slurm`` keys, so a typo fails here and not in a worker job."""
    for key, value in raw.items():
        if key in SLURM_LISTS:
            ok, expected = (isinstance(value, list) and all(isinstance(v, str) for v in value),
                            "a list of strings")
        elif key in SLURM_STRINGS:
            # YAML reads 1:00:00 as a number of seconds: ask for quotes rather than guess
            ok, expected = isinstance(value, str) and value != "", "a non-empty string"
            if key == "walltime":
                expected += ' like "02:00:00" (quoted)'
        elif key == "cores":
            ok, expected = (isinstance(value, int) and not isinstance(value, bool)
                            and value >= 1), "a positive integer"
        elif key == "timeout":
            ok, expected = (isinstance(value, int | float) and not isinstance(value, bool)
                            and value > 0), "a positive number of seconds"
        else:
            continue
        if not ok:
            raise InputError(f"cluster (kind slurm): '{key}' must be {expected}, not {value!r}",
                             path, _line_of(raw, key))


SOURCES = ("ingest", "parquet", "generate")


def instance_source(module, spec: dict) -> tuple[dict, dict]:
    """Split an instance job's keys into its set's source and the solver's options.

    The source is ``{ingest: TEXT_FILE}``, ``{parquet: FILE}`` or ``{generate: {...}}`` under
    the problem's ``INPUT_KEY`` (``boards``, ``puzzles``); :class:`ParamError` if malformed.
    """
    key = module.INPUT_KEY
    source = spec.get(key)
    if not isinstance(source, dict) or len(source) != 1 or next(iter(source)) not in SOURCES:
        raise ParamError(f"'{key}' must be one of {{ingest: FILE}}, {{parquet: FILE}} or "
                         f"{{generate: {{...}}}}, not {source!r}")
    kind, value = next(iter(source.items()))
    if kind == "generate":
        module.generate_points(value)
    elif not isinstance(value, str) or not value:
        raise ParamError(f"'{key}': {kind} needs a file path, not {value!r}")
    options = module.check_options({k: v for k, v in spec.items() if k != key})
    return source, options


def parse_job(raw: Any, index: int, path: str) -> JobSpec:
    """Validate one entry of ``jobs:`` against its problem's parameters."""
    if not isinstance(raw, dict):
        raise InputError(f"jobs[{index}] must be a mapping with 'name' and 'problem'", path)
    line = _line_of(raw)
    for key in ("name", "problem"):
        if key not in raw:
            raise InputError(f"jobs[{index}]: missing key '{key}'", path, line)
    name = raw["name"]
    if not isinstance(name, str) or not JOB_NAME.match(name):
        raise InputError(
            f"jobs[{index}]: name {name!r} must be letters, digits, '_', '.' or '-'",
            path,
            _line_of(raw, "name"),
        )
    where = f"jobs[{index}] ({name})"
    try:
        module = solvers.get(raw["problem"])
    except ParamError as exc:
        raise InputError(f"{where}: {exc}", path, _line_of(raw, "problem")) from None
    solutions = raw.get("solutions", False)
    if not isinstance(solutions, bool) or (solutions and not hasattr(module, "solutions")):
        raise InputError(
            f"{where}: 'solutions' must be true or false, and only problems that enumerate"
            " solutions accept it",
            path,
            _line_of(raw, "solutions"),
        )
    spec = _plain({k: v for k, v in raw.items() if k not in JOB_KEYS})
    try:
        if module.KIND == "count":
            module.points(spec)
        else:
            source, _ = instance_source(module, spec)
            for kind in ("ingest", "parquet"):
                if kind in source:  # paths are relative to the config file
                    source[kind] = str(Path(path).parent / source[kind])
                    if not Path(source[kind]).is_file():
                        raise ParamError(f"'{module.INPUT_KEY}': {kind} file {source[kind]} "
                                         "does not exist")
                    if kind == "parquet" and not _is_parquet(source[kind]):
                        raise ParamError(f"'{module.INPUT_KEY}': {source[kind]} is not a Parquet "
                                         "file (seed-format text goes in {ingest: FILE})")
    except ParamError as exc:
        # the line of the key the message quotes, else of the job's one problem key, else the job
        bad = re.search(r"'([^']+)'", str(exc))
        key_line = _key_line(raw, bad.group(1)) if bad else None
        if key_line is None and len(spec) == 1:
            key_line = _line_of(raw, next(iter(spec)))
        raise InputError(f"{where}: {exc}", path, key_line or line) from None
    return JobSpec(name, raw["problem"], spec, solutions, line)


def _is_parquet(path: str) -> bool:
    """Whether the file at ``path`` starts with Parquet's magic bytes (an unreadable file
    passes: reading the set reports why)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return True


def load_config(path: str | Path) -> Config:
    """Read and validate a config file; :class:`InputError` names the file and line at fault."""
    path = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InputError(f"cannot read config: {exc.strerror}", path) from None
    try:
        raw = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(
            f"malformed YAML: {problem}", path, mark.line + 1 if mark else None
        ) from None
    if not isinstance(raw, dict):
        raise InputError("expected a mapping with 'jobs' (and optionally 'output', 'cluster')",
                         path)
    _unknown_key(raw, TOP_KEYS, "config", path)
    jobs_raw = raw.get("jobs")
    if not isinstance(jobs_raw, list) or not jobs_raw:
        raise InputError("'jobs' must be a non-empty list", path, _line_of(raw, "jobs"))
    output = raw.get("output", "results")
    if not isinstance(output, str) or not output:
        raise InputError("'output' must be a folder name", path, _line_of(raw, "output"))
    jobs = [parse_job(job, i, path) for i, job in enumerate(jobs_raw)]
    seen: set[str] = set()
    for job in jobs:
        if job.name in seen:
            raise InputError(f"duplicate job name '{job.name}'", path, job.line)
        seen.add(job.name)
    output = str(Path(path).parent / output)  # relative to the config file, like its inputs
    cluster = parse_cluster(raw.get("cluster"), path, _line_of(raw, "cluster"))
    return Config(path, output, cluster, jobs)

"""Config files and command lines into typed jobs, parsed once.

Every value is checked by a validator of :mod:`solvers.schema` (a job's own keys by its
problem's ``params``); a :class:`~solvers.schema.ParamError` carries the key path to the bad
value, and this module maps that path to the line of the config file it came from (the YAML
is composed node by node, so every key and list item knows its line).  Paths in a config are
relative to the config file.  Instance sets named by a job are read and checked here, once.

This module is long because it holds the whole config schema (top keys, cluster kinds, jobs)
beside the code that maps a bad value's key path to its line: split, one vocabulary would live
in two places.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from boardsweep import solvers
from boardsweep.solvers.contract import (
    EVERY,
    FILE_SOURCES,
    GENERATE,
    GIVEN,
    InstanceProblem,
    Point,
    Problem,
)
from boardsweep.solvers.schema import (
    Choice,
    Context,
    Field,
    FilePath,
    Flag,
    Integer,
    ListOf,
    Number,
    ParamError,
    Raw,
    Record,
    Text,
    key_text,
)

from .batch import BATCH_TIMEOUT
from .batch import JOB_NAME as WORKER_JOB_NAME
from .errors import InputError
from .limits import over_cap, too_big
from .sets import InputSet, decode_text, load_set, set_from_table
from .tables import read_file

__all__ = [
    "Config",
    "ClusterSpec",
    "Job",
    "load_config",
    "make_job",
    "cluster_spec",
    "scheduler_spec",
    "check_security",
    "BATCH_KINDS",
    "TLS_FILES",
    "JOB_NAME",
    "JOB_FIELDS",
    "ADDRESS",
    "CLUSTER_KINDS",
    "CLUSTER_KIND",
    "state_folder",
    "config_from_mapping",
    "verify_share",
    "VERIFY",
    "VERIFY_DEFAULTS",
    "VERIFY_OFF_HOST",
    "TASK_SECONDS",
    "SECURITY",
]

JOB_NAME = Text(
    r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}",
    64,
    "a job name: a letter or digit, then letters, digits, '_', '.' or '-' (at most 64)",
)
ADDRESS = Text(r"(tcp|tls)://[^\s/]+", 512, "a scheduler address tcp://HOST:PORT")
_MEMORY = Text(
    r"(auto|[0-9]+(\.[0-9]+)?\s*([kKMGT]i?B?|B)?)", 32, 'a memory size like "4GB" or "auto"'
)
_SECONDS = Number(0.01, 7 * 86400)
TASK_SECONDS_DEFAULTS = {"local": 10.0}  # any other cluster kind: TASK_SECONDS_OFF_HOST
TASK_SECONDS_OFF_HOST = 300.0
#: The target length of a task: the one range of the config key, ``--task-seconds`` (its click
#: type is read from this field) and the API's ``task_seconds``.
TASK_SECONDS = Field(
    Number(0.01, 86400),
    doc="the target length of a task in seconds (`--task-seconds` overrides it); "
    f"{TASK_SECONDS_DEFAULTS['local']:g} on a local cluster, {TASK_SECONDS_OFF_HOST:g} on any "
    "other unless set",
)
_COMMON = {"task_seconds": TASK_SECONDS}
BATCH_LOG_DIRECTORY = "batch-logs"  # the worker jobs' output, beside the config file
SLURM_LOG_DIRECTORY = "slurm-logs"  # ... for Slurm (the name it always had)
DASHBOARD = "127.0.0.1:8787"  # where the dashboard listens unless set: this host only
_DASHBOARD = (  # the doc of `dashboard_address`
    "where the scheduler's dashboard listens; the default is this host only (the next free "
    'port if taken); ":8787" opens it to the network'
)
_ALLOWED_FAILURES = Field(
    Integer(0, 1000),
    doc="how many worker deaths one task may cause before it fails; Dask's own "
    "`distributed.scheduler.allowed-failures` unless set",
)
_SLURM_STRING = Text(what="a non-empty string")
_STRINGS = ListOf(Text(what="a string"), least=0, unique=False, what="a list of strings")

#: Who may connect to a scheduler that is not local (``--security`` takes its choices).
SECURITY = Field(
    Choice(("tls", "none")),
    default="tls",
    doc="tls or none: plain TCP, which anyone who reaches the scheduler can use to run code as you",
)
_TLS = {
    "security": SECURITY,
    "tls_ca_file": Field(
        FilePath("a CA certificate file (PEM)"),
        doc="the CA certificate of a `tls://` scheduler (PEM, relative to the config file; "
        "`--tls-ca-file`). The three `tls_` keys go together; without them Dask's own "
        "`distributed.comm.tls` settings apply",
    ),
    "tls_cert": Field(
        FilePath("a client certificate file (PEM)"),
        doc="this client's certificate for a `tls://` scheduler (PEM; `--tls-cert`)",
    ),
    "tls_key": Field(
        FilePath("a client key file (PEM)"),
        doc="this client's private key for a `tls://` scheduler (PEM; `--tls-key`)",
    ),
}
CONNECT_TIMEOUT = 60.0  # seconds to wait for an existing scheduler and its first worker
_CONNECT_TIMEOUT = Field(
    _SECONDS,
    default=CONNECT_TIMEOUT,
    doc="seconds to wait for the scheduler (and its file) and for its first worker",
)
_BATCH = {  # the keys every batch system takes (dask-jobqueue's own, and boardsweep's)
    "workers": Field(
        Integer(1, 100_000),
        default=1,
        doc="worker jobs to submit, one Dask worker each (`--workers` overrides it)",
    ),
    "cores": Field(
        Integer(1, 1024),
        default=1,
        doc="cores each worker job asks for, and its worker's threads",
    ),
    "memory": Field(_MEMORY, default="2GB", doc="memory each worker job asks for"),
    "job_name": Field(
        _SLURM_STRING,
        default=WORKER_JOB_NAME,
        doc="the worker jobs' name in the batch system's queue",
    ),
    "job_extra_directives": Field(
        _STRINGS,
        default=(),
        doc="more options for the worker job script's header, one a string "
        '(`["--qos=low"]` on Slurm)',
    ),
    "job_script_prologue": Field(
        _STRINGS,
        doc='shell lines the worker job script runs before the worker starts (`["module load '
        'gcc/12"]`)',
    ),
    "local_directory": Field(
        _SLURM_STRING, doc="each worker's scratch folder on its node (`/scratch/$USER`)"
    ),
    "log_directory": Field(
        FilePath("a folder"),
        doc="the folder the worker jobs' output and error files go to, relative to the config "
        f"file; {SLURM_LOG_DIRECTORY} on Slurm and {BATCH_LOG_DIRECTORY} on the other systems "
        "unless set",
    ),
    "interface": Field(
        _SLURM_STRING,
        doc="the network interface the scheduler and the workers use (`ib0`)",
    ),
    "dashboard_address": Field(_SLURM_STRING, default=DASHBOARD, doc=_DASHBOARD),
    "timeout": Field(
        _SECONDS,
        default=BATCH_TIMEOUT,
        doc="seconds to wait for the first worker job to start and connect",
    ),
    "allowed_failures": _ALLOWED_FAILURES,
    "security": SECURITY,
    **_COMMON,
}
_WALLTIME = Field(
    Text(r"([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}", 32, 'a walltime like "02:00:00" (quoted)'),
    doc="the time limit of each worker job; without it the queue's own default applies",
)
_RESOURCE_SPEC = Field(
    Text(what='a resource request like "select=1:ncpus=1:mem=2GB"'),
    doc="the resource request of each worker job, as the batch system writes it",
)
_QUEUE = Field(_SLURM_STRING, doc="the queue (on Slurm, the partition) the worker jobs go to")
_ACCOUNT = Field(_SLURM_STRING, doc="the account the worker jobs are charged to")
_PROJECT = Field(_SLURM_STRING, doc="the project the worker jobs are charged to")
BATCH_KINDS = ("slurm", "pbs", "sge", "lsf", "htcondor")

CLUSTER_KINDS: dict[str, Record] = {
    "local": Record(
        {
            "workers": Field(
                Integer(1, 4096),
                doc="worker processes (`--workers` overrides it); unless set, one per core, "
                "and small work runs in the `boardsweep` process with no cluster started",
            ),
            "threads_per_worker": Field(
                Integer(1, 1024), default=1, doc="threads of each worker process"
            ),
            "memory_limit": Field(
                _MEMORY,
                default="auto",
                doc='memory each worker process may use; "auto" shares the machine\'s memory '
                "among them",
            ),
            "dashboard_address": Field(Text(what="an address"), default=DASHBOARD, doc=_DASHBOARD),
            "allowed_failures": _ALLOWED_FAILURES,
            "profile": Field(
                Flag(),
                default=False,
                doc="Dask's sampling profiler in the workers (the dashboard's Profile page)",
            ),
            **_COMMON,
        },
        "a local cluster",
    ),
    "address": Record(
        {
            "address": Field(
                ADDRESS,
                required=True,
                doc="the address of a running Dask scheduler (`--scheduler`); a `tcp://` one "
                "needs `security: none`",
            ),
            "timeout": _CONNECT_TIMEOUT,
            **_TLS,
            **_COMMON,
        },
        "an existing scheduler",
    ),
    "scheduler-file": Record(
        {
            "path": Field(
                FilePath("a scheduler file path"),
                required=True,
                doc="the file a running Dask scheduler writes its address to (`dask scheduler "
                "--scheduler-file FILE`), relative to the config file (`--scheduler-file` on "
                "the command line); waited for up to `timeout`",
            ),
            "timeout": _CONNECT_TIMEOUT,
            **_TLS,
            **_COMMON,
        },
        "a scheduler file",
    ),
    "slurm": Record(
        {
            **_BATCH,
            "walltime": _WALLTIME,
            "queue": _QUEUE,
            "account": _ACCOUNT,
        },
        "a Slurm cluster",
    ),
    "pbs": Record(
        {
            **_BATCH,
            "walltime": _WALLTIME,
            "queue": _QUEUE,
            "account": _ACCOUNT,
            "resource_spec": _RESOURCE_SPEC,
        },
        "a PBS cluster",
    ),
    "sge": Record(
        {
            **_BATCH,
            "walltime": _WALLTIME,
            "queue": _QUEUE,
            "project": _PROJECT,
            "resource_spec": _RESOURCE_SPEC,
        },
        "an SGE cluster",
    ),
    "lsf": Record(
        {
            **_BATCH,
            "walltime": Field(
                Text(r"[0-9]+(:[0-9]{1,2})?", 16, 'a walltime like "02:00" (quoted)'),
                doc=_WALLTIME.doc,
            ),
            "queue": _QUEUE,
            "project": _PROJECT,
        },
        "an LSF cluster",
    ),
    "htcondor": Record(
        {**_BATCH, "disk": Field(_MEMORY, required=True, doc="disk per worker job, e.g. 1GB")},
        "an HTCondor pool",
    ),
}
CLUSTER_KIND = Field(
    Choice(tuple(CLUSTER_KINDS)),
    default="local",
    doc="where the tasks run: a local cluster of worker processes on this machine, an existing "
    "Dask scheduler (by its address or its scheduler file), or worker jobs of a batch system; "
    "each kind takes the keys listed under it",
)
TLS_FILES = (("tls_ca_file", "ca-file"), ("tls_cert", "client.cert"), ("tls_key", "client.key"))
TOP = Record(
    {
        "output": Field(
            Text(most=1024, what="a folder name"),
            default="results",
            doc="the results folder, relative to the config file (a leading ~ is your home "
            "folder): each job publishes into `<output>/<name>/` (`--output` overrides it)",
        ),
        "state": Field(
            Text(most=1024, what="a folder name"),
            doc="the folder for what is not published, chiefly the result store, relative to "
            "the config file; `.boardsweep/<output name>/` beside the results folder unless "
            "set. It must be on the results folder's file system, and serves that one output",
        ),
        "cluster": Field(  # checked by cluster_spec, for its kind
            Raw(),
            doc="where the tasks run: `{kind: KIND, ...}` with that kind's keys (below); a "
            "local cluster unless set",
        ),
        "jobs": Field(  # each job checked by its problem
            ListOf(Raw(), unique=False, what="a non-empty list of jobs"),
            required=True,
            doc="what to compute: each job a mapping with a `name`, a `problem` and that "
            "problem's own keys",
        ),
    },
    "a mapping with 'jobs' (and optionally 'output', 'state', 'cluster')",
)
VERIFY_DEFAULTS = {"local": 0.0}  # any other cluster kind: VERIFY_OFF_HOST
VERIFY_OFF_HOST = 0.05
VERIFY = Field(
    Number(0, 1),
    doc="the share of a job's work units computed again on another "
    "worker (another host where there is one) and compared before publication: "
    f"{VERIFY_DEFAULTS['local']:g} on a local cluster, {VERIFY_OFF_HOST:g} on batch and "
    "external clusters unless set",
)
#: The keys every job takes besides its problem's own (checked in :func:`_config`; a
#: problem's name is checked against the registry when the job is read).
JOB_FIELDS: dict[str, Field] = {
    "name": Field(
        JOB_NAME,
        required=True,
        doc="the job's name, unique in the config: its results go to `<output>/<name>/`, and "
        "`--job NAME` picks it; it may not end in `.parquet`",
    ),
    "problem": Field(
        Text(what="the name of a registered problem"),
        required=True,
        doc="the problem the job computes; the job's other keys are that problem's own",
    ),
    "verify": VERIFY,
}
JOB_KEYS = tuple(JOB_FIELDS)


@dataclass(frozen=True)
class ClusterSpec:
    """Where tasks run: ``kind`` (a key of :data:`CLUSTER_KINDS`) and its checked options,
    which hold the defaults of that kind's fields for the keys not given (a spec made here,
    not read from a config, has them too)."""

    kind: str = CLUSTER_KIND.default
    options: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        fields = CLUSTER_KINDS[self.kind].fields
        defaults = {k: f.default for k, f in fields.items() if f.default is not None}
        object.__setattr__(self, "options", {**defaults, **self.options})


@dataclass
class Job:
    """One job: a name, its problem, the checked params, and its set when read from a file."""

    name: str
    problem: Problem
    params: dict
    source: InputSet | None = None
    only: tuple[str, ...] | None = None  # the tables to write instead of the problem's outputs
    verify: float | None = None  # the job's `verify:` share (None: the cluster's default)

    def outputs(self) -> tuple[str, ...]:
        """The tables the job writes; the first is its main table."""
        return self.only or self.problem.outputs(self.params)

    def points(self, table: str) -> list[Point]:
        """The job's points for ``table`` in output order."""
        if self.source is None:
            return self.problem.points(self.params, table)
        problem: InstanceProblem = self.problem  # type: ignore[assignment]
        source = self.source
        options = problem.option_values(self.params)
        return [
            problem.set_point(
                source.digest,
                source.rows,
                float(source.costs.sum()),
                options,
                f"{Path(source.path).name} ({source.rows} {problem.instances.key})",
                source.cost_of,
                table,
            )
        ]

    def rows(self, lo: int, hi: int):
        """Instances ``lo..hi-1`` of the job's set (None for a job without one)."""
        return None if self.source is None else self.source.read(lo, hi)


@dataclass(frozen=True)
class Config:
    """A whole config file, checked: where results go, where state lives, cluster, jobs."""

    output: Path
    state: Path
    cluster: ClusterSpec
    jobs: list[Job]


def state_folder(output: Path, explicit: str | None = None) -> Path:
    """Where a run keeps what is not published: ``<parent>/.boardsweep/<output name>``."""
    if explicit:
        return Path(explicit)
    output = Path(output).absolute()
    return output.parent / ".boardsweep" / output.name


# ----------------------------------------------------------------------------- YAML lines


class _Lines:
    """YAML read with the line of every mapping key and list item, by key path."""

    def __init__(self, text: str, path: str):
        self.path = path
        self.lines: dict[tuple, int] = {}
        self._seen: set[int] = set()
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                self._walk(node, ())  # before construction, which merges '<<' keys in place
            self.data = loader.construct_document(node) if node is not None else None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            context = getattr(exc, "context", None)
            if context and problem.startswith("but "):  # "expected a single document ..."
                problem = f"{context} {problem}"
            raise InputError(
                f"malformed YAML: {problem}", path, mark.line + 1 if mark else None
            ) from None
        finally:
            loader.dispose()

    def _walk(self, node: yaml.Node, key: tuple) -> None:
        self.lines.setdefault(key, node.start_mark.line + 1)
        if id(node) in self._seen:  # an alias: walked once (a chain of aliases stays linear)
            return
        self._seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[str, int] = {}
            for k, v in node.value:
                name = k.value if isinstance(k, yaml.ScalarNode) else None
                if name is not None:
                    line = k.start_mark.line + 1
                    if name in first:  # YAML would keep the last silently
                        raise InputError(
                            f"duplicate key '{name}' (also at line {first[name]})", self.path, line
                        )
                    first[name] = line
                    self.lines[(*key, name)] = line
                    self._walk(v, (*key, name))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, (*key, i))

    def line(self, key: tuple) -> int | None:
        """The line of ``key``, or of the nearest enclosing key that has one."""
        for n in range(len(key), -1, -1):
            if key[:n] in self.lines:
                return self.lines[key[:n]]
        return None


def _read_text(path: str) -> str:
    return decode_text(read_file(path, "a YAML config"), path, "a YAML config")


# ----------------------------------------------------------------------------- jobs


def _job_label(index: int, raw: Any) -> str:
    """``jobs[0] (name)``, the name shown only when it is a valid one (one line, short)."""
    name = raw.get("name") if isinstance(raw, Mapping) else None
    try:
        return f"jobs[{index}] ({JOB_NAME.check(name)})"
    except ParamError:
        return f"jobs[{index}]"


def make_job(problem: Problem | str, name: str, raw: Mapping, ctx: Context, key: tuple = ()) -> Job:
    """A job of ``problem`` from its raw keys: params checked, its set (if any) read whole.

    Raises :class:`ParamError` (with ``key`` in front of its path) for bad params and
    :class:`InputError` for a bad set file.
    """
    if isinstance(problem, str):
        problem = solvers.get(problem)
    params = problem.check_params(raw, key, ctx)
    source = None
    if problem.instances is not None:
        key_name = problem.instances.key
        kind, value = params[key_name]
        options = problem.option_values(params)
        if kind in FILE_SOURCES:
            source = load_set(problem, kind, value, options)
        elif kind == EVERY:  # a count search over every instance: no per-instance options
            extra = [k for k in problem.options.fields if k in raw]
            if extra:
                raise ParamError(
                    f"'{extra[0]}' applies to {key_name} solved one by one, not to {{all: ...}}",
                    (*key, extra[0]),
                )
            try:
                problem.exhaustive.check(value)
            except ParamError as exc:
                raise exc.under(*key, key_name, EVERY) from None
            big = over_cap("its largest shape", problem.exhaustive.memory(value))
            if big is not None:
                raise ParamError(big, (*key, key_name, EVERY))
        else:  # generated: each group's shape must fit a worker's memory
            groups = problem.points(params, problem.instances.table.name)
            big = too_big(problem, problem.instances.shape(groups), options)
            if big is not None:  # the first group over the cap, as one by one would find
                raise ParamError(big[1], (*key, key_name, GENERATE))
    return Job(name, problem, params, source=source)


def given_job(
    problem: InstanceProblem, name: str, table, origin: str, digest: str, options: Mapping
) -> Job:
    """A job of a set handed over whole, as a table (``judge``'s stdin, the Python API's
    instances): its options checked as a job's are, its rows checked, costed and keyed by
    ``digest`` as a file's set is (:func:`make_job`'s path for ``{ingest: FILE}``)."""
    checked = problem.options.check(options or {}, ())
    source = set_from_table(problem, table, origin, digest, checked)
    return Job(name, problem, {**checked, problem.instances.key: (GIVEN, None)}, source=source)


def _check_name(raw: Mapping) -> str:
    """A job mapping's ``name``, checked (key paths relative to the job)."""
    if "name" not in raw:
        raise ParamError("missing key 'name'")
    name = raw["name"]
    if isinstance(name, str) and name.endswith(".parquet"):
        raise ParamError(
            "a job name may not end in .parquet (its folder would look like a "
            "table to Parquet readers)",
            ("name",),
        )
    return JOB_NAME.check(name, ("name",))


def _dask_tls(name: str) -> str | None:
    """Dask's own ``distributed.comm.tls.<name>`` setting (None if unset)."""
    import dask

    return dask.config.get(f"distributed.comm.tls.{name}", None)


def check_security(kind: str, options: dict, key: tuple, address: str | None = None) -> None:
    """The rules of who may connect, for a cluster that is not local (ParamError otherwise):

    - a ``tcp://`` scheduler elsewhere is plain text, which anyone who reaches it can use to
      run code as you: it needs an explicit ``security: none``;
    - a ``tls://`` scheduler needs a CA file, a certificate and a key: all three keys, or none
      of them and Dask's own ``distributed.comm.tls`` settings; the message names what is
      missing.
    """
    security = options["security"]
    given = {name: options.get(name) for name, _ in TLS_FILES}
    if any(given.values()) and not all(given.values()):
        missing = [name for name, value in given.items() if not value]
        first = next(name for name, value in given.items() if value)
        raise ParamError(
            f"TLS needs tls_ca_file, tls_cert and tls_key together: {', '.join(missing)} missing",
            (*key, first),
        )
    if address is None:
        return
    scheme = address.split("://")[0]
    if scheme == "tcp" and security != "none":
        raise ParamError(
            f"{address} is plain TCP: anyone who reaches that scheduler can run "
            "code as you. Use a tls:// address with tls_ca_file, tls_cert and "
            "tls_key, or accept plain TCP with security: none",
            (*key, "address"),
        )
    if scheme == "tls":
        if security == "none":
            raise ParamError(f"{address} is a TLS address but security is none", (*key, "security"))
        if not all(given.values()):
            missing = [name for name, dask_name in TLS_FILES if not _dask_tls(dask_name)]
            if missing:
                raise ParamError(
                    f"a tls:// address needs tls_ca_file, tls_cert and tls_key (config keys, "
                    f"or --tls-ca-file, --tls-cert, --tls-key), or Dask's distributed.comm.tls"
                    f" settings: {', '.join(missing)} not set",
                    (*key, "address"),
                )


def cluster_spec(raw: Any, ctx: Context, key: tuple = ("cluster",)) -> ClusterSpec:
    """The ``cluster:`` mapping, checked for its kind; :class:`ParamError` with key paths."""
    if raw is None:
        return ClusterSpec()
    if not isinstance(raw, Mapping):
        raise ParamError("expected a mapping like {kind: local, workers: 2}", key)
    kind = CLUSTER_KIND.validator.check(raw.get("kind", CLUSTER_KIND.default), (*key, "kind"))
    options = CLUSTER_KINDS[kind].check({k: v for k, v in raw.items() if k != "kind"}, key, ctx)
    if kind in BATCH_KINDS and "log_directory" not in options:
        default = SLURM_LOG_DIRECTORY if kind == "slurm" else BATCH_LOG_DIRECTORY
        options["log_directory"] = FilePath().check(default, key, ctx)
    if kind in ("address", "scheduler-file"):
        check_security(kind, options, key, options.get("address"))
    return ClusterSpec(kind, options)


def load_config(path: str | Path, select: tuple[str, ...] = ()) -> Config:
    """Read and check a config file, and read the sets of its jobs (only of ``select``ed
    jobs when given); :class:`InputError` names the file and line at fault."""
    path = str(path)
    return _config(_Lines(_read_text(path), path), path, str(Path(path).absolute().parent), select)


def config_from_mapping(
    raw: Mapping, select: tuple[str, ...] = (), base: str | Path | None = None
) -> Config:
    """A config given as a mapping of the YAML's shape, checked as a file's is; its relative
    paths are relative to ``base`` (default: the working folder), as those of a config file
    there would be.  Errors name ``<config>`` and the line of the mapping written as YAML."""
    try:
        text = yaml.safe_dump(_plain_mapping(raw), sort_keys=False)
    except yaml.YAMLError as exc:
        raise InputError(f"cannot be written as YAML: {exc}", "<config>") from None
    return _config(
        _Lines(text, "<config>"), "<config>", str(Path(base or Path.cwd()).absolute()), select
    )


def _plain_mapping(value: Any) -> Any:
    """Mappings, lists and tuples made plain dicts and lists (what YAML can write)."""
    if isinstance(value, Mapping):
        return {k: _plain_mapping(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain_mapping(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def _config(lines: _Lines, path: str, base: str, select: tuple[str, ...]) -> Config:
    """The config read into ``lines``, checked; ``base``: the folder its paths are under.

    The cluster and each job are checked with key paths relative to themselves, as their
    messages name keys after their label (``jobs[0] (q): 'n': ...``); the line is that of the
    whole path, the error put :meth:`~ParamError.under` the part's own key."""
    raw = lines.data
    ctx = Context(base)

    def fail(exc: ParamError, label: str = "", *under: str | int) -> InputError:
        return InputError(f"{label}{exc}", path, lines.line(exc.under(*under).key))

    if raw is None:
        raise InputError(f"empty config: expected {TOP.what}", path)
    if not isinstance(raw, Mapping):
        shown = {list: "a list", str: "a string"}.get(type(raw), repr(raw))
        raise InputError(f"expected {TOP.what}, not {shown}", path, lines.line(()))
    try:
        top = TOP.check(raw, ())
        jobs_raw = raw["jobs"]
    except ParamError as exc:
        raise fail(exc) from None
    try:
        cluster = cluster_spec(raw.get("cluster"), ctx, ())
    except ParamError as exc:
        raise fail(exc, f"{_cluster_label(raw.get('cluster'))}: ", "cluster") from None
    jobs: list[Job] = []
    seen: dict[str, int] = {}
    for i, job_raw in enumerate(jobs_raw):
        label = _job_label(i, job_raw)
        try:
            if not isinstance(job_raw, Mapping):
                raise ParamError("expected a mapping with 'name' and 'problem'")
            name = _check_name(job_raw)
            if "problem" not in job_raw:
                raise ParamError("missing key 'problem'")
            if name in seen:
                raise ParamError(
                    f"duplicate job name '{name}' (also jobs[{seen[name]}])", ("name",)
                )
            seen[name] = i
            try:
                problem = solvers.get(job_raw["problem"])
            except ParamError as exc:
                raise exc.under("problem") from None
            own = {k: v for k, v in job_raw.items() if k not in JOB_KEYS}
            verify = (
                VERIFY.validator.check(job_raw["verify"], ("verify",), ctx)
                if "verify" in job_raw
                else None
            )
            if select and name not in select:
                problem.check_params(own, (), ctx)
                job = Job(name, problem, {})
            else:
                job = make_job(problem, name, own, ctx)
            job.verify = verify
        except ParamError as exc:
            raise fail(exc, f"{label}: ", "jobs", i) from None
        except InputError as exc:  # a set file: at a line of its own, or named at the job's
            if exc.line is not None or problem.instances is None:
                raise
            where = (problem.instances.key, next(iter(own[problem.instances.key])))
            raise InputError(
                f"{label}: '{key_text(where)}': {exc}", path, lines.line(("jobs", i, *where))
            ) from None
        jobs.append(job)
    output = Path(ctx.base) / Path(top["output"]).expanduser()  # ~ as for sets; TOP's default
    state = state_folder(
        output, top.get("state") and str(Path(ctx.base) / Path(top["state"]).expanduser())
    )
    return Config(output, state, cluster, jobs)


def _cluster_label(raw: Any) -> str:
    """``cluster (kind slurm)`` when the kind is known, else ``cluster``."""
    kind = raw.get("kind", CLUSTER_KIND.default) if isinstance(raw, Mapping) else None
    return (
        f"cluster (kind {kind})" if isinstance(kind, str) and kind in CLUSTER_KINDS else "cluster"
    )


def verify_share(job: Job, spec: ClusterSpec, override: float | None = None) -> float:
    """The share of ``job``'s units verified on a second worker: the command line's, the
    job's ``verify:``, or the cluster kind's default (:data:`VERIFY_DEFAULTS`)."""
    if override is not None:
        return float(override)
    if job.verify is not None:
        return job.verify
    return VERIFY_DEFAULTS.get(spec.kind, VERIFY_OFF_HOST)


def task_seconds(spec: ClusterSpec, override: float | None = None) -> float:
    """The target task duration: the command line's (or the API's, checked here in the range
    of :data:`TASK_SECONDS`), the cluster's, or the kind's default."""
    if override is not None:
        try:
            return TASK_SECONDS.validator.check(override, ("task_seconds",))
        except ParamError as exc:
            raise InputError(str(exc)) from None
    if "task_seconds" in spec.options:
        return float(spec.options["task_seconds"])
    return TASK_SECONDS_DEFAULTS.get(spec.kind, TASK_SECONDS_OFF_HOST)


def scheduler_spec(
    scheduler: str | None,
    scheduler_file: str | None,
    security: str | None = None,
    tls: dict | None = None,
) -> ClusterSpec | None:
    """The cluster of ``--scheduler``/``--scheduler-file`` and the security flags, checked as
    a config's are (None when neither option is given); :class:`InputError` otherwise."""
    if not scheduler and not scheduler_file:
        return None
    raw: dict = {k: v for k, v in (tls or {}).items() if v}
    if security:
        raw["security"] = security
    if scheduler:
        raw.update(kind="address", address=scheduler)
    else:
        raw.update(kind="scheduler-file", path=scheduler_file)
    try:
        return cluster_spec(raw, Context(str(Path.cwd())))
    except ParamError as exc:
        flag = "--scheduler" if scheduler else "--scheduler-file"
        raise InputError(f"{flag}: {exc.message}") from None

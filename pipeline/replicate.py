"""Replicated verification: a sample of a job's records computed again on another worker.

A worker that answers can still answer wrongly: bad memory, an overclocked machine, other code
than it says.  Its record looks exact (the checksum is made where the record was computed), so
before a job is published a deterministic share of its records (``verify: FRACTION``) is
computed again on a different worker, on a different host where there is one, and the two are
compared by their *answer*: the rows' digest less the columns a problem marks as measured
(times, :attr:`solvers.contract.Table.measured`).

- **The sample** depends on the record alone: a record ``(point, lo, hi)`` is chosen when a
  hash of it falls under the share, and each point's lowest-hashing record is always chosen, so
  every point is sampled.  A rerun chooses the same records; those verified before (the
  ``checks`` table of the store, by record checksum) are not computed again.
- **A disagreement** is decided by a third worker (one that gave no answer yet): the answer two
  workers agree on wins.  A worker whose answer lost is named (in the log and in
  ``runs.parquet``), gets no more tasks in this run (:attr:`run.DaskRunner.banned`), and every
  record it computed in this run is dropped from the store, so its units are computed again
  elsewhere before anything is published.  Nothing it computed alone is published.
- Where the stored record lost, the winning outcome replaces it.  Where no two workers agree,
  or no worker is left to decide, the job fails and publishes nothing.

With one worker (or in the driver) a record is computed again by the same worker, which
catches only faults that do not repeat; this is said once in the log.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import JobError
from .merge import chain
from .plan import JobPlan, PointPlan, Task
from .progress import Progress, log, warn
from .run import Bundle, BundleSource, Runner, RunStats, refusal
from .store import Record, Store
from .tables import from_payload
from .work import Outcome, answer_digest

__all__ = ["verify_job", "sampled", "share_key", "MAX_ANSWERS"]

MAX_ANSWERS = 4  # answers of one record from distinct workers before the job fails
MAX_MISPLACED = 3  # outcomes of one check that ran on a worker it had to avoid, then it fails
_SALT = b"boardsweep.verify\0"


def share_key(point_id: str, lo: int, hi: int) -> float:
    """The record's place in ``[0, 1)``: it is sampled when this is under the share."""
    digest = hashlib.sha256(_SALT + f"{point_id}\0{lo}\0{hi}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / float(1 << 64)


def sampled(records: list[Record], share: float) -> list[Record]:
    """The records of one point chosen at ``share``: those whose key is under it, and the
    lowest-keyed one whatever the share (so every point is checked); none at share 0."""
    if share <= 0 or not records:
        return []
    keys = [share_key(r.point, r.lo, r.hi) for r in records]
    least = min(range(len(records)), key=keys.__getitem__)
    return [
        r for i, (r, k) in enumerate(zip(records, keys, strict=True)) if k < share or i == least
    ]


@dataclass
class _Check:
    """One sampled record being verified: the answers so far, by worker."""

    point: PointPlan
    record: Record
    answers: dict[str, str] = field(default_factory=dict)  # worker -> answer
    outcomes: dict[str, Outcome] = field(default_factory=dict)  # answer -> an outcome
    misplaced: int = 0

    def winner(self) -> str | None:
        """The answer two workers agree on, if any."""
        votes: dict[str, int] = {}
        for answer in self.answers.values():
            votes[answer] = votes.get(answer, 0) + 1
        best = max(votes, key=votes.__getitem__, default=None)
        return best if best is not None and votes[best] >= 2 else None


class _Queue(BundleSource):
    """Bundles of checks, one check a bundle, each avoiding the workers that answered it."""

    def __init__(self, plan: JobPlan, checks: list[_Check], same: bool):
        self.plan, self.same = plan, same
        self.todo = list(checks)
        self.bundles: dict[int, _Check] = {}
        self.ids = itertools.count()

    def next(self) -> Bundle | None:
        """The next check's bundle, or None."""
        if not self.todo:
            return None
        check = self.todo.pop()
        task = Task(check.point, check.record.lo, check.record.hi, _seconds(check))
        job = self.plan.job
        rows = job.rows(task.lo, task.hi) if job.source is not None else None
        avoid = frozenset() if self.same else frozenset(w for w in check.answers if w)
        bundle = Bundle(
            next(self.ids), job.problem.name, self.plan.version, [task], [rows], avoid=avoid
        )
        self.bundles[bundle.id] = check
        return bundle


def _seconds(check: _Check) -> float:
    return check.point.seconds(check.record.lo, check.record.hi)


def _stored_answer(record: Record, measured: tuple[str, ...], payload: bytes | None) -> str | None:
    """The answer of a stored record: its content digest, or (for a table with measured
    columns) the digest of its payload less them; None when neither is there."""
    if not measured:
        return record.content
    if payload is None:
        return None
    return answer_digest(from_payload(payload), measured)


def verify_job(
    plan: JobPlan, open_runner: Callable[[], Runner], store: Store, share: float, stats: RunStats
) -> set[str]:
    """Verify the sample of ``plan``'s records at ``share`` (see the module) on the runner
    ``open_runner()`` gives (asked for only if a record needs it); return the workers found
    computing wrongly, whose records of this run (``stats.origins``) are dropped from the
    store and who are banned from the runner.  :class:`JobError` when a record cannot be
    decided."""
    job = plan.job
    checks = _sample(plan, store, share, stats)
    if not checks:
        return set()
    runner = open_runner()
    workers = runner.workers() if hasattr(runner, "workers") else {}
    same = len(set(workers) - getattr(runner, "banned", set())) < 2
    if same:
        warn(
            f"{job.name}: verify {share:g}: fewer than two workers, so each sampled record is "
            "computed again on the same one, which catches only faults that do not repeat"
        )
    seconds = sum(_seconds(c) for c in checks)
    log(
        f"{job.name}: verifying {len(checks)} records (about {seconds:.3g} CPU-s) on a second "
        "worker"
    )
    progress = Progress(f"{job.name} verify", seconds, len(checks))
    settled: list[tuple[str, str, int, str]] = []
    losers: dict[str, int] = {}
    try:
        pending = checks
        while pending:
            queue = _Queue(plan, pending, same)
            pending = []
            for batch in runner(queue):
                for bundle, outcomes, error in batch:
                    check = queue.bundles.pop(bundle.id)
                    again = _take(
                        check, outcomes, error, bundle, same, getattr(runner, "banned", set())
                    )
                    if again:
                        pending.append(check)
                        continue
                    progress.advance(_seconds(check), ok=True)
                    settled.append(_settle(check, store, job.name, losers, stats))
                store.commit()
    finally:
        progress.close()
    store.check(job.name, settled)
    stats.verified += len(settled)
    return _ban(losers, plan, runner, store, stats, workers)


def _sample(plan: JobPlan, store: Store, share: float, stats: RunStats) -> list[_Check]:
    """The sampled records not verified yet, each with its stored answer when known."""
    job = plan.job
    checks = []
    for point in plan.points:
        measured = job.problem.table(point.table).measured
        records, _ = chain(store, job.name, point.table, point)
        done = store.checked(job.name, point.table, point.point_id)
        for record in sampled(records, share):
            if done.get(record.lo) == record.checksum:
                continue
            check = _Check(point, record)
            payload = None
            if measured:
                full = store.record(job.name, point.table, point.point_id, record.lo)
                payload = full.payload if full is not None else None
            answer = _stored_answer(record, measured, payload)
            if answer is not None:
                origin = stats.origins.get((point.table, point.point_id, record.lo), "")
                check.answers[origin] = answer
            checks.append(check)
    return checks


def _take(
    check: _Check,
    outcomes: list[Outcome] | None,
    error: BaseException | None,
    bundle: Bundle,
    same: bool,
    banned: set[str],
) -> bool:
    """Add a check's new answer; whether it needs another."""
    refused = error is None and refusal(outcomes, banned)  # its worker runs other code
    if not refused and (error is not None or not outcomes or outcomes[0].error is not None):
        why = error if error is not None else (outcomes[0].error if outcomes else "no outcome")
        raise JobError(
            f"job verification: {check.point.point.label} units "
            f"{check.record.lo}..{check.record.hi - 1} failed when computed again: "
            f"{why}"
        )
    outcome = outcomes[0]
    worker = outcome.worker
    if (
        refused
        or worker in banned
        or (not same and worker in bundle.avoid)
        or (not same and worker in check.answers)
    ):
        check.misplaced += 1
        if check.misplaced > MAX_MISPLACED:
            raise JobError(
                f"job verification: {check.point.point.label} units "
                f"{check.record.lo}..{check.record.hi - 1}: no other worker is "
                "left to compute it again; nothing is published"
            )
        return True
    key = worker if worker not in check.answers else f"{worker}#{len(check.answers)}"
    check.answers[key] = outcome.answer or ""
    check.outcomes.setdefault(outcome.answer or "", outcome)
    if check.winner() is not None:
        return False
    if len(check.answers) >= MAX_ANSWERS:
        raise JobError(
            f"job verification: {check.point.point.label} units "
            f"{check.record.lo}..{check.record.hi - 1}: {len(check.answers)} "
            "workers gave no two equal answers; nothing is published"
        )
    return True


def _settle(
    check: _Check, store: Store, job: str, losers: dict[str, int], stats: RunStats
) -> tuple[str, str, int, str]:
    """A decided check: count the workers that lost, replace the record if it lost; return
    the ``checks`` entry of the record that now stands."""
    winner = check.winner()
    for worker, answer in check.answers.items():
        if answer != winner and worker:
            name = worker.split("#")[0]
            losers[name] = losers.get(name, 0) + 1
    record = check.record
    key = (record.table, record.point, record.lo)
    stored = next((a for w, a in check.answers.items() if w == stats.origins.get(key, "")), None)
    if stored == winner:
        return record.table, record.point, record.lo, record.checksum
    outcome = check.outcomes[winner]
    store.add(
        job,
        Record(
            record.table,
            record.point,
            record.lo,
            record.hi,
            outcome.rows,
            outcome.cpu,
            outcome.checksum,
            record.version,
            outcome.payload,
            outcome.content,
        ),
    )
    stats.origins[key] = outcome.worker
    return record.table, record.point, record.lo, outcome.checksum


def _ban(
    losers: dict[str, int],
    plan: JobPlan,
    runner: Runner,
    store: Store,
    stats: RunStats,
    workers: dict[str, str],
) -> set[str]:
    """Name, ban and undo the workers that lost a check."""
    found = set()
    for worker, lost in sorted(losers.items()):
        stats.disagreements[worker] = stats.disagreements.get(worker, 0) + lost
        stats.hosts[worker] = workers.get(worker, worker)
        if hasattr(runner, "banned"):
            runner.banned.add(worker)
        mine = [k for k, w in stats.origins.items() if w == worker]
        for table, point, lo in mine:
            store.drop(plan.job.name, table, point, lo)
            del stats.origins[(table, point, lo)]
        warn(
            f"{plan.job.name}: worker {worker} (host {stats.hosts[worker]}) computed {lost} "
            f"checked record{'s' * (lost != 1)} differently from two other workers: it gets "
            f"no more tasks in this run, and the {len(mine)} record"
            f"{'s' * (len(mine) != 1)} it computed are computed again elsewhere"
        )
        found.add(worker)
    return found

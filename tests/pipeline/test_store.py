"""The result store: records committed in batches, ranges, corruption, compaction."""

from __future__ import annotations

import sqlite3

from boardsweep.pipeline.store import Placement, Record, Store, point_id, record_checksum


def _record(
    point: str, lo: int, hi: int, payload: bytes = b"x", content: str | None = "digest"
) -> Record:
    return Record(
        "t",
        point,
        lo,
        hi,
        1,
        0.1,
        record_checksum("p", "v", "t", point, lo, hi, payload),
        "v",
        payload,
        content,
    )


def test_ranges_merge_where_they_touch_and_survive_reopening(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    for lo, hi in [(0, 3), (3, 5), (9, 12), (5, 6)]:
        store.add("j", _record("a", lo, hi))
    store.close()
    again = Store(tmp_path / "s.sqlite")
    assert again.ranges("j", "t", "a") == [(0, 6), (9, 12)]
    assert again.ranges("j", "t", "b") == []
    assert again.ranges("other", "t", "a") == []


def test_uncommitted_records_are_committed_at_close(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.add("j", _record("a", 0, 1))
    store.close()
    rows = sqlite3.connect(tmp_path / "s.sqlite").execute("SELECT count(*) FROM records")
    assert rows.fetchone()[0] == 1


def test_a_store_that_is_not_a_database_is_moved_aside_and_started_again(tmp_path):
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    store = Store(path)
    assert store.ranges("j", "t", "a") == []
    assert list(tmp_path.glob("s.sqlite.corrupt-*"))


def test_compaction_drops_only_placed_payloads_and_other_generations(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    for lo in range(4):
        store.add("j", _record("a", lo, lo + 1, bytes(10_000)))
    store.commit()
    store.place("j", 1, [Placement("t", "a", 0, 0), Placement("t", "a", 1, 1)])
    store.place("j", 2, [Placement("t", "a", 2, 0)])
    store.compact("j", 2, ["t"])
    assert [store.has_payload("j", "t", "a", lo) for lo in range(4)] == [True, True, False, True]
    assert store.placement("j", 1, "t", "a", 0) is None
    assert store.placement("j", 2, "t", "a", 2) == 0
    store.add("j", _record("a", 9, 10, content=None))  # nothing but its payload checks its rows
    store.commit()
    store.place("j", 3, [Placement("t", "a", 9, 0)])
    store.compact("j", 3, ["t"])
    assert store.has_payload("j", "t", "a", 9)


def test_point_ids_depend_on_problem_version_and_params():
    assert point_id("p", "v1", "{}") != point_id("p", "v2", "{}")
    assert point_id("p", "v1", "{}") != point_id("q", "v1", "{}")
    assert point_id("p", "v1", '{"n":1}') == point_id("p", "v1", '{"n":1}')


def test_checksums_cover_every_key_field_and_the_payload():
    base = record_checksum("p", "v", "t", "a", 0, 5, b"rows")
    for other in [
        ("q", "v", "t", "a", 0, 5, b"rows"),
        ("p", "w", "t", "a", 0, 5, b"rows"),
        ("p", "v", "u", "a", 0, 5, b"rows"),
        ("p", "v", "t", "b", 0, 5, b"rows"),
        ("p", "v", "t", "a", 1, 5, b"rows"),
        ("p", "v", "t", "a", 0, 6, b"rows"),
        ("p", "v", "t", "a", 0, 5, b"rowz"),
    ]:
        assert record_checksum(*other) != base


class _InterruptedAfterBegin:
    """A connection that raises KeyboardInterrupt just after its first BEGIN has run, as a
    Ctrl-C arriving while SQLite starts a transaction does."""

    def __init__(self, db: sqlite3.Connection):
        self.db, self.fired = db, False

    def execute(self, sql, *args):
        result = self.db.execute(sql, *args)
        if sql.startswith("BEGIN") and not self.fired:
            self.fired = True
            raise KeyboardInterrupt
        return result

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_an_interrupted_commit_leaves_no_open_transaction_and_the_next_one_keeps_all(tmp_path):
    """Ctrl-C during a commit: the unwinding run's last commit still writes every record
    (no "cannot start a transaction within a transaction" traceback)."""
    store = Store(tmp_path / "s.sqlite")
    real = store.db
    store.db = _InterruptedAfterBegin(real)
    store._pending.clear()
    store.add("j", _record("a", 0, 1))
    try:
        store.commit()
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt was lost")
    assert store.db.fired and not real.in_transaction
    store.commit()  # what `execute` does on its way out
    store.db = real
    store.close()
    rows = sqlite3.connect(tmp_path / "s.sqlite").execute("SELECT count(*) FROM records")
    assert rows.fetchone()[0] == 1

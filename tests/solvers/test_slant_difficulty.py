"""Slant difficulty: Tatham's levels, the deduction engine of each, and graded generation.

Easy puzzles are solved by the easy deductions alone, hard puzzles need the hard ones (the
easy ones stall) and never a guess; both agree with the search kernel's unique solution.
Grades of puzzles from Tatham's own generator, as his solver gave them, are fixed below; with
``BOARDSWEEP_TATHAM_SLANT`` naming a build of his standalone solver (``slant.c`` with
``-DSTANDALONE_SOLVER``) generated puzzles are also graded by it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.schema import ParamError
from boardsweep.solvers.slant import levels
from boardsweep.solvers.slant.format import game_id, read_game_id
from boardsweep.solvers.slant.levels import EASY, HARD, deduce, make_scratch
from boardsweep.solvers.slant.tables import batch_to_table, table_to_batch
from tests.conftest import boardsweep

# (game ID from Tatham's generator or elsewhere, his solver's grade: `slantsolver -g ID`)
TATHAM_GRADED = [
    ("5x5:01a0a112b2a1223f1a0a22d2b1", "easy"),
    ("8x8:1d1f23a4c1a1d0a113a3b2a3121a2b1e12a023a2b12b2b3a2b0b2a0a1", "easy"),
    (
        "12x10:c1b0a2b1b42a3d123d2a222a3d1b2b1b2c222212a32a3b3a1b1b2a22d3a122b3b12a11a31c21c22a11"
        "3a3a1a2a1e4b11e11d",
        "easy",
    ),
    ("5x5:c1c24a21c22a12131b21a3g", "hard"),
    ("5x5:d1a12a22b2a21b232c23a1g", "hard"),
    ("8x8:1b11f1c3111b3b32a1a33b22b1b3a12b21a32a1a1b1a2a2b12b2b1d1b1a", "hard"),
    (
        "12x10:f1c11b31a211a12e11a3a21a21a12b2a13a21c32c3a1b2f212b31a1a2b2g121a1a1a1a21b322a11a2"
        "13e22b2a3221b1g11a",
        "hard",
    ),
    ("4x4:01a1b2b2b3a10b2b1c", "harder"),  # unique, but needs a guess
    ("4x4:a1c1b4b1g201a2a", "harder"),
    ("2x2:i", "harder"),  # no clue: ambiguous
    ("3x9:0a2012d2b2111a1a024a221113a22c01b", "impossible"),
    ("2x7:1b03b112a113012a1b01a", "impossible"),
]

SIZES = [(5, 5), (4, 7), (8, 8), (2, 2), (3, 2)]  # (rows, cols)


def clue_array(clues: str) -> np.ndarray:
    return np.array([-1 if ch == "." else int(ch) for ch in clues], dtype=np.int8)


def puzzles(batch: dict):
    """(rows, cols, clues) of each puzzle of a batch."""
    for j in range(len(batch["rows"])):
        a, b = batch["offsets"][j], batch["offsets"][j + 1]
        yield int(batch["rows"][j]), int(batch["cols"][j]), batch["clues"][a:b]


@pytest.fixture(scope="module")
def graded() -> dict[str, dict]:
    """Generated puzzles of each level, several sizes, in one batch per level."""
    out = {}
    for level in levels.LEVELS:
        parts = [
            batch_to_table(slant.generate(c, 6, seed=11, rows=r, difficulty=level))
            for r, c in SIZES
        ]
        out[level] = table_to_batch(pa.concat_tables(parts))
    return out


# ------------------------------------------------------------------------------ game IDs


def test_game_ids_round_trip():
    rows, cols, clues = read_game_id("5x4:g3211b1a22b2122d1b")
    assert (rows, cols, len(clues)) == (4, 5, 30)
    assert clues.startswith(".......3211..1.22")
    assert game_id(rows, cols, clues) == "5x4:g3211b1a22b2122d1b"
    long = "." * 30 + "1" + "." * 5  # a run past 26 takes two letters
    assert game_id(5, 5, long) == "5x5:zd1e"
    assert read_game_id("5x5:zd1e") == (5, 5, long)
    assert read_game_id("3dh:1o") == (3, 3, "1" + "." * 15)  # "o": a run of 15
    for bad in ("5x5:zz", "5x5", "5x5:1x"):
        with pytest.raises(ValueError):
            read_game_id(bad)
    with pytest.raises(ValueError):
        game_id(1, 1, "12")


# ------------------------------------------------------------------------------ the engine


@pytest.mark.parametrize(("gid", "grade"), TATHAM_GRADED)
def test_grades_of_tathams_solver(gid, grade):
    rows, cols, clues = read_game_id(gid)
    s = make_scratch((rows + 1) * (cols + 1))
    assert levels.GRADES[levels.grade(rows, cols, clue_array(clues), s)] == grade


def test_solved_grid_is_the_kernels_unique_solution():
    for gid, grade in TATHAM_GRADED:
        rows, cols, clues = read_game_id(gid)
        s = make_scratch((rows + 1) * (cols + 1))
        found = deduce(rows, cols, clue_array(clues), HARD, s)
        verdict = slant.solve_batch(slant.pack([clue_array(clues).reshape(rows + 1, cols + 1)]))
        if grade in ("easy", "hard"):
            assert found == 1 and verdict["status"][0] == slant.UNIQUE
            assert np.array_equal(s.ws[0, : rows * cols], verdict["solution"])
        elif grade == "impossible":
            assert found == 0 and verdict["status"][0] == slant.NONE
        else:
            assert found == 2


def test_grade_batch():
    grids = [
        clue_array(read_game_id(g)[2]).reshape(read_game_id(g)[0] + 1, -1) for g, _ in TATHAM_GRADED
    ]
    got = levels.grade_batch(slant.pack(grids))
    assert [levels.GRADES[g] for g in got] == [grade for _, grade in TATHAM_GRADED]
    assert levels.grade_batch(slant.pack([])).shape == (0,)


# ------------------------------------------------------------------------------ generation


def assert_solved_at(batch, level: int, stalling: tuple[int, ...] = ()) -> None:
    """Every puzzle of ``batch`` has one solution; the deductions of each level of
    ``stalling`` stall on it (2), then those of ``level`` finish it (1) as the solver does,
    and ``level`` is the grade of every puzzle."""
    verdict = slant.solve_batch(batch)
    assert (verdict["status"] == slant.UNIQUE).all()
    at = 0
    for rows, cols, clues in puzzles(batch):
        s = make_scratch((rows + 1) * (cols + 1))
        for lower in stalling:
            assert deduce(rows, cols, clues, lower, s) == 2
        assert deduce(rows, cols, clues, level, s) == 1
        assert np.array_equal(s.ws[0, : rows * cols], verdict["solution"][at : at + rows * cols])
        at += rows * cols
    assert set(levels.grade_batch(batch)) == {level}


def test_easy_puzzles_fall_to_the_easy_deductions(graded):
    assert_solved_at(graded["easy"], EASY)


def test_hard_puzzles_need_the_hard_deductions(graded):
    assert_solved_at(graded["hard"], HARD, stalling=(EASY,))  # the easy rules stall


@pytest.mark.parametrize("level", levels.LEVELS)
def test_every_clue_left_is_needed_at_its_level(graded, level):
    for rows, cols, clues in puzzles(graded[level]):
        s = make_scratch((rows + 1) * (cols + 1))
        clues = clues.copy()
        for p in np.flatnonzero(clues >= 0):
            keep, clues[p] = clues[p], -1
            assert deduce(rows, cols, clues, levels.LEVELS.index(level), s) != 1
            clues[p] = keep


def test_graded_generation_is_reproducible_and_split_independent():
    whole = slant.generate(6, 5, seed=9, rows=4, difficulty="hard")
    parts = [
        slant.generate(6, 2, seed=9, rows=4, difficulty="hard"),
        slant.generate(6, 3, seed=9, rows=4, start=2, difficulty="hard"),
    ]
    assert np.array_equal(whole["clues"], np.concatenate([p["clues"] for p in parts]))
    assert list(whole["puzzle_id"]) == [0, 1, 2, 3, 4]
    easy = slant.generate(6, 5, seed=9, rows=4, difficulty="easy")
    plain = slant.generate(6, 5, seed=9, rows=4)
    assert not np.array_equal(whole["clues"], easy["clues"])
    assert not np.array_equal(easy["clues"], plain["clues"])


def test_no_difficulty_leaves_puzzles_as_they_were():
    # generate(4, 2, seed=1) before difficulty levels existed
    batch = slant.generate(4, 2, seed=1)
    text = "".join("." if v < 0 else str(v) for v in batch["clues"])
    assert text == "1......3.02.2.2...1..2....02.1...2..21...2.3...1.0"


def test_generator_refuses_bad_levels():
    with pytest.raises(ValueError, match="difficulty"):
        slant.generate(5, 1, seed=1, difficulty="medium")
    with pytest.raises(ValueError, match="at least 2"):
        slant.generate(5, 1, seed=1, rows=1, difficulty="hard")
    assert len(slant.generate(5, 2, seed=1, rows=1, difficulty="easy")["rows"]) == 2


# ------------------------------------------------------------------------------ the problem


def test_difficulty_through_the_params():
    P = slant.PROBLEM
    params = P.check_params(
        {"puzzles": {"generate": {"n": [5, 6], "count": 3, "seed": 1, "difficulty": "hard"}}}
    )
    points = P.points(params, "puzzles")
    assert [p.params for p in points] == [
        {"seed": 1, "rows": r, "cols": r, "difficulty": "hard"} for r in (5, 6)
    ]
    assert [p.label for p in points] == ["5x5 hard", "6x6 hard"]
    rows = P.compute(points[0], 1, 3)
    assert rows.column("puzzle_id").to_pylist() == [1, 2]
    expected = slant.generate(5, 2, seed=1, start=1, difficulty="hard")
    assert rows.column("clues").to_pylist() == batch_to_table(expected).column("clues").to_pylist()
    plain = P.check_params({"puzzles": {"generate": {"n": [5], "count": 3, "seed": 1}}})
    assert P.points(plain, "puzzles")[0].params == {"seed": 1, "rows": 5, "cols": 5}
    with pytest.raises(ParamError, match="one of easy, hard") as info:
        P.check_params(
            {"puzzles": {"generate": {"n": 5, "count": 1, "seed": 1, "difficulty": "medium"}}}
        )
    assert info.value.key == ("puzzles", "generate", "difficulty")
    with pytest.raises(ParamError, match="at least 2 rows and columns") as info:
        P.check_params(
            {"puzzles": {"generate": {"n": [1, 5], "count": 1, "seed": 1, "difficulty": "hard"}}}
        )
    assert info.value.key == ("puzzles", "generate", "n")


def test_generate_hard_on_the_command_line(tmp_path):
    out = tmp_path / "hard.parquet"
    made = boardsweep(
        "generate",
        "slant",
        "--n",
        "6",
        "--rows",
        "5",
        "--count",
        "4",
        "--seed",
        "2",
        "--difficulty",
        "hard",
        "-o",
        str(out),
    )
    assert made.returncode == 0, made.stderr
    batch = table_to_batch(pq.read_table(out))
    assert set(levels.grade_batch(batch)) == {HARD}
    assert np.array_equal(
        batch["clues"], slant.generate(6, 4, seed=2, rows=5, difficulty="hard")["clues"]
    )
    bad = boardsweep(
        "generate",
        "slant",
        "--n",
        "6",
        "--count",
        "1",
        "--seed",
        "2",
        "--difficulty",
        "medium",
        "-o",
        str(tmp_path / "x.parquet"),
    )
    assert bad.returncode != 0 and "one of easy, hard" in bad.stderr


# ------------------------------------------------------------------------------ Tatham's own


TATHAM = os.environ.get("BOARDSWEEP_TATHAM_SLANT")
TATHAM_NAMES = {
    "Easy": "easy",
    "Hard": "hard",
    "harder than Hard, or ambiguous": "harder",
    "impossible (no solution exists)": "impossible",
}


def tatham_grade(gid: str) -> str | None:
    """Tatham's solver's grade of a game ID (``slantsolver -g``), in :data:`levels.GRADES`."""
    out = subprocess.run(
        [TATHAM, "-g", gid], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return TATHAM_NAMES.get(out.split("Difficulty rating:", 1)[-1].strip())


@pytest.mark.skipif(
    not TATHAM or not Path(TATHAM).is_file(),
    reason="BOARDSWEEP_TATHAM_SLANT names no build of Tatham's slant solver",
)
def test_tathams_solver_agrees_on_generated_puzzles(graded):
    for level, batch in graded.items():
        for rows, cols, clues in puzzles(batch):
            gid = game_id(rows, cols, "".join("." if v < 0 else str(v) for v in clues))
            assert tatham_grade(gid) == level, gid
    for gid, grade in TATHAM_GRADED:
        assert tatham_grade(gid) == grade, gid

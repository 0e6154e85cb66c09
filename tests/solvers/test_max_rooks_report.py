"""The walled-board report: statistics from maxima and from summaries agree with the boards,
exact curves from a brute-force distribution, figures titled, labelled and narrow."""

from __future__ import annotations

import io
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.contract import Report, count_arrays
from boardsweep.solvers.figures import MAX_HEIGHT, MAX_WIDTH
from boardsweep.solvers.max_rooks.report import report
from boardsweep.solvers.max_rooks.report_data import (
    distributions,
    exact_curves,
    group_statistics,
    histogram_frame,
    max_probabilities,
    summary_of_maxima,
)
from tests.contract_driver import run_in_process
from tests.walled_tables import (
    brute_distribution,
    brute_max,
    maxima_of,
    random_boards,
    summary_of,
)

P = mr.PROBLEM
DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def dist3() -> pa.Table:
    return brute_distribution(3, 3)


def loaders(**tables: pa.Table) -> dict:
    """``{name: load(columns=None)}`` as the pipeline passes published tables."""

    def loader(table):
        return lambda columns=None: table if columns is None else table.select(columns)

    return {name: loader(table) for name, table in tables.items()}


def check_figure(figure) -> None:
    """Titled, every axes with labels that give units, within the size caps, and drawable."""
    from matplotlib.figure import Figure

    assert isinstance(figure, Figure)
    assert figure.get_suptitle() or figure.axes[0].get_title()
    for ax in figure.axes:
        if ax.get_label() == "<colorbar>":
            assert ax.get_ylabel() or ax.get_xlabel()
            continue
        assert "(" in ax.get_xlabel() and "(" in ax.get_ylabel(), ax.get_title()
    width, height = figure.get_size_inches()
    assert width <= MAX_WIDTH and height <= MAX_HEIGHT
    figure.savefig(io.BytesIO(), format="png", dpi=100)


# ----------------------------------------------------------------------------- exact curves


def test_brute_force_agrees_with_the_package_on_small_boards():
    rng = random.Random(5)
    for _ in range(40):
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        walls = rng.getrandbits(rows * cols)
        cells = np.array([walls >> t & 1 for t in range(rows * cols)], dtype=np.uint8)
        board = cells.reshape(rows, cols)
        assert brute_max(walls, rows, cols) == mr.max_rooks_dfs(board).max_rooks


def brute_mean(rows: int, cols: int, p: Fraction) -> Fraction:
    """E[max rooks] at wall probability ``p`` over every pattern, one by one."""
    cells = rows * cols
    return sum(
        brute_max(w, rows, cols) * p ** w.bit_count() * (1 - p) ** (cells - w.bit_count())
        for w in range(2**cells)
    )


def test_exact_curves_of_every_3x3_pattern(dist3):
    ((key, boards),) = distributions(dist3).items()
    assert key == (3, 3) and sum(int(b) for b in boards.flat) == 2**9
    ps = [Fraction(0), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(1)]
    mean, sd = exact_curves(boards, np.array([float(p) for p in ps]))
    assert mean == pytest.approx([float(brute_mean(3, 3, p)) for p in ps], rel=1e-12)
    assert mean[0] == pytest.approx(3) and mean[-1] == pytest.approx(0)  # open board, all walls
    assert sd[0] == pytest.approx(0) and sd[2] > 0
    assert max_probabilities(boards, np.linspace(0, 1, 7)).sum(axis=1) == pytest.approx(np.ones(7))


def test_the_distribution_job_reports_its_exact_numbers(dist3):
    result = report("all3", loaders(distribution=dist3))
    ((title, frame),) = result.tables
    assert "exact" in title and frame["patterns"].tolist() == [512]
    half = Fraction(frame["E[max] at p=1/2"][0])
    assert half == brute_mean(3, 3, Fraction(1, 2))
    assert frame["E[max] at p=0.5"][0] == pytest.approx(float(half), abs=1e-4)
    ((stem, figure),) = result.figures
    assert stem == "exact"
    check_figure(figure)


@pytest.mark.parametrize("mc_size", [(3, 3), (2, 3), (3, 2)])
def test_exact_curves_are_drawn_over_the_monte_carlo_of_the_same_size(dist3, mc_size):
    dist23 = brute_distribution(2, 3)
    maxima = maxima_of(random_boards([mc_size], [0.2, 0.5], 30))
    related = {"all3": loaders(distribution=dist3), "all23": loaders(distribution=dist23)}
    result = report("mc", loaders(maxima=maxima), related)
    figures = dict(result.figures)
    ax = figures["expected_max"].axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(dashed) == 1  # the size's own exact curve (2x3 stands for 3x2 too)
    boards = distributions(dist3 if mc_size == (3, 3) else dist23)
    boards = next(iter(boards.values()))
    x, y = dashed[0].get_xdata(), dashed[0].get_ydata()
    assert x.min() <= 0.2 and x.max() >= 0.5
    assert y == pytest.approx(exact_curves(boards, x)[0] / (mc_size[0] * mc_size[1]))
    # no distribution of this size anywhere: no exact curve
    alone = report(
        "mc", loaders(maxima=maxima), {"other": loaders(distribution=brute_distribution(1, 2))}
    )
    ax = dict(alone.figures)["expected_max"].axes[0]
    assert not [line for line in ax.lines if line.get_linestyle() == "--"]


def test_monte_carlo_means_fall_near_the_exact_mean():
    maxima = maxima_of(random_boards([(3, 3)], [0.3], 400, seed=11))
    stats = group_statistics(summary_of_maxima(maxima))
    exact = float(brute_mean(3, 3, Fraction(3, 10)))
    ((mean, half),) = zip(stats["mean"], stats["ci95"], strict=True)
    assert abs(mean - exact) < 2 * half  # 95% CI half-widths: fails ~1 seed in 20,000


# ----------------------------------------------------------------------------- statistics


def test_group_statistics_equal_the_per_board_ones():
    boards = random_boards([(3, 3), (2, 4)], [0.1, 0.4], 25, seed=3)
    maxima = maxima_of(boards)
    stats = group_statistics(summary_of_maxima(maxima))
    frame = maxima.to_pandas()
    assert len(stats) == 4
    for row in stats.itertuples():
        part = frame[
            (frame["rows"] == row.rows)
            & (frame["cols"] == row.cols)
            & (frame["density"] == row.density)
        ]["max_rooks"].to_numpy(float)
        assert row.boards == len(part) == 25
        assert row.mean == pytest.approx(part.mean())
        assert row.sd == pytest.approx(part.std(ddof=1))
        assert row.ci95 == pytest.approx(1.959964 * part.std(ddof=1) / 5)
        assert row.per_cell == pytest.approx(part.mean() / (row.rows * row.cols))
        assert (row.median, row.max) == (np.sort(part)[12], part.max())
    statuses = frame["count_status"].value_counts()
    assert stats[["counted", "too_wide", "too_large"]].sum().tolist() == [
        statuses.get(s, 0) for s in ("counted", "too_wide", "too_large")
    ]


def test_placements_are_binned_by_floor_log2_exactly():
    maxima = maxima_of(random_boards([(2, 2)], [0.5], 12))
    hist = histogram_frame(summary_of_maxima(maxima))
    bins = hist[hist["statistic"] == "placements_log2"]
    expected: dict[int, int] = {}
    for text in maxima.column("placements_text").to_pylist():
        if text is not None:  # 2**64 - 1 in bin 63, 2**64 in 64: not rounded through a float
            expected[int(text).bit_length() - 1] = expected.get(int(text).bit_length() - 1, 0) + 1
    assert dict(zip(bins["bin"], bins["boards"], strict=True)) == expected
    assert {0, 1, 62, 63, 64, 130} <= set(expected)


def test_a_summary_reports_as_its_boards_do():
    maxima = maxima_of(random_boards([(3, 3), (2, 2)], [0.2, 0.6], 20, seed=9))
    summary = summary_of(maxima)
    keys = ["rows", "cols", "density", "statistic", "bin"]
    binned = histogram_frame(summary_of_maxima(maxima)).sort_values(keys)
    given = histogram_frame(summary).sort_values(keys)
    assert binned.reset_index(drop=True).equals(given.reset_index(drop=True))
    from_boards = report("boards", loaders(maxima=maxima))
    from_summary = report("summary", loaders(summary=summary))
    ((_, a),) = from_boards.tables
    ((_, b),) = from_summary.tables
    assert a.equals(b)
    assert (
        [s for s, _ in from_boards.figures]
        == [s for s, _ in from_summary.figures]
        == ["expected_max", "placements"]
    )
    for _, figure in from_summary.figures:
        check_figure(figure)


def test_boards_without_counts_have_no_placements_figure():
    maxima = maxima_of(random_boards([(3, 3)], [0.2], 10), counted=False)
    result = report("plain", loaders(maxima=maxima))
    assert [s for s, _ in result.figures] == ["expected_max"]
    assert "counted" not in result.tables[0][1]


# ----------------------------------------------------------------------------- real runs, size


def test_report_of_generated_and_given_boards():
    params = P.check_params(
        {
            "boards": {"generate": {"n": [4, 6], "density": [0.1, 0.4], "count": 20, "seed": 1}},
            "counts": True,
        }
    )
    maxima = run_in_process(P, params)["maxima"]
    given = run_in_process(
        P,
        P.check_params({"boards": {"ingest": "b.txt"}}),
        rows=P.seed_format.read((DATA / "max_rooks_sample.txt").read_text()),
    )
    given = given["maxima"]
    result = P.report("walled", loaders(maxima=pa.concat_tables([maxima, given])))
    assert isinstance(result, Report)
    ((title, frame),) = result.tables
    assert "walled" in title and "95% confidence" in title
    assert len(frame) == 4 + 3  # four generated groups, three given sizes
    assert frame["boards"].sum() == 85 and set(frame["density"]) == {"0.1", "0.4", "given"}
    assert frame["counted"].sum() == 80  # the given boards were not counted
    figures = dict(result.figures)
    assert list(figures) == ["expected_max", "placements"]
    for figure in figures.values():
        check_figure(figure)
    ax = figures["expected_max"].axes[0]
    assert "3 groups of given boards" in ax.get_title()
    only_given = P.report("seed", loaders(maxima=given))
    ((stem, figure),) = only_given.figures
    assert stem == "expected_max" and "given boards" in figure.axes[0].get_title()
    check_figure(figure)


def test_1083_groups_make_readable_figures():
    sizes = [(n, n) for n in range(4, 61)]
    densities = [round(0.05 * k, 2) for k in range(1, 20)]
    rng = random.Random(2)
    boards = [(r, c, d) for r, c in sizes for d in densities for _ in range(3)]
    n = len(boards)
    texts = [str(rng.getrandbits(r) + 1) for r, _, _ in boards]
    place, place_text = count_arrays([int(t) for t in texts])
    table = pa.table(
        {
            "rows": pa.array([b[0] for b in boards], pa.int32()),
            "cols": pa.array([b[1] for b in boards], pa.int32()),
            "density": pa.array([b[2] for b in boards], pa.float64()),
            "max_rooks": pa.array(
                [max(0, int(r * (1 - d))) - k % 3 % 2 for k, (r, _, d) in enumerate(boards)],
                pa.int32(),
            ),
            "max_placements": place,
            "max_placements_text": place_text,
            "placements": place,
            "placements_text": place_text,
            "count_status": pa.array(["counted"] * n, pa.string()),
        }
    )
    stats = group_statistics(summary_of_maxima(table))
    assert len(stats) == 1083
    result = report("big", loaders(maxima=table))
    figures = dict(result.figures)
    ax, colours = figures["expected_max"].axes  # 57 sizes: a colour bar, not a legend
    assert len(ax.lines) == 57 and [line.get_label() for line in ax.lines][-1] == "60x60"
    assert "board cells" in colours.get_ylabel()
    assert [t.get_text() for t in ax.get_legend().texts] == ["Monte Carlo mean, 95% CI band"]
    for figure in figures.values():
        check_figure(figure)
    assert figures["placements"].axes[0].images  # a heat map over sizes, not 57 lines

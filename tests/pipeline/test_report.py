"""``boardsweep report`` in process: related jobs reach the hooks that take them, the report
folder holds this report's files alone, the page is self-contained and Parquet readers skip
the folder; figures too large or untitled are mended with a warning."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import duckdb
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline import report as reports
from boardsweep.pipeline.report_page import png_size, shows_index
from boardsweep.solvers.figures import MAX_HEIGHT, MAX_WIDTH
from tests.walled_tables import brute_distribution, maxima_of, random_boards


def publish(results: Path, job: str, problem: str, **tables) -> None:
    """A published job as ``run`` leaves it, as far as ``report`` reads it: the tables and a
    manifest naming the problem and the tables."""
    folder = results / job
    (folder / "_boardsweep").mkdir(parents=True)
    for name, table in tables.items():
        pq.write_table(table, folder / f"{name}.parquet")
    (folder / "_boardsweep" / "manifest.json").write_text(
        json.dumps({"problem": problem, "job": job, "tables": {name: {} for name in tables}})
    )


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A Monte Carlo walled-board job and an exhaustive 3x3 one beside it."""
    results = tmp_path_factory.mktemp("report") / "results"
    publish(
        results,
        "mc",
        "max_rooks",
        maxima=maxima_of(random_boards([(3, 3), (4, 4)], [0.2, 0.5], 20)),
    )
    publish(results, "all3", "max_rooks", distribution=brute_distribution(3, 3))
    return results


def hook(name: str, report, **extra):
    return SimpleNamespace(name=name, report=report, **extra)


def test_every_hook_gets_the_related_jobs_of_its_problem():
    seen = {}

    def hook_of(job, tables, related):
        seen[job] = sorted(related)
        return reports.Report()

    jobs = [
        ("a", hook("p", hook_of), {}),
        ("b", hook("p", hook_of), {}),
        ("d", hook("q", hook_of), {}),
        ("e", hook("p", None), {}),
    ]
    assert [job for job, _, _ in reports._built(jobs)] == ["a", "b", "d"]
    assert seen == {"a": ["b", "e"], "b": ["a", "e"], "d": []}


def test_related_exact_curves_reach_the_monte_carlo_figure(results):
    built = {job: report for job, _, report in reports._built(list(reports._jobs(results)))}
    figures = dict(built["mc"].figures)
    dashed = [
        line for line in figures["expected_max"].axes[0].lines if line.get_linestyle() == "--"
    ]
    assert len(dashed) == 1  # 3x3 has its exhaustive job; 4x4 has none
    assert [stem for stem, _ in built["all3"].figures] == ["exact"]


def test_the_folder_holds_this_report_alone_and_readers_skip_it(results):
    folder = results / "_report"
    folder.mkdir(exist_ok=True)
    (folder / "gone-old.png").write_bytes(b"stale")
    out = io.StringIO()
    assert reports.report(results, out) == 2
    assert "== all3: all3: exact E[max rooks]" in out.getvalue()
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert pngs == ["all3-exact.png", "mc-expected_max.png", "mc-placements.png"]
    page = (folder / "report.html").read_text()
    images = re.findall(r'<img [^>]*src="data:image/png;base64,[A-Za-z0-9+/=]+"', page)
    assert len(images) == len(pngs)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<script" not in page and "@import" not in page and "url(" not in page
    for png in folder.glob("*.png"):
        width, height = png_size(png.read_bytes())
        assert 0 < width <= MAX_WIDTH * reports.DPI and 0 < height <= MAX_HEIGHT * reports.DPI
    # Parquet readers over the results folder see the tables, not the report
    files = ds.dataset(results, format="parquet").files
    assert sorted(Path(f).relative_to(results).as_posix() for f in files) == [
        "all3/distribution.parquet",
        "mc/maxima.parquet",
    ]
    rows = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{results}/*/*.parquet', union_by_name=true)"
    ).fetchall()[0][0]
    assert rows == 80 + brute_distribution(3, 3).num_rows


def test_a_figure_too_large_or_untitled_is_mended(caplog):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(649.8, 5.0))  # the 64,980-pixel box plot of issue 13
    figure.add_subplot().plot([0, 1], [0, 1])
    title, data = reports._png("job", "wide", figure)
    assert title == "job: wide" and png_size(data) == (MAX_WIDTH * reports.DPI, 500)
    err = caplog.text
    assert "job: figure wide is 649.8 x 5 inches: shrunk" in err and "has no title" in err


def test_an_index_is_printed_when_it_means_something():
    import pandas as pd

    assert not shows_index(pd.DataFrame({"a": [1, 2]}))
    named = pd.DataFrame({"a": [1, 2]}, index=pd.Index([5, 6], name="n"))
    assert shows_index(named) and "n" in named.to_string(index=shows_index(named))


def test_files_are_written_before_the_tables_are_printed(results):
    class Closed(io.StringIO):  # a reader that went away (boardsweep report ... | head)
        def write(self, text):
            raise BrokenPipeError

    (results / "_report" / "report.html").unlink(missing_ok=True)
    with pytest.raises(BrokenPipeError):
        reports.report(results, Closed())
    assert (results / "_report" / "report.html").is_file()
    assert len(list((results / "_report").glob("*.png"))) == 3


def test_loose_tables_of_several_problems_without_their_main_tables(tmp_path):
    """Files one-shot commands wrote, none of them a problem's main table (N-queens solutions
    alone, Slant puzzles, walled boards): each is reported for what it holds, or not at all,
    and none is a traceback (it was ``KeyError: 'slant'``)."""
    from tests.conftest import boardsweep

    folder = tmp_path / "loose"
    folder.mkdir()
    data = Path(__file__).resolve().parents[2] / "data"
    for args in (
        ("solve", "nqueens", "6", "--solutions", str(folder / "q.parquet")),
        ("ingest", "slant", str(data / "slant_sample.txt"), "-o", str(folder / "p.parquet")),
        (
            "ingest",
            "max_rooks",
            str(data / "max_rooks_sample.txt"),
            "-o",
            str(folder / "b.parquet"),
        ),
    ):
        made = boardsweep(*args)
        assert made.returncode == 0, made.stderr
    done = boardsweep("report", str(folder))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr


def test_a_folder_of_jobs_without_reports_says_so_and_succeeds(tmp_path, toy_problems):
    """Jobs whose problem has no report hook are named as such (exit 0), not taken for a
    folder without results."""
    from tests.conftest import boardsweep

    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\njobs:\n  - {{name: z, problem: noop, units: 3}}\n"
    )
    assert boardsweep("run", str(config), cwd=tmp_path).returncode == 0
    shown = boardsweep("report", str(tmp_path / "out"), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "no report for z (noop): the problem has none" in shown.stderr
    assert shown.stdout == ""

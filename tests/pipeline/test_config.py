"""Config loading: valid files parse; every kind of bad file names the file and line."""

from __future__ import annotations

import pytest
from pipeline.config import load_config

from pipeline.errors import InputError

GOOD = """\
output: out
cluster: {kind: local, workers: 2}
jobs:
  - {name: queens, problem: nqueens, n: "4..8"}
  - name: single
    problem: nqueens
    n: [5, 9]
    solutions: true
"""


def test_good_config_parses(write_config):
    path = write_config(GOOD)
    cfg = load_config(path)
    assert cfg.output == str(path.parent / "out")
    assert cfg.cluster.kind == "local" and cfg.cluster.options == {"workers": 2}
    assert [j.name for j in cfg.jobs] == ["queens", "single"]
    assert cfg.jobs[0].spec == {"n": "4..8"} and cfg.jobs[0].line == 4
    assert cfg.jobs[1].solutions is True and cfg.jobs[1].line == 5


def test_defaults(write_config):
    path = write_config("jobs: [{name: q, problem: nqueens, n: 4}]\n")
    cfg = load_config(path)
    assert cfg.output == str(path.parent / "results") and cfg.cluster.kind == "local"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("jobs: [{name: q, problem: nqueens, n: 4}]\nbogus: 1\n", 2,
         "config: unknown key 'bogus': expected one of cluster, jobs, output"),
        ("jobs:\n  - {name: q, problem: chess, n: 4}\n", 2,
         "jobs[0] (q): unknown problem 'chess': expected one of"),
        ("jobs:\n  - name: q\n    problem: nqueens\n    n: 40\n", 4,
         "jobs[0] (q): 'n' = 40 is out of range: expected 1 <= n <= 32"),
        ("jobs:\n  - name: q\n    problem: nqueens\n    n: 0\n", 4, "'n' = 0 is out of range"),
        ("jobs:\n  - name: q\n    problem: nqueens\n    n: \"8..4\"\n", 4, "is empty"),
        ("jobs:\n  - name: q\n    problem: nqueens\n    n: 4\n    depth: 3\n", 5,
         "jobs[0] (q): unknown key 'depth'"),
        ("jobs:\n  - {name: q, problem: nqueens}\n", 2, "missing key 'n'"),
        ("jobs:\n  - {problem: nqueens, n: 4}\n", 2, "jobs[0]: missing key 'name'"),
        ("jobs:\n  - {name: 'a b', problem: nqueens, n: 4}\n", 2, "must be letters, digits"),
        ("jobs:\n  - {name: q, problem: nqueens, n: 4}\n  - {name: q, problem: nqueens, n: 5}\n",
         3, "duplicate job name 'q'"),
        ("cluster: {kind: cloud}\njobs: [{name: q, problem: nqueens, n: 4}]\n", 1,
         "cluster: unknown kind 'cloud'"),
        ("cluster: {kind: local, workers: 0}\njobs: [{name: q, problem: nqueens, n: 4}]\n", 1,
         "cluster: 'workers' must be a positive integer"),
        ("cluster:\n  kind: local\n  allowed_failures: -1\n"
         "jobs: [{name: q, problem: nqueens, n: 4}]\n", 3,
         "cluster: 'allowed_failures' must be an integer >= 0, not -1"),
        ("cluster: {kind: address}\njobs: [{name: q, problem: nqueens, n: 4}]\n", 1,
         "cluster (kind address): missing key 'address'"),
        ("jobs: [{name: q, problem: nqueens, n: 4}\n", 2, "malformed YAML"),
        ("jobs: []\n", 1, "'jobs' must be a non-empty list"),
        ("- 1\n- 2\n", None, "expected a mapping with 'jobs'"),
    ],
)
def test_bad_config(write_config, text, line, message):
    path = write_config(text)
    with pytest.raises(InputError) as info:
        load_config(path)
    assert message in str(info.value)
    assert info.value.path == str(path)
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: " if line else f"{path}: ")


def test_unreadable_config(tmp_path):
    with pytest.raises(InputError, match="cannot read config: No such file or directory"):
        load_config(tmp_path / "missing.yaml")


def test_paths_are_relative_to_the_config_file(write_config, tmp_path):
    (tmp_path / "boards.txt").write_text("1\n.\n0\n")
    cfg = load_config(write_config(
        "output: res\njobs:\n  - {name: w, problem: max_rooks, boards: {ingest: boards.txt}}\n"))
    assert cfg.output == str(tmp_path / "res")
    assert cfg.jobs[0].spec["boards"]["ingest"] == str(tmp_path / "boards.txt")


@pytest.mark.parametrize(
    ("job", "message"),
    [
        ("{name: w, problem: max_rooks, boards: {ingest: none.txt}}",
         "'boards': ingest file {dir}/none.txt does not exist"),
        ("{name: w, problem: max_rooks, boards: {scan: x}}", "'boards' must be one of"),
        ("{name: w, problem: max_rooks, boards: {generate: {n: 4, count: 3, seed: 1}}}",
         "missing key 'density'"),
        ("{name: w, problem: max_rooks, boards: {generate: {n: 4, density: 2, count: 3, "
         "seed: 1}}}", "'density' = 2 is out of range"),
        ("{name: w, problem: max_rooks, counts: yes please, boards: {ingest: x}}",
         "'counts' must be true or false, not 'yes please'"),
        ("{name: w, problem: max_rooks, countz: true, boards: {generate: {n: 4, density: 0.2, "
         "count: 3, seed: 1}}}", "unknown key 'countz'"),
    ],
)
def test_bad_instance_jobs(write_config, tmp_path, job, message):
    path = write_config(f"jobs:\n  - {job}\n")
    with pytest.raises(InputError) as info:
        load_config(path)
    assert message.format(dir=tmp_path) in str(info.value)
    assert info.value.line == 2

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
    cfg = load_config(write_config(GOOD))
    assert cfg.output == "out"
    assert cfg.cluster.kind == "local" and cfg.cluster.options == {"workers": 2}
    assert [j.name for j in cfg.jobs] == ["queens", "single"]
    assert cfg.jobs[0].spec == {"n": "4..8"} and cfg.jobs[0].line == 4
    assert cfg.jobs[1].solutions is True and cfg.jobs[1].line == 5


def test_defaults(write_config):
    cfg = load_config(write_config("jobs: [{name: q, problem: nqueens, n: 4}]\n"))
    assert cfg.output == "results" and cfg.cluster.kind == "local"


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

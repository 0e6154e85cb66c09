"""The example notebook ``examples/first_steps.ipynb`` executed top to bottom by nbclient in a
real Jupyter kernel running this test's interpreter, in a temporary working folder: every cell
must run, and its counts, published results and saved figure are checked."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

from tests.conftest import ROOT

NOTEBOOK = ROOT / "examples" / "first_steps.ipynb"
PNG = b"\x89PNG\r\n\x1a\n"
WHO = "import sys; print('kernel python:', sys.executable)"  # appended, not in the file


def pinned_kernelspec(folder: Path) -> Path:
    """Install a ``python3`` kernelspec under ``folder`` (a JUPYTER_PATH entry) whose command
    is this interpreter, so the kernel sees the same packages as the test; its folder."""
    kernel = folder / "kernels" / "python3"
    kernel.mkdir(parents=True)
    (kernel / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (boardsweep tests)",
                "language": "python",
            }
        )
    )
    return kernel


def stdout(cells) -> str:
    """Everything the code cells ``cells`` printed to stdout, in order."""
    return "".join(
        out.get("text", "")
        for cell in cells
        for out in cell.get("outputs", ())
        if out.output_type == "stream" and out.name == "stdout"
    )


def test_first_steps_notebook_runs_in_a_real_kernel(tmp_path, monkeypatch):
    """Run the notebook as Jupyter would and check what it computed, printed and drew."""
    kernel = pinned_kernelspec(tmp_path / "jupyter")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))  # searched before the others
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))  # no profile from $HOME
    monkeypatch.setenv("NO_COLOR", "1")
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert Path(spec.resource_dir) == kernel and spec.argv[0] == sys.executable

    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code), (
        "the notebook is committed with its outputs cleared"
    )
    assert any(cell.cell_type == "markdown" for cell in nb.cells)
    nb.cells.append(nbformat.v4.new_code_cell(WHO))

    work = tmp_path / "work"
    work.mkdir()
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=600,
        allow_errors=False,
        resources={"metadata": {"path": str(work)}},
    )
    client.execute()  # raises CellExecutionError when any cell raises

    assert not [
        out for cell in nb.cells for out in cell.get("outputs", ()) if out.output_type == "error"
    ]
    assert all(cell.execution_count for cell in nb.cells if cell.cell_type == "code")
    printed = stdout(nb.cells)
    assert f"kernel python: {sys.executable}\n" in printed
    assert re.search(r"^nqueens\(n=8\) = (\d+)$", printed, re.M).group(1) == "92"
    assert re.search(r"^queens_rooks\(queens=3, rooks=1\) = (\d+)$", printed, re.M).group(1) == "8"

    # the sweep was published under the kernel's working folder, and reads back exactly
    import boardsweep

    results = boardsweep.load(work / "results")
    assert sorted(results) == ["queens", "walled"]
    assert results["queens"]["counts"]["count_text"].map(int).tolist() == [
        2,
        10,
        4,
        40,
        92,
        352,
        724,
    ]
    assert len(results["walled"]["maxima"]) == 200

    figure = work / "first_steps.png"
    assert figure.is_file() and figure.read_bytes()[:8] == PNG
    shown = [
        out
        for cell in nb.cells
        for out in cell.get("outputs", ())
        if "image/png" in out.get("data", {})
    ]
    assert len(shown) == 1  # the saved figure, displayed in the notebook

"""Fit and check the constellation search's image rule: which of a constellation's 8 images to walk.

    python benchmarks/nqueens_images.py [--fit 13 14 15 16] [--check 17]

The 8 images of a constellation (under the symmetries of the square) have as many solutions but
not as many nodes: the worst walks about 1.9 times the nodes of the best.  The search walks the
image with the least ``walk_score`` (``solvers/nqueens/constellations.py``): the image's
``image_features`` weighted by ``IMAGE_WEIGHTS``.  For each n of ``--fit`` and ``--check`` this
script walks every image of every canonical constellation (``constellations.plain_walk``, nodes =
every queen placed, the whole tree: the search's table tail scores its last rows, but the image
that places the fewest queens walks the fewest rows above the tail too), then

* fits the weights on the ``--fit`` sizes: least squares of log(nodes + 1) on the features,
  both taken relative to their mean over the constellation's 8 images (only the order within a
  constellation matters), and prints them rounded to 4 decimals, as
  ``IMAGE_WEIGHTS`` should hold them;
* prints, per n, the nodes of the whole search when each constellation walks the image chosen
  by: the least code; the old rule (bottom queen nearest its corner, then side queens lowest;
  the rule before these weights); the module's ``IMAGE_WEIGHTS`` (what the search does now);
  the weights just fitted; and the best image (found by walking all 8), with ratios.

The ``--check`` sizes are not fitted on: they show whether the rule carries to larger boards.
Every image's leaves must agree within a constellation (they are the same solutions), else the
script stops.  Deterministic: no timing, so a loaded machine changes nothing but how long it
takes (n = 17 walks all 8 images: about 2 minutes).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from common import conditions, markdown, write_results
from numba import njit

from boardsweep.solvers.nqueens import constellations as C

TIMED = ("boardsweep.solvers.nqueens.constellations",)
REPEATS = "1 (deterministic: nodes are counted, nothing is timed)"
SPREAD = "none: nothing is timed"


@njit(cache=True)
def every_image(n, cons):
    """(codes int64 [m, 8], leaves, nodes) of the walk of each image of each constellation."""
    m = cons.shape[0]
    codes = np.empty((m, 8), np.int64)
    leaves = np.empty((m, 8), np.int64)
    nodes = np.empty((m, 8), np.int64)
    z = np.int64(0)
    for i in range(m):
        rows, cols, k = C.border(n, cons[i, 0], cons[i, 1], cons[i, 2], cons[i, 3])
        for g in range(8):
            code = C.image_code(n, g, rows, cols, k)
            _, fb, sh, D, cd = C.setup(n, C.decode(n, code))
            codes[i, g] = code
            leaves[i, g], nodes[i, g] = C.plain_walk(n, 0, D, z, cd, z, fb, sh)
    return codes, leaves, nodes


def old_rule(n: int, code: int) -> int:
    """The rule before the fitted weights, smaller better: bottom queen nearest its corner,
    then the side queens' rows highest in number, then the least code."""
    b = code // (n * n) % n
    sides = code // n % n + code % n
    return (min(b, n - 1 - b) * 2 * n - sides) * n**4 + code


def measure(n: int) -> dict:
    """Every image's code, nodes and features, for the canonical constellations of side n."""
    cons = C.canonical(n)
    codes, leaves, nodes = every_image(n, cons)
    if not (leaves == leaves[:, :1]).all():
        raise SystemExit(f"n = {n}: the images of a constellation disagree on its leaves")
    feats = np.array([[C.image_features(n, int(c)) for c in row] for row in codes])
    return {"codes": codes, "nodes": nodes, "feats": feats}


def fit(data: list[dict]) -> np.ndarray:
    """Least-squares weights of log(nodes + 1) on the features, within each constellation."""
    xs, ys = [], []
    for d in data:
        y = np.log(d["nodes"].astype(float) + 1)
        xs.append((d["feats"] - d["feats"].mean(1, keepdims=True)).reshape(-1, d["feats"].shape[2]))
        ys.append((y - y.mean(1, keepdims=True)).reshape(-1))
    w, *_ = np.linalg.lstsq(np.concatenate(xs), np.concatenate(ys), rcond=None)
    return np.round(w, 4) + 0.0  # + 0.0: no -0.0


def chosen(d: dict, keys: np.ndarray) -> int:
    """Nodes of the whole search when each constellation walks its image of least key (ties:
    the least code, as the search breaks them)."""
    pick = np.lexsort((d["codes"], keys), axis=1)[:, 0]
    return int(d["nodes"][np.arange(keys.shape[0]), pick].sum())


def main() -> None:
    """Measure, fit, print the weights and the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fit", type=int, nargs="+", default=[13, 14, 15, 16])
    ap.add_argument("--check", type=int, nargs="*", default=[17])
    ap.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = ap.parse_args()
    sizes = sorted(set(args.fit) | set(args.check))
    print(conditions(fit=args.fit, check=args.check))
    data = {}
    for n in sizes:
        start = time.perf_counter()
        data[n] = measure(n)
        print(
            f"n = {n}: {data[n]['codes'].shape[0]:,} constellations x 8 images walked in "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
    weights = fit([data[n] for n in args.fit])
    fitted_line = "IMAGE_WEIGHTS = np.array([" + ", ".join(repr(float(v)) for v in weights) + "])"
    print(f"\n{fitted_line}\n")
    rows = []
    for n in sizes:
        d = data[n]
        least = chosen(d, d["codes"])
        old = chosen(d, np.vectorize(lambda c, n=n: old_rule(n, int(c)))(d["codes"]))
        module = chosen(d, np.vectorize(lambda c, n=n: C.walk_score(n, int(c)))(d["codes"]))
        fitted = chosen(d, d["feats"] @ weights)
        best = int(d["nodes"].min(1).sum())
        rows.append(
            [
                str(n),
                "fit" if n in args.fit else "check",
                f"{least:,}",
                f"{old:,}",
                f"{module:,}",
                f"{fitted:,}",
                f"{best:,}",
                f"{module / old:.4f}",
                f"{module / best:.4f}",
                f"{fitted / old:.4f}",
            ]
        )
    table = markdown(
        [
            "n",
            "sizes",
            "least code",
            "old rule",
            "module weights",
            "fitted now",
            "best image",
            "module / old",
            "module / best",
            "fitted / old",
        ],
        rows,
    )
    print(table)
    body = (
        "Nodes of the whole constellation search when each constellation walks the image "
        "chosen by each rule (deterministic: nodes, not time). The weights this run fitted "
        f"on the fit sizes:\n\n```text\n{fitted_line}\n```\n\n{table}"
    )
    settings = {"fit": " ".join(map(str, args.fit)), "check": " ".join(map(str, args.check))}
    write_results(
        __file__, body, timed=TIMED, repeats=REPEATS, spread=SPREAD, sizes=settings, out=args.out
    )


if __name__ == "__main__":
    main()

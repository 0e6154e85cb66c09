"""A worker that reports other library versions, for tests only: a preload
(``DASK_DISTRIBUTED__WORKER__PRELOAD='["tests.other_versions"]'``) that sets, in its worker
process, the versions named in ``BOARDSWEEP_TEST_VERSIONS`` (JSON: ``{"numba": "0.1.0",
"python": "3.1"}``) as that process's ``numba.__version__`` (numpy's, pyarrow's) and
``sys.version_info``, as a worker with other installs would report them.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import NamedTuple


class _VersionInfo(NamedTuple):
    """``sys.version_info``'s fields, with values of our choosing."""

    major: int
    minor: int
    micro: int
    releaselevel: str
    serial: int


def dask_setup(worker) -> None:
    """Preload entry point: set this process's reported versions."""
    versions = json.loads(os.environ.get("BOARDSWEEP_TEST_VERSIONS", "{}"))
    modules = {name: importlib.import_module(name) for name in versions if name != "python"}
    for name, version in versions.items():  # all imported first: pyarrow checks numpy's
        if name == "python":
            major, minor = (int(part) for part in version.split("."))
            sys.version_info = _VersionInfo(major, minor, 0, "final", 0)
        else:
            modules[name].__version__ = version

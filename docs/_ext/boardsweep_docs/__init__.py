"""boardsweep's own Sphinx extension: reference pages generated at build time from the code.

Each directive reads what the code declares and renders it as docutils nodes, so a key, a
column, an option or an exit code added in code appears in the manual with no edit to it:

- ``config-keys [PROBLEM | cluster | top | job]``: job and config keys, from the parameter
  schemas (:mod:`boardsweep.solvers.schema`, :mod:`boardsweep.pipeline.spec`);
- ``result-tables [PROBLEM | pipeline]``: every output table's columns, from the ``Table``
  declarations (:mod:`boardsweep.solvers.contract`) and ``RUNS_SCHEMA``;
- ``cli``: every command of the click group :data:`boardsweep.pipeline.cli.cli`;
- ``exit-codes``: :data:`boardsweep.pipeline.errors.EXIT_CODES` and the classes that use them;
- ``api MODULE``: autodoc entries for every name in ``MODULE.__all__``.

Each directive takes ``:no-index:``: its anchors are then not registered as labels (for a
page that shows part of what a reference page already shows, so no label is defined twice).
"""

from __future__ import annotations

from .directives import Api, Cli, ConfigKeys, ExitCodes, ResultTables


def setup(app):
    """Register the directives (Sphinx's extension entry point)."""
    app.add_directive("config-keys", ConfigKeys)
    app.add_directive("result-tables", ResultTables)
    app.add_directive("cli", Cli)
    app.add_directive("exit-codes", ExitCodes)
    app.add_directive("api", Api)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

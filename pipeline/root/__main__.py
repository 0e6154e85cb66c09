"""``python -m boardsweep`` runs the ``boardsweep`` command line."""

from boardsweep.pipeline.cli import main

main()

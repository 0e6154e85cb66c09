"""``python -m boardsweep`` runs the ``boardsweep`` command line."""

from boardsweep.pipeline.entry import main

main()

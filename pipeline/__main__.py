"""``python -m boardsweep.pipeline`` runs the ``boardsweep`` command line too."""

from .entry import main

main()

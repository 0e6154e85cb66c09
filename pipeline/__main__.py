"""``python -m boardsweep.pipeline`` runs the ``boardsweep`` command line too."""

from .cli import main

main()

"""``python -m pipeline`` runs the ``boardsweep`` command line."""

from .cli import main

main()

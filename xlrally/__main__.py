"""``python -m xlrally`` runs the command line."""

from xlrally.cli import main

main()

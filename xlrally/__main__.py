"""``python -m xlrally`` runs the command line (through :mod:`xlrally.entry`, as the
``xlrally`` script does)."""

from xlrally.entry import main

main()

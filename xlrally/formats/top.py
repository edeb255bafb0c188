"""How many players a published page shows in full by default, in a module of its own so that
the command line and :mod:`xlrally.api` can name it without loading the page's code."""

TOP = 200
"""Players shown in full (every event, and their section) by default; ``publish --top``."""

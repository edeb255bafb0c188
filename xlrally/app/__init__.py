"""What the command line runs: sync one file, a batch of files in isolated children, new files.

:mod:`~xlrally.app.sync` (one file: read, compute, write), :mod:`~xlrally.app.batch` (many
files on every core), :mod:`~xlrally.app.isolate` (each file in its own memory-limited child;
:mod:`~xlrally.app.stops`, :mod:`~xlrally.app.workers` and :mod:`~xlrally.app.result_folders`
under it), :mod:`~xlrally.app.newbook` (``xlrally new``, incl. the ``.xlsm`` with a refresh
button).

May import: every layer below it (``core``, ``formats``, ``ooxml``, ``excel``), never the
command line.
"""

"""``xlrally import``: one event's results, from the program that ran it, into the league workbook.

The file is a FIDE TRF (xlrally.formats.trf) or a table as text (xlrally.formats.table_text:
CSV, or a table pasted from a web page or spreadsheet): :mod:`~.incoming`. Its names meet the
league's (:mod:`~.names`); its results go where the workbook keeps results: rows of the
``Results`` sheet (appended, in the columns it has), else the event's own sheet, and the event
gets its row in ``Events`` (date, rounds, season): :mod:`~.plan`. Then the league with the new
rows is checked and scored, and Results, Events and Standings are written in one atomic
replace, verified once (:mod:`~.write`: planned by :mod:`~.planned` into the parts in memory,
:mod:`~.edits`, and told by :mod:`~.report`), in an isolated child as a sync is (:mod:`~.run`).

Safety, as for a sync: the input sheets are edited in place (xlrally.ooxml.in_place: only the
cells written change; tables, validation and formats are carried over the new rows), the
cells written are read back by the real reader, and nothing is written when anything is
wrong. An event that already has results is refused unless ``replace``; importing the same
file again changes nothing.
"""

from xlrally.app.importer.incoming import Incoming, Options, read_incoming
from xlrally.app.importer.report import ImportOutcome
from xlrally.app.importer.run import ImportInterrupted, import_file

__all__ = [
    "ImportInterrupted",
    "ImportOutcome",
    "Incoming",
    "Options",
    "import_file",
    "read_incoming",
]

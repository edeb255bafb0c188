"""The Office Open XML package: a workbook file as a zip of parts. Knows nothing of leagues.

:mod:`~xlrally.ooxml.package` opens a file safely (limits, DTD refusal, sheet-area checks),
:mod:`~xlrally.ooxml.reader` reads values with python-calamine, :mod:`~xlrally.ooxml.xmlpart`
edits shared XML parts at parser-given offsets, :mod:`~xlrally.ooxml.styles` and
:mod:`~xlrally.ooxml.sheet_xml` make the formats and the sheet part, :mod:`~xlrally.ooxml.writer`
writes a sheet of cells losslessly and atomically: its parts planned (:mod:`~.edit`), checked
(:mod:`~.verify`) and put in the old file's place (:mod:`~.replace`, with
:mod:`~xlrally.ooxml.rawzip` copying the untouched parts as raw compressed bytes);
:mod:`~.properties` reads and sets document properties, :mod:`~.constants` holds the names
Office Open XML gives things.

May import: the standard library, its third-party readers, ``xlrally.ooxml`` itself,
``xlrally.core.errors`` (its error classes), ``xlrally.formats.cells`` (what a cell is) and
``xlrally.formats.looks`` (what its look is, and how the file's styles say it). Nothing about
leagues, systems or standings.
"""

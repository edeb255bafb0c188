"""Inside Excel: the refresh button's path, the Excel functions' implementation, new workbooks.

:mod:`~xlrally.excel.live` (read the open workbook, write Standings, through a small sheet
interface with xlwings and memory backends), :mod:`~xlrally.excel.functions` (what the ``udfs``
functions compute, over :mod:`~xlrally.excel.arguments`: Excel's arguments as they take them),
:mod:`~xlrally.excel.template` (new league workbooks with XlsxWriter).
Importable without the command line's dependencies (click, rich) or the file reader, so that
it can run where Excel runs Python.

May import: the standard library, xlwings, XlsxWriter, ``xlrally.core``, ``xlrally.formats``
and ``xlrally.excel``. Not ``xlrally.ooxml``, ``xlrally.app`` or the command line.
"""

"""Inside LibreOffice Calc: the Excel functions as a Calc add-in and the Refresh standings
command, packed as an extension (``xlrally libreoffice``).

:mod:`~xlrally.calc.catalogue` (the functions Calc gets: names, arguments, the code that computes
them), :mod:`~xlrally.calc.convert` (UNO values to the Excel functions' conventions and back),
:mod:`~xlrally.calc.extension` (the ``.oxt`` built from the installed package: type library,
configuration, the package's pure-Python layers), :mod:`~xlrally.calc.unobook` (the open
document as the refresh's workbook: values read, Standings written, through UNO) and
:mod:`~xlrally.calc.components` (the UNO components LibreOffice loads: the add-in and the
``xlrally:refresh`` command). The last two run only inside LibreOffice's Python, where ``uno``
is; the others import without it.

May import: the standard library, ``uno``/``unohelper``/``com.sun.star`` (and the extension's
own ``org.xlrally`` types) inside LibreOffice, ``xlrally.core``, ``xlrally.formats`` and
``xlrally.excel`` (the functions and the refresh). Not ``xlrally.ooxml``, ``xlrally.app`` or the
command line.
"""

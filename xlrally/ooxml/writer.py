"""Writing one sheet into a workbook file without touching anything else.

A workbook is a zip of XML parts. Writing the sheet changes only:

* the sheet's own part (created, or replaced whole: xlrally owns that sheet; its settings
  are kept, see :mod:`xlrally.ooxml.sheet_xml`);
* ``xl/styles.xml``, only to append the few fonts, number formats and cell formats the sheet
  uses, when they are not there yet (:mod:`xlrally.ooxml.styles`);
* when the sheet is new: ``xl/workbook.xml`` (one ``<sheet>``), its relationships and
  ``[Content_Types].xml`` (one entry each);
* ``xl/workbook.xml``'s ``<calcPr>``, to recalculate on open, when other sheets or defined names
  refer to the sheet; and ``xl/calcChain.xml`` is dropped (Excel rebuilds it) when the old
  sheet had formulas, since its entries would point at cells that are gone;
* the custom document properties the caller asks for (``docProps/custom.xml``).

Every other part is copied as its raw compressed bytes. The parts are planned
(:mod:`xlrally.ooxml.edit`), verified (:mod:`xlrally.ooxml.verify`) and only then written
beside the old file and put in its place (:mod:`xlrally.ooxml.replace`). If nothing would
change, nothing is written.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import PrintSetup, SheetRow, norm
from xlrally.ooxml.constants import (
    CUSTOM_CONTENT_TYPE,
    NS_CUSTOM,
    NS_VT,
    STYLES_CONTENT_TYPE,
    WORKSHEET_CONTENT_TYPE,
    WORKSHEET_TYPE,
)
from xlrally.ooxml.edit import (
    Edit,
    add_relationship,
    drop_calc_chain,
    new_sheet,
    print_names,
    recalc_on_open,
    refers_to,
    shared_strings,
    workbook_styles,
)
from xlrally.ooxml.edit import styles_part as styles_part_of
from xlrally.ooxml.old_sheet import read_old_sheet
from xlrally.ooxml.package import Package, SheetRef
from xlrally.ooxml.properties import digest_after, set_custom_property
from xlrally.ooxml.replace import (
    Staged,
    WriteOutcome,
    owner_files,
    refuse_to_replace,
    stage,
)
from xlrally.ooxml.sheet_xml import (
    SheetXml,
    hidden_headings,
    is_print_default,
    kept_elements,
    print_defaults,
    selected,
    sheet_xml,
    table_parts,
)
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.temporaries import TEMP_SUFFIX, clean_stale_temporaries, temp_prefix
from xlrally.ooxml.verify import verify

__all__ = [  # and, for the callers of the one module this was, the names of its parts
    "CUSTOM_CONTENT_TYPE",
    "NS_CUSTOM",
    "NS_VT",
    "STYLES_CONTENT_TYPE",
    "TEMP_SUFFIX",
    "WORKSHEET_CONTENT_TYPE",
    "Edit",
    "Staged",
    "WriteOutcome",
    "clean_stale_temporaries",
    "new_sheet",
    "owner_files",
    "plan_sheet",
    "refuse_to_replace",
    "stage",
    "stage_sheet",
    "temp_prefix",
    "verify",
    "workbook_styles",
]

Marks = Callable[[SheetXml], Mapping[str, str]]
"""The custom document properties a written sheet gives the package, made from the sheet as
written (its XML and the digest of its values) only when the sheet changes: e.g. the
fingerprint of what was written."""


def plan_sheet(
    package: Package,
    name: str,
    grid: Sequence[SheetRow],
    setup: PrintSetup | None = None,
    marks: Marks | None = None,
    stamp: tuple[str, str] | None = None,
    joined: tuple[Edit, Styles] | None = None,
) -> tuple[Edit, Styles, str]:
    """Work out every part that writing this grid as the sheet ``name`` changes; with
    ``setup``, the sheet's page setup and print names where its user has set none; with
    ``marks``, the custom properties they give, when the sheet changes; with ``stamp`` (a
    property and a text), that custom property set to the digest of the package as written
    (:func:`~xlrally.ooxml.properties.digest`) and the text. ``joined``: an edit (and the
    styles it uses) that other parts were planned into already, to write them all in one
    commit (an import's Results and Events with the Standings)."""
    edit = joined[0] if joined else Edit(package)
    workbook = package.workbook_part
    existing = next((s for s in package.sheets if norm(s.name) == norm(name)), None)
    if existing is not None and existing.kind != WORKSHEET_TYPE:
        raise WorkbookError(f"the sheet {existing.name!r} is not a worksheet; rename it")
    if joined:  # the styles the joined edit parsed and uses (not parsed again)
        styles_part, styles = styles_part_of(package), joined[1]
    else:
        styles_part, styles = workbook_styles(package)

    if existing is not None and package.has(existing.part):
        old = _old_sheet(package, existing)
        part = existing.part
    else:
        old = _OldSheet({}, frozenset(), False, False)
        part = new_sheet(edit, package, name)
    kept, hidden, tab_selected, had_formulas = old
    if setup is not None:
        mine = {k: v for k, v in kept.items() if not is_print_default(k, v)}
        kept = {**print_defaults(setup), **mine}
    xml = sheet_xml(grid, styles, kept, tab_selected, hidden)
    edit.set(part, xml.data)
    if setup is not None:
        print_names(edit, workbook, existing.name if existing else name, setup)
    if part in edit.changed and marks is not None:
        for mark, text in marks(xml).items():
            set_custom_property(edit, package, mark, text)
    if styles_part is None:
        styles_part = posixpath.join(posixpath.dirname(workbook), "styles.xml")
        add_relationship(edit, package, workbook, "/styles", styles_part, STYLES_CONTENT_TYPE)
    edit.set(styles_part, styles.data)
    if part in edit.changed and refers_to(package, existing.name if existing else name, part):
        recalc_on_open(edit, workbook)
    if had_formulas:
        drop_calc_chain(edit, package, workbook)
    if stamp is not None:  # last, and the part made first: the digest is of the final package
        prop, text = stamp
        custom = set_custom_property(edit, package, prop, text)
        set_custom_property(edit, package, prop, f"{digest_after(edit, package, custom)} {text}")
    return edit, styles, part


class _OldSheet(NamedTuple):
    """What a rewritten sheet keeps of the old one: its settings (:data:`~.sheet_xml.KEPT`),
    the headings of its hidden columns, whether its tab was selected; and whether it held
    formulas (then the calculation chain goes)."""

    kept: dict[str, str]
    hidden: frozenset[str]
    selected: bool
    had_formulas: bool


def _old_sheet(package: Package, existing: SheetRef) -> _OldSheet:
    """The old sheet's :class:`_OldSheet`; one holding Excel tables is refused (rewriting it
    would remove them)."""
    read = read_old_sheet(existing.part, package.read(existing.part))
    old = read.part  # its rows after the first left out where that is safe
    tables = table_parts(old)
    if tables:
        raise WorkbookError(
            f"the sheet {existing.name!r} holds {tables} Excel table(s), which xlrally "
            "would have to remove when it rewrites that sheet: move them to another sheet"
        )
    return _OldSheet(
        kept_elements(old),
        hidden_headings(old, shared_strings(package)),
        selected(old),
        read.formulas,
    )


def stage_sheet(
    path: str | Path,
    name: str,
    grid: Sequence[SheetRow],
    package: Package,
    setup: PrintSetup | None = None,
    marks: Marks | None = None,
    stamp: tuple[str, str] | None = None,
) -> Staged | None:
    """Write the workbook with the grid as its sheet ``name`` to a temporary file beside the
    real file, verified and with the original's identity. None when nothing would change.
    ``setup``, ``marks`` and ``stamp``: see :func:`plan_sheet`."""
    refuse_to_replace(Path(path))
    edit, styles, sheet = plan_sheet(package, name, grid, setup, marks, stamp)
    return stage(path, edit, lambda: verify(edit, styles, written=sheet))

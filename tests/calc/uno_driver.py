"""Drives a running headless LibreOffice for the tests: one JSON request a line on standard
input, one JSON answer a line on standard output. Runs under LibreOffice's Python (the
system's /usr/bin/python3 on Debian), where ``uno`` is; the tests talk to it through
``office.py``.

It connects over a named pipe (polling until LibreOffice accepts, within a deadline), installs
the extension through the extension manager's API (``addExtension`` into the ``user``
repository: what Tools ▸ Extension Manager ▸ Add calls, and the one way that works as root),
opens and makes documents, types formulas, dispatches ``xlrally:refresh``, and reads back cells,
looks, widths and the print setup.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
import traceback
from typing import Any

import uno
import unohelper
from com.sun.star.task import XInteractionApprove, XInteractionHandler
from com.sun.star.ucb import XCommandEnvironment

DEADLINE = 180.0


def prop(name: str, value: Any) -> Any:
    p = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    p.Name, p.Value = name, value
    return p


class Approve(unohelper.Base, XInteractionHandler):  # type: ignore[misc]
    """Says yes to "install this extension?", as the user clicking OK does."""

    def handle(self, request: Any) -> None:
        for continuation in request.getContinuations():
            if continuation.queryInterface(
                uno.getTypeByName(XInteractionApprove.__pyunointerface__)
            ):
                continuation.select()
                return


class Environment(unohelper.Base, XCommandEnvironment):  # type: ignore[misc]
    """Approving interaction, no progress (the extension has no licence to accept)."""

    def getInteractionHandler(self) -> Any:
        return Approve()

    def getProgressHandler(self) -> Any:
        return None


class Driver:
    def __init__(self, pipe: str, wait: float = DEADLINE) -> None:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        deadline = time.monotonic() + wait
        while True:
            try:
                self.ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)  # polling for the pipe, not waiting for a result
        self.smgr = self.ctx.ServiceManager
        self.desktop = self.smgr.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)
        self.docs: dict[int, Any] = {}

    # ------------------------------------------------------------------ requests
    def install(self, oxt: str) -> list[str]:
        manager = self.ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
        url = uno.systemPathToFileUrl(oxt)
        manager.addExtension(url, (), "user", manager.createAbortChannel(), Environment())
        return [
            e.getIdentifier().Value
            for e in manager.getDeployedExtensions(
                "user", manager.createAbortChannel(), Environment()
            )
        ]

    def run_job(self, doc: int, service: str) -> Any:
        """Run a job component on a document as the OnLoad event would."""
        job = self.smgr.createInstanceWithContext(service, self.ctx)
        environment = uno.createUnoStruct("com.sun.star.beans.NamedValue")
        model = uno.createUnoStruct("com.sun.star.beans.NamedValue")
        model.Name, model.Value = "Model", self.docs[doc]
        environment.Name, environment.Value = (
            "Environment",
            uno.Any("[]com.sun.star.beans.NamedValue", (model,)),
        )
        return uno.invoke(job, "execute", ((environment,),))

    def terminate(self) -> bool:
        try:
            return bool(self.desktop.terminate())
        except Exception:  # the bridge goes as LibreOffice ends
            return True

    def open(self, path: str) -> int:
        doc = self.desktop.loadComponentFromURL(
            uno.systemPathToFileUrl(path), "_blank", 0, (prop("Hidden", True),)
        )
        self.docs[id(doc)] = doc
        return id(doc)

    def new(self) -> int:
        doc = self.desktop.loadComponentFromURL(
            "private:factory/scalc", "_blank", 0, (prop("Hidden", True),)
        )
        self.docs[id(doc)] = doc
        return id(doc)

    def close(self, doc: int) -> None:
        self.docs.pop(doc).close(True)

    def sheet(self, doc: int, name: str) -> Any:
        return self.docs[doc].Sheets.getByName(name)

    def put(self, doc: int, sheet: str, rows: list[list[Any]]) -> None:
        """Type ``rows`` from A1: numbers and texts as values (exactly: no text on the way), a
        text starting with = as a formula (in Calc's syntax)."""
        target = self.sheet(doc, sheet)
        width = max(len(r) for r in rows)
        block = tuple(
            tuple("" if isinstance(v, str) and v.startswith("=") else v for v in r)
            + ("",) * (width - len(r))
            for r in rows
        )
        target.getCellRangeByPosition(0, 0, width - 1, len(block) - 1).setDataArray(block)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if isinstance(value, str) and value.startswith("="):
                    target.getCellByPosition(c, r).setFormula(value)

    def array(self, doc: int, sheet: str, address: str, formula: str) -> None:
        """Enter ``formula`` as an array formula over ``address`` (Ctrl+Shift+Enter)."""
        self.sheet(doc, sheet).getCellRangeByName(address).setArrayFormula(formula)

    def calculate(self, doc: int) -> None:
        self.docs[doc].calculateAll()

    def time_calculate(self, doc: int) -> float:
        """Seconds one full recalculation of the document takes (timed here, beside Calc)."""
        start = time.perf_counter()
        self.docs[doc].calculateAll()
        return time.perf_counter() - start

    def values(self, doc: int, sheet: str, address: str) -> list[list[Any]]:
        return [list(r) for r in self.sheet(doc, sheet).getCellRangeByName(address).getDataArray()]

    def shown(self, doc: int, sheet: str, address: str) -> list[list[str]]:
        """Each cell's text as Calc shows it (an error as Err:504, #VALUE! ...)."""
        area = self.sheet(doc, sheet).getCellRangeByName(address)
        rows = area.getRangeAddress()
        return [
            [
                area.getCellByPosition(c, r).getString()
                for c in range(rows.EndColumn - rows.StartColumn + 1)
            ]
            for r in range(rows.EndRow - rows.StartRow + 1)
        ]

    def formulas(self, doc: int, sheet: str, address: str) -> list[list[str]]:
        return [
            list(r) for r in self.sheet(doc, sheet).getCellRangeByName(address).getFormulaArray()
        ]

    def set_cell(self, doc: int, sheet: str, address: str, value: Any) -> None:
        cell = self.sheet(doc, sheet).getCellRangeByName(address)
        if isinstance(value, str):
            cell.setString(value)
        else:
            cell.setValue(value)

    def refresh(self, doc: int) -> dict[str, Any]:
        """Dispatch Refresh standings as the menu does; what it reported (state, message)."""
        frame = self.docs[doc].getCurrentController().getFrame()
        helper = self.smgr.createInstanceWithContext("com.sun.star.frame.DispatchHelper", self.ctx)
        done = helper.executeDispatch(frame, "xlrally:refresh", "", 0, ())
        return {"state": done.State, "message": done.Result}

    def click(self, doc: int, sheet: str, name: str) -> None:
        """Press the form button ``name`` on ``sheet`` as a user does: the sheet shown, the
        button's control pressed through its accessible action (VCL's ``PushButton::Click``,
        which notifies the form control, which posts the click and handles it from the event
        loop: forms/source/component/Button.cxx), then every pending event handled."""
        document = self.docs[doc]
        controller = document.getCurrentController()
        target = document.Sheets.getByName(sheet)
        controller.setActiveSheet(target)
        model = self._button(target, name)
        control = controller.getControl(model)
        control.getPeer().getAccessibleContext().doAccessibleAction(0)
        self.idle()

    def idle(self) -> None:
        """Let LibreOffice handle every event it has pending (a click is handled so)."""
        toolkit = self.smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        toolkit.processEventsToIdle()

    @staticmethod
    def _button(sheet: Any, name: str) -> Any:
        forms = sheet.DrawPage.Forms
        for f in range(forms.Count):
            form = forms.getByIndex(f)
            for c in range(form.Count):
                control = form.getByIndex(c)
                if control.Label == name:
                    return control
        raise LookupError(f"{sheet.Name} has no button {name!r}")

    def button(self, doc: int, sheet: str, name: str) -> dict[str, Any]:
        """The form button's settings: what it does when clicked."""
        control = self._button(self.docs[doc].Sheets.getByName(sheet), name)
        return {
            "ButtonType": control.ButtonType.value,
            "TargetURL": control.TargetURL,
            "TargetFrame": control.TargetFrame,
            "DispatchURLInternal": control.DispatchURLInternal,
            "Enabled": control.Enabled,
        }

    def design_mode(self, doc: int) -> bool:
        """Whether the forms are in design mode (where a click selects a button, not press it)."""
        return bool(self.docs[doc].getCurrentController().isFormDesignMode())

    def frozen(self, doc: int) -> dict[str, list[int]]:
        """Each sheet's frozen columns and rows, as its view shows them (sheets without none)."""
        document = self.docs[doc]
        controller = document.getCurrentController()
        active = controller.getActiveSheet()
        found = {}
        for sheet in document.Sheets:
            controller.setActiveSheet(sheet)
            if controller.hasFrozenPanes():
                found[sheet.Name] = [controller.getSplitColumn(), controller.getSplitRow()]
        controller.setActiveSheet(active)
        return found

    def active_sheet(self, doc: int) -> str:
        return str(self.docs[doc].getCurrentController().getActiveSheet().Name)

    def used(self, doc: int, name: str) -> list[list[Any]]:
        """The sheet's used area from A1 (each cell's value; empty cells "")."""
        sheet = self.sheet(doc, name)
        cursor = sheet.createCursor()
        cursor.gotoEndOfUsedArea(False)
        end = cursor.getRangeAddress()
        area = sheet.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow)
        return [list(r) for r in area.getDataArray()]

    def undo(self, doc: int) -> list[str]:
        manager = self.docs[doc].getUndoManager()
        titles = list(manager.getAllUndoActionTitles())
        manager.undo()
        return titles

    def undo_titles(self, doc: int) -> list[str]:
        return list(self.docs[doc].getUndoManager().getAllUndoActionTitles())

    def modified(self, doc: int) -> bool:
        return bool(self.docs[doc].isModified())

    def store(self, doc: int, path: str, filter_name: str) -> None:
        self.docs[doc].storeToURL(uno.systemPathToFileUrl(path), (prop("FilterName", filter_name),))

    def protect(self, doc: int, name: str) -> None:
        """Protect a sheet, as Tools ▸ Protect Sheet does (no password)."""
        self.docs[doc].Sheets.getByName(name).protect("")

    def remove_sheet(self, doc: int, name: str) -> None:
        self.docs[doc].Sheets.removeByName(name)

    def sheet_names(self, doc: int) -> list[str]:
        return list(self.docs[doc].Sheets.ElementNames)

    def snapshot(self, doc: int, name: str) -> dict[str, Any]:
        """Everything the Standings show and print: each cell's value and look, the column
        widths, the frozen panes, the page style and the print ranges."""
        document = self.docs[doc]
        sheet = document.Sheets.getByName(name)
        cursor = sheet.createCursor()
        cursor.gotoEndOfUsedArea(False)
        end = cursor.getRangeAddress()
        formats = document.NumberFormats
        cells = []
        for r in range(end.EndRow + 1):
            row = []
            for c in range(end.EndColumn + 1):
                cell = sheet.getCellByPosition(c, r)
                kind = cell.Type.value
                value: Any = cell.Value if kind == "VALUE" else cell.String
                row.append(
                    {
                        "type": kind,
                        "value": value,
                        "shown": cell.String,
                        "bold": cell.CharWeight,
                        "posture": cell.CharPosture.value,
                        "colour": cell.CharColor,
                        "font": cell.CharFontName,
                        "size": cell.CharHeight,
                        "format": formats.getByKey(cell.NumberFormat).FormatString,
                        "align": cell.HoriJustify.value,
                        "background": cell.CellBackColor,
                        "wrap": cell.IsTextWrapped,
                    }
                )
            cells.append(row)
        columns = sheet.getColumns()
        widths = [
            (columns.getByIndex(i).Width, columns.getByIndex(i).IsVisible)
            for i in range(end.EndColumn + 3)
        ]
        style = document.StyleFamilies.getByName("PageStyles").getByName(sheet.PageStyle)
        page = {
            key: getattr(style, key)
            for key in (
                "IsLandscape",
                "Width",
                "Height",
                "ScaleToPagesX",
                "ScaleToPagesY",
                "LeftMargin",
                "RightMargin",
                "TopMargin",
                "BottomMargin",
                "HeaderIsOn",
                "FooterIsOn",
                "HeaderHeight",
                "FooterHeight",
                "HeaderBodyDistance",
                "FooterBodyDistance",
            )
        }
        for part in ("Header", "Footer"):
            content = getattr(style, f"RightPage{part}Content")
            for where in ("Left", "Center", "Right"):
                text = getattr(content, f"{where}Text")
                page[f"{part}{where}"] = text.getString()
                if text.getString():
                    cur = text.createTextCursor()
                    cur.gotoStart(False)
                    page[f"{part}{where}Look"] = (cur.CharWeight, cur.CharHeight)
        titles = sheet.getTitleRows()
        page["PrintTitleRows"] = (sheet.getPrintTitleRows(), titles.StartRow, titles.EndRow)
        page["PrintAreas"] = [
            (a.StartColumn, a.StartRow, a.EndColumn, a.EndRow) for a in sheet.getPrintAreas()
        ]
        frozen = None
        controller = document.getCurrentController()
        if controller is not None:
            active = controller.getActiveSheet()
            controller.setActiveSheet(sheet)
            frozen = (
                controller.hasFrozenPanes(),
                controller.getSplitColumn(),
                controller.getSplitRow(),
            )
            controller.setActiveSheet(active)
        return {"cells": cells, "widths": widths, "page": page, "frozen": frozen}


def main() -> None:
    driver = Driver(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else DEADLINE)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"ok": getattr(driver, request["do"])(*request.get("args", []))}
        except Exception as error:
            more = ""
            with contextlib.suppress(Exception):  # no Cause field
                more = f" (caused by {error.Cause!r})"  # type: ignore[attr-defined]
            answer = {
                "error": f"{type(error).__name__}: {error}{more}",
                "trace": traceback.format_exc(),
            }
        print(json.dumps(answer, default=str), flush=True)
        if request["do"] == "terminate":
            return


if __name__ == "__main__":
    main()

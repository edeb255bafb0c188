"""The UNO components LibreOffice loads from the extension (``xlrally_calc.py``): only inside
LibreOffice's Python, where ``uno`` is.

* :class:`Functions` (``org.xlrally.calc.Functions``, service ``com.sun.star.sheet.AddIn``):
  one method per Excel function (:mod:`~xlrally.calc.catalogue`), each converting Calc's
  arguments and calling the Excel function's own code (:mod:`~xlrally.calc.calls`). The names,
  descriptions and compatibility names Calc shows and stores come from ``CalcAddIns.xcu``.
* :class:`Refresh` (``org.xlrally.calc.Refresh``, the ``xlrally:`` protocol handler): the
  Refresh standings command of the menu, the toolbar and a form button, for the frame's
  document (:func:`~xlrally.calc.unobook.refresh_document`). Dispatched with a notification, it
  reports the message it showed as the result (how the tests read it).
* :class:`Names` (``org.xlrally.calc.Names``, a job run on ``OnLoad``): the functions' names
  back in an opened ``.xlsx``'s formulas (:mod:`~xlrally.calc.names`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import uno
import unohelper
from com.sun.star.awt import XCallback
from com.sun.star.frame import XDispatchProvider, XNotifyingDispatch
from com.sun.star.lang import XInitialization, XLocalizable, XServiceInfo, XServiceName
from com.sun.star.sheet import XAddIn
from com.sun.star.task import XJob
from org.xlrally.calc import XFunctions

from xlrally.calc.calls import method
from xlrally.calc.catalogue import NAMES, every_function
from xlrally.calc.extension import (
    FUNCTIONS_SERVICE,
    NAMES_SERVICE,
    PROTOCOL,
    REFRESH_SERVICE,
    REFRESH_URL,
)
from xlrally.calc.unobook import refresh_document, respell_document, show_message
from xlrally.excel.live import RefreshOutcome

_CATEGORY = "Add-In"


class Functions(unohelper.Base, XFunctions, XAddIn, XServiceName, XServiceInfo, XLocalizable):  # type: ignore[misc]
    """The add-in: ``RALLY_SCORE`` and the others (methods made from the catalogue)."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.locale = uno.createUnoStruct("com.sun.star.lang.Locale")

    # XAddIn: names only (CalcAddIns.xcu gives Calc the descriptions)
    def getProgrammaticFuntionName(self, display: str) -> str:
        return display.upper() if display.upper() in NAMES else ""

    def getDisplayFunctionName(self, name: str) -> str:
        return name

    def getFunctionDescription(self, name: str) -> str:
        return ""

    def getDisplayArgumentName(self, name: str, index: int) -> str:
        arguments = {f.name: f.arguments for f in every_function()}.get(name, ())
        return arguments[index].name if 0 <= index < len(arguments) else ""

    def getArgumentDescription(self, name: str, index: int) -> str:
        return ""

    def getProgrammaticCategoryName(self, name: str) -> str:
        return _CATEGORY

    def getDisplayCategoryName(self, name: str) -> str:
        return _CATEGORY

    # XServiceName, XServiceInfo, XLocalizable
    def getServiceName(self) -> str:
        return FUNCTIONS_SERVICE

    def getImplementationName(self) -> str:
        return FUNCTIONS_SERVICE

    def supportsService(self, name: str) -> bool:
        return name in self.getSupportedServiceNames()

    def getSupportedServiceNames(self) -> tuple[str, ...]:
        return ("com.sun.star.sheet.AddIn", FUNCTIONS_SERVICE)

    def setLocale(self, locale: Any) -> None:
        self.locale = locale

    def getLocale(self) -> Any:
        return self.locale


for _function in every_function():
    setattr(Functions, _function.name, method(_function))


SPREADSHEET = "com.sun.star.sheet.SpreadsheetDocument"
NO_SPREADSHEET = (
    "Refresh standings works on the league's spreadsheet: click in its window and run it again"
)


def is_refresh(url: Any) -> bool:
    """Whether ``url`` is ``xlrally:refresh``, however LibreOffice parsed it: the menu, the
    toolbar and a dispatch helper fill in its protocol and path, a form button that dispatches
    its URL itself leaves them empty for a protocol LibreOffice does not know
    (``URLTransformer::parseSmart``, called by ``OClickableImageBaseControl::actionPerformed_Impl``
    in forms/source/component/clickableimage.cxx)."""
    return bool(url.Complete == REFRESH_URL or (url.Protocol == PROTOCOL and url.Path == "refresh"))


def document_frame(frame: Any) -> Any:
    """The frame whose document is refreshed: the one the command was dispatched in (the menu,
    the toolbar, the button ``xlrally new`` makes). A push button whose action is "Open
    document / web page" has its URL opened as a hyperlink, in the current view's frame, or in
    the desktop when there is no current view (``SfxApplication::OpenDocExec_Impl``,
    sfx2/source/appl/appopen.cxx): then it is the desktop's active frame, None if none."""
    if frame is None or frame.getController() is not None:
        return frame
    return frame.getActiveFrame() or None


class _Later(unohelper.Base, XCallback):  # type: ignore[misc]
    def __init__(self, call: Callable[[], None]) -> None:
        self.call = call

    def notify(self, _data: Any) -> None:
        with contextlib.suppress(Exception):  # nothing may end LibreOffice's event loop
            self.call()


def later(ctx: Any, call: Callable[[], None]) -> None:
    """Run ``call`` from LibreOffice's event loop once the current event is handled (the
    message box: not a modal loop inside LibreOffice's own handling of a click)."""
    callback = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.AsyncCallback", ctx)
    callback.addCallback(_Later(call), None)


class Refresh(unohelper.Base, XDispatchProvider, XNotifyingDispatch, XInitialization, XServiceInfo):  # type: ignore[misc]
    """``xlrally:refresh``: recompute the frame's document's Standings, say what happened."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.frame: Any = None

    def initialize(self, arguments: tuple[Any, ...]) -> None:
        if arguments:
            self.frame = arguments[0]

    def queryDispatch(self, url: Any, _target: str, _flags: int) -> Any:
        return self if is_refresh(url) else None

    def queryDispatches(self, requests: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(self.queryDispatch(r.FeatureURL, r.FrameName, r.SearchFlags) for r in requests)

    def dispatch(self, url: Any, arguments: tuple[Any, ...]) -> None:
        self.dispatchWithNotification(url, arguments, None)

    def dispatchWithNotification(self, url: Any, arguments: tuple[Any, ...], listener: Any) -> None:
        frame = document_frame(self.frame)
        try:
            document = None if frame is None else frame.getController().getModel()
            if document is None or not document.supportsService(SPREADSHEET):
                outcome = RefreshOutcome(None, (NO_SPREADSHEET,))
            else:
                outcome = refresh_document(document)
        except Exception as error:  # an exception out of a dispatch ends LibreOffice
            outcome = RefreshOutcome(None, (f"Refresh standings stopped: {error!r}",))
        if frame is not None and not any(a.Name == "Quiet" and a.Value for a in arguments):
            later(self.ctx, lambda: show_message(self.ctx, frame, outcome))
        if listener is not None:
            result = uno.createUnoStruct("com.sun.star.frame.DispatchResultEvent")
            result.Source = self
            result.State = 1 if outcome.standings is not None else 0  # DispatchResultState
            result.Result = outcome.message
            listener.dispatchFinished(result)

    def addStatusListener(self, listener: Any, url: Any) -> None:
        state = uno.createUnoStruct("com.sun.star.frame.FeatureStateEvent")
        state.Source, state.FeatureURL, state.IsEnabled = self, url, True
        listener.statusChanged(state)

    def removeStatusListener(self, listener: Any, url: Any) -> None:
        pass

    def getImplementationName(self) -> str:
        return REFRESH_SERVICE

    def supportsService(self, name: str) -> bool:
        return name in self.getSupportedServiceNames()

    def getSupportedServiceNames(self) -> tuple[str, ...]:
        return ("com.sun.star.frame.ProtocolHandler",)


class Names(unohelper.Base, XJob, XServiceInfo):  # type: ignore[misc]
    """The ``OnLoad`` job: the functions' Excel names back in an opened ``.xlsx``'s formulas
    (:func:`~xlrally.calc.unobook.respell_document`)."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def execute(self, arguments: tuple[Any, ...]) -> Any:
        for argument in arguments:
            if argument.Name == "Environment":
                model = next((v.Value for v in argument.Value if v.Name == "Model"), None)
                if model is not None:
                    respell_document(model)
        return None

    def getImplementationName(self) -> str:
        return NAMES_SERVICE

    def supportsService(self, name: str) -> bool:
        return name in self.getSupportedServiceNames()

    def getSupportedServiceNames(self) -> tuple[str, ...]:
        return (NAMES_SERVICE,)


g_ImplementationHelper = unohelper.ImplementationHelper()  # noqa: N816 (pythonloader looks it up)
g_ImplementationHelper.addImplementation(
    Functions, FUNCTIONS_SERVICE, ("com.sun.star.sheet.AddIn", FUNCTIONS_SERVICE)
)
g_ImplementationHelper.addImplementation(
    Refresh, REFRESH_SERVICE, ("com.sun.star.frame.ProtocolHandler",)
)
g_ImplementationHelper.addImplementation(Names, NAMES_SERVICE, (NAMES_SERVICE,))

"""The names Office Open XML gives things: namespaces, relationship and content types, the
parts every package has, and the order of a workbook part's children (ECMA-376 Part 1).
"""

from __future__ import annotations

NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"

NS_DCTERMS = "http://purl.org/dc/terms/"

NS_STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"

WORKSHEET_TYPE = NS_REL + "/worksheet"

DEFAULT_CUSTOM_PART = "docProps/custom.xml"
"""Where a package without custom document properties gets them."""


WORKSHEET_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"

STYLES_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"

CUSTOM_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.custom-properties+xml"

NS_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"

NS_VT = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"

USER_FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
"""The format id of user-defined document properties (MS-OLEPS; what Excel writes)."""

CONTENT_TYPES = "[Content_Types].xml"

WORKBOOK_CHILDREN = (
    "fileVersion",
    "fileSharing",
    "workbookPr",
    "workbookProtection",
    "bookViews",
    "sheets",
    "functionGroups",
    "externalReferences",
    "definedNames",
    "calcPr",
    "oleSize",
    "customWorkbookViews",
    "pivotCaches",
    "smartTagPr",
    "smartTagTypes",
    "webPublishing",
    "fileRecoveryPr",
    "webPublishObjects",
    "extLst",
)
"""The children of <workbook> in schema order (ECMA-376 Part 1, 18.2.27)."""

CALC_FOLLOWERS = WORKBOOK_CHILDREN[WORKBOOK_CHILDREN.index("calcPr") + 1 :]
"""Children of <workbook> that come after <calcPr>."""

NAMES_FOLLOWERS = WORKBOOK_CHILDREN[WORKBOOK_CHILDREN.index("definedNames") + 1 :]
"""Children of <workbook> that come after <definedNames>."""

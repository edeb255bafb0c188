"""A package's document properties: when it was last saved (``docProps/core.xml``), the custom
properties (``docProps/custom.xml``: read, and set through an :class:`~xlrally.ooxml.edit.Edit`),
and a digest of its parts (what a later look can compare without reading them).
"""

from __future__ import annotations

import datetime as dt
import zlib
from html import escape

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.constants import (
    CUSTOM_CONTENT_TYPE,
    DEFAULT_CUSTOM_PART,
    NS_CUSTOM,
    NS_DCTERMS,
    NS_VT,
    USER_FMTID,
)
from xlrally.ooxml.directory import custom_of, digest_but, parts_digest, property_text
from xlrally.ooxml.edit import Edit, add_relationship
from xlrally.ooxml.package import Package


def last_saved(package: Package) -> dt.datetime | None:
    """When the workbook was last saved, by its own record (``docProps/core.xml``
    ``dcterms:modified``, which Excel and LibreOffice write), in local time; None when the
    package does not say. Unlike the file's time, a copy or a sync does not change it."""
    for kind, part in package.relationships("").values():
        if kind.endswith("/core-properties") and package.has(part):
            try:
                found = package.xml(part).find(f"{{{NS_DCTERMS}}}modified")
                stamp = dt.datetime.fromisoformat((found.text or "").strip())
            except (WorkbookError, AttributeError, ValueError):
                return None
            if stamp.tzinfo is None:
                stamp = stamp.replace(tzinfo=dt.UTC)
            return stamp.astimezone().replace(tzinfo=None, microsecond=0)
    return None


def custom_properties_part(package: Package) -> str | None:
    """The custom document properties part (``docProps/custom.xml``), if the package has one."""
    return custom_of(package.relationships("").values(), package.has)


def custom_property(package: Package, name: str) -> str | None:
    """The text of a custom document property (``docProps/custom.xml``), if set."""
    part = custom_properties_part(package)
    if part is None:
        return None
    try:
        return property_text(package.zip, part, name)
    except ValueError as error:
        raise package.unreadable(f"{part}: {error}") from None


def digest(package: Package) -> str:
    """:func:`~.directory.parts_digest` of every part but the custom properties (where xlrally
    keeps the digest of what it wrote)."""
    return digest_but(package.zip, custom_properties_part(package) or DEFAULT_CUSTOM_PART)


def set_custom_property(edit: Edit, package: Package, name: str, value: str) -> str:
    """Set the text custom document property ``name`` (``docProps/custom.xml``, made with its
    relationship and content type when the workbook has none); returns the part."""
    part = custom_properties_part(package)
    if part is None and DEFAULT_CUSTOM_PART not in edit.changed:
        part = DEFAULT_CUSTOM_PART
        data = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Properties xmlns="{NS_CUSTOM}" xmlns:vt="{NS_VT}"><property fmtid="{USER_FMTID}" '
            f'pid="2" name="{escape(name)}"><vt:lpwstr>{escape(value)}</vt:lpwstr></property>'
            "</Properties>"
        )
        edit.set(part, data.encode("utf-8"))
        add_relationship(edit, package, "", "/custom-properties", part, CUSTOM_CONTENT_TYPE)
        return part
    part = part or DEFAULT_CUSTOM_PART  # made earlier in this edit
    props = edit.xml(part)
    found = next((p for p in props.root.children if p.get("", "name") == name), None)
    vt = props.prefix_for(props.root, NS_VT)
    prefix, declaration = (vt, "") if vt else ("vt", f' xmlns:vt="{NS_VT}"')
    string = f"<{prefix}:lpwstr{declaration}>{escape(value)}</{prefix}:lpwstr>"
    if found is not None:
        if [props.inner_text(c) for c in found.children] != [escape(value)]:
            pid = found.get("", "pid") or "2"
            markup = (
                f'<{found.qname} fmtid="{USER_FMTID}" pid="{pid}" name="{escape(name)}">'
                f"{string}</{found.qname}>"
            )
            edit.set(part, props.replace(found, markup))
        return part
    pids = [int(p) for c in props.root.children if (p := c.get("", "pid") or "").isdigit()]
    tag = props.tag(props.root, "property")
    markup = (
        f'<{tag} fmtid="{USER_FMTID}" pid="{max(pids, default=1) + 1}" name="{escape(name)}">'
        f"{string}</{tag}>"
    )
    edit.set(part, props.append_child(props.root, markup))
    return part


def digest_after(edit: Edit, package: Package, skip: str) -> str:
    """:meth:`Package.digest` of the file this edit writes, ``skip`` (the custom properties)
    left out."""
    parts = []
    for info in package.zip.infolist():
        if info.filename in edit.dropped or info.filename == skip:
            continue
        data = edit.changed.get(info.filename)
        packed = edit.packed.get(info.filename)
        if packed is not None:
            parts.append((info.filename, packed.crc, packed.size))
        elif data is None:
            parts.append((info.filename, info.CRC, info.file_size))
        else:
            parts.append((info.filename, zlib.crc32(data), len(data)))
    added = (p for p in edit.changed if p != skip and not package.has(p))
    parts.extend((p, zlib.crc32(edit.changed[p]), len(edit.changed[p])) for p in added)
    return parts_digest(parts)

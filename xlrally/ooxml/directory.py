"""What a package says of itself without being opened as a workbook: the digest of its parts
from the zip's directory, the part its root relationships name for the custom document
properties, and a property's text; read with the standard library alone (:mod:`zipfile` and
the expat parser).

The command line's look at a file unchanged since xlrally wrote it (issue 33:
:mod:`xlrally.app.unchanged`) needs nothing else, so it answers before any of the reading,
scoring and writing code is loaded; :mod:`.properties` reads the same property of an open
:class:`~.package.Package` through here too (the part found by the same rule, :func:`custom_of`,
from the relationships the package parsed already), so that both find the same text.

The two small parts are read only up to :data:`SMALL` bytes, and one declaring a document type
is refused (:class:`ValueError`): an entity declared there could expand without bound, which
is what ``defusedxml`` refuses for the package's other parts.
"""

from __future__ import annotations

import hashlib
import posixpath
import zipfile
from collections.abc import Callable, Iterable
from xml.parsers import expat

SMALL = 2**20
"""The most bytes read of ``_rels/.rels`` or of the custom properties part (xlrally's own are
under 2 KB)."""

_REL = "http://schemas.openxmlformats.org/package/2006/relationships Relationship"
"""A relationship element, as expat names it with namespaces (``namespace local``)."""


def parts_digest(parts: Iterable[tuple[str, int, int]]) -> str:
    """A digest of a package's parts, each by name, CRC-32 and size of its content (what the
    zip's central directory records, so no part is read). Any edit of a part changes it,
    unless the edit keeps both the size and the CRC-32 (about one chance in four billion)."""
    digest = hashlib.sha256()
    for name, crc, size in sorted(parts):
        digest.update(f"{name}\0{crc:08x}\0{size}\n".encode())
    return digest.hexdigest()[:32]


def digest_but(package: zipfile.ZipFile, skip: str) -> str:
    """:func:`parts_digest` of every part of the package but ``skip``."""
    infos = package.infolist()
    return parts_digest((i.filename, i.CRC, i.file_size) for i in infos if i.filename != skip)


def resolved(folder: str, target: str) -> str:
    """The part a relationship's ``Target`` names, from the folder of the part it belongs to:
    absolute (``/xl/workbook.xml``) or relative (``../media/image1.png``)."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target))


def custom_part(package: zipfile.ZipFile) -> str | None:
    """The custom document properties part (``docProps/custom.xml``) the package's root
    relationships name, if it has one."""
    found: dict[str, tuple[str, str]] = {}

    def start(tag: str, attributes: dict[str, str]) -> None:
        if tag == _REL and attributes.get("TargetMode") != "External":
            kind, target = attributes.get("Type", ""), attributes.get("Target", "")
            found[attributes.get("Id", "")] = (kind, resolved("", target))

    data = _small(package, "_rels/.rels")
    if data is None:
        return None
    _parse(data, start)
    return custom_of(found.values(), set(package.namelist()).__contains__)


def custom_of(relationships: Iterable[tuple[str, str]], has: Callable[[str], bool]) -> str | None:
    """Of the package's relationships (type, target part), the custom properties part, if the
    package ``has`` it: the rule both this module and an open package go by."""
    return next(
        (p for kind, p in relationships if kind.endswith("/custom-properties") and has(p)), None
    )


def property_text(package: zipfile.ZipFile, part: str, name: str) -> str | None:
    """The text of the custom document property ``name`` in ``part`` (a child of its root with
    that ``name``: the first one), stripped; None when it has none."""
    data = _small(package, part)
    if data is None:
        return None
    depth = 0
    inside = -1  # the depth of the property being read, once found
    texts: list[str] = []
    done = False

    def start(_tag: str, attributes: dict[str, str]) -> None:
        nonlocal depth, inside
        depth += 1
        if depth == 2 and inside < 0 and not done and attributes.get("name") == name:
            inside = depth

    def end(_tag: str) -> None:
        nonlocal depth, inside, done
        if depth == inside:
            inside, done = -1, True
        depth -= 1

    def text(data: str) -> None:
        if inside > 0:
            texts.append(data)

    _parse(data, start, end, text)
    return "".join(texts).strip() if done else None


def _small(package: zipfile.ZipFile, part: str) -> bytes | None:
    """The part's bytes, if the package has it and it is no bigger than :data:`SMALL`."""
    try:
        info = package.getinfo(part)
    except KeyError:
        return None
    if info.file_size > SMALL:
        raise ValueError(f"{part} is {info.file_size} bytes; at most {SMALL} are read")
    with package.open(info) as stream:
        data = stream.read(SMALL + 1)
    if len(data) > SMALL:
        raise ValueError(f"{part} holds more than its directory says")
    return data


def _parse(
    data: bytes,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None] | None = None,
    text: Callable[[str], None] | None = None,
) -> None:
    """Parse ``data`` with expat, calling the handlers given; a document type declaration (and
    so any entity) or malformed XML is a :class:`ValueError`."""
    parser = expat.ParserCreate(namespace_separator=" ")

    def refuse(*_: object) -> None:
        raise ValueError("a document type declaration (refused: its entities could expand)")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise ValueError(f"malformed XML: {error}") from None

"""A small zip writer that copies unchanged entries as raw compressed bytes.

The standard library's zipfile can only re-compress. Copying the compressed bytes keeps every
untouched part of a workbook byte-for-byte as it was (and is ten times faster on a large
sheet). Only the parts that change are compressed anew.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import BinaryIO
from zipfile import ZIP_DEFLATED, ZIP_STORED, ZipInfo

from xlrally.core.errors import WorkbookError

_LOCAL = struct.Struct("<4s5H3L2H")
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_END = struct.Struct("<4s4H2LH")
_LIMIT = 0xFFFFFFFF
_COPY_CHUNK = 2**20


@dataclass(frozen=True)
class Packed:
    """A part's new contents already compressed as :meth:`RawZipWriter.add` would compress
    them (see :func:`pack`), with their CRC-32 and size: written as they are."""

    data: bytes
    method: int
    crc: int
    size: int


def level_for(size: int) -> int:
    """The deflate level of a new part: the fastest for a large one (three times faster, a
    little larger), the default otherwise."""
    return 1 if size > 2**20 else 6


def pack(pieces: Iterable[bytes | memoryview], size: int) -> Packed:
    """The pieces of a part of ``size`` bytes compressed piece by piece, byte for byte as
    :meth:`RawZipWriter.add` compresses the joined part (deflate's output does not depend on how
    its input is cut), without ever holding the joined part; stored when that is smaller."""
    compressor = zlib.compressobj(level_for(size), zlib.DEFLATED, -15)
    out = []
    crc = 0
    count = 0
    kept = []
    for piece in pieces:
        crc = zlib.crc32(piece, crc)
        count += len(piece)
        out.append(compressor.compress(piece))
        kept.append(piece)
    out.append(compressor.flush())
    if count != size:
        raise WorkbookError(f"a new part has {count} bytes, not the {size} planned")
    packed = b"".join(out)
    if len(packed) >= size:
        return Packed(b"".join(kept), ZIP_STORED, crc, size)
    return Packed(packed, ZIP_DEFLATED, crc, size)


AHEAD_FROM = 2**20
"""A new part this big is deflated in a thread as soon as it is made (:func:`pack_ahead`)."""


def pack_ahead(data: bytes) -> Future[Packed]:
    """:func:`pack` of a big new part begun in a thread: zlib releases the GIL, so the work
    its maker does before writing it (the fingerprint of a new Standings sheet, the other
    parts, the checks) runs meanwhile. A 200,000-result league's sheet is 5 to 18 MB of XML."""
    pool = ThreadPoolExecutor(1)
    future = pool.submit(pack, (data,), len(data))
    pool.shutdown(wait=False)  # its one thread ends with its one task
    return future


@dataclass(frozen=True)
class _Entry:
    name: bytes
    flags: int
    method: int
    dos_time: int
    dos_date: int
    crc: int
    compressed: int
    size: int
    offset: int
    info: ZipInfo


def _dos_time(date_time: tuple[int, int, int, int, int, int]) -> tuple[int, int]:
    year, month, day, hour, minute, second = date_time
    return (hour << 11) | (minute << 5) | (second // 2), ((year - 1980) << 9) | (month << 5) | day


class RawZipWriter:
    """Writes a zip file entry by entry; call :meth:`close` to write the central directory."""

    def __init__(self, fp: BinaryIO) -> None:
        self.fp = fp
        self.entries: list[_Entry] = []

    def _start(self, info: ZipInfo, method: int, crc: int, compressed: int, size: int) -> None:
        offset = self.fp.tell()
        if max(offset, compressed, size) >= _LIMIT:
            raise WorkbookError("the workbook is too large to write (over 4 GB)")
        name = info.filename.encode("utf-8")
        flags = 0 if info.filename.isascii() else 0x800  # bit 11: UTF-8 name
        dos_time, dos_date = _dos_time(info.date_time)
        entry = _Entry(name, flags, method, dos_time, dos_date, crc, compressed, size, offset, info)
        self.entries.append(entry)
        self.fp.write(
            _LOCAL.pack(
                b"PK\x03\x04",
                20,
                flags,
                method,
                dos_time,
                dos_date,
                crc,
                compressed,
                size,
                len(name),
                0,
            )
            + name
        )

    def copy(self, source: BinaryIO, info: ZipInfo) -> None:
        """Copy an entry of another zip without decompressing it."""
        source.seek(info.header_offset)
        local = source.read(_LOCAL.size)
        if len(local) < _LOCAL.size or local[:4] != b"PK\x03\x04":
            raise WorkbookError(f"{info.filename}: damaged zip entry")
        name_length, extra_length = _LOCAL.unpack(local)[-2:]
        source.seek(info.header_offset + _LOCAL.size + name_length + extra_length)
        self._start(info, info.compress_type, info.CRC, info.compress_size, info.file_size)
        left = info.compress_size
        while left:
            chunk = source.read(min(left, _COPY_CHUNK))
            if not chunk:
                raise WorkbookError(f"{info.filename}: the zip entry is truncated")
            self.fp.write(chunk)
            left -= len(chunk)

    def add(self, info: ZipInfo, data: bytes) -> None:
        """Add an entry with new contents, deflated (stored if that is smaller).

        Large parts use the fastest deflate level: three times faster, a little larger.
        """
        compressor = zlib.compressobj(level_for(len(data)), zlib.DEFLATED, -15)
        packed = compressor.compress(data) + compressor.flush()
        method = ZIP_DEFLATED
        if len(packed) >= len(data):
            packed, method = data, ZIP_STORED
        self._start(info, method, zlib.crc32(data), len(packed), len(data))
        self.fp.write(packed)

    def add_packed(self, info: ZipInfo, packed: Packed) -> None:
        """Add an entry whose contents are compressed already (:func:`pack`)."""
        self._start(info, packed.method, packed.crc, len(packed.data), packed.size)
        self.fp.write(packed.data)

    def close(self) -> None:
        """Write the central directory and the end record."""
        start = self.fp.tell()
        for e in self.entries:
            self.fp.write(
                _CENTRAL.pack(
                    b"PK\x01\x02",
                    (e.info.create_system << 8) | 20,
                    20,
                    e.flags,
                    e.method,
                    e.dos_time,
                    e.dos_date,
                    e.crc,
                    e.compressed,
                    e.size,
                    len(e.name),
                    0,
                    0,
                    0,
                    e.info.internal_attr,
                    e.info.external_attr,
                    e.offset,
                )
                + e.name
            )
        end = self.fp.tell()
        count = len(self.entries)
        self.fp.write(_END.pack(b"PK\x05\x06", 0, 0, count, count, end - start, start, 0))

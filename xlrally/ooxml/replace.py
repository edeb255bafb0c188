"""The new file put in the old one's place: written beside it (every unchanged part copied as
its raw compressed bytes), with the old file's identity (owner, group, mode, extended
attributes and so ACLs), then renamed over the real file (through a symbolic link). A workbook
without write permission, with several hard links, open in Excel or LibreOffice, or whose
owner cannot be kept is refused, as is one that changed meanwhile.
"""

from __future__ import annotations

import os
import stat
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.edit import Edit
from xlrally.ooxml.package import file_identity, identity
from xlrally.ooxml.rawzip import RawZipWriter
from xlrally.ooxml.temporaries import TEMP_SUFFIX, temp_prefix

CHANGED = "the workbook was changed by another program while xlrally was working; sync it again"
"""The refusal of a file saved again by another program while xlrally worked on it (not
"damaged": the parts it was copying moved under it)."""


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did: ``changed`` False means the file was left as it was."""

    changed: bool


def owner_files(path: Path) -> tuple[Path, ...]:
    """The lock files that say the workbook is open: LibreOffice's ``.~lock.NAME#`` and Excel's
    owner file, ``~$`` + the name, where Excel drops the name's first character when the part
    before the extension has 7 characters and its first two when it has 8 or more
    (``~$ague2026.xlsx`` for ``league2026.xlsx``). A shortened owner file that is the full
    owner file of another workbook in the folder (``~$league.xlsx`` while ``league.xlsx``
    exists) is taken as that workbook's, not this one's."""
    name, stem = path.name, path.stem
    found = [path.with_name(f".~lock.{name}#"), path.with_name("~$" + name)]
    cut = 2 if len(stem) >= 8 else 1 if len(stem) == 7 else 0
    if cut and not _exists(path.with_name(name[cut:])):
        found.append(path.with_name("~$" + name[cut:]))
    return tuple(found)


def _exists(path: Path) -> bool:
    """Path.exists(), where a name too long to exist (a lock file of a long name) is False."""
    try:
        return path.exists()
    except OSError:
        return False


def _refuse_to_replace(path: Path, status: os.stat_result) -> None:
    """Refuse what Excel would refuse, or what renaming would damage."""
    for lock in owner_files(path):
        if _exists(lock):
            raise WorkbookError(
                f"the workbook is open in Excel or LibreOffice ({lock.name} is present); "
                "close it there first"
            )
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WorkbookError(
            "the workbook is read-only; clear the read-only attribute (chmod u+w) to sync it"
        )
    if status.st_nlink > 1:
        raise WorkbookError(
            f"the workbook has {status.st_nlink} hard links; syncing would split them "
            "(write a copy instead, or remove the other links)"
        )


def _carry_identity(real: Path, temp: Path, status: os.stat_result) -> None:
    """Give the new file the old one's owner, group, mode and extended attributes (ACLs, SELinux
    labels and the rest); refuse when they cannot be kept."""
    if hasattr(os, "chown") and (status.st_uid, status.st_gid) != _owner(temp):
        try:
            os.chown(temp, status.st_uid, status.st_gid)
        except PermissionError:
            raise WorkbookError(
                f"the workbook belongs to user {status.st_uid}, group {status.st_gid}; "
                "xlrally cannot give its new copy that owner: run the sync as that user"
            ) from None
    os.chmod(temp, stat.S_IMODE(status.st_mode))
    if hasattr(os, "listxattr"):
        try:
            for attribute in os.listxattr(real):
                os.setxattr(temp, attribute, os.getxattr(real, attribute))
        except OSError as error:
            raise WorkbookError(
                f"cannot keep the workbook's extended attributes or ACL ({error.strerror})"
            ) from None


def _owner(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_uid, status.st_gid


@dataclass(frozen=True)
class Staged:
    """A complete new workbook written beside the old one, waiting to replace it."""

    real: Path
    temp: Path
    opened: os.stat_result

    def commit(self) -> WriteOutcome:
        """Rename the new file over the real file (atomic), unless it changed meanwhile.

        Call it after every handle on the old file is closed (Windows cannot replace an open
        file).
        """
        try:
            if file_identity(self.real) != identity(self.opened):
                raise WorkbookError(CHANGED)
            try:
                os.replace(self.temp, self.real)
            except PermissionError:
                raise WorkbookError(
                    "cannot replace the workbook (is it open in Excel or read-only?)"
                ) from None
        except BaseException:
            self.discard()
            raise
        _fsync_folder(self.real.parent)
        return WriteOutcome(True)

    def discard(self) -> None:
        """Remove the staged file (a sync that will not commit)."""
        self.temp.unlink(missing_ok=True)


def refuse_to_replace(path: Path) -> None:
    """Raise WorkbookError when the workbook cannot be replaced safely (open elsewhere,
    read-only, hard-linked): before any work is done."""
    _refuse_to_replace(path, (path.resolve() if path.is_symlink() else path).stat())


def stage(path: str | Path, edit: Edit, check: Callable[[], None]) -> Staged | None:
    """Write the package with the edit's parts to a temporary file beside the real file,
    after ``check`` (which raises when the planned parts are wrong), with the original's
    identity. None when the edit changes nothing. The caller has called
    :func:`refuse_to_replace` before planning the edit."""
    path = Path(path)
    real = path.resolve() if path.is_symlink() else path
    status = real.stat()
    package = edit.package
    if not edit.changed and not edit.dropped and not edit.packed:
        return None
    check()
    fd, temp_name = tempfile.mkstemp(prefix=temp_prefix(real), suffix=TEMP_SUFFIX, dir=real.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out, real.open("rb") as source:
            if identity(os.fstat(source.fileno())) != identity(package.opened):
                raise WorkbookError(CHANGED)  # saved again (a new file renamed over it)
            writer = RawZipWriter(out)
            written = set()
            for info in package.zip.infolist():
                if info.filename in edit.dropped:
                    continue
                if info.filename in edit.changed:
                    _add_changed(writer, edit, info)
                elif info.filename in edit.packed:
                    writer.add_packed(info, edit.packed[info.filename])
                else:
                    try:
                        writer.copy(source, info)
                    except WorkbookError:  # "damaged": or written again in place meanwhile?
                        if file_identity(real) != identity(package.opened):
                            raise WorkbookError(CHANGED) from None
                        raise
                written.add(info.filename)
            for part in [p for p in edit.changed if p not in written]:  # new, in planned order
                _add_changed(writer, edit, zipfile.ZipInfo(part, date_time=(1980, 1, 1, 0, 0, 0)))
            writer.close()
            out.flush()
            os.fsync(out.fileno())
        _carry_identity(real, temp, status)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return Staged(real, temp, package.opened)


def _add_changed(writer: RawZipWriter, edit: Edit, info: zipfile.ZipInfo) -> None:
    """A changed part written, compressed now or (a big one) compressed already."""
    deflated = edit.deflated(info.filename)
    if deflated is None:
        writer.add(info, edit.changed[info.filename])
    else:
        writer.add_packed(info, deflated)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on Windows (or a folder without read permission); the rename
        # is still atomic there
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

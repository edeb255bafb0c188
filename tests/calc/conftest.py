"""Real headless LibreOffice with the extension installed by the documented route: built by
``xlrally libreoffice``, added through the extension manager's API (what Tools ▸ Extension
Manager ▸ Add does; ``unopkg`` refuses to run as root), LibreOffice restarted after. One
profile for the whole test session, in its own temporary folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from office import Office, available, installed

from xlrally.cli import cli


@pytest.fixture(scope="session")
def oxt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension as a treasurer makes it: ``xlrally libreoffice xlrally.oxt``."""
    path = tmp_path_factory.mktemp("extension") / "xlrally.oxt"
    done = CliRunner().invoke(cli, ["libreoffice", str(path)])
    assert done.exit_code == 0, done.output
    return path


@pytest.fixture(scope="session")
def calc(oxt: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """A running LibreOffice with the extension installed, for the whole session."""
    reason = available()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (.ci/run installs it)")
        pytest.skip(reason)
    profile = tmp_path_factory.mktemp("libreoffice") / "profile"
    assert installed(oxt, profile) == ["org.xlrally.calc"]
    office = Office(profile)
    yield office
    office.stop()

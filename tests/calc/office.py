"""Real headless LibreOffice for the tests and the benchmark: one profile per test session
(``-env:UserInstallation``), so that runs beside other LibreOffice runs never share one.

:class:`Office` starts ``soffice`` with a clean environment (LibreOffice's own Python must not
be shadowed by a virtual environment's, so ``PATH`` is the system's), and a driver under
LibreOffice's Python (``uno_driver.py``) that answers requests over a pipe. Waiting is polling
for a condition within a generous deadline, never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from xlrally.cli import cli

HERE = Path(__file__).resolve().parent
PYTHON = "/usr/bin/python3"
"""LibreOffice's Python on Debian (python3-uno): the one ``soffice`` loads components with."""
TIMEOUT = 300.0


def soffice() -> str | None:
    return shutil.which("soffice", path="/usr/bin:/bin") or shutil.which("soffice")


def available() -> str | None:
    """Why LibreOffice with Python cannot be driven here, or None when it can."""
    if soffice() is None:
        return "LibreOffice (soffice) is not installed"
    check = subprocess.run(
        [PYTHON, "-c", "import uno, unohelper"], capture_output=True, env=_clean(), check=False
    )
    if check.returncode:
        return f"{PYTHON} cannot import uno (install python3-uno)"
    return None


def _clean() -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in {"HOME", "TMPDIR", "USER", "LOGNAME"}}
    return {**keep, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


class OfficeError(RuntimeError):
    pass


class Office:
    """A running headless LibreOffice with its own profile, and its driver."""

    def __init__(
        self, profile: Path, env: dict[str, str] | None = None, wait: float | None = None
    ) -> None:
        """``env``: more of LibreOffice's environment, ``wait``: the seconds it may take to
        start (the benchmark's ``VALGRIND``, which makes it slow)."""
        self.profile = profile
        self.pipe = f"xlrally-{os.getpid()}-{abs(hash(profile)) % 10**8}"
        program = soffice()
        assert program is not None
        profile.mkdir(parents=True, exist_ok=True)
        self.log = (profile.parent / f"{profile.name}.log").open("ab")
        self.process = subprocess.Popen(
            [
                program,
                f"-env:UserInstallation={profile.as_uri()}",
                "--headless",
                "--invisible",
                "--nologo",
                "--norestore",
                "--nodefault",
                "--nolockcheck",
                f"--accept=pipe,name={self.pipe};urp;",
            ],
            env={**_clean(), **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.driver = subprocess.Popen(
            [PYTHON, str(HERE / "uno_driver.py"), self.pipe, *([str(wait)] if wait else [])],
            env=_clean(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self._answer()
        if not ready.get("ready"):
            raise OfficeError(f"the driver did not connect: {ready}")

    def _answer(self) -> dict[str, Any]:
        assert self.driver.stdout is not None
        line = self.driver.stdout.readline()
        if not line:
            raise OfficeError("the driver ended (LibreOffice did not start or crashed)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def __call__(self, do: str, *args: Any) -> Any:
        """Run the driver's request ``do`` with ``args``; its answer (or OfficeError)."""
        assert self.driver.stdin is not None
        self.driver.stdin.write(json.dumps({"do": do, "args": list(args)}) + "\n")
        self.driver.stdin.flush()
        answer = self._answer()
        if "error" in answer:
            raise OfficeError(f"{do}: {answer['error']}\n{answer.get('trace', '')}")
        return answer.get("ok")

    def stop(self) -> None:
        """End LibreOffice (asked to terminate; ended by its id if it will not, after a wait)."""
        try:
            if self.driver.poll() is None:
                self("terminate")
        except (OfficeError, BrokenPipeError):
            pass
        for process in (self.driver, self.process):
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def installed(oxt: Path, profile: Path) -> list[str]:
    """Install ``oxt`` into the profile (the extension manager's API, as Tools ▸ Extension
    Manager ▸ Add does); LibreOffice is restarted after, as it asks a user to."""
    office = Office(profile)
    try:
        identifiers: list[str] = office("install", str(oxt))
    finally:
        office.stop()
    return identifiers


# ---------------------------------------------------------------- the tests' fixtures


@pytest.fixture(scope="session")
def oxt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension as a treasurer makes it: ``xlrally libreoffice xlrally.oxt``."""
    path = tmp_path_factory.mktemp("extension") / "xlrally.oxt"
    done = CliRunner().invoke(cli, ["libreoffice", str(path)])
    assert done.exit_code == 0, done.output
    return path


@pytest.fixture(scope="session")
def calc(oxt: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """Real headless LibreOffice with the extension installed by the documented route (the
    extension manager's API: what Tools ▸ Extension Manager ▸ Add does; ``unopkg`` refuses
    to run as root), restarted after, for the whole test session, in a profile of its own."""
    reason = available()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (.ci/run installs it)")
        pytest.skip(reason)
    if "calc" not in _RUNNING:
        profile = tmp_path_factory.mktemp("libreoffice") / "profile"
        assert installed(oxt, profile) == ["org.xlrally.calc"]
        _RUNNING["calc"] = Office(profile)
    yield _RUNNING["calc"]
    office = _RUNNING.pop("calc", None)  # every module's copy ends with the session: once
    if office is not None:
        office.stop()


_RUNNING: dict[str, Office] = {}
"""The session's LibreOffice: each test module imports the fixture, which makes it a fixture of
its own there; they share this one instance."""

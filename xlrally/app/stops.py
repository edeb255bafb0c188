"""Stops (Ctrl-C, SIGTERM) in the parent and in its workers: held back while a resource is
made, SIGTERM turned into an interrupt, and a worker's note that it was told to stop."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

SYNC_INTERRUPTED = (
    "Interrupted: each workbook is as it was or fully synced (no partial file is left)."
)
"""What ``xlrally sync`` says when Ctrl-C or SIGTERM stops it before or after its batch
(the command line, :mod:`xlrally.cli`, and its answer for an unchanged file,
:mod:`xlrally.entry`)."""

_STOPS = {signal.SIGINT, signal.SIGTERM}


def _interrupt(_signal: int, _frame: object) -> None:
    global _stopping  # noqa: PLW0603 (a fact of this process)
    _stopping = True
    raise KeyboardInterrupt


_stopping = False


def stopping() -> bool:
    """True once this worker was told to stop (Ctrl-C, or its parent's SIGTERM). A task's work
    that fails after that failed because of the stop: the interrupt can reach a library in the
    middle of its bookkeeping and come out as another error (``RuntimeError('release unlocked
    lock')`` was seen), which must not be reported as the task's own failure."""
    return _stopping


def leave_stops_to_main_thread() -> None:
    """Block Ctrl-C and SIGTERM in the calling thread (one working beside the main thread),
    so that the kernel gives them to the main thread: a signal given to another thread would
    not wake the main thread where it waits."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)


@contextmanager
def stops_held() -> Iterator[set[int]]:
    """Hold SIGINT and SIGTERM back within the block (they arrive at its end); yields the mask
    to restore."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield mask
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``, a service manager stopping a job) interrupts like
    Ctrl-C, so that cleanup runs and no temporary file or folder is left behind. Children
    forked meanwhile inherit it."""
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def stop_on_signals() -> None:
    """In a new worker: SIGTERM (its parent stopping it) and SIGINT (Ctrl-C reaches the whole
    process group) interrupt it, so that it cleans up, and are noted (:func:`stopping`)."""
    global _stopping  # noqa: PLW0603 (a fact of this worker process)
    _stopping = False
    signal.signal(signal.SIGTERM, _worker_interrupt)
    signal.signal(signal.SIGINT, _worker_interrupt)


def _worker_interrupt(signal_number: int, frame: object) -> None:
    """A worker's stop: noted and raised as :func:`_interrupt` does, once. The stops after it
    are ignored: Ctrl-C reaches the whole process group, and the parent then stops its workers
    with SIGTERM; that second interrupt, landing while the worker was already leaving because
    of the first (deciding its exit code), cut the exit short, and the stopped file was
    reported as failed ("ended with exit code 70") instead of interrupted."""
    for stop in _STOPS:
        signal.signal(stop, signal.SIG_IGN)
    _interrupt(signal_number, frame)

"""Every file the box reads is checked before it is used: only a regular file is opened.

A FIFO would block the box before it is ready, a device can be read for ever (/dev/zero) or
act when opened, a directory or a socket cannot be read, a loop of symbolic links cannot be
followed: each is refused at once with a message saying what it is (`FileRefused`), never a
hang or a traceback. The kind is looked at before the file is opened (`lstat`, or `stat`
through links), and again on the open descriptor (`fstat`), opened with O_NONBLOCK (and
O_NOFOLLOW where a link is not to be followed), so a file swapped in between is caught too.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class FileRefused(Exception):
    """A path the box will not read: what it is, or why it cannot be opened."""


# What a file that is not a regular one is, in words: (test of its st_mode, words).
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def kind_of(mode: int) -> str:
    """What a file of `st_mode` `mode` is, in words ("a FIFO", "a directory", ...)."""
    return next((words for test, words in _KINDS if test(mode)), "a special file")


def check_regular(path: str | Path, *, follow: bool = True) -> None:
    """Raise `FileRefused` unless `path` is a regular file (through symbolic links when
    `follow`); `FileNotFoundError` when nothing is there. Nothing is opened."""
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        if follow and os.path.islink(path):
            raise FileRefused(f"a symbolic link to {os.readlink(path)!r}, which does not "
                              "exist") from None
        raise
    except OSError as exc:
        raise FileRefused(_open_problem(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"it is {kind_of(info.st_mode)}, not a regular file")


def read_regular(path: str | Path, limit: int, *, follow: bool = True) -> bytes:
    """At most `limit` + 1 bytes of the regular file at `path` (more than `limit`: the caller
    says it is too big). `FileNotFoundError` when there is no file; `FileRefused` for anything
    but a regular file (a symbolic link itself, unless `follow`) or a file that cannot be
    opened or read."""
    check_regular(path, follow=follow)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileRefused(_open_problem(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped in since the check
            raise FileRefused(f"it is {kind_of(info.st_mode)}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def _open_problem(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links (or a link where none is followed)"
    if exc.errno == errno.ENXIO:
        return "it is a socket or a device with nothing behind it, not a regular file"
    return f"cannot open it: {exc.strerror or exc}"

"""Saves that need no new space: a full card cannot stop the box from saving.

Each saved file (`state.json`, `settings.json`) has a spare beside it (`.state.json.spare`),
both kept at `SLOT_BYTES` (reserved with fallocate). A save writes the text, padded with spaces
to that size (JSON allows trailing blanks: the file is still the same JSON to any reader, a box
of an earlier version included), over the spare, in place, and makes it durable; then the
spare and the file swap names in one atomic step (`renameat2` with RENAME_EXCHANGE), and the
folder is made durable. The old file is now the spare, its space still reserved for the next
save. No block is allocated and no file grows: a full disk cannot fail the save.

A power cut at any instant leaves the old file or the new one, each whole: the spare is never
the file read back, and the swap is atomic. A torn write (a cut part way through writing the
spare) tears only the spare. Where the swap is not possible (a file system without
RENAME_EXCHANGE, a text bigger than a slot) the save falls back to the ordinary atomic write
(temporary file, fsync, rename), which does need space.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

SLOT_BYTES = 16 * 1024  # a saved game is 300 bytes to 3 kB, settings 400 bytes
AT_FDCWD = -100
RENAME_EXCHANGE = 2


def spare_path(path: Path) -> Path:
    """Where `path`'s reserved spare lives: `.<name>.spare` beside it."""
    return path.with_name(f".{path.name}.spare")


def _load_renameat2() -> Callable[[bytes, bytes], int] | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int

    def exchange(a: bytes, b: bytes) -> int:
        return int(function(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))

    return exchange


_RENAMEAT2 = _load_renameat2()


def exchange(a: Path, b: Path) -> None:
    """Swap the names of `a` and `b` in one step (OSError when the system cannot)."""
    if _RENAMEAT2 is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    if _RENAMEAT2(os.fsencode(a), os.fsencode(b)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def write_in_place(path: Path, text: str,
                   fallback: Callable[[Path, str], None]) -> None:
    """Replace `path` with `text` (see the module's docstring); `fallback(path, text)` when the
    swap cannot be done. Raises OSError when the save fails (the old file is then intact)."""
    data = text.encode("utf-8")
    if len(data) > SLOT_BYTES or _RENAMEAT2 is None:
        fallback(path, text)
        return
    data += b" " * (SLOT_BYTES - len(data))
    info = _lstat(path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL,
                      "the file's place holds something else, not a regular file")
    spare = spare_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open_spare(spare)
    try:
        _reserve(fd)
        view = memoryview(data)
        while view:
            view = view[os.pwrite(fd, view, SLOT_BYTES - len(view)):]
        os.fdatasync(fd)
    finally:
        os.close(fd)
    if info is None:  # the first save: the spare becomes the file, a new spare is reserved
        os.rename(spare, path)
    else:
        try:
            exchange(spare, path)
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                raise
            os.replace(spare, path)  # a file system that cannot swap: an ordinary rename
    _sync_folder(path.parent)
    with contextlib.suppress(OSError):  # the next save's room, while there is some
        fd = _open_spare(spare)
        try:
            _reserve(fd)
        finally:
            os.close(fd)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _open_spare(spare: Path) -> int:
    """The spare, opened for writing; anything but a regular file there is removed first."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    for _ in range(2):
        try:
            fd = os.open(spare, flags, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
                raise
        else:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                return fd
            os.close(fd)
        os.unlink(spare)  # a link, FIFO or device at the spare's name (never followed)
    raise OSError(errno.EEXIST, f"cannot make a spare at {spare}")


def _reserve(fd: int) -> None:
    """The spare at exactly `SLOT_BYTES`, its blocks allocated."""
    size = os.fstat(fd).st_size
    if size > SLOT_BYTES:
        os.ftruncate(fd, SLOT_BYTES)
    try:
        os.posix_fallocate(fd, 0, SLOT_BYTES)
    except OSError as exc:
        if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
            raise
        if size < SLOT_BYTES:  # no fallocate here: write the room out instead
            os.pwrite(fd, b" " * (SLOT_BYTES - size), size)


def _sync_folder(folder: Path) -> None:
    """Make the folder's names durable (the swap itself)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return  # a folder that cannot be opened (write-only): the swap stands as it is
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

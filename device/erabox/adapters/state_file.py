"""The state file: the saved game on disk, written atomically, read forgivingly.

A power cut can hit at any instant, so a save never overwrites the file in place: it writes a
temporary file in the same directory, fsyncs it, renames it over the old one and fsyncs the
directory. Either the old or the new game survives, never half of one.

Reading is bounded and forgiving (`load_guarded`, also the settings file's one way in): only a
regular file of at most `MAX_STATE_BYTES` is read (a symlink to /dev/zero, a FIFO or a directory
is never opened for reading in a way that can hang or fill memory). Anything that cannot be used
(not a regular file, unreadable, too big, not UTF-8, not JSON, nesting or numbers too big to
parse, a value of the wrong type, from another schema version, inconsistent) is moved aside
next to the original (`state.json.bad-<time>`, never over an earlier one) with ONE warning, and
the box starts a fresh game. Temporary files left by a power cut during a save
(`.state.json.<pid>.tmp`) are removed.

Writes happen on a small writer thread (newest snapshot wins) so an SD card that takes 50 ms to
fsync never delays a cue; `close()` writes whatever is pending before returning. A save that
fails (read-only folder, full disk, the path is a directory) is retried every `RETRY_S` seconds
until it works or a newer snapshot replaces it; `problem` says what is wrong meanwhile, for the
screen and the log. `flush()` lets the caller wait until a snapshot is durable: the loop does it
before a press's sound (see docs/power-cuts.md).

One box per state folder: `lock()` takes an exclusive lock on the folder that holds the state
file (its real path, symlinks resolved; the settings file lives there too), which deleting a
file cannot undo, and writes its pid to `.state.json.lock` for the message. A second instance
gets `StateInUse`, which the command line turns into a clear message and exit 2.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from erabox.core.config import Config
from erabox.core.snapshot import dumps, loads
from erabox.workers import NewestWorker

log = logging.getLogger("erabox.state")

SYSTEM_STATE = Path("/var/lib/erabox/state.json")
MAX_STATE_BYTES = 64 * 1024  # a saved game is ~300 bytes; anything this big is not one
RETRY_S = 2.0  # a failed save is tried again this often


class StateInUse(Exception):
    """Another erabox holds the lock on this state file."""


class _Unusable(Exception):
    """The file exists but cannot be read as text."""


Parsed = TypeVar("Parsed")


def load_guarded(path: Path, parse: Callable[[str], Parsed], what: str,
                 instead: str) -> Parsed | None:
    """`parse` of the text at `path`: None when there is no file, or when it cannot be used
    (not a regular file, unreadable, too big, not UTF-8, or `parse` raises `ValueError`);
    then the file is moved aside with one warning naming `what` and what happens `instead`.
    The one way the box reads its own files back (the saved game, the settings)."""
    try:
        text = _read_bounded(path)
    except FileNotFoundError:
        return None
    except _Unusable as exc:
        set_aside(path, str(exc), what, instead)
        return None
    try:
        return parse(text)
    except ValueError as exc:
        set_aside(path, str(exc), what, instead)
        return None


def _read_bounded(path: Path) -> str:
    """The file's text: a regular file only, at most MAX_STATE_BYTES, UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _Unusable(f"cannot open it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a directory" if stat.S_ISDIR(info.st_mode) else
                    "a FIFO" if stat.S_ISFIFO(info.st_mode) else
                    "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                    else "a special file")
            raise _Unusable(f"it is {kind}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_STATE_BYTES:
            chunk = os.read(fd, MAX_STATE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _Unusable(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_STATE_BYTES:
        raise _Unusable(f"more than {MAX_STATE_BYTES} bytes, far more than the box writes")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise _Unusable("not UTF-8 text") from None


def set_aside(path: Path, why: str, what: str, instead: str) -> None:
    """Move an unusable file (or whatever sits at `path`) aside as `<name>.bad-<time>`, never
    over an earlier one, with one warning."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    try:
        os.rename(path, aside)
        where = f"moved aside to {aside}"
    except OSError as move_error:
        where = f"could not move it aside: {move_error.strerror or move_error}"
    log.warning("%s %s is unusable (%s); %s; %s", what, path, _short(why), where, instead)


def resolve_state_path(config: Config, environ: dict[str, str] | None = None) -> Path:
    """Where the game is saved: $ERABOX_STATE, else the config's `state_file`, else
    /var/lib/erabox/state.json when writable, else ~/.local/state/erabox/state.json."""
    env = os.environ if environ is None else environ
    if env.get("ERABOX_STATE"):
        chosen = Path(env["ERABOX_STATE"]).expanduser()
    elif config.state_file:
        chosen = Path(config.state_file).expanduser()
    elif os.access(SYSTEM_STATE.parent, os.W_OK):
        chosen = SYSTEM_STATE
    else:
        base = Path(env.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
        chosen = base / "erabox" / "state.json"
    # The real path: a symlink to a state file names that file (its lock, its folder, and the
    # settings beside it), and a save replaces the file, not the link.
    return chosen.resolve()


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a power cut leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        # The old file is untouched; do not leave half a new one lying beside it.
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)  # make the rename itself durable
    except OSError:
        pass
    finally:
        os.close(fd)


class StateFile:
    """The saved game at `path`. `on_change` is called (from the writer thread) whenever
    `problem` changes, so the app can redraw its "cannot save" mark."""

    def __init__(self, path: Path, on_change: Callable[[], None] | None = None) -> None:
        self.path = path
        self.problem: str | None = None
        self.on_change = on_change
        self._writes = 0
        self._lock_fd: int | None = None
        # Newest snapshot wins; a failed write is retried every RETRY_S until a newer one comes.
        self._worker = NewestWorker[dict[str, Any]]("erabox-state", self._write)

    def lock(self) -> None:
        """Take the one-box-per-state-folder lock, or raise `StateInUse` naming the holder.

        The lock is on the folder itself (its real path), not on a file in it: deleting the
        pid file beside the state file cannot let a second box in. A folder that cannot be
        opened at all only gets a warning: the box runs and says on screen that it cannot save
        (it could not save a second box's game either)."""
        folder = self.path.parent.resolve()
        pid_path = folder / f".{self.path.name}.lock"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            log.warning("cannot lock %s (%s): not checking for a second erabox",
                        folder, exc.strerror or exc)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                holder = ""
                with contextlib.suppress(OSError, ValueError):
                    holder = pid_path.read_text(encoding="ascii")[:32].strip()
                who = f" (pid {holder})" if holder.isdigit() else ""
                raise StateInUse(
                    f"the state file {self.path} is in use by another erabox{who}; "
                    "stop that one first (two boxes on one folder would overwrite each "
                    "other's game and settings)") from None
            log.warning("cannot lock %s (%s): not checking for a second erabox",
                        folder, exc.strerror or exc)
            return
        with contextlib.suppress(OSError):
            pid_path.write_text(f"{os.getpid()}\n", encoding="ascii")
        self._lock_fd = fd

    def load(self, config: Config) -> dict[str, Any] | None:
        """The saved snapshot, or None when there is none or it was unusable (moved aside).
        `config` is the one the game runs with: the record is checked against its cues."""
        return self.load_as(lambda text: loads(text, config))

    def load_as(self, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
        """The saved record as `parse` reads it (`parse` raises `ValueError` for a record it
        cannot use: the file is then moved aside with one warning)."""
        self._remove_leftovers()
        return load_guarded(self.path, parse, "saved game", "starting a new game")

    def _remove_leftovers(self) -> None:
        """Remove temporary files a power cut left in the middle of a save."""
        prefix, own = f".{self.path.name}.", f".{self.path.name}.{os.getpid()}.tmp"
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.path.parent):
                name = entry.name
                if (name.startswith(prefix) and name.endswith(".tmp") and name != own
                        and name[len(prefix):-len(".tmp")].isdigit()):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
                        log.info("removed %s, left over from an interrupted save", entry.path)

    def save(self, snapshot: dict[str, Any]) -> None:
        """Queue a snapshot for writing; returns at once."""
        self._worker.put(snapshot)

    @property
    def writes(self) -> int:
        """How many snapshots reached the disk."""
        return self._writes

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until the queued snapshot is on disk, or its write failed (then `problem`
        says why and the writer keeps retrying). False on timeout."""
        return self._worker.flush(timeout)

    def close(self) -> None:
        """Write what is pending (one more try if it failed), then stop the writer."""
        self._worker.flush(2.0)
        self._worker.close(timeout=2.0)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _write(self, snapshot: dict[str, Any]) -> float | None:
        """The writer thread's job: None when written, else when to try again (seconds)."""
        before = self.problem
        try:
            write_atomically(self.path, dumps(snapshot))
            self._writes += 1
            if self.problem:
                log.info("saving works again: %s", self.path)
            self.problem = None
            retry = None
        except OSError as exc:
            if self.problem is None:
                log.warning("cannot save the game to %s: %s (will keep trying every %g s)",
                            self.path, exc, RETRY_S)
            self.problem = f"cannot save: {exc.strerror or exc}"
            retry = RETRY_S
        if (before is None) != (self.problem is None) and self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # a listener's bug must not stop the saving
                log.exception("state file listener failed")
        return retry


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"

"""The state file: the saved game on disk, written so that a cut or a full card loses nothing,
read forgivingly.

A power cut can hit at any instant, so a save never overwrites the file itself: the text goes
into a spare file reserved beside it, which is made durable and then swapped with the file in
one atomic step (`in_place.write_in_place`; no new space needed, so a full disk cannot stop a
save). Where that cannot be done, a temporary file is written, fsynced and renamed over the old
one (`write_atomically`). Either the old or the new game survives, never half of one. The file
stays one JSON object (padded with blanks), as every version of the box wrote and reads.

Reading is bounded and forgiving (`load_guarded`, also the settings file's one way in): only a
regular file of at most `MAX_STATE_BYTES` is read (`files.read_regular`: a symbolic link is not
followed, a FIFO, a device or a directory is never opened in a way that can hang or fill
memory). Anything that cannot be used (a symbolic link, not a regular file, unreadable, too
big, not UTF-8, not JSON, nesting or numbers too big to parse, a value of the wrong type, from
another schema version, inconsistent) is moved aside next to the original
(`state.json.bad-<time>`, never over an earlier one; a link is moved as the link, its target
untouched) with ONE warning, and the box starts a fresh game. Temporary files left by a power
cut during a save (`.state.json.<pid>.tmp`) are removed.

Writes happen on a small writer thread (newest snapshot wins) so an SD card that takes 50 ms to
fsync never delays a cue; `close()` writes whatever is pending before returning. A save that
fails (read-only folder, full disk, the path is a directory) is retried every `RETRY_S` seconds
until it works or a newer snapshot replaces it; `problem` says what is wrong meanwhile, for the
screen and the log. `flush()` lets the caller wait until a snapshot is durable: the loop does it
before a press's sound (see docs/power-cuts.md).

One box per state folder: `lock()` takes an exclusive lock on the lock file `.state.json.lock`
beside the state file (it holds the pid, for the message; a folder the box can write but not
list is enough) and on the folder itself (its real path; the settings file lives there too)
wherever it can be opened, which deleting the lock file cannot undo. A second instance gets
`StateInUse`, which the command line turns into a clear message and exit 2.

Every durable write is timed (`write_s`: the slowest of the latest ones, the lock file's at
start): the game's "sounded" lead and save period follow it (docs/power-cuts.md).
"""

from __future__ import annotations

import collections
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

from erabox.adapters.files import FileRefused, kind_of, read_regular
from erabox.adapters.in_place import write_in_place
from erabox.adapters.workers import NewestWorker
from erabox.core.config import Config
from erabox.core.snapshot import dumps, loads

log = logging.getLogger("erabox.state")

SYSTEM_STATE = Path("/var/lib/erabox/state.json")
MAX_STATE_BYTES = 64 * 1024  # a saved game is ~300 bytes; anything this big is not one
RETRY_S = 2.0  # a failed save is tried again this often
TIMED_WRITES = 16  # `write_s` is the longest of this many latest durable writes


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
    """The file's text: a regular file only (a symbolic link is not followed: it is not the
    box's file), at most MAX_STATE_BYTES, UTF-8."""
    try:
        data = read_regular(path, MAX_STATE_BYTES, follow=False)
    except FileRefused as exc:
        raise _Unusable(str(exc)) from None
    if len(data) > MAX_STATE_BYTES:
        raise _Unusable(f"more than {MAX_STATE_BYTES} bytes, far more than the box writes")
    try:
        return data.decode("utf-8")
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
    # The folder's real path (its lock, and the settings beside it); the file itself is not
    # followed: a symbolic link there is moved aside as a link, its target untouched, and the
    # next save writes a regular file in its place. (realpath, not resolve: a loop of links
    # must not raise here; the folder is then refused where it is used.)
    chosen = Path(os.path.abspath(chosen))
    return Path(os.path.realpath(chosen.parent)) / chosen.name


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a power cut leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        # O_NOFOLLOW: a link left at the temporary name is not written through.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644)
        with open(fd, "w", encoding="utf-8") as handle:
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
        self._problem: str | None = None
        self.on_change = on_change
        # Another file saved beside this one (the settings): its problem is shown as ours.
        self.partner: Any = None
        self._writes = 0
        self._lock_fds: list[int] = []
        self._write_times: collections.deque[float] = collections.deque(maxlen=TIMED_WRITES)
        # Newest snapshot wins; a failed write is retried every RETRY_S until a newer one comes.
        self._worker = NewestWorker[dict[str, Any]]("erabox-state", self._write)

    def lock(self) -> None:
        """Take the one-box-per-state-folder lock, or raise `StateInUse` naming the holder.

        Two locks: the lock file `.state.json.lock` beside the state file, which needs no more
        than writing into the folder (a folder the box can write but not list works), and
        the folder itself wherever it can be opened, so deleting the lock file cannot let a
        second box in (and a box of an earlier version, which locks the folder, is seen). The
        pid goes into the lock file, written durably: the card's first measured write
        (`write_s`). A folder where no lock file can be made only gets a warning: the box runs
        and says on screen that it cannot save (it could not save a second box's game
        either)."""
        folder = self.path.parent
        lock_path = folder / f".{self.path.name}.lock"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            log.warning("cannot lock %s (%s): not checking for a second erabox",
                        lock_path, exc.strerror or exc)
            return
        fds = [fd]
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, f"it is {kind_of(os.fstat(fd).st_mode)}")
            _flock(fd, self.path, fd)
            with contextlib.suppress(OSError):  # a folder the box cannot read: the file only
                fds.append(os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
            if len(fds) == 2:
                _flock(fds[1], self.path, fd)
        except StateInUse:
            for each in fds:
                os.close(each)
            raise
        except OSError as exc:
            for each in fds:
                os.close(each)
            log.warning("cannot lock %s (%s): not checking for a second erabox",
                        lock_path, exc.strerror or exc)
            return
        with contextlib.suppress(OSError):
            # Durable like a save: its time is the card's first measured write (`write_s`).
            started = time.monotonic()
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
            for each in fds:
                os.fsync(each)
            self._write_times.append(time.monotonic() - started)
        self._lock_fds = fds

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
    def problem(self) -> str | None:
        """Why saving fails ("cannot save: ..."), this file's or the settings' (`partner`),
        for the screen's mark and the log; None while both save."""
        if self._problem is not None:
            return self._problem
        partner = getattr(self.partner, "problem", None)
        return partner if isinstance(partner, str) else None

    def changed(self) -> None:
        """Tell the listener that `problem` changed (from a writer thread)."""
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # a listener's bug must not stop the saving
                log.exception("state file listener failed")

    @property
    def write_s(self) -> float:
        """How long a durable write takes on this card: the longest of the latest
        `TIMED_WRITES` (the lock's pid file at start, then every save), 0.0 before any."""
        return max(self._write_times, default=0.0)

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
        for fd in self._lock_fds:
            os.close(fd)
        self._lock_fds = []

    def _write(self, snapshot: dict[str, Any]) -> float | None:
        """The writer thread's job: None when written, else when to try again (seconds)."""
        before = self._problem
        try:
            started = time.monotonic()
            write_in_place(self.path, dumps(snapshot), write_atomically)
            self._write_times.append(time.monotonic() - started)
            self._writes += 1
            if self._problem:
                log.info("saving works again: %s", self.path)
            self._problem = None
            retry = None
        except OSError as exc:
            if self._problem is None:
                log.warning("cannot save the game to %s: %s (will keep trying every %g s)",
                            self.path, exc, RETRY_S)
            self._problem = f"cannot save: {exc.strerror or exc}"
            retry = RETRY_S
        if (before is None) != (self._problem is None):
            self.changed()
        return retry


def _flock(fd: int, path: Path, pid_fd: int) -> None:
    """An exclusive lock on `fd`, or `StateInUse` naming the holder's pid (read from the lock
    file `pid_fd`); another failure is an `OSError`."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise
        holder = ""
        with contextlib.suppress(OSError, ValueError):
            holder = os.pread(pid_fd, 32, 0).decode("ascii").strip()
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise StateInUse(
            f"the state file {path} is in use by another erabox{who}; stop that one first "
            "(two boxes on one folder would overwrite each other's game and settings)"
        ) from None


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"

"""The state file: the saved game on disk, written atomically, read forgivingly.

A power cut can hit at any instant, so a save never overwrites the file in place: it writes a
temporary file in the same directory, fsyncs it, renames it over the old one and fsyncs the
directory. Either the old or the new game survives, never half of one.

A file that cannot be used (corrupt, from another schema version) is moved aside next to the
original (`state.json.bad-<time>`) with a warning, and the box starts a fresh game.

Writes happen on a small writer thread (newest snapshot wins) so an SD card that takes 50 ms to
fsync never delays a cue; `close()` writes whatever is pending before returning.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from device.core.config import Config
from device.core.snapshot import SnapshotError, dumps, loads

log = logging.getLogger("erabox.state")

SYSTEM_STATE = Path("/var/lib/erabox/state.json")


def resolve_state_path(config: Config, environ: dict[str, str] | None = None) -> Path:
    """Where the game is saved: $ERABOX_STATE, else the config's `state_file`, else
    /var/lib/erabox/state.json when writable, else ~/.local/state/erabox/state.json."""
    env = os.environ if environ is None else environ
    if env.get("ERABOX_STATE"):
        return Path(env["ERABOX_STATE"]).expanduser()
    if config.state_file:
        return Path(config.state_file).expanduser()
    if os.access(SYSTEM_STATE.parent, os.W_OK):
        return SYSTEM_STATE
    base = Path(env.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "erabox" / "state.json"


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
    """The saved game at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None
        self._pending: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._writes = 0
        self._thread = threading.Thread(target=self._writer, name="erabox-state", daemon=True)
        self._thread.start()

    def load(self, config: Config) -> dict[str, Any] | None:
        """The saved snapshot, or None when there is none or it was unusable (moved aside)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("cannot read the saved game %s (%s): starting a new game", self.path, exc)
            return None
        try:
            return loads(text, config)
        except SnapshotError as exc:
            aside = self.path.with_name(f"{self.path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, aside)
                where = f"moved aside to {aside}"
            except OSError as move_error:
                where = f"could not move it aside: {move_error}"
            log.warning("saved game %s is unusable (%s); %s; starting a new game",
                        self.path, exc, where)
            return None

    def save(self, snapshot: dict[str, Any]) -> None:
        """Queue a snapshot for writing; returns at once."""
        with self._lock:
            self._pending = snapshot
            self._wake.notify()

    @property
    def writes(self) -> int:
        """How many snapshots reached the disk."""
        return self._writes

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every queued snapshot is on disk. False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._pending is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(left)
        return True

    def close(self) -> None:
        """Write what is pending, then stop the writer."""
        self.flush()
        with self._lock:
            self._closed = True
            self._wake.notify_all()
        self._thread.join(timeout=2.0)

    def _writer(self) -> None:
        while True:
            with self._lock:
                while self._pending is None and not self._closed:
                    self._wake.wait()
                if self._pending is None:
                    return
                snapshot = self._pending
            try:
                write_atomically(self.path, dumps(snapshot))
                self._writes += 1
                if self.problem:
                    log.info("saving works again: %s", self.path)
                self.problem = None
            except OSError as exc:
                if self.problem is None:
                    log.warning("cannot save the game to %s: %s (will keep trying)",
                                self.path, exc)
                self.problem = f"cannot save: {exc.strerror or exc}"
            with self._lock:
                if self._pending is snapshot:
                    self._pending = None
                self._wake.notify_all()

"""The settings file: what was chosen in the box's settings menu, beside the saved game.

Read back through the state file's one guarded reader (`state_file.load_guarded`): only a
regular file of bounded size is read, and a file that cannot be used (not a regular file,
unreadable, not UTF-8, not JSON, a value of the wrong type, ...) is moved aside
(`settings.json.bad-<time>`, never over an earlier one) with a warning and the config file's
defaults apply.

Written like the saved game, needing no new space (`in_place.write_in_place`: a full card
cannot stop it; a power cut leaves the old or the new file, never half of one). Settings change
only in the menu, before Era I, when no cue is due, so the loop waits for the write (at most
`WAIT_S`), after the saved game that goes with it (which carries the settings' fingerprint): a
cut between the two writes comes back with the whole change or none of it (`record.restore`).
A write that fails is kept and tried again every `RETRY_S` on a writer thread, like the game's,
until it lands or newer settings replace it: the table's choice is not lost when the card
takes it later. Meanwhile `problem` says why, and the state file beside (`beside`) shows it as
its own cannot-save mark.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from erabox.adapters.in_place import write_in_place
from erabox.adapters.state_file import RETRY_S, StateFile, load_guarded, write_atomically
from erabox.adapters.workers import NewestWorker
from erabox.core.config import Config
from erabox.core.settings import Settings, loads

log = logging.getLogger("erabox.settings")

WAIT_S = 2.0  # the longest the loop waits for a settings write


def settings_path(state_path: Path) -> Path:
    """The settings file lives beside the state file: `<dir>/settings.json`."""
    return state_path.with_name("settings.json")


class SettingsFile:
    """The settings at `path`; `beside`: the state file whose mark shows a failing save."""

    def __init__(self, path: Path, beside: StateFile | None = None) -> None:
        self.path = path
        self.problem: str | None = None
        self.beside = beside
        if beside is not None:
            beside.partner = self
        self._worker = NewestWorker[dict[str, Any]]("erabox-settings", self._write)

    def load(self, config: Config) -> Settings | None:
        """The saved settings, or None (none saved, or unusable and moved aside)."""
        return load_guarded(self.path, lambda text: loads(text, config), "settings",
                            "using the config's")

    def save(self, settings: dict[str, Any]) -> None:
        """Write `settings` now; a failure is logged, kept in `problem` and retried."""
        self._worker.put(settings)
        self._worker.flush(WAIT_S)

    def flush(self, timeout: float = WAIT_S) -> bool:
        return self._worker.flush(timeout)

    def close(self) -> None:
        self._worker.flush(WAIT_S)
        self._worker.close(timeout=WAIT_S)

    def _write(self, settings: dict[str, Any]) -> float | None:
        before = self.problem
        try:
            write_in_place(self.path, json.dumps(settings, sort_keys=True, indent=1) + "\n",
                           write_atomically)
            self.problem = None
            if before is not None:
                log.info("saving the settings works again: %s", self.path)
            retry = None
        except OSError as exc:
            if before is None:
                log.warning("cannot save the settings to %s: %s (will keep trying every %g s)",
                            self.path, exc, RETRY_S)
            self.problem = f"cannot save settings: {exc.strerror or exc}"
            retry = RETRY_S
        if (before is None) != (self.problem is None) and self.beside is not None:
            self.beside.changed()
        return retry

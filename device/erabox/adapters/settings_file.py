"""The settings file: what was chosen in the box's settings menu, beside the saved game.

Read back through the state file's one guarded reader (`state_file.load_guarded`): only a
regular file of bounded size is read, and a file that cannot be used (not a regular file,
unreadable, not UTF-8, not JSON, a value of the wrong type, ...) is moved aside
(`settings.json.bad-<time>`, never over an earlier one) with a warning and the config file's
defaults apply.

Written atomically with the state file's writer (a power cut leaves the old or the new file,
never half of one). Settings change only in the menu, before Era I, when no cue is due, so the
write happens at once on the loop thread, after the saved game that goes with it (which
carries the settings' fingerprint): a cut between the two writes comes back with the whole
change or none of it (`machine.restore`).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from erabox.adapters.state_file import load_guarded, write_atomically
from erabox.core.config import Config
from erabox.core.settings import Settings, loads

log = logging.getLogger("erabox.settings")


def settings_path(state_path: Path) -> Path:
    """The settings file lives beside the state file: `<dir>/settings.json`."""
    return state_path.with_name("settings.json")


class SettingsFile:
    """The settings at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None

    def load(self, config: Config) -> Settings | None:
        """The saved settings, or None (none saved, or unusable and moved aside)."""
        return load_guarded(self.path, lambda text: loads(text, config), "settings",
                            "using the config's")

    def save(self, settings: dict[str, Any]) -> None:
        """Write `settings` now (atomically). A failure is logged and kept in `problem`."""
        try:
            write_atomically(self.path, json.dumps(settings, sort_keys=True, indent=1) + "\n")
            self.problem = None
        except OSError as exc:
            log.warning("cannot save the settings to %s: %s", self.path, exc)
            self.problem = f"cannot save settings: {exc.strerror or exc}"

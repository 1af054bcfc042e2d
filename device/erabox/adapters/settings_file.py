"""The settings file: what was chosen in the box's settings menu, beside the saved game.

Written atomically with the state file's writer (a power cut leaves the old or the new file,
never half of one). Settings change only in the menu, before Era I, when no cue is due, so the
write happens at once on the loop thread. A file that cannot be used is moved aside
(`settings.json.bad-<time>`) with a warning and the config file's defaults apply.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from erabox.adapters.state_file import write_atomically
from erabox.core.config import Config
from erabox.core.settings import Settings, SettingsError, from_dict

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
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("cannot read the settings %s (%s): using the config's", self.path, exc)
            return None
        try:
            return from_dict(json.loads(text), config)
        except (json.JSONDecodeError, SettingsError) as exc:
            aside = self.path.with_name(f"{self.path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, aside)
                where = f"moved aside to {aside}"
            except OSError as move_error:
                where = f"could not move it aside: {move_error}"
            log.warning("settings %s are unusable (%s); %s; using the config's", self.path,
                        exc, where)
            return None

    def save(self, settings: dict[str, Any]) -> None:
        """Write `settings` now (atomically). A failure is logged and kept in `problem`."""
        try:
            write_atomically(self.path, json.dumps(settings, sort_keys=True, indent=1) + "\n")
            self.problem = None
        except OSError as exc:
            log.warning("cannot save the settings to %s: %s", self.path, exc)
            self.problem = f"cannot save settings: {exc.strerror or exc}"

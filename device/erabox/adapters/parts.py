"""Choosing the box's parts at start, and what the box says once about its config.

`erabox run --display` is checked before any part starts (`check_display_choice`); `auto`
finds the OLED, a desktop window, the terminal or nothing (`choose_display_kind`). The
config's player names and sound files are looked at once, logged where they cannot be used.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from erabox.core.config import Config, ConfigError

log = logging.getLogger("erabox")


def has_desktop() -> bool:
    """Whether a desktop window can be opened here."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


RUN_DISPLAYS = ("auto", "ssd1306", "window", "terminal", "png:DIR", "none")


def check_display_choice(kind: str) -> None:
    """Refuse an unknown `--display` at once (exit 2), with the closest choice as a hint."""
    if kind in RUN_DISPLAYS or (kind.startswith("png:") and kind != "png:"):
        return
    import difflib

    if kind == "png:":
        raise ConfigError("--display png:DIR needs a directory, e.g. --display png:/tmp/frames")
    close = difflib.get_close_matches(kind.lower(), RUN_DISPLAYS, n=1, cutoff=0.6)
    hint = f" (did you mean --display {close[0]}?)" if close else ""
    raise ConfigError(f"--display {kind}: unknown display{hint}; erabox run takes "
                      f"{', '.join(RUN_DISPLAYS)}")


def choose_display_kind(kind: str, config: Config) -> str:
    """`auto`: the OLED when one answers, else a desktop window, else the terminal, else (a
    headless box) the OLED's bus if there is one."""
    if kind != "auto":
        return kind
    from erabox.adapters.display import probe_ssd1306

    if probe_ssd1306(config.display):
        return "ssd1306"
    if has_desktop():
        return "window"
    if sys.stdout.isatty():
        return "terminal"
    if Path(f"/dev/i2c-{config.display.i2c_bus}").exists():
        # Headless with an I2C bus: this is a box whose OLED did not answer yet (loose cable,
        # slow power-up). Use it anyway: it logs the problem and keeps retrying.
        return "ssd1306"
    return "none"


def warn_undrawable_names(config: Config) -> None:
    """Player colours come from the config: say once if the screen cannot draw one."""
    from erabox.ui.strings import colour_name
    from erabox.ui.text import unsupported_characters

    for colour in config.players:
        missing = unsupported_characters(colour_name(colour, config.language))
        if missing:
            log.warning("players: the screen has no glyph for %s in %r; it shows '?' there",
                        " ".join(sorted(missing)), colour)


def warn_missing_sound_files(config: Config) -> list[str]:
    """Say at start which configured sound files cannot be read, not only once a sound device
    opens (the built-in sound plays instead; the audio adapter says so again when it loads)."""
    audio = config.audio
    keys = [("audio.gong", audio.gong), ("audio.cry", audio.cry), ("audio.tick", audio.tick)]
    keys += [(f"era{n}.music", era.music) for n, era in enumerate(audio.eras, start=1)]
    missing = []
    for key, name in keys:
        if name and not (os.path.isfile(name) and os.access(name, os.R_OK)):
            why = "does not exist" if not os.path.exists(name) else "cannot be read"
            log.warning("%s: the sound file %s %s; the built-in sound plays instead",
                        key, name, why)
            missing.append(name)
    return missing

"""Keep SDL's audio thread away from Python's GIL.

pygame registers a "channel finished" callback with SDL_mixer. SDL_mixer calls it from SDL's
audio thread, inside the mixing of a period, every time a sound ends, and pygame's callback takes
the GIL there (to drop its reference to the sound). So each time a cue ends, the mixing of the
next period waits until whatever Python thread holds the GIL lets it go (the screen drawing a
frame, a save being encoded, the loop stepping the game). A cue due in that period starts late,
and on a real card a long enough wait empties the queued periods (a click, then everything
after it later).

erabox never asks pygame which sound a channel last played, so the callback is not needed:
`release()` tells SDL_mixer to call nothing when a channel ends. The callback is set again by
every `pygame.mixer.init`, so it is released after every opening of the mixer. Where SDL_mixer
cannot be found in the process (not Linux, a build without /proc), nothing changes and pygame's
callback stays: correct, only less punctual.
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path

log = logging.getLogger(__name__)


def loaded_library(name: str, maps: Path = Path("/proc/self/maps")) -> str | None:
    """The path of the loaded shared library whose file name starts with `name`, or None."""
    try:
        lines = maps.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        if path.startswith("/") and Path(path).name.startswith(name):
            return path
    return None


def release() -> bool:
    """After `pygame.mixer.init`: no Python callback when a channel ends. True when done."""
    path = loaded_library("libSDL2_mixer")
    if path is None:
        log.debug("SDL_mixer not found among the loaded libraries: channel ends keep "
                  "pygame's callback")
        return False
    try:
        library = ctypes.CDLL(path)  # the copy already loaded: the same handle
        finished = library.Mix_ChannelFinished
        finished.argtypes = [ctypes.c_void_p]
        finished.restype = None
        finished(None)
    except (OSError, AttributeError) as exc:
        log.debug("cannot release SDL_mixer's channel callback: %s", exc)
        return False
    return True

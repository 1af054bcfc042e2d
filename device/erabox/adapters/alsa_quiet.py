"""Keep libasound's own error lines off the terminal.

Without a sound card, every attempt to open the mixer makes libasound print lines such as
`ALSA lib pcm.c:2664:(snd_pcm_open_noupdate) Unknown PCM default` straight to stderr, every
few seconds, over the terminal display. erabox reports the problem itself, once, in its own
words ("no sound: ..."). `silence()` points libasound's error handler at a C function that
ignores its arguments; it is a no-op where there is no libasound (macOS, a box without ALSA).

The handler must not be Python code: libasound calls it from SDL's threads while the main
thread may hold the GIL inside `pygame.mixer.init`, and a Python callback would wait for the
GIL forever. `getpid` has no side effects and, like any C function under the C calling
conventions, ignores arguments it does not take.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

_done = False


def silence() -> bool:
    """Quieten libasound once. True when libasound is there and now quiet."""
    global _done
    if _done:
        return True
    name = ctypes.util.find_library("asound")
    if name is None:
        return False
    try:
        library = ctypes.CDLL(name)
        no_op = ctypes.CDLL(None).getpid  # the C library's, already loaded
        library.snd_lib_error_set_handler(no_op)
    except (OSError, AttributeError) as exc:
        log.debug("cannot quieten libasound: %s", exc)
        return False
    _done = True
    return True

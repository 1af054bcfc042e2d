"""pygame's mixer for the box: opening the device, reading the sound files' lengths and types,
and `PygameMixer`, the `Mixer` the audio adapter (`erabox.adapters.audio`) drives.

Cues are decoded `Sound`s on reserved channels; music streams through `pygame.mixer.music`.
pygame is imported late, inside the functions, so the package imports on any machine.
"""

from __future__ import annotations

import os
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..core.config import AudioConfig
from ..core.model import Sound
from ..files.syslibs import install_hint
from . import alsa_quiet, channel_ends
from .files import FileRefused, check_regular

Opener = Callable[[AudioConfig], None]
Clock = Callable[[], float]

CUE_CHANNELS: dict[Sound, int] = {Sound.GONG: 1, Sound.CRY: 2, Sound.TICK: 3}
PARKED_WITHIN_S = 0.05  # music parked this close to where an era starts it is only resumed
PARK_TRIES = 3  # placings of a parked stream before the era's start is left to place it
DUCK_UNTIL_DB = 20.0  # the music comes back once a cue has fallen this far below its peak


class FileProblem(Exception):
    """A sound file cannot be read (as opposed to the device failing)."""


def open_mixer(config: AudioConfig) -> None:
    """Open pygame's mixer as signed 16-bit stereo at `config.rate` on `config.device`.

    `allowedchanges=0` makes SDL convert to exactly this format instead of adopting whatever
    the hardware prefers. SDL's own environment (`SDL_AUDIODRIVER`, `SDL_DISKAUDIOFILE`, ...)
    is left alone, so tests can record the mixed output with the `disk` driver.
    """
    pygame = load_pygame()
    alsa_quiet.silence()  # libasound's own "Unknown PCM default" lines: we say it once
    pygame.mixer.init(
        frequency=config.rate,
        size=-16,
        channels=2,
        buffer=config.buffer,
        devicename=config.device or None,
        allowedchanges=0,
    )
    channel_ends.release()  # SDL's audio thread must never wait for the GIL (channel_ends.py)


def load_pygame() -> Any:
    """pygame, imported without setuptools' `pkg_resources`.

    pygame's `pkgdata` imports `pkg_resources` when it can, only to find pygame's own data
    files (its default font), which the box never asks for. As the Pi service runs (no numpy),
    that was most of `import pygame`: 0.14-0.21 s here, 0.04-0.05 s without it, and 11 MB of
    the process's resident memory (33 MB after `import pygame`, 21.5 without). A `None` in
    `sys.modules` makes that import fail, and pygame takes its own fallback; the entry goes
    again at once, so nothing else is kept from importing it.
    """
    if "pygame" in sys.modules:  # every cue's play asks: once imported, nothing more to do
        return sys.modules["pygame"]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    kept_out = "pkg_resources" not in sys.modules
    if kept_out:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]
    try:
        import pygame
    finally:
        if kept_out and sys.modules.get("pkg_resources", ...) is None:
            del sys.modules["pkg_resources"]
    return pygame


def loud_seconds(raw: bytes, rate: int, channels: int = 2, window_s: float = 0.05) -> float:
    """How long a cue stays loud: until its last window within `DUCK_UNTIL_DB` of its peak.

    A gong rings for seconds after the strike; ducking the music for all of that would leave
    the first bars of every era muffled. The music comes back as the cue fades instead.
    """
    samples = memoryview(raw).cast("h")
    if len(samples) == 0:
        return 0.0
    step = max(1, round(rate * window_s)) * channels
    peaks = [max(max(w), -min(w)) for w in (samples[i:i + step]
                                             for i in range(0, len(samples), step))]
    threshold = max(peaks) * 10 ** (-DUCK_UNTIL_DB / 20)
    last = max(i for i, peak in enumerate(peaks) if peak >= threshold)
    return min((last + 1) * step, len(samples)) / channels / rate


def stream_length(path: str | Path) -> float | None:
    """A music file's length in seconds from its headers (Ogg Vorbis, FLAC, WAV); None when
    it cannot be told this way. Reads a few bytes at either end, never the whole file."""
    try:
        with open(path, "rb") as file:
            head = file.read(4096)
            if head[:4] == b"fLaC" and len(head) >= 26:
                info = int.from_bytes(head[18:26], "big")  # rate:20 ch:3 bits:5 frames:36
                rate, frames = info >> 44, info & ((1 << 36) - 1)
                return frames / rate if rate and frames else None
            if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
                return _wav_length(file)
            if head[:4] == b"OggS":
                at = head.find(b"\x01vorbis")
                if at < 0 or len(head) < at + 16:
                    return None
                rate = struct.unpack_from("<I", head, at + 12)[0]
                file.seek(0, os.SEEK_END)
                size = file.tell()
                file.seek(max(0, size - 65536))
                tail = file.read()
                last = tail.rfind(b"OggS")
                if last < 0 or len(tail) < last + 14 or not rate:
                    return None
                return float(struct.unpack_from("<q", tail, last + 6)[0]) / float(rate)
    except OSError:
        return None
    return None


def music_type(path: str | Path) -> str:
    """The file's format from its first bytes ("" = unknown: the extension decides). SDL_mixer
    believes a music file's extension over its contents; this lets a FLAC named .ogg play."""
    try:
        with open(path, "rb") as file:
            head = file.read(12)
    except OSError:
        return ""
    if head[:4] == b"fLaC":
        return "flac"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"OggS":
        return "ogg"
    if head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    return ""


def _wav_length(file: Any) -> float | None:
    file.seek(12)
    byte_rate = 0
    while True:
        chunk = file.read(8)
        if len(chunk) < 8:
            return None
        kind, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
        if kind == b"fmt ":
            fmt = file.read(size)
            byte_rate = struct.unpack_from("<I", fmt, 8)[0]
            continue
        if kind == b"data":
            return size / byte_rate if byte_rate else None
        file.seek(size + (size & 1), os.SEEK_CUR)


class Mixer(Protocol):
    """What the adapter needs from a mixer (pygame's, or a recording fake in tests).

    File methods raise `FileProblem` for an unreadable file; any other exception means the
    device failed."""

    def open(self, config: AudioConfig) -> str: ...  # a description for the log
    def close(self) -> None: ...
    def load_cue(self, sound: Sound, path: str) -> float: ...  # how long it is loud (s)
    def load_sound(self, path: str) -> float: ...  # a profile's own sound: how long loud
    def play_cue(self, sound: Sound, file: str = "") -> None: ...
    def set_cue_gain(self, gain: float) -> None: ...
    def check(self, path: str) -> None: ...  # readable? (headers only)
    # open for streaming, letting other music go; with `start`, park it there (paused, silent)
    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None: ...
    def play_music(self, path: str, position: float, loop: bool,
                   gain: float) -> bool: ...  # False: past end
    def pause_music(self) -> None: ...
    def resume_music(self) -> None: ...
    def stop_music(self, fade_s: float) -> None: ...
    def set_music_gain(self, gain: float) -> None: ...


class PygameMixer:
    """`Mixer` on pygame: cues as `Sound`s on reserved channels, music on `mixer.music`."""

    def __init__(self, opener: Opener = open_mixer, clock: Clock = time.monotonic) -> None:
        self._opener = opener
        self._clock = clock
        self._cues: dict[Sound, Any] = {}
        self._own: dict[str, Any] = {}  # a game profile's own sounds, decoded, by path
        self._loaded: str | None = None
        self._parked: tuple[str, float, bool] | None = None  # (path, position, loop), paused
        self._fading_until = 0.0

    def open(self, config: AudioConfig) -> str:
        self._opener(config)
        pygame = load_pygame()
        init = pygame.mixer.get_init()
        if not init:
            raise RuntimeError("the mixer did not open")
        pygame.mixer.set_num_channels(max(8, len(CUE_CHANNELS) + 1))
        pygame.mixer.set_reserved(len(CUE_CHANNELS) + 1)
        self._rate = int(init[0])
        device = config.device or "default device"
        driver = os.environ.get("SDL_AUDIODRIVER", "")
        return (f"{device}{' via SDL driver ' + driver if driver else ''}, {self._rate} Hz, "
                f"{config.buffer} frames ({1000 * config.buffer / self._rate:.1f} ms) a period")

    def close(self) -> None:
        """Drop every mixer object, then close the mixer (objects must not outlive it)."""
        self._cues = {}
        self._own = {}
        self._loaded = None
        self._parked = None
        pygame = load_pygame()
        try:
            pygame.mixer.stop()
            pygame.mixer.music.stop()
            pygame.mixer.music.unload()
        except pygame.error:
            pass
        pygame.mixer.quit()

    def load_cue(self, sound: Sound, path: str) -> float:
        cue = self._decode(path)
        self._cues[sound] = cue
        return loud_seconds(cue.get_raw(), self._rate)

    def load_sound(self, path: str) -> float:
        """Decode a game profile's own sound whole, ahead of its call (`play_cue`'s `file`)."""
        sound = self._decode(path)
        self._own[path] = sound
        return loud_seconds(sound.get_raw(), self._rate)

    def _decode(self, path: str) -> Any:
        pygame = load_pygame()
        try:
            _regular(path)
            return pygame.mixer.Sound(path)
        except (pygame.error, OSError) as exc:
            raise FileProblem(reason(exc)) from None

    def play_cue(self, sound: Sound, file: str = "") -> None:
        """Play `sound`, or the own sound `file` decoded by `load_sound`, on `sound`'s
        channel (a file not decoded: `sound` itself)."""
        cue = self._own.get(file) if file else None
        cue = cue if cue is not None else self._cues.get(sound)
        if cue is not None:
            load_pygame().mixer.Channel(CUE_CHANNELS[sound]).play(cue)

    def set_cue_gain(self, gain: float) -> None:
        pygame = load_pygame()
        for number in CUE_CHANNELS.values():
            pygame.mixer.Channel(number).set_volume(gain)

    def check(self, path: str) -> None:
        self.prepare(path)
        load_pygame().mixer.music.unload()
        self._loaded = None
        self._parked = None

    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None:
        if self._loaded != path:
            self._open_stream(path)
        if start is not None and self._parked != (path, start, loop):
            self._park(path, start, loop)

    def _open_stream(self, path: str) -> None:
        pygame = load_pygame()
        self._parked = None
        left = self._fading_until - self._clock()
        if left > 0:  # let the last era's end ring out (freeing a fading music waits anyway)
            time.sleep(left)
        pygame.mixer.music.stop()
        pygame.mixer.music.unload()  # the previous era's music goes before the next is opened
        self._loaded = None
        try:
            _regular(path)
            pygame.mixer.music.load(path, music_type(path))
        except (pygame.error, OSError) as exc:
            raise FileProblem(reason(exc)) from None
        self._loaded = path

    def play_music(self, path: str, position: float, loop: bool, gain: float) -> bool:
        """Play `path` from `position` at `gain`. The gain is set before the stream runs: set
        after, the mixer's first period (512 frames) could go out at a parked stream's zero."""
        pygame = load_pygame()
        parked, self._parked = self._parked, None
        if (parked is not None and parked[0] == path and parked[2] == loop
                and abs(position - parked[1]) <= PARKED_WITHIN_S):
            pygame.mixer.music.set_volume(gain)
            pygame.mixer.music.unpause()  # already in place: no seek under the mixer's lock
            return True
        pygame.mixer.music.stop()  # a fade still running ends here
        self._fading_until = 0.0
        self.prepare(path)
        pygame.mixer.music.set_volume(gain)
        return self._play_at(path, position, loop)

    def _play_at(self, path: str, position: float, loop: bool) -> bool:
        pygame = load_pygame()
        length = stream_length(path)
        if loop and length:
            position %= length
        elif length is not None and position >= length:
            return False
        # SDL_mixer truncates the position to a frame: aim at the middle of the nearest one
        start = (round(max(position, 0.0) * self._rate) + 0.5) / self._rate
        try:
            pygame.mixer.music.play(loops=-1 if loop else 0, start=start)
        except pygame.error:
            if not pygame.mixer.get_init():
                raise
            return False  # SDL_mixer refuses to seek past the end
        return True

    def _park(self, path: str, start: float, loop: bool) -> None:
        """Play the open stream from `start`, silent, and pause it at once: the seek happens
        now, in the setup's silence; the era's start only resumes it."""
        pygame = load_pygame()
        pygame.mixer.music.set_volume(0.0)
        for _ in range(PARK_TRIES):
            if not self._play_at(path, start, loop):
                return
            pygame.mixer.music.pause()
            # A busy machine may run a mixer period between the play and the pause: the stream
            # is then that far past `start` (pygame counts what it mixed since the play).
            if pygame.mixer.music.get_pos() <= 0:
                self._parked = (path, start, loop)
                return
        # not parked: the era's start places the stream itself

    def pause_music(self) -> None:
        load_pygame().mixer.music.pause()

    def resume_music(self) -> None:
        load_pygame().mixer.music.unpause()

    def stop_music(self, fade_s: float) -> None:
        pygame = load_pygame()
        self._parked = None
        if fade_s > 0:
            pygame.mixer.music.fadeout(round(fade_s * 1000))
            self._fading_until = self._clock() + fade_s
        else:
            pygame.mixer.music.stop()

    def set_music_gain(self, gain: float) -> None:
        load_pygame().mixer.music.set_volume(gain)


def _regular(path: str) -> None:
    """Only a regular file is handed to the decoder: a FIFO would block it for ever."""
    try:
        check_regular(path)
    except FileRefused as exc:
        raise FileProblem(str(exc)) from None


def reason(exc: object) -> str:
    text = str(exc).strip().rstrip(".")
    hint = install_hint(text)  # a library missing from the system: name its package
    return (text or type(exc).__name__) + (f"; {hint}" if hint else "")

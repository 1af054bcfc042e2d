"""The box's sound on pygame's mixer: a thin executor of `AudioPlan`'s commands.

What to play, from where and how loud is decided by the pure planner
(`device/erabox/core/audio_plan.py`); this module only carries it out, so that a cue is never late:

- **Cues** (gong, cry, tick) are small decoded `Sound`s loaded once when the device opens, each
  on its own reserved channel. `apply()` plays them at once on the caller's (the loop's)
  thread, before it hands anything else on: a cue never waits behind decoding, disk, the screen
  or a lock held by other work.
- **Music streams** from its file through `pygame.mixer.music` (a loop with `loops=-1`, which
  SDL_mixer wraps without a gap; a timed score or a publisher's track played once from its
  position). Nothing is decoded whole: a 9-minute score costs what a 1-minute loop costs.
  Opening, seeking, pausing and fading run in order on one worker thread, so nothing that scales
  with a file's size runs on the loop thread. The previous era's music is let go before the
  next is opened.
- **The worker** also steps the planner's ducking ramps and, while there is no device, tries to
  open it again every few seconds (the supervisor): when it opens, the cues are loaded and the
  planner replays the music where the era is now. It is a `erabox.workers.NewestWorker` used as
  a timer (`Again.TIMER`): a put means "look again" (the ordered command queue is this module's
  own), and each round returns the seconds until the next ramp step or retry.

pygame is imported late, inside this module's functions, so the package imports on any machine.
Seeking: SDL_mixer 2.6 seeks OGG, FLAC and MP3 to the sample but WAV music only to whole seconds.
"""

from __future__ import annotations

import logging
import os
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..core import rules
from ..core.audio_plan import (
    AudioPlan,
    Command,
    PauseMusic,
    PlayCue,
    PrepareStream,
    ResumeMusic,
    SetCueGain,
    SetMusicGain,
    StartMusic,
    StopMusic,
)
from ..core.config import AudioConfig
from ..core.model import Sound
from ..syslibs import install_hint
from ..workers import Again, NewestWorker
from . import alsa_quiet, channel_ends

Opener = Callable[[AudioConfig], None]
Clock = Callable[[], float]

CUE_CHANNELS: dict[Sound, int] = {Sound.GONG: 1, Sound.CRY: 2, Sound.TICK: 3}
DUCK_UNTIL_DB = 20.0  # the music comes back once a cue has fallen this far below its peak
RETRY_S = 3.0  # how often a missing sound device is looked for again
PARKED_WITHIN_S = 0.05  # music parked this close to where an era starts it is only resumed

_LOG = logging.getLogger(__name__)


class FileProblem(Exception):
    """A sound file cannot be read (as opposed to the device failing)."""


def open_mixer(config: AudioConfig) -> None:
    """Open pygame's mixer as signed 16-bit stereo at `config.rate` on `config.device`.

    `allowedchanges=0` makes SDL convert to exactly this format instead of adopting whatever
    the hardware prefers. SDL's own environment (`SDL_AUDIODRIVER`, `SDL_DISKAUDIOFILE`, ...)
    is left alone, so tests can record the mixed output with the `disk` driver.
    """
    pygame = _pygame()
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


def _pygame() -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

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


# --- the mixer ----------------------------------------------------------------------------------


class Mixer(Protocol):
    """What the adapter needs from a mixer (pygame's, or a recording fake in tests).

    File methods raise `FileProblem` for an unreadable file; any other exception means the
    device failed."""

    def open(self, config: AudioConfig) -> str: ...  # a description for the log
    def close(self) -> None: ...
    def load_cue(self, sound: Sound, path: str) -> float: ...  # how long it is loud (s)
    def play_cue(self, sound: Sound) -> None: ...
    def set_cue_gain(self, gain: float) -> None: ...
    def check(self, path: str) -> None: ...  # readable? (headers only)
    # open for streaming, letting other music go; with `start`, park it there (paused, silent)
    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None: ...
    def play_music(self, path: str, position: float, loop: bool) -> bool: ...  # False: past end
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
        self._loaded: str | None = None
        self._parked: tuple[str, float, bool] | None = None  # (path, position, loop), paused
        self._fading_until = 0.0

    def open(self, config: AudioConfig) -> str:
        self._opener(config)
        pygame = _pygame()
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
        self._loaded = None
        self._parked = None
        pygame = _pygame()
        try:
            pygame.mixer.stop()
            pygame.mixer.music.stop()
            pygame.mixer.music.unload()
        except pygame.error:
            pass
        pygame.mixer.quit()

    def load_cue(self, sound: Sound, path: str) -> float:
        pygame = _pygame()
        try:
            cue = pygame.mixer.Sound(path)
        except (pygame.error, OSError) as exc:
            raise FileProblem(_reason(exc)) from None
        self._cues[sound] = cue
        return loud_seconds(cue.get_raw(), self._rate)

    def play_cue(self, sound: Sound) -> None:
        cue = self._cues.get(sound)
        if cue is not None:
            _pygame().mixer.Channel(CUE_CHANNELS[sound]).play(cue)

    def set_cue_gain(self, gain: float) -> None:
        pygame = _pygame()
        for number in CUE_CHANNELS.values():
            pygame.mixer.Channel(number).set_volume(gain)

    def check(self, path: str) -> None:
        self.prepare(path)
        _pygame().mixer.music.unload()
        self._loaded = None
        self._parked = None

    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None:
        if self._loaded != path:
            self._open_stream(path)
        if start is not None and self._parked != (path, start, loop):
            self._park(path, start, loop)

    def _open_stream(self, path: str) -> None:
        pygame = _pygame()
        self._parked = None
        left = self._fading_until - self._clock()
        if left > 0:  # let the last era's end ring out (freeing a fading music waits anyway)
            time.sleep(left)
        pygame.mixer.music.stop()
        pygame.mixer.music.unload()  # the previous era's music goes before the next is opened
        self._loaded = None
        try:
            pygame.mixer.music.load(path, music_type(path))
        except (pygame.error, OSError) as exc:
            raise FileProblem(_reason(exc)) from None
        self._loaded = path

    def play_music(self, path: str, position: float, loop: bool) -> bool:
        pygame = _pygame()
        parked, self._parked = self._parked, None
        if (parked is not None and parked[0] == path and parked[2] == loop
                and abs(position - parked[1]) <= PARKED_WITHIN_S):
            pygame.mixer.music.unpause()  # already in place: no seek under the mixer's lock
            return True
        pygame.mixer.music.stop()  # a fade still running ends here
        self._fading_until = 0.0
        self.prepare(path)
        return self._play_at(path, position, loop)

    def _play_at(self, path: str, position: float, loop: bool) -> bool:
        pygame = _pygame()
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
        pygame = _pygame()
        pygame.mixer.music.set_volume(0.0)
        if self._play_at(path, start, loop):
            pygame.mixer.music.pause()
            self._parked = (path, start, loop)

    def pause_music(self) -> None:
        _pygame().mixer.music.pause()

    def resume_music(self) -> None:
        _pygame().mixer.music.unpause()

    def stop_music(self, fade_s: float) -> None:
        pygame = _pygame()
        self._parked = None
        if fade_s > 0:
            pygame.mixer.music.fadeout(round(fade_s * 1000))
            self._fading_until = self._clock() + fade_s
        else:
            pygame.mixer.music.stop()

    def set_music_gain(self, gain: float) -> None:
        _pygame().mixer.music.set_volume(gain)


# --- the adapter ----------------------------------------------------------------------------------


class Audio:
    """Era music and cues, driven by the core's effects (the `AudioPort`).

    `apply()` is meant for the app's loop thread. `on_change`, when set, is called (from either
    thread, with no lock held) whenever `problem` changes, so the app can redraw its "no sound"
    mark: it should only post an event to the app's queue.
    """

    def __init__(
        self,
        config: AudioConfig,
        sounds_dir: Path,
        *,
        log: logging.Logger = _LOG,
        clock: Clock = time.monotonic,
        opener: Opener = open_mixer,
        retry_s: float = RETRY_S,
        mixer: Mixer | None = None,
        era_shape: tuple[float, Sequence[float]] = (rules.ERA_LENGTH_S, rules.SCHOLAR_CUES_S),
    ) -> None:
        """Open the mixer (or note why not and keep retrying every `retry_s` in the background).

        `clock` is the app's clock (the `now` given to `apply`): music positions after a pause,
        restart or late device are computed on it. `opener` opens pygame's mixer (tests inject a
        failing one); `mixer` replaces pygame altogether. `era_shape` is a real-time era's
        length and scholar calls (s): they place the 540 s era score. Read `problem` once after
        construction; `on_change` reports every later change.
        """
        self.config = config
        self.sounds_dir = Path(sounds_dir)
        self.on_change: Callable[[], None] | None = None
        self._log = log
        self._clock = clock
        self._retry_s = retry_s
        self._mixer: Mixer = mixer if mixer is not None else PygameMixer(opener, clock)
        scores = [era for era in range(1, rules.ERAS + 1)
                  if (self.sounds_dir / f"era{era}_score.ogg").is_file()]
        self._plan = AudioPlan(config, str(self.sounds_dir), scores=scores, era_shape=era_shape)
        self._plan_lock = threading.Lock()  # held only around pure planner calls
        self._device = threading.RLock()  # held while the device opens or closes
        self._state = threading.Lock()  # the worker's queue, `_open`, `_closed`, `_retry_at`
        self._queue: deque[Command] = deque()
        self._closed = False
        self._open = False
        self._problem: str | None = None
        self._retry_at: float | None = None
        self._bad_files: set[str] = set()
        self._checked_files: set[str] = set()
        self._unexpected: set[str] = set()
        self.loaded: str | None = None  # the music file opened for streaming (for tests)
        # Woken by a put ("look again") or at the deadline `_round` returns.
        self._worker = NewestWorker[None]("erabox-audio", self._round, again=Again.TIMER)
        self._try_open(notify=False)

    # --- the port -------------------------------------------------------------------------------

    @property
    def problem(self) -> str | None:
        """None when sound works, else "no sound: <reason>"."""
        return self._problem

    def apply(self, effects: Iterable[object], now: float) -> None:
        """Play what the effects ask for; effects that are not about sound are ignored.

        Cues sound at once, on this thread; music commands go to the worker in order. Never
        raises for a sound problem: the box keeps running silent and `problem` says why.
        """
        if self._closed:
            return
        with self._plan_lock:
            commands = [c for effect in effects for c in self._plan.apply(effect, now)]
        if not commands:
            return
        self._worker.put(None)  # a cue may have started a ramp for the worker to step
        now_cues = [c for c in commands if isinstance(c, PlayCue | SetCueGain)]
        if now_cues and self._open:
            try:
                for command in now_cues:
                    self._cue(command)
            except Exception as exc:  # a sound problem must not stop the game
                self._failed(exc)
        if self._open:  # without a device the plan remembers; `reopened` replays it
            self._hand_on([c for c in commands if not isinstance(c, PlayCue | SetCueGain)])

    def retry_now(self) -> bool:
        """Try to open the sound device now (if it is not open); True when it is open."""
        if not self._open and not self._closed:
            self._try_open()
        return self._open

    def close(self) -> None:
        """Stop the sound, the worker and the mixer. Safe to call twice."""
        with self._state:
            if self._closed:
                return
            self._closed = True
        self._worker.close(timeout=10.0)
        with self._device:
            if self._open:
                self._open = False
                self._mixer.close()

    # --- carrying out commands ------------------------------------------------------------------

    def _cue(self, command: PlayCue | SetCueGain) -> None:
        if isinstance(command, PlayCue):
            self._mixer.play_cue(command.sound)
        else:
            self._mixer.set_cue_gain(command.gain)

    def _hand_on(self, commands: list[Command]) -> None:
        if not commands:
            return
        with self._state:
            self._queue.extend(commands)
        self._worker.put(None)

    def _music(self, command: Command) -> None:
        """One music command, on the worker thread."""
        mixer = self._mixer
        if isinstance(command, PrepareStream):
            if self._file_ok(command.path, lambda: mixer.prepare(
                    command.path, command.start, command.loop)):
                self.loaded = command.path
        elif isinstance(command, StartMusic):
            position = command.position + max(self._clock() - command.at, 0.0)
            played: list[bool] = []
            if self._file_ok(command.path, lambda: played.append(
                    mixer.play_music(command.path, position, command.loop))):
                self.loaded = command.path
                mixer.set_music_gain(self._plan_gain())
                if played and not played[0]:
                    self._log.info("music %s has nothing at %.1f s", command.path, position)
        elif isinstance(command, PauseMusic):
            mixer.pause_music()
        elif isinstance(command, ResumeMusic):
            mixer.resume_music()
        elif isinstance(command, StopMusic):
            mixer.stop_music(command.fade_s)
        elif isinstance(command, SetMusicGain):
            mixer.set_music_gain(command.gain)
        elif isinstance(command, PlayCue | SetCueGain):  # from a replay after a reopen
            self._cue(command)

    def _plan_gain(self) -> float:
        with self._plan_lock:
            return self._plan.music_gain

    def _file_ok(self, path: str, action: Callable[[], object]) -> bool:
        """Run a file action; an unreadable file is reported once and the plan falls back."""
        try:
            action()
            return True
        except FileProblem as exc:
            self._bad_file(path, exc)
            with self._plan_lock:
                more = self._plan.file_failed(path, self._clock())
            with self._state:  # the worker's own thread: it takes these next
                self._queue.extendleft(reversed(more))
            return False

    def _bad_file(self, path: str, why: object) -> None:
        if path in self._bad_files:
            return
        self._bad_files.add(path)
        if Path(path).parent == self.sounds_dir:
            fallback = "this music stays silent"
        else:
            fallback = "the built-in music plays instead"
        self._log.error("cannot play sound file %s: %s; %s", path, _reason(why), fallback)

    # --- the device (the supervisor) ------------------------------------------------------------

    def _try_open(self, *, notify: bool = True) -> None:
        """Open the device; on success load the cues and replay the plan where it is now."""
        with self._device:
            if self._open or self._closed:
                return
            try:
                described = self._mixer.open(self.config)
            except Exception as exc:  # whatever the opener raises means "no device"
                self._no_device(_reason(exc), notify=notify)
                return
            with self._state:
                self._queue.clear()  # nothing meant for the lost device may reach this one
                self._open = True
            self._retry_at = None
            was = self._problem
            self._problem = None
            self._log.info("sound %s(%s)", "is back " if was is not None else "", described)
            try:
                self._check_configured_files()
                self._load_cues()
                with self._plan_lock:
                    replay = self._plan.reopened(self._clock())
                self._hand_on(replay)
            except Exception as exc:  # a bug here must not stop the clock
                self._failed(exc)
        if was is not None and notify:
            self._notify()

    def _no_device(self, reason: str, *, notify: bool = True) -> None:
        first = self._problem is None
        self._problem = f"no sound: {reason}"
        if first:
            self._log.warning("%s; the box keeps running silent and looks for the device again "
                              "every %g s", self._problem, self._retry_s)
        else:
            self._log.debug("still %s", self._problem)
        with self._state:
            self._retry_at = time.monotonic() + self._retry_s
        self._worker.put(None)
        if first and notify:
            self._notify()

    def _failed(self, exc: Exception) -> None:
        """A mixer call failed: the device went away (or, for other errors, a bug)."""
        pygame = _pygame() if self._uses_pygame() else None
        device_error = pygame is None or isinstance(exc, pygame.error)
        if not device_error:
            key = f"{type(exc).__name__}: {exc}"
            if key not in self._unexpected:
                self._unexpected.add(key)
                self._log.error("sound: unexpected error, the box plays on", exc_info=exc)
            return
        with self._device:
            if not self._open:
                return
            with self._state:
                self._open = False
                self._queue.clear()
            with self._plan_lock:
                self._plan.lost()
            try:
                self._mixer.close()
            except Exception:  # closing a dead device may fail too
                self._log.debug("closing the lost sound device failed", exc_info=True)
            self._no_device(f"the sound device stopped working ({_reason(exc)})")

    def _uses_pygame(self) -> bool:
        return isinstance(self._mixer, PygameMixer)

    def _check_configured_files(self) -> None:
        """Report an unreadable configured music file at start, not when its era begins."""
        for choice in self.config.eras:
            name = choice.music
            if not name or name in self._checked_files:
                continue
            self._checked_files.add(name)
            try:
                self._mixer.check(name)
            except FileProblem as exc:
                self._bad_file(str(Path(name)), exc)
                with self._plan_lock:
                    self._plan.file_failed(str(Path(name)), self._clock())

    def _load_cues(self) -> None:
        for sound in CUE_CHANNELS:
            chosen = str(getattr(self.config, sound.value))  # config key named like the cue
            built_in = str(self.sounds_dir / f"{sound.value}.ogg")
            candidates = [chosen] if chosen else []
            candidates.append(built_in)
            for path in candidates:
                if path in self._bad_files:
                    continue
                try:
                    loud = self._mixer.load_cue(sound, path)
                except FileProblem as exc:
                    if path not in self._bad_files:
                        self._bad_files.add(path)
                        fallback = ("this cue stays silent" if path == built_in
                                    else f"the built-in {sound.value} plays instead")
                        self._log.error("cannot play sound file %s: %s; %s", path,
                                        _reason(exc), fallback)
                    continue
                with self._plan_lock:
                    self._plan.cue_loaded(sound, loud)
                break

    # --- the worker -----------------------------------------------------------------------------

    def _round(self, _look_again: None) -> float | None:
        """The worker, woken by a put or at its deadline: the queued music commands in order,
        then what is due (a ramp step, a retry to open the device); returns the seconds until
        the next of those (None: nothing is planned)."""
        while True:
            with self._state:
                if self._closed:
                    return None
                if self._queue:
                    command: Command | None = self._queue.popleft()
                else:
                    now = time.monotonic()
                    retry = self._retry_at if not self._open else None
                    wake = None
                    if self._open:
                        with self._plan_lock:
                            wake = self._plan.wake_at(self._clock())
                    if wake is not None:
                        wake = now + max(wake - self._clock(), 0.0)  # on this thread's clock
                    due = min((t for t in (retry, wake) if t is not None), default=None)
                    if due is None:
                        return None
                    if due > now:
                        return due - now
                    command = None
            try:
                if command is not None:
                    if self._open:
                        self._music(command)
                    continue
                if not self._open:
                    if self._retry_at is not None and time.monotonic() >= self._retry_at:
                        self._try_open()
                    continue
                with self._plan_lock:
                    steps = self._plan.tick(self._clock())
                for step in steps:
                    self._music(step)
            except Exception as exc:  # a sound problem must not stop the worker
                self._failed(exc)

    def _notify(self) -> None:
        callback = self.on_change
        if callback is None:
            return
        try:
            callback()
        except Exception:  # the app's redraw must not break the sound thread
            self._log.exception("sound: on_change callback failed")


def _reason(exc: object) -> str:
    text = str(exc).strip().rstrip(".")
    hint = install_hint(text)  # a library missing from the system: name its package
    return (text or type(exc).__name__) + (f"; {hint}" if hint else "")

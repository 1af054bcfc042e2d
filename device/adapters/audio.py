"""The box's sound: era music and cues on pygame's mixer.

The core sends audio as effect values (`PlaySound`, `Music`, `SetVolume`); `Audio.apply` turns
them into sound. Design choices, and why:

- **Loops are decoded `Sound`s on a reserved channel**, not `pygame.mixer.music`: a `Sound`
  played with `loops=-1` wraps sample-exactly (no gap at the seam), `Channel.pause()` keeps the
  position to the sample, and its volume can be ramped while cues play on other channels. To
  start a loop at position p the decoded buffer is *rotated* (`raw[p:] + raw[:p]`): the rotated
  buffer is the same seamless loop, just beginning at p, so it can loop forever on its own.
- **Soundtracks ("track") stream through `pygame.mixer.music`**: a publisher's track is as long
  as the whole action phase (~100 MB decoded), so it is streamed from the file and started with
  `play(start=offset + elapsed)`, which SDL_mixer seeks exactly for OGG/WAV/MP3/FLAC. A track
  carries its own gongs and cries, so the box adds none (and no ticks) while it plays.
- **Cues** (gong, cry, tick) each have their own reserved channel, so a tick never cuts a gong.
  Gong and cry duck the music by `duck_db` with a 150 ms ramp down and a 400 ms ramp back after
  the cue ends; ticks do not duck (ten ticks a second apart would make the music pump).
- **One background thread** steps the ramps every 15 ms while one is running and retries
  opening the sound device every few seconds while there is none; otherwise it sleeps on a
  condition. Everything it and `apply()` touch is guarded by one lock.
- **No device** (or a device lost mid-game) never stops the box: one warning is logged,
  `problem` says why, and the music comes back at the right position once the device opens,
  computed from the last music effect's `elapsed` and the time that has passed since.

pygame is imported late, inside this module's functions, so the package imports on any machine.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..core.config import AudioConfig
from ..core.model import Effect, Mode, Music, MusicAction, PlaySound, SetVolume, Show, Sound
from ..syslibs import install_hint

Opener = Callable[[AudioConfig], None]
Clock = Callable[[], float]

MUSIC_CHANNEL = 0
CUE_CHANNELS: dict[Sound, int] = {Sound.GONG: 1, Sound.CRY: 2, Sound.TICK: 3}
DUCKING_CUES = frozenset({Sound.GONG, Sound.CRY})
DUCK_DOWN_S = 0.15  # ramp from full music to ducked
DUCK_UP_S = 0.4  # ramp back after the last cue ended
DUCK_UNTIL_DB = 20.0  # the music comes back once a cue has fallen this far below its peak
RAMP_STEP_S = 0.015  # how often a running ramp sets the channel volume
RETRY_S = 3.0  # how often a missing sound device is looked for again
STOP_FADE_MS = 250  # a loop fades out this fast on STOP (a hard stop clicks)
TRACK_STOP_FADE_MS = 5000  # a track's own end gong rings out while it fades
FRAME_BYTES = 4  # one frame of signed 16-bit stereo

MusicSource = Literal["loop", "track"]

_LOG = logging.getLogger(__name__)


def open_mixer(config: AudioConfig) -> None:
    """Open pygame's mixer as signed 16-bit stereo at `config.rate` on `config.device`.

    `allowedchanges=0` makes SDL convert to exactly this format instead of adopting whatever
    the hardware prefers. SDL's own environment (`SDL_AUDIODRIVER`, `SDL_DISKAUDIOFILE`, ...)
    is left alone, so tests can record the mixed output with the `disk` driver.
    """
    pygame = _pygame()
    pygame.mixer.init(
        frequency=config.rate,
        size=-16,
        channels=2,
        buffer=config.buffer,
        devicename=config.device or None,
        allowedchanges=0,
    )


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


def gain_from_db(db: float) -> float:
    """Linear amplitude factor for a level in decibels (0 dB = 1.0)."""
    return float(10.0 ** (db / 20.0))


def loop_start_frame(elapsed_s: float, rate: int, frames: int) -> int:
    """The frame of a loop of `frames` frames that plays `elapsed_s` seconds into the era."""
    if frames <= 0:
        return 0
    return round(max(elapsed_s, 0.0) * rate) % frames


def rotate_frames(raw: bytes, start_frame: int) -> bytes:
    """The loop `raw` (S16 stereo) beginning at `start_frame`; it still loops seamlessly."""
    cut = (start_frame * FRAME_BYTES) % max(len(raw), 1)
    return raw[cut:] + raw[:cut]


@dataclass(frozen=True)
class _MusicMemo:
    """The last music effect: enough to know where the music is now, loaded or not."""

    era: int
    mode: Mode
    elapsed: float  # the era's running time ...
    at: float  # ... at this clock reading
    running: bool  # START/RESUME (the era clock runs) or PAUSE

    def elapsed_at(self, now: float) -> float:
        return self.elapsed + (now - self.at if self.running else 0.0)


@dataclass
class _NowPlaying:
    era: int
    source: MusicSource
    path: Path
    streamed: bool  # through pygame.mixer.music (a long track) rather than the music channel
    paused: bool


@dataclass
class _Ramp:
    from_db: float
    to_db: float
    start: float
    duration: float

    def level_at(self, now: float) -> tuple[float, bool]:
        """The music level (dB) at `now`, and whether the ramp is finished."""
        if self.duration <= 0 or now >= self.start + self.duration:
            return self.to_db, True
        share = max(now - self.start, 0.0) / self.duration
        return self.from_db + (self.to_db - self.from_db) * share, False


class Audio:
    """Era music and cues on pygame's mixer, driven by the core's effects.

    `apply()` is meant for the app's loop thread; an internal thread runs the ducking ramps and
    the device retries. `on_change`, when set, is called (from either thread, outside the lock)
    whenever `problem` changes, so the app can redraw its "no sound" mark: it should only post
    an event to the app's queue.
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
    ) -> None:
        """Open the mixer (or note why not and keep retrying every `retry_s` in the background).

        `clock` is the app's clock: music positions after a pause, restart or late device are
        computed on it. `opener` opens the mixer (tests inject a failing one). Read `problem`
        once after construction; `on_change` reports every later change.
        """
        self.config = config
        self.sounds_dir = Path(sounds_dir)
        self.on_change: Callable[[], None] | None = None
        self._log = log
        self._clock = clock
        self._opener = opener
        self._retry_s = retry_s
        self._cond = threading.Condition(threading.RLock())
        self._closed = False
        self._open = False
        self._problem: str | None = None
        self._changed = False  # `problem` changed; tell on_change once the lock is released
        self._retry_at: float | None = None
        self._master = min(max(config.volume, 0.0), 1.0)
        self._duck_db = 0.0  # current music attenuation, 0 .. -duck_db
        self._ramp: _Ramp | None = None
        self._cues_end: float | None = None  # when the last ducking cue stops sounding
        self._cues: dict[Sound, Any] = {}
        self._cue_loud_s: dict[Sound, float] = {}  # how long each cue ducks the music
        self._rate = config.rate
        self._decoded_cache: tuple[Path, bytes] | None = None  # one era's music at a time
        self._preload: tuple[Path, str] | None = None  # decode this ahead (file, fallback text)
        self._preloading: Path | None = None  # being decoded by the background thread now
        self._streamed: dict[Path, bool] = {}
        self._music_sound: Any = None  # keeps the playing rotated loop alive
        self._now: _NowPlaying | None = None
        self._memo: _MusicMemo | None = None
        self._modes: dict[int, Mode] = {}  # each era's mode, from Show and Music effects
        self._bad_files: set[str] = set()  # unreadable files, reported once each
        self._checked_files: set[str] = set()
        self._unexpected: set[str] = set()
        with self._cond:
            self._try_open()
            self._changed = False  # nobody is listening yet: the app reads `problem` first
        self._worker = threading.Thread(target=self._run, name="erabox-audio", daemon=True)
        self._worker.start()

    # --- public API -------------------------------------------------------------------------

    @property
    def problem(self) -> str | None:
        """None when sound works, else "no sound: <reason>"."""
        return self._problem

    @property
    def is_open(self) -> bool:
        """Whether the mixer is open on a device right now."""
        return self._open

    def apply(self, effects: Sequence[Effect], now: float) -> None:
        """Play what a step's effects ask for (`AudioPort`). Effects that are not about sound
        are ignored. `now` is the loop's time of the step; positions are taken on `clock`.

        `Show` effects are only read for the era's mode (a lead-in tick or a start gong arrives
        before the era's first `Music` effect and must know whether a track carries it). Never
        raises for a sound problem: the box keeps running silent and `problem` says why.
        """
        with self._cond:
            for effect in effects:
                try:
                    self._apply_locked(effect)
                except Exception as exc:  # a sound problem must not stop the game
                    self._failed_while_playing(exc)
            changed = self._take_changed()
        if changed:
            self._notify()

    def retry_now(self) -> bool:
        """Try to open the sound device now (if it is not open); True when it is open."""
        with self._cond:
            if not self._open and not self._closed:
                self._try_open()
            changed = self._take_changed()
            is_open = self._open
        if changed:
            self._notify()
        return is_open

    def close(self) -> None:
        """Stop the sound, the background thread and the mixer. Safe to call twice."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        self._worker.join(timeout=2.0)
        with self._cond:
            if self._open:
                self._shut_mixer()

    # --- effects ------------------------------------------------------------------------------

    def _apply_locked(self, effect: object) -> None:
        if self._closed:
            return
        if isinstance(effect, Show):
            self._modes[effect.screen.era] = effect.screen.mode
            self._want_preload(effect.screen.era, effect.screen.mode)
        elif isinstance(effect, SetVolume):
            self._master = min(max(float(effect.level), 0.0), 1.0)
            if self._open:
                self._set_volumes()
        elif isinstance(effect, PlaySound):
            if self._open and not self._track_carries(effect):
                self._play_cue(effect.sound)
        elif isinstance(effect, Music):
            self._music(effect)

    def _music(self, effect: Music) -> None:
        now = self._clock()
        self._modes[effect.era] = effect.mode
        action = effect.action
        if action is MusicAction.STOP:
            self._memo = None
        else:
            running = action is not MusicAction.PAUSE
            self._memo = _MusicMemo(effect.era, effect.mode, effect.elapsed, now, running)
        if not self._open:
            return
        playing = self._now
        if action is MusicAction.STOP:
            self._stop_music(fade=True)
        elif action is MusicAction.PAUSE:
            if playing is not None and not playing.paused:
                self._pause_music(playing)
        elif action is MusicAction.START:
            self._start_music(effect.era, effect.mode, effect.elapsed)
        elif (playing is not None and playing.paused and playing.era == effect.era
              and self._plan(effect.era, effect.mode)[1] == playing.path):
            self._unpause_music(playing)
        elif playing is None or playing.era != effect.era or playing.paused:
            # RESUME with nothing (or something else) loaded: after a restart or a late device
            self._start_music(effect.era, effect.mode, effect.elapsed)

    def _track_carries(self, effect: PlaySound) -> bool:
        """True when this era's soundtrack already contains the cue (real-time track eras)."""
        mode = self._modes.get(effect.era, Mode.REALTIME)
        return self._plan(effect.era, mode)[0] == "track"

    def _plan(self, era: int, mode: Mode) -> tuple[MusicSource, Path]:
        """Which file plays as `era`'s music in `mode`, skipping files known to be unreadable."""
        built_in = self.sounds_dir / f"era{era}.ogg"
        if not 1 <= era <= len(self.config.eras):
            return "loop", built_in
        choice = self.config.eras[era - 1]
        if not choice.music or str(Path(choice.music)) in self._bad_files:
            return "loop", built_in
        if choice.music_kind == "track":
            # a timed soundtrack only fits a timed era; an intro era gets the built-in loop
            return ("track", Path(choice.music)) if mode is Mode.REALTIME else ("loop", built_in)
        return "loop", Path(choice.music)

    def _want_preload(self, era: int, mode: Mode) -> None:
        """Have the background thread decode this era's music while its setup screen shows.

        Decoding a minute of OGG takes ~0.6 s on a laptop and seconds on a Pi; done at the
        start gong it would hold up the app's loop (screen and buttons) that long.
        """
        if not self._open:
            return
        source, path = self._plan(era, mode)
        if source == "track":
            if self._streamed.setdefault(path, _streams(path)):
                return  # streamed from the file: nothing to decode
            fallback = "the built-in era music and cues play instead"
        else:
            fallback = self._fallback_text(path)
        cached = self._decoded_cache is not None and self._decoded_cache[0] == path
        if cached or path == self._preloading or str(path) in self._bad_files:
            return
        self._preload = (path, fallback)
        self._cond.notify_all()

    def _preload_now(self, path: Path, fallback: str) -> None:
        """Decode `path` without holding the lock, then hand it over as the cached music."""
        pygame = _pygame()
        raw = b""
        error: object = "it holds no sound"
        try:
            raw = bytes(pygame.mixer.Sound(str(path)).get_raw())
        except (pygame.error, OSError) as exc:
            error = exc
        with self._cond:
            self._preloading = None
            if len(raw) >= FRAME_BYTES:
                self._decoded_cache = (path, raw)
            elif self._open:  # a closed mixer fails every file: that is not the file's fault
                self._bad_file(path, error, fallback)
            self._cond.notify_all()

    def _wait_for_preload(self, path: Path | None = None, timeout: float = 30.0) -> None:
        """Wait (releasing the lock) while the background thread decodes `path` (None: any)."""
        deadline = time.monotonic() + timeout
        while self._preloading is not None and path in (None, self._preloading):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._cond.wait(left)

    # --- music --------------------------------------------------------------------------------

    def _start_music(self, era: int, mode: Mode, era_time: float) -> None:
        """Start `era`'s music where the era is now: `era_time` s after its start gong."""
        self._stop_music(fade=False)
        started = self._clock()
        while True:
            source, path = self._plan(era, mode)
            if source == "loop":
                if self._start_loop(era, path, era_time):
                    return
                if path == self.sounds_dir / f"era{era}.ogg":
                    return  # even the built-in loop is unreadable (already reported): silence
                continue  # the configured loop is unreadable: the plan now names the built-in
            # a track must stay in step with the era clock, so the time spent loading counts
            offset = self.config.eras[era - 1].track_offset_s
            if self._start_track(era, path, offset + era_time, since=started):
                return

    def _start_loop(self, era: int, path: Path, era_time: float) -> bool:
        """Loop `path` from `era_time` (mod its length); False if it cannot be decoded."""
        raw = self._decoded(path, self._fallback_text(path))
        if raw is None:
            return False
        start = loop_start_frame(era_time, self._rate, len(raw) // FRAME_BYTES)
        self._play_on_music_channel(rotate_frames(raw, start), loops=-1)
        self._now = _NowPlaying(era, "loop", path, streamed=False, paused=False)
        return True

    def _start_track(self, era: int, path: Path, position: float, *, since: float) -> bool:
        """Play the soundtrack `path` once from `position` s, which was right at clock `since`
        (loading takes a moment and the era clock runs on). False if it cannot be read.

        OGG/MP3/FLAC stream from the file (`music.play(start=...)` seeks them to the sample).
        WAV is raw PCM already, so it is read into memory and sliced: SDL_mixer 2.6 seeks WAV
        only to whole seconds, which would put the track's cues up to 1 s off the box's prompts.
        """
        pygame = _pygame()
        fallback = "the built-in era music and cues play instead"
        if _streams(path):
            try:
                pygame.mixer.music.load(str(path))
            except (pygame.error, OSError) as exc:
                self._bad_file(path, exc, fallback)
                return False
            pygame.mixer.music.set_volume(self._music_gain())
            at = position + self._clock() - since
            try:
                pygame.mixer.music.play(start=at)
            except pygame.error as exc:
                # SDL_mixer refuses to seek past the end: the track is over at this point
                self._log.info("soundtrack %s has nothing at %.1f s (%s)", path, at, _reason(exc))
                return True
            self._now = _NowPlaying(era, "track", path, streamed=True, paused=False)
            return True
        raw = self._decoded(path, fallback)
        if raw is None:
            return False
        at = position + self._clock() - since
        first = round(max(at, 0.0) * self._rate) * FRAME_BYTES
        if first >= len(raw):
            self._log.info("soundtrack %s has nothing at %.1f s", path, at)
            return True
        self._play_on_music_channel(memoryview(raw)[first:], loops=0)
        self._now = _NowPlaying(era, "track", path, streamed=False, paused=False)
        return True

    def _play_on_music_channel(self, samples: bytes | memoryview, *, loops: int) -> None:
        pygame = _pygame()
        sound = pygame.mixer.Sound(buffer=samples)
        channel = pygame.mixer.Channel(MUSIC_CHANNEL)
        channel.set_volume(self._music_gain())
        channel.play(sound, loops=loops)
        self._music_sound = sound

    def _decoded(self, path: Path, fallback: str) -> bytes | None:
        """The file's samples in the mixer's format; one era's music is kept (and cached)."""
        self._wait_for_preload(path)  # it is being decoded already: do not do it twice
        if self._decoded_cache is not None and self._decoded_cache[0] == path:
            return self._decoded_cache[1]
        if str(path) in self._bad_files:
            return None
        self._decoded_cache = None  # let the previous era's music go before decoding this one
        pygame = _pygame()
        try:
            raw = bytes(pygame.mixer.Sound(str(path)).get_raw())
        except (pygame.error, OSError) as exc:
            self._bad_file(path, exc, fallback)
            return None
        if len(raw) < FRAME_BYTES:
            self._bad_file(path, "it holds no sound", fallback)
            return None
        self._decoded_cache = (path, raw)
        return raw

    def _fallback_text(self, path: Path) -> str:
        if path.parent == self.sounds_dir:
            return "this music stays silent"
        return "the built-in music plays instead"

    def _pause_music(self, playing: _NowPlaying) -> None:
        pygame = _pygame()
        if playing.streamed:
            pygame.mixer.music.pause()
        else:
            pygame.mixer.Channel(MUSIC_CHANNEL).pause()
        playing.paused = True

    def _unpause_music(self, playing: _NowPlaying) -> None:
        pygame = _pygame()
        if playing.streamed:
            pygame.mixer.music.unpause()
        else:
            pygame.mixer.Channel(MUSIC_CHANNEL).unpause()
        playing.paused = False

    def _stop_music(self, *, fade: bool) -> None:
        playing, self._now = self._now, None
        if playing is None:
            return
        pygame = _pygame()
        fade = fade and not playing.paused  # a paused fade would hang, paused, forever
        # a track's own end gong rings out while it fades; a loop just must not click
        fade_ms = TRACK_STOP_FADE_MS if playing.source == "track" else STOP_FADE_MS
        if playing.streamed:
            if fade:
                pygame.mixer.music.fadeout(fade_ms)
            else:
                pygame.mixer.music.stop()
        else:
            channel = pygame.mixer.Channel(MUSIC_CHANNEL)
            if fade:
                channel.fadeout(fade_ms)
            else:
                channel.stop()

    # --- cues and ducking ---------------------------------------------------------------------

    def _play_cue(self, sound: Sound) -> None:
        cue = self._cues.get(sound)
        if cue is None:
            return  # its file was unreadable (reported once when it was loaded)
        pygame = _pygame()
        channel = pygame.mixer.Channel(CUE_CHANNELS[sound])
        channel.set_volume(self._master)
        channel.play(cue)
        if sound in DUCKING_CUES and self.config.duck_db > 0:
            now = time.monotonic()
            ends = now + self._cue_loud_s.get(sound, float(cue.get_length()))
            self._cues_end = max(self._cues_end or 0.0, ends)
            target = -self.config.duck_db
            if self._duck_db > target and (self._ramp is None or self._ramp.to_db != target):
                share = (self._duck_db - target) / self.config.duck_db
                self._ramp = _Ramp(self._duck_db, target, now, DUCK_DOWN_S * share)
            self._cond.notify_all()

    def _music_gain(self) -> float:
        return self._master * gain_from_db(self._duck_db)

    def _set_volumes(self) -> None:
        pygame = _pygame()
        gain = self._music_gain()
        pygame.mixer.Channel(MUSIC_CHANNEL).set_volume(gain)
        pygame.mixer.music.set_volume(gain)
        for number in CUE_CHANNELS.values():
            pygame.mixer.Channel(number).set_volume(self._master)

    def _step_ducking(self, now: float) -> float | None:
        """Advance the ducking; returns how long the thread may sleep (None = until woken)."""
        if self._ramp is None and self._cues_end is not None and now >= self._cues_end:
            self._cues_end = None
            if self._duck_db < 0:
                share = -self._duck_db / max(self.config.duck_db, 1e-9)
                self._ramp = _Ramp(self._duck_db, 0.0, now, DUCK_UP_S * min(share, 1.0))
        if self._ramp is not None:
            self._duck_db, done = self._ramp.level_at(now)
            if done:
                self._ramp = None
            if self._open:
                gain = self._music_gain()
                pygame = _pygame()
                pygame.mixer.Channel(MUSIC_CHANNEL).set_volume(gain)
                pygame.mixer.music.set_volume(gain)
            if not done:
                return RAMP_STEP_S
        if self._cues_end is not None:
            return max(self._cues_end - now, 0.0)
        return 0.0 if self._ramp is not None else None

    # --- the device ---------------------------------------------------------------------------

    def _try_open(self) -> None:
        """Open the mixer; on success load the cues and bring the music back where it is now."""
        try:
            self._opener(self.config)
            pygame = _pygame()
            init = pygame.mixer.get_init()
            if not init:
                raise RuntimeError("the mixer did not open")
            self._rate = int(init[0])
            pygame.mixer.set_num_channels(max(8, len(CUE_CHANNELS) + 1))
            pygame.mixer.set_reserved(len(CUE_CHANNELS) + 1)
        except Exception as exc:  # whatever the opener raises means "no device"
            self._no_device(_reason(exc))
            return
        self._open = True
        self._retry_at = None
        if self._problem is not None:
            self._log.info("sound is back (%s)", self._describe_device())
            self._problem = None
            self._changed = True
        else:
            self._log.info("sound: %s", self._describe_device())
        try:
            self._check_configured_files()
            self._load_cues()
            self._set_volumes()
            memo = self._memo
            if memo is not None and memo.running:
                # the era clock ran on while there was no sound
                self._start_music(memo.era, memo.mode, memo.elapsed_at(self._clock()))
        except Exception as exc:  # a bug here must not stop the clock
            self._failed_while_playing(exc)

    def _describe_device(self) -> str:
        device = self.config.device or "default device"
        driver = os.environ.get("SDL_AUDIODRIVER", "")
        return (f"{device}{' via SDL driver ' + driver if driver else ''}, {self._rate} Hz, "
                f"{self.config.buffer} frames")

    def _no_device(self, reason: str) -> None:
        first = self._problem is None
        self._problem = f"no sound: {reason}"
        if first:
            self._changed = True
            self._log.warning("%s; the box keeps running silent and looks for the device again "
                              "every %g s", self._problem, self._retry_s)
        else:
            self._log.debug("still %s", self._problem)
        self._retry_at = time.monotonic() + self._retry_s
        self._cond.notify_all()

    def _failed_while_playing(self, exc: Exception) -> None:
        """A mixer call failed: the device went away (or, for other errors, a bug)."""
        pygame = _pygame()
        if not isinstance(exc, pygame.error):
            key = f"{type(exc).__name__}: {exc}"
            if key not in self._unexpected:
                self._unexpected.add(key)
                self._log.error("sound: unexpected error, the box plays on", exc_info=exc)
            return
        if self._open:
            self._shut_mixer()
        self._no_device(f"the sound device stopped working ({_reason(exc)})")

    def _shut_mixer(self) -> None:
        """Drop every mixer object, then close the mixer (objects must not outlive it)."""
        self._wait_for_preload()  # no decoding may run while the mixer closes
        self._open = False
        self._now = None
        self._music_sound = None
        self._cues = {}
        pygame = _pygame()
        try:
            pygame.mixer.stop()
            pygame.mixer.music.stop()
        except pygame.error:
            pass
        pygame.mixer.quit()

    def _check_configured_files(self) -> None:
        """Report an unreadable configured music file at start, not when its era begins.

        `music.load` only reads the file's header, so this is cheap even for long tracks.
        """
        pygame = _pygame()
        for choice in self.config.eras:
            name = choice.music
            if not name or name in self._checked_files:
                continue
            self._checked_files.add(name)
            try:
                pygame.mixer.music.load(name)
                pygame.mixer.music.unload()
            except (pygame.error, OSError) as exc:
                self._bad_file(Path(name), exc, "the built-in era music (and cues) play instead")

    def _load_cues(self) -> None:
        pygame = _pygame()
        for sound in CUE_CHANNELS:
            chosen = str(getattr(self.config, sound.value))  # config key named like the cue
            built_in = self.sounds_dir / f"{sound.value}.ogg"
            candidates = [Path(chosen)] if chosen else []
            candidates.append(built_in)
            cue = None
            for path in candidates:
                if str(path) in self._bad_files:
                    continue
                try:
                    cue = pygame.mixer.Sound(str(path))
                    break
                except (pygame.error, OSError) as exc:
                    fallback = ("this cue stays silent" if path == built_in
                                else f"the built-in {sound.value} plays instead")
                    self._bad_file(path, exc, fallback)
            self._cues[sound] = cue
            if cue is not None:
                self._cue_loud_s[sound] = loud_seconds(cue.get_raw(), self._rate)

    def _bad_file(self, path: Path, why: object, fallback: str) -> None:
        """Report an unreadable sound file once, naming it; it is not tried again."""
        key = str(path)
        if key in self._bad_files:
            return
        self._bad_files.add(key)
        self._log.error("cannot play sound file %s: %s; %s", key, _reason(why), fallback)

    # --- the background thread ----------------------------------------------------------------

    def _run(self) -> None:
        while True:
            job: tuple[Path, str] | None = None
            with self._cond:
                if self._closed:
                    return
                now = time.monotonic()
                try:
                    sleep = self._step_ducking(now)
                except Exception as exc:  # a bug here must not stop the clock
                    self._failed_while_playing(exc)
                    sleep = None
                if not self._open and self._retry_at is not None:
                    if now >= self._retry_at:
                        self._try_open()
                    if self._retry_at is not None:
                        wait = max(self._retry_at - time.monotonic(), 0.0)
                        sleep = wait if sleep is None else min(sleep, wait)
                if self._preload is not None and self._open:
                    job, self._preload = self._preload, None
                    self._preloading = job[0]
                    self._decoded_cache = None  # free the last era's music before decoding
                changed = self._take_changed()
                if not changed and job is None:
                    self._cond.wait(sleep)
            if changed:
                self._notify()
            if job is not None:
                self._preload_now(*job)

    def _take_changed(self) -> bool:
        changed, self._changed = self._changed, False
        return changed

    def _notify(self) -> None:
        callback = self.on_change
        if callback is None:
            return
        try:
            callback()
        except Exception:  # the app's redraw must not break the sound thread
            self._log.exception("sound: on_change callback failed")


def _streams(path: Path) -> bool:
    """Whether a track is streamed from its file: everything but WAV (see `_start_track`)."""
    try:
        with open(path, "rb") as file:
            return file.read(4) != b"RIFF"
    except OSError:
        return True  # unreadable: music.load will say why


def _reason(exc: object) -> str:
    text = str(exc).strip().rstrip(".")
    hint = install_hint(text)  # a library missing from the system: name its package
    return (text or type(exc).__name__) + (f"; {hint}" if hint else "")

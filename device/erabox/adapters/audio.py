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
  planner replays the music where the era is now. It is a `workers.NewestWorker` used as
  a timer (`Again.TIMER`): a put means "look again" (the ordered command queue is this module's
  own), and each round returns the seconds until the next ramp step or retry.

pygame is imported late, inside this module's functions, so the package imports on any machine.
Seeking: SDL_mixer 2.6 seeks OGG, FLAC and MP3 to the sample but WAV music only to whole seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..core import rules
from ..core.audio_plan import (
    AudioPlan,
    CheckMusic,
    Command,
    LoadSound,
    PauseMusic,
    PlayCue,
    PrepareStream,
    ResumeMusic,
    SetCueGain,
    SetMusicGain,
    StartMusic,
    StopMusic,
    score_file,
)
from ..core.config import SCORE_VARIANTS, AudioConfig
from .mixer import (
    CUE_CHANNELS,
    Clock,
    FileProblem,
    Mixer,
    Opener,
    PygameMixer,
    load_pygame,
    open_mixer,
    reason,
)
from .workers import Again, NewestWorker

RETRY_S = 3.0  # how often a missing sound device is looked for again

_LOG = logging.getLogger(__name__)


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
                  if (self.sounds_dir / score_file(era, 1)).is_file()]
        variants = [(era, v) for era in scores for v in range(2, SCORE_VARIANTS + 1)
                    if (self.sounds_dir / score_file(era, v)).is_file()]
        self._plan = AudioPlan(config, str(self.sounds_dir), scores=scores, variants=variants,
                               era_shape=era_shape)
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
        self.sounds_loaded: set[str] = set()  # a profile's own sounds decoded (for tests)
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
            self._mixer.play_cue(command.sound, command.file)
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
            gain = self._plan_gain()
            if self._file_ok(command.path, lambda: played.append(
                    mixer.play_music(command.path, position, command.loop, gain))):
                self.loaded = command.path
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
        elif isinstance(command, LoadSound):
            self._load_sound(command.path)
        elif isinstance(command, CheckMusic):  # a profile's track: its cues sound if unread
            self._file_ok(command.path, lambda: mixer.check(command.path))
        elif isinstance(command, PlayCue | SetCueGain):  # from a replay after a reopen
            self._cue(command)

    def _load_sound(self, path: str) -> None:
        """Decode a game profile's own sound (on the worker, when the game is set up: never
        when its call is due); one that cannot be: said once, the box's cue stands in."""
        try:
            loud = self._mixer.load_sound(path)
        except FileProblem as exc:
            if path not in self._bad_files:
                self._bad_files.add(path)
                self._log.error("cannot play sound file %s: %s; the box's cue plays instead",
                                path, reason(exc))
            with self._plan_lock:
                self._plan.file_failed(path, self._clock())
            return
        with self._plan_lock:
            self._plan.sound_loaded(path, loud)
        self.sounds_loaded.add(path)

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
        profile = [file for era in self.config.game_eras for file in (era.score, era.music)]
        if any(era.music and str(Path(era.music)) == path for era in self.config.eras):
            fallback = "the built-in music plays instead"
        elif path in self._plan.tracks:  # a game profile's publisher's track
            fallback = "the box sounds the cues it holds instead"
        elif any(file and str(Path(file)) == path for file in profile):  # a game's era music
            fallback = "the era's other music plays instead (its own, else the box's)"
        else:  # a built-in file, or a game profile's phase music: nothing stands in for it
            fallback = "this music stays silent"
        self._log.error("cannot play sound file %s: %s; %s", path, reason(why), fallback)

    # --- the device (the supervisor) ------------------------------------------------------------

    def _try_open(self, *, notify: bool = True) -> None:
        """Open the device; on success load the cues and replay the plan where it is now."""
        with self._device:
            if self._open or self._closed:
                return
            try:
                described = self._mixer.open(self.config)
            except Exception as exc:  # whatever the opener raises means "no device"
                self._no_device(reason(exc), notify=notify)
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
        pygame = load_pygame() if self._uses_pygame() else None
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
            self._no_device(f"the sound device stopped working ({reason(exc)})")

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
                                        reason(exc), fallback)
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

"""The box's sound as a pure plan: effects and `now` in, mixer commands out.

Like the game core and the button recogniser this module never plays, sleeps or reads a clock.
`AudioPlan` owns everything the sound needs to *decide*:

- **which file** plays as an era's music, and how: a seamless `loop` (intro eras, the
  `synth` style, a player's own loop), a through-composed `timed` score played positioned at the
  era's running time (the box's gongs and cries still sound on top), or a publisher's `track`
  (timed too, but it carries its own cues, so the box plays none over it); a game profile's
  phase music is the file its `Music` effect names (a loop, or played once like a score); an
  era may have the game profile's own music (`[[era]] music`, `score`), and an era beyond the
  soundtrack's three borrows one of them in turn (`music_era`: Era IV plays Era I's);
- **where the music is**: the era's running time at a clock reading, so a pause, a restart or
  a sound card that comes late or comes back starts the music at the right sample;
- **the ducking**: gong and cry lower the music by `duck_db`, with a 150 ms ramp down and a
  400 ms ramp back once the cue has faded (ticks do not duck: ten a second apart would pump);
- **the master volume**.

The adapter (`erabox.adapters.audio`) executes the commands on pygame's mixer: cues at once
on the caller's thread, music commands in order on its own worker, and it calls `tick(now)`
whenever `wake_at(now)` says a ramp step is due. Files that cannot be read come back through
`file_failed`; a lost and reopened device through `lost` and `reopened`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from . import rules
from .config import AudioConfig
from .model import (
    Mode,
    Music,
    MusicAction,
    PlaySound,
    PrepareMusic,
    PrepareSounds,
    SetVolume,
    Sound,
)
from .music_score import score_segments

DUCKING_CUES = frozenset({Sound.GONG, Sound.CRY})
DUCK_DOWN_S = 0.15  # ramp from full music to ducked
DUCK_UP_S = 0.4  # ramp back after the last cue stopped being loud
RAMP_STEP_S = 0.015  # how often a running ramp sets the music's gain
STOP_FADE_S = 0.25  # music fades this fast on STOP (a hard stop clicks)
TRACK_STOP_FADE_S = 5.0  # a track's own end gong rings out while it fades
# A timed score that changes its place at a scholar call does it this long after the call: the
# cry's first periods are mixed before the music is moved. Moving it seeks in the file while
# SDL's mixer is locked, which can take tens of ms on a slow CPU, and a cry played meanwhile
# would wait for it; the cry, ducking the music, covers the quarter second of the old place.
SEEK_AFTER_S = 0.25

MusicKind = Literal["loop", "timed", "track"]


# --- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayCue:
    """Play this cue now, on its own channel (a tick never cuts a gong); `file`: a profile's
    own sound, decoded ahead (`LoadSound`), played on `sound`'s channel instead of it."""

    sound: Sound
    file: str = ""


@dataclass(frozen=True)
class LoadSound:
    """Decode a game profile's own sound file (on the worker, before it can be called for):
    the adapter reports `sound_loaded` or `file_failed`."""

    path: str


@dataclass(frozen=True)
class CheckMusic:
    """Check that a game profile's publisher's track can be read (its header, on the
    worker, when the game is set up): the adapter reports `file_failed` if not, and the
    cues it holds sound from the box then."""

    path: str


@dataclass(frozen=True)
class SetCueGain:
    gain: float


@dataclass(frozen=True)
class SetMusicGain:
    gain: float


@dataclass(frozen=True)
class PrepareStream:
    """Open `path` for streaming (its header only) and let any other music go; park it, paused
    and silent, at `start` (where the era's running time 0 is in the file) to be played with
    `loop`, so that starting the era later is only a resume. Placing music in its file holds
    SDL's mixer lock while it reads and decodes; parked, that happens in the setup's silence,
    not when the era's first gong must sound."""

    path: str
    start: float = 0.0
    loop: bool = False


@dataclass(frozen=True)
class StartMusic:
    """Play `path` from `position` s into the file, right at clock reading `at`.

    The music runs on while the adapter gets to it: it adds the time since `at`. A `loop`
    wraps `position` at the file's length and plays forever; otherwise the file plays once
    (nothing sounds when `position` is past its end). Whatever played before stops at once.
    """

    path: str
    position: float
    at: float
    loop: bool
    gain: float


@dataclass(frozen=True)
class PauseMusic:
    """Hold the music where it is (to the sample)."""


@dataclass(frozen=True)
class ResumeMusic:
    """Go on from where `PauseMusic` held it."""


@dataclass(frozen=True)
class StopMusic:
    fade_s: float


Command = (PlayCue | SetCueGain | SetMusicGain | PrepareStream | StartMusic | PauseMusic
           | ResumeMusic | StopMusic | LoadSound | CheckMusic)


# --- what plays ---------------------------------------------------------------------------------


Pieces = tuple[tuple[float, float], ...]  # ((running time, file position), ...), see music_score.py


@dataclass(frozen=True)
class Choice:
    """An era's music: the file, how it is played, and the file time of running time 0.

    A timed score may come in `pieces`: from each piece's running time on, the file plays
    straight on from that piece's position (an era of another length than the score's seeks
    at its scholar calls, `device/erabox/core/music_score.py`); () = one piece from `offset`.
    """

    path: str
    kind: MusicKind
    offset: float = 0.0
    pieces: Pieces = ()

    def position(self, era_time: float) -> float:
        era_time = max(era_time, 0.0)
        if not self.pieces:
            return self.offset + era_time
        at, position = next(p for p in reversed(self.pieces) if p[0] <= era_time)
        return position + (era_time - at)

    def next_seek(self, era_time: float) -> float | None:
        """The running time at which the next piece starts (None: the file plays on)."""
        return next((at for at, _ in self.pieces if at > max(era_time, 0.0)), None)


@dataclass(frozen=True)
class _Source:
    """What a music effect asks for: an era's music in a mode, or (`path`) a game profile's
    phase music, looped or played once."""

    era: int
    mode: Mode
    path: str = ""
    loop: bool = True
    track_offset: float | None = None  # `path` is a publisher's track, from this offset


@dataclass(frozen=True)
class _Memo:
    """The last music effect: where the era's music is, whether anything is loaded or not."""

    source: _Source
    elapsed: float  # the era's running time ...
    at: float  # ... at this clock reading
    running: bool  # START/RESUME (the era clock runs) or PAUSE

    def elapsed_at(self, now: float) -> float:
        return self.elapsed + (now - self.at if self.running else 0.0)


@dataclass(frozen=True)
class _Playing:
    era: int
    choice: Choice
    paused: bool


@dataclass(frozen=True)
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


def output_lead_s(config: AudioConfig) -> float:
    """How long before its time the loop hands a cue to the mixer (s): half a period.

    SDL_mixer starts a sound at the start of the next period it mixes, so a cue handed over at
    its time waits 0 to one period (`buffer` frames) for it: half a period on average, evenly
    spread. Handed over half a period early, the cue's first sample lands within half a period
    of its time, early or late, instead of up to a whole period late. What a sound card keeps
    queued behind the mixed period (SDL's ALSA backend: up to two more periods; a card's own
    FIFO) is not subtracted: it is the card's, and it was never measured on a Pi's.
    """
    return config.buffer / config.rate / 2


def score_file(era: int, variant: int) -> str:
    """The file name of one version of an era's built-in score (the first: `era<N>_score`)."""
    return f"era{era}_score.ogg" if variant == 1 else f"era{era}_score_v{variant}.ogg"


def music_era(era: int) -> int:
    """The era of the box's soundtrack (its three eras' music) that plays in `era`: its own in
    Eras I to III; a later era the three in turn (IV plays I's, V II's, VI III's, VII I's)."""
    return (era - 1) % rules.ERAS + 1


def installed_music(config: AudioConfig, era: int, mode: Mode) -> list[Choice]:
    """The config's own music for `era` (`[era1]`..`[era3]`), if it fits `mode`."""
    own = config.eras[era - 1] if 1 <= era <= len(config.eras) else None
    if own is None or not own.music:
        return []
    if own.music_kind != "track":
        return [Choice(str(PurePath(own.music)), "loop")]
    if mode is not Mode.REALTIME:  # a timed soundtrack only fits a timed era
        return []
    return [Choice(str(PurePath(own.music)), "track", own.track_offset_s)]


def profile_music(config: AudioConfig, era: int, mode: Mode) -> list[Choice]:
    """The game profile's own music for `era` (`[[era]] score` and `music`, docs/profiles.md),
    unless the config names the era's own (an installer's key wins): in real time its score,
    from the start gong at the running time (played once), then its loop; else its loop."""
    if installed_music(config, era, mode) or not 1 <= era <= len(config.game_eras):
        return []
    own = config.game_eras[era - 1]
    found: list[Choice] = []
    if own.score and mode is Mode.REALTIME:
        found.append(Choice(str(PurePath(own.score)), "timed"))
    if own.music:
        found.append(Choice(str(PurePath(own.music)), "loop"))
    return found


def gain_from_db(db: float) -> float:
    """Linear amplitude factor for a level in decibels (0 dB = 1.0)."""
    return float(10.0 ** (db / 20.0))


class AudioPlan:
    """The sound's decisions, stepped by effects and time. Not thread-safe: one caller at a
    time (the adapter holds a lock only around these pure calls, never around mixer work)."""

    def __init__(self, config: AudioConfig, sounds_dir: str, *,
                 scores: Collection[int] = (),
                 variants: Collection[tuple[int, int]] = (),
                 era_shape: tuple[float, Sequence[float]] = (rules.ERA_LENGTH_S,
                                                         rules.SCHOLAR_CUES_S)) -> None:
        """`scores`: the eras whose through-composed score (`era<N>_score.ogg` in
        `sounds_dir`) is there to play in real time (with `music_style` "score"); the others
        loop `era<N>.ogg` (N of the three: a later era borrows one, `music_era`).
        `variants`: (era, variant) of the scores' other versions there
        (`era<N>_score_v<K>.ogg`, `score_file`); PrepareMusic says which one plays.
        `era_shape`: a real-time era's length and scholar calls (s), which place the 540 s
        score on the era's running time."""
        self.config = config
        self.sounds_dir = PurePath(sounds_dir)
        self.scores = frozenset(scores) if config.music_style == "score" else frozenset()
        self.variants = frozenset(variants)
        self._variant = 1  # the version of the scores the game plays (PrepareMusic says)
        self.score_pieces: Pieces = score_segments(*era_shape)
        self._seek_at: float | None = None  # clock time of a timed score's next piece
        self.master = _clamp(config.volume)
        self.music_level = _clamp(config.music_level)  # music only: cues stay at the master
        self._modes: dict[int, Mode] = {}
        self._memo: _Memo | None = None
        self._playing: _Playing | None = None
        self._prepared: str | None = None
        self._wanted: _Source | None = None  # the era the last PrepareMusic named
        self._bad: set[str] = set()
        self._loud: dict[Sound, float] = {}
        self._duck_db = 0.0  # the music's current attenuation, 0 .. -duck_db
        self._ramp: _Ramp | None = None
        self._next_step: float | None = None
        self._cues_end: float | None = None  # when the last ducking cue stops being loud
        self._own: set[str] = set()  # a game profile's own sound files asked for
        self._own_loud: dict[str, float] = {}  # ... those decoded: how long each is loud
        self.tracks: set[str] = set()  # a game profile's publisher's tracks (`CheckMusic`)

    # --- questions ------------------------------------------------------------------------------

    def choose(self, era: int, mode: Mode, path: str = "", loop: bool = True,
               track_offset: float | None = None) -> Choice | None:
        """Which file plays as `era`'s music in `mode`, skipping files known to be unreadable
        (None: not even the built-in loop can be read, so it stays silent). `path`: a game
        profile's phase music, that file or nothing (`loop`: looped, else played once;
        `track_offset`: a publisher's track, from that offset)."""
        if path and track_offset is not None:
            track = Choice(str(PurePath(path)), "track", track_offset)
            return None if track.path in self._bad else track
        if path:
            given = Choice(str(PurePath(path)), "loop" if loop else "timed")
            return None if given.path in self._bad else given
        # The config's own for this era, then the game profile's, then the box's: its own
        # era's music, or for a later era the era's whose music it borrows (`music_era`).
        box = music_era(era)
        candidates = installed_music(self.config, era, mode)
        candidates += profile_music(self.config, era, mode)
        if box != era:
            candidates += installed_music(self.config, box, mode)
        if mode is Mode.REALTIME and box in self.scores:
            if (box, self._variant) in self.variants:  # else the first version stands in
                candidates.append(Choice(str(self.sounds_dir / score_file(box, self._variant)),
                                         "timed", pieces=self.score_pieces))
            candidates.append(Choice(str(self.sounds_dir / score_file(box, 1)), "timed",
                                     pieces=self.score_pieces))
        candidates.append(Choice(str(self.sounds_dir / f"era{box}.ogg"), "loop"))
        return next((c for c in candidates if c.path not in self._bad), None)

    def music_position(self, now: float) -> tuple[str, float] | None:
        """Where the era's music is at `now`: (file, seconds into it); None when none runs."""
        memo = self._memo
        if memo is None:
            return None
        choice = self._choose(memo.source)
        if choice is None:
            return None
        return choice.path, choice.position(memo.elapsed_at(now))

    @property
    def music_gain(self) -> float:
        return self.master * self.music_level * gain_from_db(self._duck_db)

    def wake_at(self, now: float) -> float | None:
        """When `tick` has something to do next (None: not until another effect)."""
        if self._ramp is not None:
            ramp = self._next_step if self._next_step is not None else now
            return ramp if self._seek_at is None else min(ramp, self._seek_at)
        return min((t for t in (self._cues_end, self._seek_at) if t is not None), default=None)

    # --- steps ----------------------------------------------------------------------------------

    def cue_loaded(self, sound: Sound, loud_s: float) -> None:
        """How long `sound` stays loud (it ducks the music that long)."""
        self._loud[sound] = max(loud_s, 0.0)

    def sound_loaded(self, path: str, loud_s: float) -> None:
        """A profile's own sound file is decoded: from now on it plays when called for."""
        if path in self._own:
            self._own_loud[path] = max(loud_s, 0.0)

    def apply(self, effect: object, now: float) -> list[Command]:
        """The mixer commands for one effect (effects that are not about sound give none)."""
        if isinstance(effect, PlaySound):
            return self._cue(effect, now)
        if isinstance(effect, Music):
            return self._music(effect, now)
        if isinstance(effect, PrepareMusic):
            self._modes[effect.era] = effect.mode
            self._variant = effect.variant
            self._wanted = _Source(effect.era, effect.mode)
            return self._prepare(self._wanted)
        if isinstance(effect, PrepareSounds):
            new = [f for f in dict.fromkeys(effect.files) if f not in self._own | self._bad]
            self._own.update(new)
            tracks = [t for t in dict.fromkeys(effect.tracks) if t not in self._bad]
            self.tracks.update(tracks)
            return [*(LoadSound(f) for f in new), *(CheckMusic(t) for t in tracks)]
        if isinstance(effect, SetVolume):
            self.master = _clamp(float(effect.level))
            if effect.music is not None:
                self.music_level = _clamp(float(effect.music))
            return [SetCueGain(self.master), SetMusicGain(self.music_gain)]
        return []

    def tick(self, now: float) -> list[Command]:
        """Advance the ducking to `now`, and seek a timed score that reached its next piece."""
        commands: list[Command] = []
        if self._seek_at is not None and now >= self._seek_at:
            self._seek_at = None
            memo, playing = self._memo, self._playing
            if (memo is not None and memo.running and playing is not None
                    and not playing.paused and playing.choice.kind == "timed"):
                commands += self._start(memo.source, memo.elapsed_at(now), now)
        return commands + self._duck_step(now)

    def _duck_step(self, now: float) -> list[Command]:
        if self._ramp is None and self._cues_end is not None and now >= self._cues_end:
            self._cues_end = None
            if self._duck_db < 0:
                share = min(-self._duck_db / max(self.config.duck_db, 1e-9), 1.0)
                self._ramp = _Ramp(self._duck_db, 0.0, now, DUCK_UP_S * share)
        if self._ramp is None:
            return []
        level, done = self._ramp.level_at(now)
        self._duck_db = level
        if done:
            self._ramp = None
            self._next_step = None
        else:
            self._next_step = now + RAMP_STEP_S
        return [SetMusicGain(self.music_gain)]

    def file_failed(self, path: str, now: float) -> list[Command]:
        """`path` cannot be read: never try it again, and play what stands in for it."""
        self._bad.add(path)
        if path in self._own:  # a profile's own sound: the box's cue plays when it is due
            self._own_loud.pop(path, None)
            return []
        commands: list[Command] = []
        if self._prepared == path:
            self._prepared = None
        playing = self._playing
        if playing is not None and playing.choice.path == path:
            self._playing = None
            memo = self._memo
            if memo is not None and memo.running:
                commands += self._start(memo.source, memo.elapsed_at(now), now)
                return commands
        if self._playing is None and self._wanted is not None:
            commands += self._prepare(self._wanted)
        return commands

    def lost(self) -> None:
        """The device went away: nothing is loaded or playing any more."""
        self._playing = None
        self._seek_at = None
        self._prepared = None
        self._ramp = None
        self._next_step = None
        self._cues_end = None
        self._duck_db = 0.0
        self._own_loud.clear()  # decoded on the lost device: decoded again when it reopens

    def reopened(self, now: float) -> list[Command]:
        """The device (re)opened: the gains, and the music where the era is now (undimmed: the
        cues asked for while there was no device never sounded)."""
        self.lost()
        commands: list[Command] = [SetCueGain(self.master), SetMusicGain(self.music_gain)]
        memo = self._memo
        if memo is not None and memo.running:
            commands += self._start(memo.source, memo.elapsed_at(now), now)
        elif memo is not None:
            commands += self._prepare(memo.source)
        elif self._wanted is not None:
            commands += self._prepare(self._wanted)
        return commands + [LoadSound(f) for f in sorted(self._own - self._bad)]

    # --- effects --------------------------------------------------------------------------------

    def _cue(self, effect: PlaySound, now: float) -> list[Command]:
        if effect.track and str(PurePath(effect.track)) not in self._bad:
            return []  # a round phase's track holds this cue (while the file can be read)
        choice = self.choose(effect.era, self._modes.get(effect.era, Mode.REALTIME))
        if choice is not None and choice.kind == "track":
            return []  # the era's soundtrack carries its own cues
        # A profile's own file plays once decoded; until then, or if it cannot be, the cue
        # it stands for does (never decoded here: this runs when the call is due).
        own = effect.file if effect.file in self._own_loud else ""
        commands: list[Command] = [PlayCue(effect.sound, own)]
        duck = self.config.duck_db
        if effect.sound in DUCKING_CUES and duck > 0:
            ends = now + (self._own_loud[own] if own else self._loud.get(effect.sound, 0.0))
            self._cues_end = max(self._cues_end or 0.0, ends)
            target = -duck
            if self._duck_db > target and (self._ramp is None or self._ramp.to_db != target):
                share = (self._duck_db - target) / duck
                self._ramp = _Ramp(self._duck_db, target, now, DUCK_DOWN_S * share)
                self._next_step = now
        return commands

    def _music(self, effect: Music, now: float) -> list[Command]:
        self._modes[effect.era] = effect.mode
        action = effect.action
        self._seek_at = None  # START and RESUME plan it again from the new running time
        if action is MusicAction.STOP:
            self._memo = None
            playing, self._playing = self._playing, None
            if playing is None:
                return []
            fade = TRACK_STOP_FADE_S if playing.choice.kind == "track" else STOP_FADE_S
            return [StopMusic(0.0 if playing.paused else fade)]
        running = action is not MusicAction.PAUSE
        source = _Source(effect.era, effect.mode, effect.path, effect.loop, effect.track_offset)
        self._memo = _Memo(source, effect.elapsed, now, running)
        playing = self._playing
        if action is MusicAction.PAUSE:
            if playing is None or playing.paused:
                return []
            self._playing = _Playing(playing.era, playing.choice, paused=True)
            return [PauseMusic()]
        if action is MusicAction.START:
            return self._start(source, effect.elapsed, now)
        # RESUME
        if (playing is not None and playing.paused and playing.era == effect.era
                and playing.choice == self._choose(source)):
            self._playing = _Playing(playing.era, playing.choice, paused=False)
            self._plan_seek(playing.choice, effect.elapsed, now)
            return [ResumeMusic()]
        if (playing is None or playing.era != effect.era or playing.paused
                or (source.path and playing.choice != self._choose(source))):
            # nothing (or something else) loaded: after a restart or a late device
            return self._start(source, effect.elapsed, now)
        self._plan_seek(playing.choice, effect.elapsed, now)  # plays on as it was
        return []

    def _choose(self, source: _Source) -> Choice | None:
        return self.choose(source.era, source.mode, source.path, source.loop,
                           source.track_offset)

    def _start(self, source: _Source, era_time: float, now: float) -> list[Command]:
        choice = self._choose(source)
        if choice is None:
            self._playing = None
            return [StopMusic(0.0)]
        self._playing = _Playing(source.era, choice, paused=False)
        self._prepared = choice.path
        self._plan_seek(choice, era_time, now)
        return [StartMusic(choice.path, choice.position(era_time), now,
                           loop=choice.kind == "loop", gain=self.music_gain)]

    def _plan_seek(self, choice: Choice, era_time: float, now: float) -> None:
        """When (clock) a timed score running from `era_time` at `now` must seek next."""
        upcoming = choice.next_seek(era_time) if choice.kind == "timed" else None
        self._seek_at = (None if upcoming is None
                         else now + (upcoming - max(era_time, 0.0)) + SEEK_AFTER_S)

    def _prepare(self, source: _Source) -> list[Command]:
        choice = self._choose(source)
        if choice is None or choice.path == self._prepared:
            return []
        playing = self._playing
        if playing is not None and not playing.paused:
            return []  # never cut music that plays; it is let go when it stops
        self._playing = None
        self._prepared = choice.path
        return [PrepareStream(choice.path, choice.position(0.0), loop=choice.kind == "loop")]


def _clamp(level: float) -> float:
    return min(max(level, 0.0), 1.0)

"""The vocabulary of the game core: inputs, states, effects and the screen model.

Everything here is a plain value (enums and frozen dataclasses). The engine
(`machine.py`) takes an `Input` or a `Tick` plus the current time and returns a new
`Play` and a tuple of effects;
adapters turn effects into sound, pixels, LED flashes and files. Nothing in this package reads
a clock, sleeps, plays, draws or touches the filesystem.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import rules


class Button(StrEnum):
    """A physical button, or `both` (NEXT and ERA held together)."""

    NEXT = "next"
    ERA = "era"
    BOTH = "both"
    VOL_UP = "vol_up"
    VOL_DOWN = "vol_down"
    DIAL_UP = "dial_up"  # the optional rotary encoder turned one step clockwise
    DIAL_DOWN = "dial_down"  # ... and anticlockwise


class Gesture(StrEnum):
    """`press` fires on release before the hold time; `hold` fires once at the threshold;
    `release` when a button whose hold fired is let go (the length of a hold chooses an
    amount when points are entered; everywhere else it changes nothing)."""

    PRESS = "press"
    HOLD = "hold"
    RELEASE = "release"


class Mode(StrEnum):
    """How an era is played: timed 9-minute action phase, or counted in rounds."""

    REALTIME = "realtime"
    INTRO = "intro"


@dataclass(frozen=True)
class GameMusic:
    """An era's own music, named by the game's profile (`[[era]] music`, `score`), absolute
    paths ("" = none): `music` loops (an introductory era, or a real-time one without a
    score); `score` plays once from the start gong, at the era's running time."""

    music: str = ""
    score: str = ""


class Phase(StrEnum):
    """The states of `docs/behaviour.md`. `confirm` is an open question shown over another phase."""

    SETUP = "setup"
    LEAD_IN = "lead_in"
    RUNNING = "running"
    PAUSED = "paused"
    INTRO_ROUND = "intro_round"
    SCHOLARS = "scholars"
    SCORING = "scoring"
    GAME_OVER = "game_over"
    CONFIRM = "confirm"
    SETTINGS = "settings"  # the settings menu, open over the "New game" setup
    PREPARE = "prepare"  # screen only: the preparation guide, shown in an era's setup


class Question(StrEnum):
    """What a `confirm` screen asks."""

    RESTART_ERA = "restart_era"
    NEW_GAME = "new_game"


class Sound(StrEnum):
    """One-shot cue sounds."""

    GONG = "gong"
    CRY = "cry"
    TICK = "tick"


class MusicAction(StrEnum):
    START = "music_start"
    STOP = "music_stop"
    PAUSE = "music_pause"
    RESUME = "music_resume"


class Prompt(StrEnum):
    """Transient messages over a screen."""

    SCHOLARS = "scholars"  # real-time: "Appoint scholars!" over the clock
    RESUMED = "resumed"  # after a restart
    PAUSE_HINT = "pause_hint"  # NEXT pressed while running: "hold NEXT to pause"
    UNDONE = "undone"  # NEXT held in an introductory era: "back to round 6"


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """A gesture the buttons produced."""

    button: Button
    gesture: Gesture


@dataclass(frozen=True)
class Tick:
    """Time has passed (a deadline from `next_deadline` was reached)."""


class SteerAction(StrEnum):
    """What a hall's order does to the era's running clock (docs/hall.md)."""

    START = "start"  # the era starts so that running time `running_s` falls at `at`
    PAUSE = "pause"  # the era pauses, holding `running_s`
    RESUME = "resume"  # the era resumes so that `running_s` falls at `at`
    END = "end"  # the era's end gong sounds now
    SLEW = "slew"  # a running era's clock is set so that `running_s` falls at `at`, silently


@dataclass(frozen=True)
class Steer:
    """An order for the era's running clock from outside the box (a hall,
    `core/steer.py`).

    `at` is on the box's own clock (the `now` the game runs on); `running_s` is the era's
    running time at `at`."""

    action: SteerAction
    at: float
    running_s: float = 0.0


Event = Input | Tick | Steer


# --- effects ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaySound:
    """Play a cue now. `era` lets an adapter pick per-era sounds or skip cues a track carries.
    `file`: a game profile's own sound file played instead, decoded ahead (`PrepareSounds`);
    `sound`, the box's cue it stands for, is its channel, ducks the music like it, and plays
    when the file cannot. `track`: a round phase's publisher's track that holds this cue
    (`track`): it plays none while that file can be read."""

    sound: Sound
    era: int
    file: str = ""
    track: str = ""


@dataclass(frozen=True)
class Music:
    """Start/stop/pause/resume the era's music.

    `elapsed` is the era's running time at this moment (seconds since the start gong), so an
    adapter can start or resume at the right position (loop position, or a soundtrack file's
    offset) even when nothing was loaded before, e.g. after a restart or a late sound card.
    `mode` says whether the era is timed: a publisher's timed track only fits a real-time era.
    A game profile's phase music names its file in `path` (`era` 0, `elapsed` the phase's
    running time) and whether it `loop`s or plays once; `track_offset` not None: that file is
    a publisher's track holding its cues, played once from `track_offset` + `elapsed`.
    """

    action: MusicAction
    era: int
    mode: Mode
    elapsed: float
    path: str = ""
    loop: bool = True
    track_offset: float | None = None


@dataclass(frozen=True)
class PrepareMusic:
    """Get this era's music ready: its setup screen is open (or the game was restored), so
    its start gong may come at any moment. The audio side opens the file off the loop thread
    and lets the previous era's music go; it also learns the era's mode here (a timed
    soundtrack carries its own cues), never from screens."""

    era: int
    mode: Mode
    variant: int = 1  # which version of the era scores (config.SCORE_VARIANTS) plays


@dataclass(frozen=True)
class PrepareSounds:
    """Decode these sound files of the game's profile now, off the loop thread, so that a
    `PlaySound` naming one plays it at once (its setup screen is open, or the game was
    restored: no call comes before these are ready, or the box's cue stands in). `tracks`:
    the publisher's tracks of its phases, only checked (headers), so that a call of one that
    cannot be read sounds the box's cue (`PlaySound.track`)."""

    files: tuple[str, ...]
    tracks: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetVolume:
    """Master volume, 0.0 .. 1.0; `music` the music's share of it (None: as it was)."""

    level: float
    music: float | None = None


@dataclass(frozen=True)
class FlashCue:
    """Flash the cue LED (with every gong and scholar cry)."""

    sound: Sound


@dataclass(frozen=True)
class ShowPrompt:
    """A prompt appeared (also part of the screen model; this is for event logs). `text`: a
    timed call's own prompt from the game's profile, in English (None: the box's)."""

    prompt: Prompt
    text: str | None = None


@dataclass(frozen=True)
class Save:
    """Persist this clock-free snapshot (see `snapshot.py`).

    `durable`: the loop must have it on disk before it applies the effects after it in the
    same tuple (a press's sound and screen; a cue's "armed" and "sounded" records). Other
    saves are written in the background. See docs/power-cuts.md.

    `by`: the loop waits for a durable save no later than this (its `now`): a call's
    "sounded" record, written ahead of the call, must not hold back the call itself.
    """

    snapshot: dict[str, Any]
    durable: bool = False
    by: float | None = None


@dataclass(frozen=True)
class SaveSettings:
    """Persist the settings chosen on the box (see `settings.py`), beside the saved game."""

    settings: dict[str, Any]


@dataclass(frozen=True)
class Show:
    """Draw this screen."""

    screen: Screen


@dataclass(frozen=True)
class Scored:
    """A number was entered at a scoring (for event logs): a player's points for a step of
    the checklist (`step` 1..6) or for the whole era (`step` None), or, with `buildings`,
    their buildings on the central board for the final tie-break. `total` is the player's
    points so far in the game."""

    era: int
    step: int | None
    player: str
    value: int
    total: int
    buildings: bool = False


@dataclass(frozen=True)
class Standings:
    """Places after an era's scoring, or the final ranking (`final`): (place, colour, total,
    buildings or None) best first; equal places are shared."""

    era: int
    final: bool
    places: tuple[tuple[int, str, int, int | None], ...]


Effect = (PlaySound | Music | PrepareMusic | PrepareSounds | SetVolume | FlashCue | ShowPrompt
          | Save | SaveSettings | Show | Scored | Standings)


# --- the screen model -------------------------------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """Everything the OLED shows, as data. `erabox.ui` turns it into a panel-sized image.

    `kind` is the phase whose screen is drawn (for `confirm`, `question` says what is asked and
    `kind` is `confirm`). Fields that do not apply to a kind are None.
    """

    kind: Phase
    era: int
    mode: Mode
    eras: int = rules.ERAS  # the game's eras: the last one ends in the final ranking
    new_game: bool = False  # setup of Era I of a fresh game: shows "New game"
    seconds_left: int | None = None  # running/paused: whole seconds left, rounded up
    length_s: float = rules.ERA_LENGTH_S  # real-time era length, for the progress bar
    elapsed: float | None = None  # running/paused: whole running seconds, for the progress bar
    cue_marks: tuple[float, ...] = ()  # scholar cue times, marked on the progress bar
    countdown: int | None = None  # lead_in: 5..1
    round: int | None = None  # intro_round / scholars
    rounds: int = rules.INTRO_ROUNDS
    start_player: str | None = None  # intro: colour of the start player (after scholars: next)
    scoring_step: int | None = None  # scoring: index into the checklist of docs/game.md
    question: Question | None = None  # confirm
    prompt: Prompt | None = None  # overlay: scholars / resumed / pause_hint
    # paused by a hall whose tables may not resume alone (`[hall] pause_alone = false`): NEXT
    # does not resume it, the hall does (docs/hall.md)
    hall_held: bool = False
    # scholars: a timed call's own text (English, Japanese) from the game's profile, shown
    # instead of "Appoint scholars!"
    prompt_text: tuple[str, str] | None = None
    volume: int | None = None  # percent, shown while it is being changed
    language: str | None = None  # the game's language (None: the renderer's default)
    quiet: bool = False  # muted or very quiet (10 % or less): a mark on every screen
    # NEXT+ERA held together, 0..1 of the way to "New game?" (set by the app from the buttons:
    # the core only sees the finished BOTH hold)
    hold_progress: float | None = None
    # settings: the item shown, its value (language-neutral), "n/count", a one-off note
    menu_item: str | None = None
    menu_value: str | None = None
    menu_position: tuple[int, int] | None = None
    menu_note: str | None = None
    menu_names: tuple[str, str] | None = None  # the value's own name (en, ja): a game profile's
    # prepare: the guide's step (a strings key), its number, "n/count"
    guide_step: str | None = None
    guide_n: int | None = None
    guide_position: tuple[int, int] | None = None
    guide_part: str | None = None  # "game" (the game's setup) or "era" (its preparation)
    # scoring: `entry` is "points", "shown", "standings" or "buildings"; the player asked
    # and the number being entered; running totals (colour, points) in seating order;
    # standings / final ranking as (place, colour, total, buildings or None)
    entry: str | None = None
    player: str | None = None
    value: int | None = None
    totals: tuple[tuple[str, int], ...] = ()
    places: tuple[tuple[int, str, int, int | None], ...] = ()
    ramp: int | None = None  # NEXT held: what letting go adds (+5, +10, ...), else None
    era_total: bool = False  # points entered as the era's total, not per step
    value_vp: int | None = None  # destruction: the VP the buildings being entered give
    value_times: int | None = None  # ... and how many VP one building gives (x3)

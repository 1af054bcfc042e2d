"""What a game profile's play shows and says, as values: the screen model (`PlayScreen`)
and the effects the profile machine adds to the box's (`model.py`). Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Effect, PrepareSounds, Prompt
from .profile import Label, Profile


@dataclass(frozen=True)
class PlayScreen:
    """What the screen shows, as data (texts as `Label`s: the renderer picks the language)."""

    kind: str  # a State value, or "confirm" while "New game?" is asked
    game: Label
    round_name: Label
    question: str = "new_game"  # "confirm": the words asked ("restart_era": `restart`)
    variant: Label | None = None
    round: int | None = None
    rounds: int | None = None  # known last round, None while open-ended
    start_player: str | None = None
    drawn: bool = False  # the start player was drawn at random or chosen (said at setup)
    chosen: bool = False  # NEXT at setup chooses who starts
    next_start_player: str | None = None  # a special round that passes the start player
    tie_break: bool = False  # the last era's standings: ERA opens a tie-break, not the ranking
    title: Label | None = None  # the phase, special round, event or category
    text: Label | None = None  # the step
    position: tuple[int, int] | None = None  # step n of count
    more: bool = False  # scoring: numbers past the count may be asked too (said "n/count+")
    player: str | None = None  # whose turn it is, or whose number is asked
    timer_left: int | None = None
    # a countdown: its length, its whole seconds run (rounded down), the times of its calls
    # (the marks on its progress bar)
    timer_s: float | None = None
    timer_run: float | None = None
    timer_marks: tuple[float, ...] = ()
    lead_in: int | None = None  # a countdown's lead-in: the seconds to its start gong
    timer_done: bool = False
    paused: bool = False  # the countdown is paused (ERA press), its calls held with it
    # in a hall (docs/hall.md): the countdown is held for the hall's start; the hall alone
    # starts, pauses and resumes it (`[hall] pause_alone = false`: the table's press does not)
    hall_start: bool = False
    hall_only: bool = False
    waits: bool = False  # NEXT waits for the countdown's end (`next_leaves = false`)
    pause_hold: bool = False  # `[buttons] pause = "next_hold"`: NEXT hold pauses, ERA hold undoes
    next_resumes: bool = False  # `[buttons] next_resumes`: a NEXT press resumes it too
    restart: bool = False  # `[buttons] restart_era`: ERA hold restarts the era (undoes no more)
    call: Label | None = None  # a countdown's call just given: its prompt, or the box's words
    value: int | None = None
    points: int | None = None  # what `value` is worth
    totals: tuple[tuple[str, int], ...] = ()
    places: tuple[tuple[int, str, int, int | None, Label | None], ...] = ()
    notes: tuple[Label, ...] = ()
    ending: bool = False  # the event that ends the game has happened
    last_turns: bool = False  # `one_more_turn`: the turns left are everyone's last
    minus: bool = False  # the number asked may be negative (ERA hold turns it so)
    prompt: Prompt | None = None
    page: int = 0  # which page of the notes or `places` a panel too small shows (wraps)
    event: Label | None = None  # the event ERA hold would start here (None: none can be)
    # for each of `places`: what decided it (the category whose points ranked it, None for
    # the total; the tie-break that told it apart from an equal score; True: none did)
    decided: tuple[tuple[Label | None, Label | None, bool], ...] = ()
    # an `each` category: the points of the values this player has already listed (the
    # screen says which one of the list is asked and the sum so far); None for other ones
    listed: tuple[int, ...] | None = None
    era: int | None = None  # a game of eras: the era (1-based); None: a game without
    era_labels: tuple[Label | None, ...] = ()  # every era's own label (None: "Era II")
    # the standings after an era: (place, colour, era points, total so far), by total
    standings: tuple[tuple[int, str, int, int], ...] = ()
    guide: bool = False  # `guide_at_setup`: the guide's step (title, text, position) at setup
    shown: bool = False  # scoring: a category that gives no points (`points = false`)
    checklist: tuple[Label, ...] = ()  # scoring, the era total asked: what it adds up
    ramp: int | None = None  # the era total, NEXT held: what letting go adds in all
    # the box's first setup of the game: why it plays ("game": given with `--game`, "menu":
    # chosen in the settings menu, "config": the config's `game`), for a few seconds
    why_played: str | None = None


# --- effects this machine adds to the box's (model.py) ---------------------------------------


@dataclass(frozen=True)
class ShowPlay:
    """Draw this screen."""

    screen: PlayScreen


@dataclass(frozen=True)
class Entered:
    """A number was confirmed at the scoring: `value` as entered, the `points` it gives, the
    player's `total` so far."""

    category: str
    player: str
    value: int
    points: int
    total: int


@dataclass(frozen=True)
class Ranked:
    """The final ranking: (place, colour, score, out after stage or None, solo rank)."""

    places: tuple[tuple[int, str, int, int | None, Label | None], ...]
    variants: tuple[str, ...] = ()  # `variant_per_era`: the variant each era played


@dataclass(frozen=True)
class ChooseGame:
    """ERA held at the game's setup: the box's settings menu is wanted (where "Game" and
    the players are chosen). `ProfileEngine` opens it over the play (`menu`)."""


@dataclass(frozen=True)
class Called:
    """A countdown's timed call was given (its sound is the `PlaySound` before this): the
    phase's id, `at_s` into its countdown, its prompt in English (None: none), or the box's
    own prompt (`prompt`: "scholars")."""

    phase: str
    at_s: float
    text: str | None = None
    prompt: str = ""


@dataclass(frozen=True)
class Paused:
    """A countdown was paused (`paused`) or went on again, with `left` seconds to run."""

    phase: str
    paused: bool
    left: float


@dataclass(frozen=True)
class Standings:
    """An era's scoring is done (not the last era's): `era` (1-based) and, by total so far,
    (place, colour, era points, total)."""

    era: int
    places: tuple[tuple[int, str, int, int], ...]
    variant: str | None = None  # `variant_per_era`: the variant the era played


PlayEffect = Effect | ShowPlay | Entered | Ranked | ChooseGame | Called | Paused | Standings


def prepare_sounds(profile: Profile) -> tuple[PlayEffect, ...]:
    """The special rounds', events' and calls' own sound files to decode when the play is set up or
    comes back, and its phases' publisher's tracks to check (none: nothing)."""
    files = tuple(dict.fromkeys(sound for sound, _ in profile.own_sounds()))
    tracks = tuple(dict.fromkeys(t.path for t in [*(p.track for p in profile.phases), *(
        e.track for e in profile.eras)] if t is not None))
    return (PrepareSounds(files, tracks),) if files or tracks else ()

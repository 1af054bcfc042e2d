"""A game profile played as a pure state machine: `step(play, event, now) -> (play, effects)`.

The box's own machine (`machine.py`) runs Time of Empires; this one runs any round-based game
a profile describes (`profile.py`, docs/profiles.md), with the same two buttons:

    setup --ERA--> round 1: phase 1 step 1 --NEXT--> step 2 ... --> phase 2 ... --> round end
    round end --> special rounds due after it (their steps, NEXT) --> round 2 ... --> scoring
    any step of a round --ERA hold--> an event's steps (NEXT) --> back where play was
    scoring: each category, each player (NEXT +1, hold +5, ERA confirm) --> game_over

The table `TRANSITIONS` below is the whole of it: (state, button, gesture) -> what happens.
A gesture with no entry changes nothing and returns no effects. Everything undo takes back
lives in one frozen value, `Spot`; every move forward pushes the spot it left onto
`history`, and undo pops it, so an undo always lands exactly where play was.

Time only enters as `now`; `next_deadline` says when the loop must call `step(play, Tick(),
now)` (a phase's countdown, a question closing itself, a periodic save while a countdown
runs). Randomness only enters as `drawn_seat`, chosen by the caller (the start player of a
"random" profile). `snapshot`/`restore` keep a play across a power cut.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from . import profile_scores as scores
from .model import (
    Button,
    Effect,
    Event,
    FlashCue,
    Gesture,
    Input,
    PlaySound,
    Prompt,
    Save,
    ShowPrompt,
    Sound,
)
from .profile import MAX_ROUNDS, Label, Profile

SCHEMA_VERSION = 1
HISTORY = 100  # undo steps kept (in memory and in the saved play)
HOLD_ADDS = 5  # NEXT hold adds this many while a number is entered
QUESTION_TIMEOUT_S = 10.0
RESUMED_PROMPT_S = 5.0
SAVE_EVERY_S = 5.0  # while a countdown runs
EPS = 1e-6
_SOUNDS = {"gong": Sound.GONG, "cry": Sound.CRY}


class State(StrEnum):
    SETUP = "setup"  # choose the variant (NEXT), start (ERA)
    ROUND = "round"  # a step of a phase of a round
    SPECIAL = "special"  # a step of a special round, after a round
    EVENT = "event"  # a step of an event the players started
    SCORING = "scoring"  # entering a category's number for a player
    GAME_OVER = "game_over"  # the final ranking


@dataclass(frozen=True)
class Spot:
    """Where the play is: everything an undo takes back, and everything a save keeps."""

    state: State = State.SETUP
    variant: int = 0
    first_seat: int = 0  # the start player of round 1
    round: int = 0
    phase: int = 0
    turn: int = 0  # in a phase played by each player: how many have had it this round
    step: int = 0  # within the phase or special round
    special: int = 0  # index into profile.specials (state SPECIAL)
    event: int = 0  # index into profile.events (state EVENT)
    event_step: int = 0  # within the event (the round's `step` waits underneath)
    events_done: tuple[str, ...] = ()
    last_round: int | None = None  # set by an event that ends the game
    entry: int = 0  # index into `entries(...)` (state SCORING)
    sheet: scores.Sheet = ()


@dataclass(frozen=True)
class Play:
    """A game being played. Build the first one with `new_play`."""

    profile: Profile
    players: tuple[str, ...]
    spot: Spot
    drawn_seat: int = 0  # the caller's random draw, for a "random" start player
    history: tuple[Spot, ...] = ()
    # transient: the number being entered, the countdown, a question, a prompt, a save clock
    value: int = 0
    timer_end: float | None = None
    timer_done: bool = False
    question_until: float | None = None
    prompt: Prompt | None = None
    prompt_until: float | None = None
    save_due: float | None = None


@dataclass(frozen=True)
class PlayScreen:
    """What the screen shows, as data (texts as `Label`s: the renderer picks the language)."""

    kind: str  # a State value, or "confirm" while "New game?" is asked
    game: Label
    round_name: Label
    variant: Label | None = None
    round: int | None = None
    rounds: int | None = None  # known last round, None while open-ended
    start_player: str | None = None
    next_start_player: str | None = None  # a special round that passes the start player
    title: Label | None = None  # the phase, special round, event or category
    text: Label | None = None  # the step
    position: tuple[int, int] | None = None  # step n of count
    player: str | None = None  # whose turn it is, or whose number is asked
    timer_left: int | None = None
    timer_done: bool = False
    value: int | None = None
    points: int | None = None  # what `value` is worth
    totals: tuple[tuple[str, int], ...] = ()
    places: tuple[tuple[int, str, int, int | None, Label | None], ...] = ()
    notes: tuple[Label, ...] = ()
    ending: bool = False  # the event that ends the game has happened
    prompt: Prompt | None = None


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


PlayEffect = Effect | ShowPlay | Entered | Ranked


# --- building and reading a play --------------------------------------------------------------


def new_play(profile: Profile, players: tuple[str, ...], drawn_seat: int = 0) -> Play:
    """A fresh play in `setup`. Raises ValueError if the profile takes another number of
    players."""
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (f"{profile.min_players}" if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise ValueError(f"{profile.name.en} is for {span} players, not {len(players)}")
    return Play(profile=profile, players=players, drawn_seat=drawn_seat % len(players),
                spot=Spot(sheet=scores.blank(profile, len(players))))


def rounds(play: Play) -> int | None:
    """The last round, as far as it is known: the variant's, or the one an event ended."""
    fixed = play.profile.variants[play.spot.variant].rounds
    ended = play.spot.last_round
    if ended is None:
        return fixed
    return ended if fixed is None else min(fixed, ended)


def start_seat(play: Play) -> int | None:
    """The start player's seat in the current round (None for a profile without one)."""
    profile, spot = play.profile, play.spot
    if profile.start_rule == "none":
        return None
    seat = spot.first_seat if spot.state is not State.SETUP else _first_seat(play)
    if profile.start_rule == "pass_left":
        seat += max(0, spot.round - 1)
    for special in profile.specials:
        if special.passes_start_player:
            seat += sum(1 for r in special.after[spot.variant] if r < spot.round)
    return seat % len(play.players)


def start_player(play: Play) -> str | None:
    seat = start_seat(play)
    return None if seat is None else play.players[seat]


def turn_seat(play: Play) -> int | None:
    """Whose turn it is in a phase each player plays (in seat order from the start player)."""
    spot = play.spot
    if spot.state not in (State.ROUND, State.EVENT):
        return None
    if not play.profile.phases[spot.phase].each_player:
        return None
    return ((start_seat(play) or 0) + spot.turn) % len(play.players)


def entries(play: Play) -> tuple[tuple[int, int], ...]:
    """(category, seat) in the order numbers are asked: category by category, seat order."""
    return tuple((c, s) for c in range(len(play.profile.categories))
                 for s in range(len(play.players)))


def asked(play: Play) -> tuple[int, int] | None:
    """The (category, seat) being asked in `scoring`."""
    if play.spot.state is not State.SCORING:
        return None
    order = entries(play)
    return order[play.spot.entry] if play.spot.entry < len(order) else None


def ranking(play: Play) -> tuple[scores.RankLine, ...]:
    return scores.ranking(play.profile, play.spot.sheet, start_seat(play))


def steps_here(play: Play) -> tuple[Label, ...]:
    """The steps of the phase, special round or event being shown."""
    profile, spot = play.profile, play.spot
    if spot.state is State.ROUND:
        return profile.phases[spot.phase].steps
    if spot.state is State.SPECIAL:
        return profile.specials[spot.special].steps
    if spot.state is State.EVENT:
        return profile.events[spot.event].steps
    return ()


def step_index(spot: Spot) -> int:
    """The step shown: the event's while an event is shown, else the phase's or special's."""
    return spot.event_step if spot.state is State.EVENT else spot.step


def screen(play: Play, now: float) -> PlayScreen:
    """The screen model for this moment."""
    profile, spot = play.profile, play.spot
    base = PlayScreen(kind=State.SETUP.value, game=profile.name, round_name=profile.round_name,
                      variant=profile.variants[spot.variant].label
                      if len(profile.variants) > 1 else None,
                      start_player=start_player(play), rounds=rounds(play),
                      ending=spot.last_round is not None, prompt=play.prompt,
                      totals=tuple(zip(play.players, scores.totals(profile, spot.sheet),
                                       strict=True)))
    if play.question_until is not None:
        return replace(base, kind="confirm")
    if spot.state is State.SETUP:
        return replace(base, notes=profile.notes)
    if spot.state in (State.ROUND, State.SPECIAL, State.EVENT):
        steps = steps_here(play)
        index = min(step_index(spot), len(steps) - 1)
        title = (profile.phases[spot.phase].label if spot.state is State.ROUND else
                 profile.specials[spot.special].label if spot.state is State.SPECIAL else
                 profile.events[spot.event].label)
        turn = turn_seat(play)
        left = None
        if play.timer_end is not None:
            left = max(0, math.ceil(play.timer_end - now - EPS))
        passes = (spot.state is State.SPECIAL
                  and profile.specials[spot.special].passes_start_player)
        following = None
        if passes and (seat := start_seat(play)) is not None:
            following = play.players[(seat + 1) % len(play.players)]
        return replace(base, kind=spot.state.value, round=spot.round, title=title,
                       text=steps[index], position=(index + 1, len(steps)),
                       player=None if turn is None else play.players[turn],
                       timer_left=left, timer_done=play.timer_done,
                       next_start_player=following)
    if spot.state is State.SCORING:
        at = asked(play)
        assert at is not None
        category = profile.categories[at[0]]
        return replace(base, kind=State.SCORING.value, round=spot.round, title=category.label,
                       player=play.players[at[1]], value=play.value,
                       points=category.points(play.value),
                       position=(spot.entry + 1, len(entries(play))))
    return replace(base, kind=State.GAME_OVER.value, round=spot.round, places=_places(play))


def _places(play: Play) -> tuple[tuple[int, str, int, int | None, Label | None], ...]:
    if not play.profile.categories:
        return ()
    return tuple((line.place, play.players[line.seat], line.score, line.out_after, line.rank)
                 for line in ranking(play))


def next_deadline(play: Play) -> float | None:
    """When the loop must call `step(play, Tick(), t)` next, or None to wait for input only."""
    times = [t for t in (play.timer_end, play.question_until, play.prompt_until,
                         play.save_due) if t is not None]
    return min(times) if times else None


# --- the step function --------------------------------------------------------------------------


def step(play: Play, event: Event, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """Fire what fell due by `now`, then apply `event` (an `Input`, or a `Tick`)."""
    before = play
    play, effects = _advance(play, now)
    if isinstance(event, Input):
        handled, more = _on_input(play, event, now)
        if handled.spot != play.spot:  # on disk before anyone hears or sees the change
            handled = _phase_timer(play, handled, now)
            record = snapshot(handled, now)
            return handled, (*effects, Save(record, durable=True), *more,
                             ShowPlay(screen(handled, now)))
        play, effects = handled, (*effects, *more)
    after: list[PlayEffect] = []
    if _saved_part(play) != _saved_part(before) or (
            play.save_due is not None and play.save_due <= now + EPS):
        after.append(Save(snapshot(play, now)))
        play = replace(play, save_due=None if play.timer_end is None else now + SAVE_EVERY_S)
    return play, (*effects, *after, ShowPlay(screen(play, now)))


def _advance(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    effects: list[PlayEffect] = []
    if play.timer_end is not None and play.timer_end <= now + EPS:
        phase = play.profile.phases[play.spot.phase]
        play = replace(play, timer_end=None, timer_done=True, save_due=None)
        if phase.gong:
            effects += [PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG)]
    if play.question_until is not None and play.question_until <= now + EPS:
        play = replace(play, question_until=None)
    if play.prompt_until is not None and play.prompt_until <= now + EPS:
        play = replace(play, prompt=None, prompt_until=None)
    return play, tuple(effects)


def _phase_timer(before: Play, play: Play, now: float) -> Play:
    """A timed phase (or turn) starts its countdown when it begins, also when undo comes
    back into it; leaving it stops the countdown; an event shown over it does neither."""
    def key(p: Play) -> tuple[object, ...] | None:
        s = p.spot
        return (s.round, s.phase, s.turn) if s.state in (State.ROUND, State.EVENT) else None

    new_key = key(play)
    if new_key == key(before):
        return play
    phase = play.profile.phases[play.spot.phase]
    if new_key is None or phase.timer_s is None:
        return replace(play, timer_end=None, timer_done=False, save_due=None)
    return replace(play, timer_end=now + phase.timer_s, timer_done=False,
                   save_due=now + SAVE_EVERY_S)


def _on_input(play: Play, event: Input, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    button, gesture = event.button, event.gesture
    if play.question_until is not None:
        return _answer(play, event, now)
    if button is Button.BOTH and gesture is Gesture.HOLD:
        return replace(play, question_until=now + QUESTION_TIMEOUT_S), ()
    state = play.spot.state
    if state is State.SCORING and button in (Button.DIAL_UP, Button.DIAL_DOWN):
        return _add(play, 1 if button is Button.DIAL_UP else -1)
    handler = TRANSITIONS.get((state, button, gesture))
    if handler is None:
        return play, ()
    return handler(play, now)


def _answer(play: Play, event: Input, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    key = (event.button, event.gesture)
    if key == (Button.NEXT, Gesture.PRESS):
        return replace(play, question_until=None), ()
    if key == (Button.ERA, Gesture.PRESS):
        return new_play(play.profile, play.players, play.drawn_seat), ()
    return play, ()


def _moved(play: Play, spot: Spot) -> Play:
    """Go forward to `spot`, keeping where play was for undo."""
    history = (*play.history, play.spot)[-HISTORY:]
    return replace(play, spot=spot, history=history, value=0, prompt=None, prompt_until=None)


def _first_seat(play: Play) -> int:
    return play.drawn_seat if play.profile.start_rule == "random" else 0


# --- the transitions ----------------------------------------------------------------------------


def _next_variant(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    count = len(play.profile.variants)
    return replace(play, spot=replace(play.spot, variant=(play.spot.variant + 1) % count)), ()


def _start(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    spot = replace(play.spot, state=State.ROUND, round=1, phase=0, turn=0, step=0,
                   first_seat=_first_seat(play))
    return _moved(play, spot), (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG))


def _forward(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """NEXT: the next step; after a phase's last, the next turn or phase; after a round's
    last, the special rounds due, then the next round or the scoring."""
    profile, spot = play.profile, play.spot
    if spot.state is State.EVENT:
        if spot.event_step + 1 < len(steps_here(play)):
            return _moved(play, replace(spot, event_step=spot.event_step + 1)), ()
        back = replace(spot, state=State.ROUND, event_step=0)
        if profile.events[spot.event].ends_game:
            back = replace(back, last_round=spot.round)
        return _moved(play, back), ()
    if spot.step + 1 < len(steps_here(play)):
        return _moved(play, replace(spot, step=spot.step + 1)), ()
    if spot.state is State.ROUND:
        phase = profile.phases[spot.phase]
        if phase.each_player and spot.turn + 1 < len(play.players):
            return _moved(play, replace(spot, turn=spot.turn + 1, step=0)), ()
        if spot.phase + 1 < len(profile.phases):
            return _moved(play, replace(spot, phase=spot.phase + 1, turn=0, step=0)), ()
        return _after_round(play, -1)
    return _after_round(play, spot.special)


def _after_round(play: Play, done: int) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The special rounds due after this round (those after index `done`), then on."""
    profile, spot = play.profile, play.spot
    for index in range(done + 1, len(profile.specials)):
        special = profile.specials[index]
        if spot.round in special.after[spot.variant]:
            moved = _moved(play, replace(spot, state=State.SPECIAL, special=index, step=0))
            return moved, _sound(special.sound)
    last = rounds(play)
    if (last is not None and spot.round >= last) or spot.round >= MAX_ROUNDS:
        return _to_scoring(play)
    return _moved(play, replace(spot, state=State.ROUND, round=spot.round + 1, phase=0,
                                turn=0, step=0)), ()


def _to_scoring(play: Play) -> tuple[Play, tuple[PlayEffect, ...]]:
    end = (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG))
    if not play.profile.categories:
        return _moved(play, replace(play.spot, state=State.GAME_OVER)), end
    return _moved(play, replace(play.spot, state=State.SCORING, entry=0)), end


def _sound(name: str) -> tuple[PlayEffect, ...]:
    sound = _SOUNDS.get(name)
    return () if sound is None else (PlaySound(sound, 0), FlashCue(sound))


def _start_event(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA hold: the first event of the profile that has not happened yet."""
    spot = play.spot
    for index, event in enumerate(play.profile.events):
        if event.id not in spot.events_done:
            moved = replace(spot, state=State.EVENT, event=index, event_step=0,
                            events_done=(*spot.events_done, event.id))
            return _moved(play, moved), _sound(event.sound)
    return play, ()


def _undo(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """Back to where play was before the last move forward."""
    if not play.history:
        return play, ()
    back = play.history[-1]
    value = 0
    if back.state is State.SCORING:  # the number confirmed there comes back to be corrected
        category, seat = entries(play)[back.entry]
        before = back.sheet[category][seat] or ()
        now_values = play.spot.sheet[category][seat] or ()
        value = now_values[len(before)] if len(now_values) > len(before) else 0
    return replace(play, spot=back, history=play.history[:-1], value=value, prompt=None,
                   prompt_until=None), ()


def _add(play: Play, amount: int) -> tuple[Play, tuple[PlayEffect, ...]]:
    at = asked(play)
    assert at is not None
    most = play.profile.categories[at[0]].most
    return replace(play, value=min(most, max(0, play.value + amount))), ()


def _plus_one(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    return _add(play, 1)


def _plus_five(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    return _add(play, HOLD_ADDS)


def _confirm(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA: record the number and go on (an `each` category: 0 ends the player's list)."""
    spot, profile = play.spot, play.profile
    at = asked(play)
    assert at is not None
    category_index, seat = at
    category = profile.categories[category_index]
    values = spot.sheet[category_index][seat] or ()
    more = category.each and play.value > 0
    if not category.each or more:
        values = (*values, play.value)
    rows = list(spot.sheet)
    row = list(rows[category_index])
    row[seat] = values
    rows[category_index] = tuple(row)
    sheet = tuple(rows)
    effects: list[PlayEffect] = []
    if not category.each or more:
        effects.append(Entered(category.id, play.players[seat], play.value,
                               category.points(play.value),
                               scores.total(profile, sheet, seat)))
    entry = spot.entry if more else spot.entry + 1
    if entry < len(entries(play)):
        return _moved(play, replace(spot, sheet=sheet, entry=entry)), tuple(effects)
    play = _moved(play, replace(spot, sheet=sheet, state=State.GAME_OVER))
    effects.append(Ranked(_places(play)))
    return play, tuple(effects)


def _clear_or_undo(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA hold while entering: clear the number; on 0, back to the one before."""
    if play.value > 0:
        return replace(play, value=0), ()
    return _undo(play, now)


_Handler = Callable[[Play, float], tuple[Play, tuple[PlayEffect, ...]]]
N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD

# The whole machine (docs/profiles.md, "Buttons"). A missing entry: nothing happens.
# Anywhere, BOTH held asks "New game?" (ERA: yes, NEXT: no); a dial turn adds +-1 in scoring.
TRANSITIONS: dict[tuple[State, Button, Gesture], _Handler] = {
    (State.SETUP, N, P): _next_variant,  # long game / short game ...
    (State.SETUP, E, P): _start,  # round 1, the gong
    (State.ROUND, N, P): _forward,  # next step, turn, phase, special round, round
    (State.ROUND, N, H): _undo,
    (State.ROUND, E, H): _start_event,  # the next event not yet happened
    (State.SPECIAL, N, P): _forward,
    (State.SPECIAL, N, H): _undo,
    (State.EVENT, N, P): _forward,  # after its last step: back where play was
    (State.EVENT, N, H): _undo,
    (State.SCORING, N, P): _plus_one,
    (State.SCORING, N, H): _plus_five,
    (State.SCORING, E, P): _confirm,
    (State.SCORING, E, H): _clear_or_undo,
    (State.GAME_OVER, E, H): _undo,  # back to the last number
}


# --- saving and restoring --------------------------------------------------------------------


def _spot_dict(spot: Spot) -> dict[str, Any]:
    return {"state": spot.state.value, "variant": spot.variant, "first_seat": spot.first_seat,
            "round": spot.round, "phase": spot.phase, "turn": spot.turn, "step": spot.step,
            "special": spot.special, "event": spot.event, "event_step": spot.event_step,
            "events_done": list(spot.events_done),
            "last_round": spot.last_round, "entry": spot.entry,
            "sheet": [[None if v is None else list(v) for v in row] for row in spot.sheet]}


def snapshot(play: Play, now: float) -> dict[str, Any]:
    """A clock-free record of the play, enough for `restore` after a power cut."""
    left = None if play.timer_end is None else round(max(0.0, play.timer_end - now), 3)
    return {"schema": SCHEMA_VERSION, "kind": "profile", "game": play.profile.id,
            "players": list(play.players), "drawn_seat": play.drawn_seat,
            "spot": _spot_dict(play.spot), "history": [_spot_dict(s) for s in play.history],
            "timer_left": left, "timer_done": play.timer_done}


def _saved_part(play: Play) -> tuple[object, ...]:
    """What a save keeps, but the countdown's seconds (saved every SAVE_EVERY_S instead)."""
    return (play.spot, play.history, play.drawn_seat, play.timer_done, play.timer_end is None)


def restore(record: dict[str, Any], profile: Profile, players: tuple[str, ...],
            now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The play after a restart, back at the same round, phase, step or number, "Resumed"
    shown; a countdown goes on from what it had left. Raises ValueError naming what does
    not fit (another game, other players, a field out of range)."""
    if not isinstance(record, dict) or record.get("kind") != "profile":
        raise ValueError("not a saved game profile")
    if record.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"'schema' should be {SCHEMA_VERSION}")
    if record.get("game") != profile.id:
        raise ValueError(f"saved for the game {record.get('game')!r}, not {profile.id!r}")
    if record.get("players") != list(players):
        raise ValueError("saved with other players")
    play = new_play(profile, players, _int(record, "drawn_seat", 0, len(players) - 1))
    history = record.get("history")
    if not isinstance(history, list):
        raise ValueError("'history' should be a list")
    spot = _spot_from(record.get("spot"), play)
    past = tuple(_spot_from(s, play) for s in history[-HISTORY:])
    left = record.get("timer_left")
    if left is not None and (isinstance(left, bool) or not isinstance(left, int | float)
                             or not 0 <= left <= 24 * 3600):
        raise ValueError("'timer_left' should be seconds or null")
    done = record.get("timer_done") is True
    play = replace(play, spot=spot, history=past, timer_done=done,
                   timer_end=None if left is None or spot.state is State.SETUP else now + left,
                   save_due=None if left is None else now + SAVE_EVERY_S,
                   prompt=Prompt.RESUMED, prompt_until=now + RESUMED_PROMPT_S)
    return play, (ShowPrompt(Prompt.RESUMED), ShowPlay(screen(play, now)))


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"'{key}' should be a whole number from {low} to {high}")
    return value


def _spot_from(data: Any, play: Play) -> Spot:
    profile, seats = play.profile, len(play.players)
    if not isinstance(data, dict):
        raise ValueError("a saved spot should be an object")
    try:
        state = State(str(data.get("state")))
    except ValueError:
        raise ValueError("'state' is not a state of a game profile") from None
    variant = _int(data, "variant", 0, len(profile.variants) - 1)
    last = profile.variants[variant].rounds or MAX_ROUNDS
    phase = _int(data, "phase", 0, len(profile.phases) - 1)
    special = _int(data, "special", 0, max(0, len(profile.specials) - 1))
    event = _int(data, "event", 0, max(0, len(profile.events) - 1))
    ids = [e.id for e in profile.events]
    done = data.get("events_done")
    if not isinstance(done, list) or any(d not in ids for d in done) or len(set(done)) != len(
            done):
        raise ValueError("'events_done' should list events of this game")
    last_round = data.get("last_round")
    if last_round is not None:
        last_round = _int(data, "last_round", 1, last)
    sheet = _sheet_from(data.get("sheet"), profile, seats)
    spot = Spot(state=state, variant=variant, first_seat=_int(data, "first_seat", 0, seats - 1),
                round=_int(data, "round", 0 if state is State.SETUP else 1, last),
                phase=phase, turn=_int(data, "turn", 0, seats - 1), step=0, special=special,
                event=event, events_done=tuple(done), last_round=last_round,
                entry=_int(data, "entry", 0, max(0, len(entries(play)) - 1)), sheet=sheet)
    if (state is State.SPECIAL and not profile.specials) or (state is State.EVENT and not ids):
        raise ValueError(f"this game has no {state.value}s")
    if state is State.SPECIAL:
        high = len(profile.specials[special].steps)
    else:
        high = len(profile.phases[phase].steps)
    event_steps = len(profile.events[event].steps) if profile.events else 1
    return replace(spot, step=_int(data, "step", 0, high - 1),
                   event_step=_int(data, "event_step", 0, event_steps - 1))


def _sheet_from(data: Any, profile: Profile, seats: int) -> scores.Sheet:
    def values(v: Any) -> bool:
        return v is None or (isinstance(v, list) and all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 999 for x in v))

    if not (isinstance(data, list) and len(data) == len(profile.categories) and all(
            isinstance(row, list) and len(row) == seats and all(values(v) for v in row)
            for row in data)):
        raise ValueError(f"'sheet' should be {len(profile.categories)} categories x {seats} "
                         "players of entered numbers")
    return tuple(tuple(None if v is None else tuple(v) for v in row) for row in data)

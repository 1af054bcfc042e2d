"""The game as a pure state machine: `step(game, event, now) -> (game, effects)`.

The box has one job: run three eras of Time of Empires on time. Each era opens in `setup`,
where NEXT toggles its mode and ERA starts it:

    setup --ERA--> lead_in --(lead_in_s)--> running --(length_s)--> scoring --ERA--> setup ...
                   (real-time)              <--NEXT hold--> paused
    setup --ERA--> intro_round 1 --NEXT--> ... --> scholars --NEXT--> ... --> scoring
                   (introductory)            (after rounds 5 and 10)  (after round 15)
    scoring of Era III --ERA--> game_over

An era's setup opens on the preparation guide (prep.py; a setting turns it off): NEXT walks
its steps, ERA starts the era at once. Scoring is where victory points are entered (points.py):
per step, per player; then the era's standings; after Era III the final ranking.

A real-time era keeps one anchor: the `now` at which its running time was zero, shifted
forward by every pause. Every cue's deadline is `anchor + cue_time`, so lateness never
accumulates however often the loop wakes. While paused the running time is held instead.

A `confirm` question (restart the era / new game) is drawn over whatever phase is underneath;
the phase keeps running, so a cue that falls due still fires (and closes the question).

The transitions are data: the two tables at the end of this file say which handler an input
or a timer runs. Inputs with no row there (a "-" in `docs/behaviour.md`) change nothing and
return no effects. The game value and its queries are in game.py, the screen model in view.py,
the record kept across power cuts in record.py, what each timer does when it fires in timers.py.
Time only enters as `now` (seconds on any monotonic clock); the machine never reads a clock itself.
`next_deadline` tells a loop when to call `step(game, Tick(), now)` next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import points as scoring
from . import settings as settings_menu
from .game import (
    EPS,
    Game,
    base_config,
    current_settings,
    elapsed,
    era_mode,
    guide_steps,
    in_guide,
    new_game,
    next_variant,
    score_variant,
    screen_kind,
    sheet,
    start_player,
    state_name,
    timeline,
    without_led,
)
from .model import (
    Button,
    Effect,
    Event,
    FlashCue,
    Gesture,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    PrepareMusic,
    Prompt,
    Question,
    Save,
    SaveSettings,
    Scored,
    SetVolume,
    Show,
    Sound,
    Standings,
    Steer,
)
from .record import (
    ARM_LEAD_S,
    MAX_SOUNDED_LEAD_S,
    SCHEMA_VERSION,
    SOUNDED_LEAD_S,
    cue_problem,
    restore,
    settings_digest,
    snapshot,
    snapshot_at_stop,
    sounded_lead,
    with_write_time,
)
from .rules import SCORING_STEPS
from .steer import may_pause_alone, steer
from .timers import (
    Timer,
    ahead_if_due,
    arm_next_cue,
    begin_running,
    close_prompt,
    close_question,
    enter_scoring,
    fire_cue,
    hide_volume,
    lead_in_tick,
    next_deadline,
    pause_era,
    pending,
    periodic_save,
    record_ahead,
    recorded_ahead,
    resume_era,
    save_every,
)
from .view import describe, named_places, opening, screen

# The names callers take from here: the transitions, and the parts of the game (game.py), its
# screen (view.py) and its record (record.py) they use with them.
__all__ = [
    "ARM_LEAD_S",
    "EPS",
    "MAX_SOUNDED_LEAD_S",
    "SCHEMA_VERSION",
    "SOUNDED_LEAD_S",
    "Game",
    "cue_problem",
    "describe",
    "elapsed",
    "era_mode",
    "guide_steps",
    "in_guide",
    "new_game",
    "next_deadline",
    "opening",
    "recorded_ahead",
    "restore",
    "save_every",
    "screen",
    "screen_kind",
    "settings_digest",
    "sheet",
    "snapshot",
    "snapshot_at_stop",
    "sounded_lead",
    "start_player",
    "state_name",
    "step",
    "timeline",
    "with_write_time",
]

QUESTION_TIMEOUT_S = 10.0  # an unanswered question closes itself
PAUSE_HINT_S = 3.0
VOLUME_SHOWN_S = 2.0
VOLUME_STEP = 0.1
UNDONE_SHOWN_S = 3.0


# --- the step function --------------------------------------------------------------------------


def step(game: Game, event: Event, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Advance to `now` (firing every due cue in order), then apply `event`."""
    before = game
    game, effects = _advance(game, now)
    if isinstance(event, Input | Steer):  # a hall's order is kept like a press (steer.py)
        advanced = game
        game, more = (_on_input(game, event, now) if isinstance(event, Input)
                      else steer(game, event, now))
        record = snapshot(game, now)
        if _press_key(record) != _press_key(snapshot(advanced, now)):
            # A press that changes the game (a round, a phase, a scholar call) is on disk
            # before anyone hears or sees it: a cut before that shows nothing happened, a cut
            # after it comes back with the change made (docs/power-cuts.md).
            rest: tuple[Effect, ...] = tuple(
                e for e in _after(before, game, now) if not isinstance(e, Save))
            first: tuple[Effect, ...] = (Save(record, durable=True),)
            return game, without_led(game, effects + first + more + rest)
        effects += more
    effects = without_led(game, effects)
    after = _after(before, game, now)
    saved = [e.snapshot for e in effects if isinstance(e, Save)]
    if saved:  # the step already saved this very record (an armed cue): not twice
        after = tuple(e for e in after if not (isinstance(e, Save) and e.snapshot == saved[-1]))
    return game, effects + after


# --- timers -----------------------------------------------------------------------------------


def _advance(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Fire every timer due at `now`, earliest first."""
    effects: tuple[Effect, ...] = ()
    for _ in range(10_000):  # a bound, not a poll: each pass retires one timer
        due = [(d, timer) for d, timer in pending(game) if d <= now + EPS]
        if not due:
            return game, effects
        _, timer = min(due, key=lambda d: (d[0], d[1].value))  # equal deadlines: Timer's order
        game, more = _FIRE[timer](game, now)
        effects += more
    raise RuntimeError("timers did not settle")  # unreachable: every firing retires its timer


# --- inputs -----------------------------------------------------------------------------------


def _on_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """The first row of `_RULES` that matches handles the input; with none, nothing happens."""
    for when, button, gesture, then in _RULES:
        if when(game) and button in (ANY, event.button) and gesture in (ANY, event.gesture):
            return then(game, event, now)
    return game, ()


def _change_volume(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    step_by = VOLUME_STEP if event.button is Button.VOL_UP else -VOLUME_STEP
    level = round(min(1.0, max(0.0, game.volume + step_by)), 2)
    return replace(game, volume=level, volume_until=now + VOLUME_SHOWN_S), (
        SetVolume(level),)


def _ask_new_game(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return _ask(game, Question.NEW_GAME, now), ()


def _nothing(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return game, ()


def _answer(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    closed = replace(game, question=None, question_until=None)
    if (event.button, event.gesture) == (Button.NEXT, Gesture.PRESS):
        return closed, ()
    if (event.button, event.gesture) != (Button.ERA, Gesture.PRESS):
        return game, ()
    stop = _stop_music(game, now)
    fresh = new_game(base_config(game), volume=game.volume, settings=game.settings,
                     variant=next_variant(game) if game.question is Question.NEW_GAME
                     else game.variant)
    if game.question is Question.NEW_GAME:
        return fresh, stop
    # Restart this era: back to its setup screen (not its preparation guide: the table has
    # prepared it already), with the start player it began with.
    return replace(fresh, era=game.era, era_start_player=game.era_start_player,
                   mode=era_mode(fresh.config, game.era), sheet=sheet(game), guide=None), stop


def _stop_music(game: Game, now: float) -> tuple[Effect, ...]:
    if game.phase in (Phase.RUNNING, Phase.PAUSED, Phase.INTRO_ROUND, Phase.SCHOLARS):
        return (Music(MusicAction.STOP, game.era, game.mode, elapsed(game, now) or 0.0),)
    return ()


def _ask(game: Game, question: Question, now: float) -> Game:
    return replace(game, question=question, question_until=now + QUESTION_TIMEOUT_S)


def _toggle_mode(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    mode = Mode.INTRO if game.mode is Mode.REALTIME else Mode.REALTIME
    return replace(game, mode=mode), ()


def _start_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    game = replace(game, guide=None)
    if game.mode is Mode.INTRO:
        game = replace(game, phase=Phase.INTRO_ROUND, round=1)
        return game, (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                      Music(MusicAction.START, game.era, Mode.INTRO, 0.0))
    if game.config.realtime.lead_in_s == 0:
        game, effects = begin_running(game, now)
        return ahead_if_due(game, now), effects
    game = replace(game, phase=Phase.LEAD_IN, lead_in_started=now, lead_in_ticks=1)
    return game, (PlaySound(Sound.TICK, game.era),)


def _cancel_lead_in(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return replace(game, phase=Phase.SETUP, lead_in_started=None, lead_in_ticks=0), ()


def _pause_hint(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    if game.prompt is Prompt.SCHOLARS:  # the scholar call matters more than a hint
        return game, ()
    # Screen only: the event stream's prompts are the table's (scholars, resumed).
    return replace(game, prompt=Prompt.PAUSE_HINT, prompt_until=now + PAUSE_HINT_S), ()


def _ask_restart_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return _ask(game, Question.RESTART_ERA, now), ()


def _next_round(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    intro = game.config.intro
    r = game.round or 1
    if r >= intro.rounds:
        game = enter_scoring(game)
        return game, (PlaySound(Sound.GONG, game.era), FlashCue(Sound.GONG),
                      Music(MusicAction.STOP, game.era, Mode.INTRO, 0.0))
    if r in intro.scholar_after_rounds:
        return replace(game, phase=Phase.SCHOLARS), (PlaySound(Sound.CRY, game.era),
                                                     FlashCue(Sound.CRY))
    return replace(game, round=r + 1), ()


def _scholars_done(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Everyone appointed; the box went left: the next round, with the new start player."""
    return replace(game, phase=Phase.INTRO_ROUND, round=(game.round or 1) + 1), ()


def _undone(game: Game, now: float) -> Game:
    """Say what an undo did ("back to round 6") for a moment (screen only, like the hint)."""
    return replace(game, prompt=Prompt.UNDONE, prompt_until=now + UNDONE_SHOWN_S)


def _undo_round(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    r = game.round or 1
    if r <= 1:
        return game, ()
    if r - 1 in game.config.intro.scholar_after_rounds:
        return _undone(replace(game, phase=Phase.SCHOLARS, round=r - 1), now), ()
    return _undone(replace(game, round=r - 1), now), ()


def _undo_scholars(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    return _undone(replace(game, phase=Phase.INTRO_ROUND), now), ()


def _next_era(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    if game.era >= game.config.eras:
        game = replace(game, phase=Phase.GAME_OVER, scoring_step=0, entry=None)
        if not game.config.keep_score:  # kept on paper: the box has no ranking to give
            return game, ()
        ranking = named_places(game, scoring.final_ranking(sheet(game)))
        return game, (Standings(game.era, True, ranking),)
    return replace(game, phase=Phase.SETUP, era=game.era + 1,
                   mode=era_mode(game.config, game.era + 1), scoring_step=0, entry=None,
                   guide=0 if game.config.guide else None), ()


# --- the preparation guide (prep.py) and the entry of points (points.py) --------------------


def _guide_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """NEXT: the next step (after the last, the setup screen); hold NEXT: skip the guide,
    straight to the setup screen (to change the mode); ERA: start the era at once, as without
    the guide."""
    assert game.guide is not None
    key = (event.button, event.gesture)
    steps = guide_steps(game)
    if key == (Button.NEXT, Gesture.PRESS):
        following = game.guide + 1
        return replace(game, guide=following if following < len(steps) else None), ()
    if key == (Button.NEXT, Gesture.HOLD):
        return replace(game, guide=None), ()
    if key == (Button.ERA, Gesture.PRESS):
        return _start_era(game, now)
    if key == (Button.ERA, Gesture.HOLD):
        return _open_menu(game, now)
    return game, ()


def _scoring_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """A gesture while an era is scored: see points.py for the buttons. Score kept on paper:
    ERA goes on to the next era (after Era III: the end of the game)."""
    players = game.config.players
    if game.entry is None:
        if (event.button, event.gesture) == (Button.ERA, Gesture.PRESS):
            return _next_era(game, now)
        return game, ()
    old = game.entry
    asked = scoring.asked_player(old, sheet(game))
    step_at, _ = scoring.where(old, len(players))
    entry, book, outcome = scoring.entry_step(old, sheet(game), event, now)
    game = replace(game, entry=entry, sheet=book)
    effects: list[Effect] = []
    last_tied = (outcome is scoring.Outcome.GAME_OVER
                 and scoring.stage(old, len(players)) is scoring.Stage.BUILDINGS)
    if outcome in (scoring.Outcome.NEXT_ERA, scoring.Outcome.GAME_OVER) and not last_tied:
        return _next_era(game, now)
    if (outcome is scoring.Outcome.CONFIRMED or last_tied) and asked is not None:
        if step_at is None:  # the tie-break: buildings on the central board
            value = book.buildings[asked] or 0
        else:
            value = book.points[game.era - 1][step_at][asked]
        step = None if step_at is None or step_at >= SCORING_STEPS else step_at + 1
        effects.append(Scored(game.era, step, players[asked], value,
                              scoring.totals(book)[asked], buildings=step_at is None))
    standings = scoring.Stage.STANDINGS
    if (scoring.stage(entry, len(players)) is standings
            and scoring.stage(old, len(players)) is not standings):
        effects.append(Standings(game.era, False,
                                 named_places(game, scoring.standings(scoring.totals(book)))))
    if last_tied:  # the last tied player's buildings, then the final ranking
        game, more = _next_era(game, now)
        effects.extend(more)
    return game, tuple(effects)


# --- the settings menu (see settings.py) ----------------------------------------------------------


def _open_menu(game: Game, now: float) -> tuple[Game, tuple[Effect, ...]]:
    """Hold ERA on the "New game" setup: only before Era I, so no game changes under way."""
    if game.era != 1:
        return game, ()
    chosen = current_settings(game)
    problem = settings_menu.game_problem(chosen)
    if problem is not None:  # the game to play cannot be: the menu opens saying why
        where = settings_menu.items(chosen).index("game")
        return replace(game, menu=settings_menu.Menu(item=where, note=problem)), ()
    return replace(game, menu=settings_menu.Menu()), ()


def _menu_input(game: Game, event: Input, now: float) -> tuple[Game, tuple[Effect, ...]]:
    assert game.menu is not None
    if event.button in (Button.VOL_UP, Button.VOL_DOWN, Button.BOTH):
        return game, ()  # the menu has its own volume item
    base = base_config(game)
    before = current_settings(game)
    menu, chosen = settings_menu.menu_step(game.menu, before, settings_menu.palette(base),
                                           settings_menu.defaults(base), event)
    game = replace(game, menu=menu)
    if chosen == before:
        return game, ()
    # Applies at once: the new game is set up again with what was chosen.
    config = settings_menu.apply(base, chosen)
    game = replace(game, config=config, settings=chosen, mode=era_mode(config, 1),
                   era_start_player=0, sheet=scoring.blank(len(config.players), config.eras))
    if not config.guide:
        game = replace(game, guide=None)
    elif chosen.guide != before.guide:  # switched on: the guide opens at its first step
        game = replace(game, guide=0)
    elif game.guide is not None:
        game = replace(game, guide=min(game.guide, len(guide_steps(game)) - 1))
    effects: list[Effect] = []
    if chosen.volume != before.volume:
        game = replace(game, volume=chosen.volume)
        effects.append(SetVolume(chosen.volume))
    if chosen.music_level != before.music_level:
        effects.append(SetVolume(game.volume, music=chosen.music_level))
    effects.append(SaveSettings(settings_menu.to_dict(chosen)))
    return game, tuple(effects)


# --- after every step -----------------------------------------------------------------------


def _save_key(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "elapsed"}


def _press_key(record: dict[str, Any]) -> dict[str, Any]:
    """What a press must have on disk before its effects: all but the clock and the volume
    (a lost volume step changes nothing at the table)."""
    return {k: v for k, v in record.items() if k not in ("elapsed", "volume")}


def _after(before: Game, game: Game, now: float) -> tuple[Effect, ...]:
    """Save whenever anything worth keeping changed; always hand out the current screen
    (adapters skip unchanged screens)."""
    effects: list[Effect] = []
    if game.phase is Phase.SETUP and (before.phase is not Phase.SETUP or before.era != game.era
                                      or before.mode != game.mode
                                      or score_variant(before) != score_variant(game)):
        # an era's setup screen opened (or its mode or score version changed): its start gong
        # may come at any moment, so the audio side gets that music ready now
        effects.append(PrepareMusic(game.era, game.mode, score_variant(game)))
    record = snapshot(game, now)
    if _save_key(record) != _save_key(snapshot(before, now)):
        effects.append(Save(record))
    effects.append(Show(screen(game, now)))
    return tuple(effects)


# --- the words the tables below are written in ------------------------------------------------

_Outcome = tuple[Game, tuple[Effect, ...]]
_Rule = tuple[Callable[[Game], bool], Button | None, Gesture | None,
              Callable[[Game, Input, float], _Outcome]]
ANY = None  # a rule's button or gesture: whichever (a gesture ANY takes a hold's release too)


def _do(handler: Callable[[Game, float], _Outcome]) -> Callable[[Game, Input, float], _Outcome]:
    """A rule's handler that needs only the game and the time (its row named the gesture)."""
    return lambda game, _event, now: handler(game, now)


def _in(phase: Phase) -> Callable[[Game], bool]:
    return lambda game: game.phase is phase


def _anywhere(game: Game) -> bool:
    return True


def _alone_in(phase: Phase) -> Callable[[Game], bool]:
    """In `phase`, and the table may pause (or resume) its era on its own (steer.py)."""
    return lambda game: game.phase is phase and may_pause_alone(game.config)


def _in_menu(game: Game) -> bool:
    return game.menu is not None


def _asking(game: Game) -> bool:
    return game.question is not None


def _scoring_unasked(game: Game) -> bool:
    return game.phase is Phase.SCORING and game.question is None


N, E, BOTH = Button.NEXT, Button.ERA, Button.BOTH
P, H = Gesture.PRESS, Gesture.HOLD


# --- the transitions, as tables ---------------------------------------------------------------
#
# A step first fires the timers that are due, then applies its input (if it has one).
#
# Timers: the deadlines a game carries (`Timer`; `pending` in timers.py lists them): a lead-in
# tick, the era's next cue, arming that cue, the periodic save, the end of a question, a prompt
# or the volume shown. Those due at `now` fire earliest first, at equal deadlines in the order
# of `Timer`; `_FIRE` says what each does.
#
# Inputs: an input goes down `_RULES` and the first row that matches handles it. A row names
# the state it holds in (a test of the game), a button and a gesture. No row matches: the input
# changes nothing (a "-" in docs/behaviour.md's table). The rows run from the widest to the
# narrowest: the volume buttons work everywhere; the open settings menu takes every other
# input; both buttons held asks "new game?" from anywhere (a short chord only counts in the
# entry of points, as -1); an open question takes the answer; the preparation guide and the
# entry of points read their buttons themselves; then docs/behaviour.md's table, state by
# state.


_FIRE: dict[Timer, Callable[[Game, float], _Outcome]] = {
    Timer.ARM: arm_next_cue,
    Timer.AHEAD: record_ahead,
    Timer.CUE: fire_cue,
    Timer.LEAD_IN: lead_in_tick,
    Timer.PROMPT: close_prompt,
    Timer.QUESTION: close_question,
    Timer.SAVE: periodic_save,
    Timer.VOLUME: hide_volume,
}

_RULES: tuple[_Rule, ...] = (
    # while ...                button           gesture  then
    (_anywhere,                Button.VOL_UP,   ANY,     _change_volume),
    (_anywhere,                Button.VOL_DOWN, ANY,     _change_volume),
    (_in_menu,                 ANY,             ANY,     _menu_input),
    (_anywhere,                BOTH,            H,       _do(_ask_new_game)),
    (_scoring_unasked,         BOTH,            ANY,     _scoring_input),  # short chord: -1
    (_anywhere,                BOTH,            ANY,     _do(_nothing)),
    (_asking,                  ANY,             ANY,     _answer),
    (in_guide,                 ANY,             ANY,     _guide_input),
    (_in(Phase.SCORING),       ANY,             ANY,     _scoring_input),
    (_in(Phase.SETUP),         N,               P,       _do(_toggle_mode)),
    (_in(Phase.SETUP),         E,               P,       _do(_start_era)),
    (_in(Phase.SETUP),         E,               H,       _do(_open_menu)),
    (_in(Phase.LEAD_IN),       E,               H,       _do(_cancel_lead_in)),
    (_alone_in(Phase.RUNNING), N,               P,       _do(_pause_hint)),
    (_alone_in(Phase.RUNNING), N,               H,       _do(pause_era)),
    (_in(Phase.RUNNING),       E,               H,       _do(_ask_restart_era)),
    (_alone_in(Phase.PAUSED),  N,               P,       _do(resume_era)),
    (_alone_in(Phase.PAUSED),  N,               H,       _do(resume_era)),
    (_in(Phase.PAUSED),        E,               H,       _do(_ask_restart_era)),
    (_in(Phase.INTRO_ROUND),   N,               P,       _do(_next_round)),
    (_in(Phase.INTRO_ROUND),   N,               H,       _do(_undo_round)),
    (_in(Phase.INTRO_ROUND),   E,               H,       _do(_ask_restart_era)),
    (_in(Phase.SCHOLARS),      N,               P,       _do(_scholars_done)),
    (_in(Phase.SCHOLARS),      N,               H,       _do(_undo_scholars)),
    (_in(Phase.GAME_OVER),     E,               H,       _do(_ask_new_game)),
)

"""The table of docs/behaviour.md, cell by cell: every state x (NEXT, ERA) x (press, hold).

Cells with an action are checked against what docs/behaviour.md says they do. Every other cell is a
"-": the whole `Game` must come back equal and no sound or music may be asked for. `both` opens
"New game?" from every state; the `confirm` question is answered, cancelled or left to close.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from functools import cache

import pytest

from era_table import Table
from erabox.core.config import Config, RealtimeConfig
from erabox.core.machine import (
    Game,
    describe,
    elapsed,
    guide_steps,
    next_deadline,
    screen,
    screen_kind,
    start_player,
    state_name,
    step,
)
from erabox.core.model import (
    Button,
    Effect,
    Gesture,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    Prompt,
    Question,
    Save,
    SetVolume,
    Sound,
    Tick,
)

N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD
CFG = Config()
RT = CFG.realtime
LEAD_IN = RT.lead_in_s
FIRST_CUE = RT.scholar_cues_s[0]
PLAYERS = CFG.players
QUESTION_TIMEOUT_S = 10.0  # docs/behaviour.md: an unanswered question closes itself after 10 s

# --- reaching each state of the table ---------------------------------------------------------


def intro_table(rounds_played: int) -> Table:
    """An introductory Era I after `rounds_played` NEXT presses (0 = round 1)."""
    t = Table(CFG)
    t.close_guide()
    t.do(N, P)  # setup: toggle to intro
    t.do(E, P)
    for _ in range(rounds_played):
        t.wait(30)
        t.do(N, P)
    return t


def finish_realtime_era(t: Table) -> None:
    """Start the era shown in `setup` (real-time) and wait for its end gong."""
    t.do(E, P)
    t.wait(LEAD_IN + RT.length_s + 1)


def reach(state: str) -> Table:
    """A game standing in `state` (a name of docs/behaviour.md), with no timer due at its `now`."""
    game, now, log = _reach(state)
    t = Table(CFG)
    t.game, t.now, t.log = game, now, list(log)
    return t


@cache
def _reach(state: str) -> tuple[Game, float, tuple[tuple[float, Effect], ...]]:
    # Games are frozen values, so one walk to each state serves every test.
    t = Table(CFG)
    if state == "setup":
        t.close_guide()
    if state == "lead_in":
        t.do(E, P)
        t.wait(LEAD_IN / 2)
    elif state in ("running", "paused"):
        t.do(E, P)
        t.wait(LEAD_IN + 100.5)
        if state == "paused":
            t.do(N, H)
            t.wait(20)
    elif state == "intro_round":
        t = intro_table(2)  # round 3: neither first nor before a scholar call
    elif state == "scholars":
        t = intro_table(5)  # after round 5
    elif state in ("scoring", "game_over"):
        finish_realtime_era(t)
        if state == "game_over":
            for _ in range(2):
                t.finish_scoring()  # setup of the next era
                finish_realtime_era(t)
            t.finish_scoring()
    elif state not in ("setup", "prepare"):
        raise AssertionError(state)
    return t.game, t.now, tuple(t.log)


STATES = ["prepare", "setup", "lead_in", "running", "paused", "intro_round", "scholars",
          "scoring", "game_over"]


def test_reach_gives_the_named_states() -> None:
    for state in STATES:
        t = reach(state)
        assert screen_kind(t.game).value == state
        deadline = next_deadline(t.game, t.now)
        assert deadline is None or deadline > t.now


# --- helpers ----------------------------------------------------------------------------------


def noises(effects: tuple[Effect, ...]) -> list[Effect]:
    """The effects a player would hear."""
    return [e for e in effects if isinstance(e, PlaySound | Music | SetVolume)]


def sounds(effects: tuple[Effect, ...]) -> list[Sound]:
    return [e.sound for e in effects if isinstance(e, PlaySound)]


def music(effects: tuple[Effect, ...]) -> list[MusicAction]:
    return [e.action for e in effects if isinstance(e, Music)]


def open_question(t: Table, button: Button = Button.BOTH) -> None:
    """Open `confirm`: `both` (new game) or ERA hold (restart era)."""
    t.do(button, H)
    assert state_name(t.game) is Phase.CONFIRM


# --- the cells with an action -----------------------------------------------------------------


def check_setup_next_press(t: Table) -> None:
    before = t.game
    effects = t.do(N, P)
    assert t.game.phase is Phase.SETUP
    assert t.game.mode is Mode.INTRO  # the config's default_mode is real-time
    assert replace(t.game, mode=before.mode) == before  # nothing else changed
    assert noises(effects) == []
    t.do(N, P)
    assert t.game == before  # a toggle


def check_setup_era_hold(t: Table) -> None:
    # The "New game" setup (Era I): hold ERA opens the settings menu; nothing sounds.
    assert t.game.era == 1
    shown = screen_kind(t.game)
    effects = t.do(E, H)
    assert state_name(t.game) is Phase.SETTINGS and t.game.phase is Phase.SETUP
    assert noises(effects) == []
    t.do(E, H)  # and closes it again
    assert screen_kind(t.game) is shown


def check_prepare_next_press(t: Table) -> None:
    # The guide: the next step (Era I: the game's setup, then the era's preparation); the
    # last one leads to the setup.
    count = len(guide_steps(t.game))
    assert screen(t.game, t.now).guide_position == (1, count if t.game.era > 1 else 11)
    keys = []
    for _ in range(count):
        keys.append(screen(t.game, t.now).guide_step)
        effects = t.do(N, P)
        assert noises(effects) == []
    assert len(set(keys)) == count
    assert screen_kind(t.game) is Phase.SETUP and t.game.mode is CFG.default_mode


def check_prepare_next_hold(t: Table) -> None:
    # Straight to the setup screen (its mode can be changed there).
    effects = t.do(N, H)
    assert screen_kind(t.game) is Phase.SETUP and noises(effects) == []


def check_setup_era_press(t: Table) -> None:
    start = t.now
    effects = t.do(E, P)
    assert state_name(t.game) is Phase.LEAD_IN
    assert Sound.GONG not in sounds(effects)
    # The countdown: one tick per second, then the start gong exactly lead_in_s later.
    t.wait(LEAD_IN - 0.001)
    assert t.sounds(Sound.GONG) == []
    assert t.sounds(Sound.TICK) == pytest.approx([start + k for k in range(LEAD_IN)])
    t.wait(0.001)
    assert t.sounds(Sound.GONG) == pytest.approx([start + LEAD_IN])
    assert state_name(t.game) is Phase.RUNNING
    assert elapsed(t.game, t.now) == pytest.approx(0.0)
    assert (start + LEAD_IN, MusicAction.START.value) in t.music()


def check_lead_in_era_hold(t: Table) -> None:
    before = t.game
    effects = t.do(E, H)
    assert t.game.phase is Phase.SETUP
    assert (t.game.era, t.game.mode) == (before.era, before.mode)
    assert noises(effects) == []
    t.wait(2 * LEAD_IN)
    assert t.sounds(Sound.GONG) == [] and t.game.phase is Phase.SETUP


def check_running_next_press(t: Table) -> None:
    before = t.game
    effects = t.do(N, P)
    assert state_name(t.game) is Phase.RUNNING
    assert screen(t.game, t.now).prompt is Prompt.PAUSE_HINT  # "hold NEXT to pause"
    assert noises(effects) == []
    assert elapsed(t.game, t.now + 7) == elapsed(before, t.now + 7)  # the clock runs on


def check_running_next_hold(t: Table) -> None:
    t.do(N, P)  # "hold NEXT to pause" shows; the hold that follows pauses, and the hint goes
    assert screen(t.game, t.now).prompt is Prompt.PAUSE_HINT
    held = elapsed(t.game, t.now)
    effects = t.do(N, H)
    assert state_name(t.game) is Phase.PAUSED
    assert screen(t.game, t.now).prompt is None
    assert music(effects) == [MusicAction.PAUSE]
    assert sounds(effects) == []
    t.wait(1000)  # longer than the whole era: nothing fires while paused
    assert elapsed(t.game, t.now) == held
    assert t.sounds(Sound.CRY) == [] and t.sounds(Sound.GONG)[1:] == []


def check_restart_question(t: Table) -> None:
    before = t.game
    clock = elapsed(before, t.now + 3)
    effects = t.do(E, H)
    assert state_name(t.game) is Phase.CONFIRM
    assert t.game.question is Question.RESTART_ERA
    assert screen(t.game, t.now).question is Question.RESTART_ERA
    assert noises(effects) == []
    assert t.game.phase is before.phase  # the question is over the era, which goes on
    assert elapsed(t.game, t.now + 3) == clock


def check_paused_resume(gesture: Gesture) -> Callable[[Table], None]:
    def check(t: Table) -> None:
        held = elapsed(t.game, t.now)
        assert held is not None
        effects = t.do(N, gesture)
        assert state_name(t.game) is Phase.RUNNING
        assert music(effects) == [MusicAction.RESUME]
        assert elapsed(t.game, t.now + 2.5) == pytest.approx(held + 2.5)

    return check


def check_intro_next_press(t: Table) -> None:
    r, player = t.game.round, start_player(t.game)
    assert r == 3
    effects = t.do(N, P)
    assert (t.game.phase, t.game.round, start_player(t.game)) == (Phase.INTRO_ROUND, 4, player)
    assert noises(effects) == []


def check_intro_next_hold(t: Table) -> None:
    effects = t.do(N, H)
    assert (t.game.phase, t.game.round, start_player(t.game)) == (
        Phase.INTRO_ROUND, 2, PLAYERS[0])
    assert noises(effects) == []


def check_scholars_next_press(t: Table) -> None:
    effects = t.do(N, P)
    assert (t.game.phase, t.game.round) == (Phase.INTRO_ROUND, 6)
    assert start_player(t.game) == PLAYERS[1]  # the box went to the left
    assert sounds(effects) == []


def check_scholars_next_hold(t: Table) -> None:
    effects = t.do(N, H)
    assert (t.game.phase, t.game.round, start_player(t.game)) == (
        Phase.INTRO_ROUND, 5, PLAYERS[0])
    assert noises(effects) == []


def check_scoring_next(gesture: Gesture, adds: int) -> Callable[[Table], None]:
    def check(t: Table) -> None:
        before = screen(t.game, t.now)
        assert before.entry == "points" and before.value == 0
        effects = t.do(N, gesture)
        shown = screen(t.game, t.now)
        assert (shown.player, shown.value) == (PLAYERS[0], adds)  # the first player's number
        assert dict(shown.totals)[PLAYERS[0]] == adds
        assert noises(effects) == []

    return check


def check_scoring_era_press(t: Table) -> None:
    # Confirms the number and asks the next player in seating order; nothing sounds.
    t.do(N, P)
    effects = t.do(E, P)
    shown = screen(t.game, t.now)
    assert (shown.era_total, shown.player, shown.value) == (True, PLAYERS[1], 0)
    assert dict(shown.totals)[PLAYERS[0]] == 1
    assert noises(effects) == []
    t.finish_scoring()  # and after the checklist and the standings: the next era
    assert (screen_kind(t.game), t.game.era, t.game.mode) == (
        Phase.PREPARE, 2, CFG.default_mode)


def check_scoring_era_hold(t: Table) -> None:
    # Undo: the number being entered is cleared; on 0, back to the previous one.
    t.do(N, H)
    t.do(E, P)
    t.do(N, P)
    effects = t.do(E, H)
    assert (screen(t.game, t.now).player, screen(t.game, t.now).value) == (PLAYERS[1], 0)
    t.do(E, H)
    assert (screen(t.game, t.now).player, screen(t.game, t.now).value) == (PLAYERS[0], 5)
    assert noises(effects) == []


def check_game_over_era_hold(t: Table) -> None:
    """The final ranking is not wiped by one hold: it asks "New game?" first (no: the ranking
    again; yes: a fresh Era I)."""
    before = t.game
    t.do(E, H)
    assert state_name(t.game) is Phase.CONFIRM
    assert t.game.question is Question.NEW_GAME
    assert t.game.phase is Phase.GAME_OVER and t.game.sheet == before.sheet
    t.do(N, P)
    assert t.game == before
    t.do(E, H)
    t.do(E, P)
    assert (t.game.phase, t.game.era, t.game.mode) == (Phase.SETUP, 1, CFG.default_mode)
    assert screen(t.game, t.now).new_game


# The cells of docs/behaviour.md's table that do something; every other cell is "-".
ACTIONS: dict[tuple[str, Button, Gesture], Callable[[Table], None]] = {
    ("prepare", N, P): check_prepare_next_press,
    ("prepare", N, H): check_prepare_next_hold,
    ("prepare", E, P): check_setup_era_press,
    ("prepare", E, H): check_setup_era_hold,
    ("setup", N, P): check_setup_next_press,
    ("setup", E, P): check_setup_era_press,
    ("setup", E, H): check_setup_era_hold,
    ("lead_in", E, H): check_lead_in_era_hold,
    ("running", N, P): check_running_next_press,
    ("running", N, H): check_running_next_hold,
    ("running", E, H): check_restart_question,
    ("paused", N, P): check_paused_resume(P),
    ("paused", N, H): check_paused_resume(H),
    ("paused", E, H): check_restart_question,
    ("intro_round", N, P): check_intro_next_press,
    ("intro_round", N, H): check_intro_next_hold,
    ("intro_round", E, H): check_restart_question,
    ("scholars", N, P): check_scholars_next_press,
    ("scholars", N, H): check_scholars_next_hold,
    ("scoring", N, P): check_scoring_next(P, 1),
    ("scoring", N, H): check_scoring_next(H, 5),
    ("scoring", E, P): check_scoring_era_press,
    ("scoring", E, H): check_scoring_era_hold,
    ("game_over", E, H): check_game_over_era_hold,
}
CELLS = [(s, b, g) for s in STATES for b in (N, E) for g in (P, H)]


@pytest.mark.parametrize(("state", "button", "gesture"), list(ACTIONS))
def test_cell_with_an_action(state: str, button: Button, gesture: Gesture) -> None:
    ACTIONS[state, button, gesture](reach(state))


@pytest.mark.parametrize(("state", "button", "gesture"),
                         [c for c in CELLS if c not in ACTIONS])
def test_nothing_happens(state: str, button: Button, gesture: Gesture) -> None:
    t = reach(state)
    before = t.game
    after, effects = step(before, Input(button, gesture), t.now)
    assert after == before
    assert noises(effects) == []


# --- confirm ----------------------------------------------------------------------------------

QUESTIONS = [(s, Button.BOTH) for s in STATES] + [
    (s, E) for s in ("running", "paused", "intro_round", "game_over")]


@pytest.mark.parametrize("state", STATES)
def test_both_opens_new_game_from_every_state(state: str) -> None:
    t = reach(state)
    before = t.game
    effects = t.do(Button.BOTH, H)
    assert state_name(t.game) is Phase.CONFIRM
    assert screen(t.game, t.now).question is Question.NEW_GAME
    assert t.game.phase is before.phase  # what is underneath is untouched
    assert noises(effects) == []


def test_both_over_a_restart_question_asks_new_game_instead() -> None:
    t = reach("intro_round")
    open_question(t, E)
    open_question(t, Button.BOTH)
    assert t.game.question is Question.NEW_GAME


@pytest.mark.parametrize(("state", "opener"), QUESTIONS)
def test_confirm_next_press_cancels_back_to_the_same_state(state: str, opener: Button) -> None:
    t = reach(state)
    before = t.game
    open_question(t, opener)
    effects = t.do(N, P)
    assert t.game == before  # same instant: the very same game, question gone
    assert noises(effects) == []


@pytest.mark.parametrize(("state", "opener"), QUESTIONS)
@pytest.mark.parametrize(("button", "gesture"), [(N, H), (E, H)])
def test_confirm_holds_do_nothing(state: str, opener: Button, button: Button,
                                  gesture: Gesture) -> None:
    t = reach(state)
    open_question(t, opener)
    before = t.game
    after, effects = step(before, Input(button, gesture), t.now)
    assert after == before
    assert noises(effects) == []


@pytest.mark.parametrize("state", STATES)
def test_confirm_new_game_yes_starts_a_fresh_era_one(state: str) -> None:
    t = reach(state)
    open_question(t)
    effects = t.do(E, P)
    assert (screen_kind(t.game), t.game.era, t.game.mode) == (
        Phase.PREPARE, 1, CFG.default_mode)
    assert screen(t.game, t.now).new_game
    assert sounds(effects) == []
    if state in ("running", "paused", "intro_round", "scholars"):
        assert music(effects) == [MusicAction.STOP]  # no era music under a setup screen
    played = len(t.log)
    t.wait(RT.length_s * 2)  # the abandoned era fires nothing any more
    assert t.game.phase is Phase.SETUP
    assert noises(tuple(e for _, e in t.log[played:])) == []


@pytest.mark.parametrize("state", ["running", "paused", "intro_round"])
def test_confirm_restart_era_yes_goes_back_to_setup_of_the_same_era(state: str) -> None:
    """Yes lands on the era's setup screen, not its preparation guide (the table prepared
    the era already; the setup screen is where its mode is chosen and ERA starts it)."""
    t = reach(state)
    era = t.game.era
    open_question(t, E)
    effects = t.do(E, P)
    assert (screen_kind(t.game), t.game.era) == (Phase.SETUP, era)
    assert music(effects) == [MusicAction.STOP]
    gongs = len(t.sounds(Sound.GONG))
    t.wait(RT.length_s * 2)
    assert len(t.sounds(Sound.GONG)) == gongs and t.game.phase is Phase.SETUP


# Over lead_in the start gong falls due within the 10 s: see the cue tests below.
@pytest.mark.parametrize(("state", "opener"), [q for q in QUESTIONS if q[0] != "lead_in"])
def test_unanswered_question_closes_itself_after_10_s(state: str, opener: Button) -> None:
    t = reach(state)
    before = t.game
    opened = t.now
    open_question(t, opener)
    t.wait_until(opened + QUESTION_TIMEOUT_S - 0.01)
    assert state_name(t.game) is Phase.CONFIRM
    t.wait_until(opened + QUESTION_TIMEOUT_S + 0.01)
    assert screen_kind(t.game) is screen_kind(before)
    assert (t.game.era, t.game.mode, t.game.round) == (before.era, before.mode, before.round)


def test_question_over_a_running_era_closes_itself_and_the_clock_ran_on() -> None:
    t = reach("running")
    at = elapsed(t.game, t.now)
    assert at is not None
    open_question(t, E)
    t.wait(QUESTION_TIMEOUT_S + 0.01)
    assert state_name(t.game) is Phase.RUNNING
    assert elapsed(t.game, t.now) == pytest.approx(at + QUESTION_TIMEOUT_S + 0.01)


@pytest.mark.parametrize("opener", [Button.BOTH, E])
def test_a_cue_falling_due_under_a_question_fires_and_closes_it(opener: Button) -> None:
    t = Table(CFG)
    t.do(E, P)
    gong = LEAD_IN
    t.wait_until(gong + FIRST_CUE - 4)
    open_question(t, opener)
    t.wait_until(gong + FIRST_CUE - 1e-3)
    assert state_name(t.game) is Phase.CONFIRM and t.sounds(Sound.CRY) == []
    t.wait_until(gong + FIRST_CUE + 1e-3)
    assert t.sounds(Sound.CRY) == pytest.approx([gong + FIRST_CUE])
    assert state_name(t.game) is Phase.RUNNING
    assert screen(t.game, t.now).prompt is Prompt.SCHOLARS


def test_the_end_gong_under_a_question_ends_the_era() -> None:
    t = Table(CFG)
    t.do(E, P)
    t.wait_until(LEAD_IN + RT.length_s - 5)
    open_question(t)
    t.wait_until(LEAD_IN + RT.length_s + 0.5)
    assert state_name(t.game) is Phase.SCORING
    assert t.sounds(Sound.GONG) == pytest.approx([LEAD_IN, LEAD_IN + RT.length_s])


# --- finer points of single cells ---------------------------------------------------------------


def test_start_intro_era_plays_the_gong_and_shows_round_one_with_the_oldest_player() -> None:
    t = Table(CFG)
    t.close_guide()
    t.do(N, P)
    effects = t.do(E, P)
    assert sounds(effects) == [Sound.GONG]
    assert (t.game.phase, t.game.round, start_player(t.game)) == (
        Phase.INTRO_ROUND, 1, PLAYERS[0])
    shown = screen(t.game, t.now)
    assert (shown.round, shown.rounds, shown.start_player) == (1, 15, PLAYERS[0])


def test_no_lead_in_means_the_gong_at_once() -> None:
    t = Table(replace(CFG, realtime=RealtimeConfig(lead_in_s=0)))
    effects = t.do(E, P)
    assert sounds(effects) == [Sound.GONG]
    assert state_name(t.game) is Phase.RUNNING


def test_lead_in_counts_down_5_to_1() -> None:
    t = Table(CFG)
    t.do(E, P)
    shown = []
    for k in range(LEAD_IN):
        t.wait_until(k + 0.5)
        shown.append(screen(t.game, t.now).countdown)
    assert shown == list(range(LEAD_IN, 0, -1))


def test_running_screen_shows_time_left_rounded_up() -> None:
    t = reach("running")  # 100.5 s of running time
    shown = screen(t.game, t.now)
    assert shown.seconds_left == 440  # 439.5 s left shows as 7:20
    assert shown.cue_marks == RT.scholar_cues_s


def test_setup_shows_new_game_before_era_one_only() -> None:
    t = reach("scoring")
    assert screen(Table(CFG).game, 0.0).new_game
    t.finish_scoring()
    assert t.game.era == 2 and not screen(t.game, t.now).new_game


def test_intro_next_press_after_round_5_calls_scholars_with_a_cry() -> None:
    t = intro_table(4)
    effects = t.do(N, P)
    assert (t.game.phase, t.game.round) == (Phase.SCHOLARS, 5)
    assert sounds(effects) == [Sound.CRY]
    # The screen tells whom to pass the box to.
    assert screen(t.game, t.now).start_player == PLAYERS[1]


def test_intro_next_press_in_the_last_round_ends_the_era() -> None:
    t = intro_table(CFG.intro.rounds - 1 + len(CFG.intro.scholar_after_rounds))
    assert t.game.round == CFG.intro.rounds
    effects = t.do(N, P)
    assert state_name(t.game) is Phase.SCORING
    assert sounds(effects) == [Sound.GONG]


def test_intro_undo_in_round_one_does_nothing() -> None:
    t = intro_table(0)
    before = t.game
    after, effects = step(before, Input(N, H), t.now)
    assert after == before and noises(effects) == []


def test_intro_undo_after_scholars_goes_back_to_the_scholar_call() -> None:
    t = intro_table(6)  # round 6, blue starts
    assert start_player(t.game) == PLAYERS[1]
    effects = t.do(N, H)
    assert (t.game.phase, t.game.round) == (Phase.SCHOLARS, 5)
    assert noises(effects) == []  # undo does not cry again


def test_scoring_of_era_three_then_era_press_is_game_over() -> None:
    t = reach("game_over")
    assert (t.game.phase, t.game.era) == (Phase.GAME_OVER, 3)
    assert len(t.sounds(Sound.GONG)) == 6


def test_scoring_checklist_steps_stay_in_the_checklist() -> None:
    t = reach("scoring")
    t.game = replace(t.game, entry=replace(t.game.entry, by_step=True))  # entered per step
    seen = []
    for _ in range(30):
        seen.append(screen(t.game, t.now).scoring_step)
        t.do(E, P)
        if t.game.phase is not Phase.SCORING:
            break
    # every step of docs/game.md's scoring checklist, in order, never back to 1/6
    assert all(s is not None and 0 <= s < 6 for s in seen)
    assert seen == sorted(seen) and len(set(seen)) == 6  # type: ignore[type-var]


@pytest.mark.parametrize("state", STATES)
def test_volume_buttons_change_only_the_volume(state: str) -> None:
    t = reach(state)
    before = t.game
    levels = []
    for button in [Button.VOL_UP] * 4 + [Button.VOL_DOWN] * 13:
        effects = t.do(button, P)
        levels += [e.level for e in effects if isinstance(e, SetVolume)]
        assert screen(t.game, t.now).volume == round(t.game.volume * 100)
    assert levels[:3] == pytest.approx([0.9, 1.0, 1.0])
    assert levels[-1] == pytest.approx(0.0) and min(levels) >= 0 and max(levels) <= 1
    assert screen_kind(t.game) is screen_kind(before)
    assert (t.game.era, t.game.mode, t.game.round) == (before.era, before.mode, before.round)


def test_the_machine_never_reads_a_clock() -> None:
    # The same inputs at the same virtual times give the same game, however long it took.
    a, b = reach("running"), reach("running")
    assert a.game == b.game
    after_a = step(a.game, Tick(), a.now + 50)[0]
    after_b = step(b.game, Tick(), b.now + 50)[0]
    assert after_a == after_b


def test_appoint_scholars_shows_over_the_clock_for_15_s() -> None:
    t = Table(CFG)
    t.do(E, P)
    cry = LEAD_IN + FIRST_CUE
    t.wait_until(cry + RT.scholar_prompt_s - 0.01)
    assert screen(t.game, t.now).prompt is Prompt.SCHOLARS
    t.do(N, P)  # a pause hint does not push the scholar call off the screen
    assert screen(t.game, t.now).prompt is Prompt.SCHOLARS
    t.wait_until(cry + RT.scholar_prompt_s + 0.01)
    assert screen(t.game, t.now).prompt is None
    assert screen(t.game, t.now).seconds_left is not None  # the clock is still shown


def test_a_running_era_is_saved_at_least_every_5_s() -> None:
    t = Table(CFG)
    t.do(E, P)
    t.wait_until(LEAD_IN + 100)
    t.do(N, H)
    t.wait(30)
    t.do(N, H)
    t.wait_until(LEAD_IN + 30 + RT.length_s + 1)
    running = [(LEAD_IN, LEAD_IN + 100), (LEAD_IN + 130, LEAD_IN + 30 + RT.length_s)]
    saves = [at for at, e in t.log if isinstance(e, Save)]
    for start, end in running:
        within = [start, *[s for s in saves if start <= s <= end], end]
        assert max(b - a for a, b in itertools.pairwise(within)) <= 5.0 + 1e-6


def test_every_state_change_is_saved() -> None:
    t = intro_table(0)
    for gesture in [P] * 7 + [H] * 3 + [P] * 2:
        before = describe(t.game, t.now)
        effects = t.do(N, gesture)
        after = describe(t.game, t.now)
        if after != before:
            saved = [e.snapshot for e in effects if isinstance(e, Save)]
            assert len(saved) == 1
            assert (saved[0]["round"], saved[0]["start_player"]) == (after["round"],
                                                                     after["start_player"])


def test_the_clock_on_screen_changes_exactly_on_each_second() -> None:
    """The loop wakes on every whole second of running time (and only changes the displayed
    seconds there), so the clock on screen ticks on the second, through a pause too."""
    from erabox.core.machine import new_game, next_deadline, screen, step
    from erabox.core.model import Button, Gesture, Input, Tick

    config = Config()
    game, _ = step(new_game(config), Input(Button.ERA, Gesture.PRESS), 0.0)
    now, lead_in = 0.0, config.realtime.lead_in_s
    while game.phase is not Phase.RUNNING:
        now = next_deadline(game, now) or now
        game, _ = step(game, Tick(), now)
    assert now == lead_in
    shown = screen(game, now).seconds_left
    assert shown == 540
    # 2.3 s in, a pause of 7.25 s: the clock then ticks at gong + 3.0 + 7.25, + 4.0 + 7.25 ...
    game, _ = step(game, Tick(), lead_in + 2.3)
    game, _ = step(game, Input(Button.NEXT, Gesture.HOLD), lead_in + 2.3)
    game, _ = step(game, Input(Button.NEXT, Gesture.PRESS), lead_in + 9.55)
    now = lead_in + 9.55
    changes = []
    while now < lead_in + 20:
        due = next_deadline(game, now)
        assert due is not None and due > now
        before = screen(game, due - 1e-4).seconds_left
        game, _ = step(game, Tick(), due)
        after = screen(game, due).seconds_left
        if after != before:
            changes.append(round(due - lead_in - 7.25, 6))
        now = due
    assert changes[:8] == [3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]

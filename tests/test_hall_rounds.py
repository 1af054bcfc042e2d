"""A box playing a round game in a hall, as its link and the director see it (docs/hall.md,
"A round game's countdown in a hall"): the link keeps a `hall = true` countdown in step as it
keeps Time of Empires' era (small corrections toward the hall's running time, a table that
steps in late or comes back from a power cut put on the hall's time, a table that paused
alone left alone), and its status tells the director the game's era, round, phase and the
countdown's running time. The link runs here without a broker (a client that records what
it publishes); the hall's clock is the box's."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.hall import HallLink
from erabox.core.config import Config, HallConfig, parse_config
from erabox.core.deadlines import countdown_start, next_deadline
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.hall import QUIET_S, SLEW_S, Command, HallState, Sample
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    Phase,
    PlaySound,
    Save,
    Screen,
    Sound,
    Steer,
    SteerAction,
    Tick,
)
from erabox.core.play import Play, save_every
from erabox.core.profile import parse_profile
from erabox.files.games import own_rounds
from erabox.run.hall_director import _line
from erabox.ui.layout import TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

S, P, R, W = SteerAction.START, SteerAction.PAUSE, SteerAction.RESUME, SteerAction.SLEW
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
NEXT_HOLD = Input(Button.NEXT, Gesture.HOLD)
ROUNDS = Path(__file__).parent / "profiles" / "time-of-empires-rounds.toml"
PROFILE = parse_profile(ROUNDS.read_text(encoding="utf-8"), str(ROUNDS))


class Client:
    """A paho client that only records what the link publishes."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []
        self.on_message: Any = None

    def will_set(self, *_args: Any, **_kw: Any) -> None:
        pass

    def publish(self, topic: str, payload: Any, **_kw: Any) -> None:
        self.published.append((topic, payload))


def config(alone: bool = False) -> Config:
    text = f'[hall]\nbroker = "h"\nkey = "k"\ntable = "t1"\npause_alone = {str(alone).lower()}\n'
    return replace(parse_config(text, "c.toml"), players=("red", "blue"))


def link(game: Any, alone: bool = False) -> tuple[HallLink, list[Steer]]:
    """A link whose hall's clock is the box's, playing `game()`; the orders it hands over."""
    posted: list[Steer] = []
    hall = config(alone).hall
    assert isinstance(hall, HallConfig)
    made = HallLink(hall, clock=lambda: 0.0, post=posted.append, game=game, client=Client())
    made.sync.add(Sample(0.0, 0.0, 0.0))
    return made, posted


def at_action(alone: bool = False) -> tuple[ProfileEngine, Play]:
    """Era I's action phase of Time of Empires in the round format, entered at 0: in a hall,
    its countdown held for the hall's start."""
    box = ProfileEngine(PROFILE, config(alone))
    play, _ = box.fresh(0.0, 0)
    play, _ = box.step(play, ERA, 0.0)
    while not (PROFILE.phases[play.spot.phase].hall and play.spot.state.value == "round"):
        play, _ = box.step(play, NEXT, 0.0)
    assert play.timer_end is None and play.held_left == 545.0
    return box, play


def running(box: ProfileEngine, play: Play, zero: float) -> Play:
    """`play` started by the hall with its running time zero at `zero` (a late start)."""
    started, _ = box.step(play, Steer(S, zero + 20.0, 20.0), zero + 20.0)
    assert started.timer_end == pytest.approx(zero + 540.0)
    return started


def test_a_running_countdown_is_slewed_toward_the_halls_running_time() -> None:
    box, play = at_action()
    play = running(box, play, 100.0)
    hall, posted = link(lambda: play)
    hall.state = HallState(S, 100.0, 0.0)  # the hall's running time zero at 100.0
    play = replace(play, timer_end=640.0 - 0.01)  # the box runs 10 ms ahead
    hall._keep_in_step(130.0)
    assert [(o.action, o.at) for o in posted] == [(W, 130.0)]
    assert posted[0].running_s == pytest.approx(130.0 - (99.99 + SLEW_S))
    assert play.timer_end is not None
    slewed, _ = box.step(play, posted[0], 130.0)
    assert slewed.timer_end == pytest.approx(play.timer_end + SLEW_S)


def corrected(box: ProfileEngine, play: Play, start: float, end: float
              ) -> tuple[Play, list[Save], list[Save], list[float]]:
    """`play` kept in step by the link from `start` to `end` (the hall's running time zero at
    100.0), woken at each of its deadlines: the saves the corrections wrote, every save, and
    when each call sounded."""
    shown = [box.step(play, Tick(), start)[0]]
    hall, posted = link(lambda: shown[0])
    hall.state = HallState(S, 100.0, 0.0)
    by_slews: list[Save] = []
    saves: list[Save] = []
    calls: list[float] = []
    now, slew_at = start, start
    while now < end:
        due = next_deadline(shown[0], now)
        if due is not None and due < slew_at:
            now = due
            shown[0], effects = box.step(shown[0], Tick(), now)
        else:
            now, slew_at = slew_at, slew_at + 0.5
            hall._keep_in_step(now)
            effects = ()
            for order in posted:
                assert order.action is W
                shown[0], more = box.step(shown[0], order, now)
                by_slews += [e for e in more if isinstance(e, Save)]
                effects += more
            posted.clear()
        saves += [e for e in effects if isinstance(e, Save)]
        calls += [now for e in effects if isinstance(e, PlaySound) and e.sound is Sound.CRY]
    return shown[0], by_slews, saves, calls


@pytest.mark.parametrize("write_s", [0.0, 0.5])
def test_a_minute_of_corrections_writes_nothing_but_the_periodic_saves(write_s: float) -> None:
    """A box 0.2 s ahead of the hall is corrected 2 ms every half second, a hundred times
    over the minute: no correction writes the card (the countdown's seconds go with its
    periodic save, every 5 s, 4 s on the slow card, as Time of Empires' era's), the call in
    that minute sounds once, on the hall's time, and the box ends on the hall's running
    time. On a slow card (0.5 s a write: the call's record goes 1.1 s ahead of it) a
    correction after that record does not write it again."""
    box, play = at_action()
    play = replace(running(box, play, 100.0), timer_end=640.0 - 0.2, write_s=write_s)
    play, by_slews, saves, calls = corrected(box, play, 250.0, 310.0)
    assert by_slews == []
    # the periodic saves (both ends of the minute), the call's record held at it 0.5 s
    # ahead (`resume = "paused"`, on a fast card) and its record written ahead
    assert len(saves) <= 60 / save_every(play) + 3
    assert len(calls) == 1 and 279.8 < calls[0] < 280.0  # the cry at 3:00, half corrected
    start = countdown_start(play)
    assert start == pytest.approx(100.0, abs=QUIET_S)


def test_no_small_correction_just_before_a_call() -> None:
    box, play = at_action()
    play = replace(running(box, play, 100.0), timer_end=640.0 - 0.01)
    hall, posted = link(lambda: play)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(100.0 + 180.0 - 0.01 - 0.2)  # the cry at 3:00 is 0.2 s away
    assert posted == []
    hall._keep_in_step(100.0 + 180.0 - 0.01 - 1.0)  # a second away: corrected
    assert [o.action for o in posted] == [W]


def test_a_table_that_steps_in_late_starts_on_the_halls_running_time() -> None:
    """The hall started the countdown before this table reached it: the link starts it at
    once on the hall's running time (the gong sounds; the calls long past do not)."""
    box, play = at_action()
    hall, posted = link(lambda: play)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(300.0)
    assert posted == [Steer(S, 300.0, 200.0)]
    play, effects = box.step(play, posted[0], 300.0)
    assert play.timer_end == pytest.approx(640.0)
    assert [e.sound for e in effects if isinstance(e, PlaySound)] == [Sound.GONG]
    posted.clear()
    hall._keep_in_step(300.5)  # running on the hall's time now: nothing more
    assert posted == []


def test_a_box_back_from_a_power_cut_resumes_on_the_halls_running_time() -> None:
    box, play = at_action()
    play = running(box, play, 100.0)
    back, _ = box.restore(box.snapshot(play, 200.0), 260.0)  # back held, at 100 s
    assert back.timer_end is None and back.held_left == pytest.approx(440.0)
    hall, posted = link(lambda: back)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(260.0)
    assert posted == [Steer(R, 260.0, 160.0)]
    resumed, _ = box.step(back, posted[0], 260.0)
    assert resumed.timer_end == pytest.approx(640.0)
    posted.clear()
    hall._keep_in_step(261.0)  # once per mismatch
    assert posted == []


def test_the_halls_pause_reaches_a_table_that_runs_on() -> None:
    box, play = at_action()
    play = running(box, play, 100.0)
    hall, posted = link(lambda: play)
    hall.state = HallState(P, 200.0, 100.0)
    hall._keep_in_step(205.0)
    assert posted == [Steer(P, 205.0, 100.0)]
    held, _ = box.step(play, posted[0], 205.0)
    assert held.timer_end is None and held.held_left == pytest.approx(440.0)


def test_a_table_that_paused_alone_keeps_its_own_time() -> None:
    box, play = at_action(alone=True)
    play = running(box, play, 100.0)
    paused, _ = box.step(play, NEXT_HOLD, 150.0)  # [buttons] pause = "next_hold"
    assert paused.held_left == pytest.approx(490.0)
    hall, posted = link(lambda: paused, alone=True)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(160.0)
    assert posted == [] and hall.detached
    resumed, _ = box.step(paused, NEXT_HOLD, 170.0)
    hall.game = lambda: resumed
    hall._keep_in_step(171.0)  # 20 s behind the hall, and left so
    assert posted == []


def test_a_table_that_resumed_alone_while_the_hall_is_paused_keeps_its_own_time() -> None:
    """The hall paused: the table held with it resumes alone (`pause_alone`) and runs on,
    not paused again, until the director's next command."""
    box, play = at_action(alone=True)
    play = running(box, play, 100.0)
    held, _ = box.step(play, Steer(P, 150.0, 50.0), 150.0)
    hall, posted = link(lambda: held, alone=True)
    hall.state = HallState(P, 150.0, 50.0)
    hall._keep_in_step(151.0)  # held with the hall
    resumed, _ = box.step(held, NEXT_HOLD, 160.0)
    assert resumed.timer_end == pytest.approx(650.0)
    hall.game = lambda: resumed
    hall._keep_in_step(161.0)
    hall._keep_in_step(170.0)
    assert posted == [] and hall.detached
    hall.pending = Command("c", 2, "h", R, 180.0, 50.0)  # the director's next command
    order = hall._order_due(180.0)
    assert order == Steer(R, 180.0, 50.0) and not hall.detached
    back, _ = box.step(resumed, order, 180.0)
    assert back.timer_end == pytest.approx(670.0)  # on the hall's time again


def test_a_table_running_while_the_hall_is_paused_is_paused_where_it_may_pause_alone(
        ) -> None:
    """The same order still reaches a table running that the link never saw held with the
    hall's pause (a box back from a power cut running, where its record said so)."""
    box, play = at_action(alone=True)
    play = running(box, play, 100.0)
    hall, posted = link(lambda: play, alone=True)
    hall.state = HallState(P, 200.0, 100.0)
    hall._keep_in_step(205.0)
    assert posted == [Steer(P, 205.0, 100.0)]


def test_orders_for_a_phase_the_hall_does_not_steer_are_not_sent() -> None:
    box, play = at_action()
    asked, _ = box.step(play, Input(Button.ERA, Gesture.HOLD), 0.0)  # "Restart the era?"
    before, _ = box.step(asked, Input(Button.ERA, Gesture.PRESS), 0.0)  # yes: the setup
    assert not PROFILE.phases[before.spot.phase].hall
    hall, posted = link(lambda: before)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(200.0)
    assert posted == []


def test_the_status_tells_the_director_the_era_round_phase_and_running_time() -> None:
    box, play = at_action()
    hall, _ = link(lambda: play)
    waiting = hall.status(50.0)
    assert waiting["game"] == "Time of Empires (rounds)"
    assert (waiting["era"], waiting["round"], waiting["phase"]) == (1, 1, "action")
    assert (waiting["state"], waiting["running_s"], waiting["paused"]) == ("waiting", None,
                                                                          False)
    play = running(box, play, 100.0)
    status = hall.status(200.25)
    assert (status["state"], status["running_s"], status["paused"]) == ("running", 100.25,
                                                                        False)
    assert sorted(status["standings"]) == [("blue", 0), ("red", 0)]
    play, _ = box.step(play, Steer(P, 210.0, 110.0), 210.0)
    status = hall.status(230.0)
    assert (status["state"], status["running_s"], status["paused"]) == ("paused", 110.0, True)
    json.dumps(status)  # it travels as JSON
    line = _line("t1", status | {"seen": 229.0}, 230.0)
    assert "era 1 round 1 action" in line and "1:50" in line and "paused" in line


def test_time_of_empires_status_names_it_at_its_setup() -> None:
    """The shipped round file (Time of Empires as the box plays it) tells the director its
    name, its era and that it is at its setup (every field: the test above)."""
    config_ = config()
    box = ProfileEngine(configured(own_rounds(), config_), config_)
    play = box.fresh(0.0, 0)[0]
    hall, _ = link(lambda: play)
    status = hall.status(1.0)
    assert (status["game"], status["era"], status["state"]) == ("Time of Empires", 1, "setup")
    line = _line("t1", status | {"seen": 0.0}, 1.0)
    assert line.startswith("t1           Time of Empires  era 1")


# --- what the screen hints in each hall state ------------------------------------------------

# (ERA hold restarts the era in Time of Empires' round file, `[buttons] restart_era`: the
# hints say no undo on it)
UNDO_EN, UNDO_JA = "Until the gong", "終了の合図まで"
START_EN, START_JA = "hold NEXT: start", "NEXT長押し: 開始"
# a NEXT press resumes it (`[buttons] next_resumes`), as the era engine's "NEXT: resume"
RESUME_EN, RESUME_JA = "NEXT: resume", "NEXT: 再開"
WAITING, PAUSED = ("Waiting for the hall", "会場の開始待ち"), ("Paused", "一時停止")
# each hall state: (its status row's right item, its hint) in English and Japanese, and what
# the table's press (NEXT hold: `[buttons] pause = "next_hold"`) does there: "start" (its
# lead-in, then its start gong), "resume", "pause" or "nothing"
HINTS: dict[tuple[str, bool], tuple[tuple[str, str], tuple[str, str], str]] = {
    ("waiting", False): ((WAITING[0], UNDO_EN), (WAITING[1], UNDO_JA), "nothing"),
    ("running", False): (("", UNDO_EN), ("", UNDO_JA), "nothing"),
    ("hall paused", False): ((PAUSED[0], UNDO_EN), (PAUSED[1], UNDO_JA), "nothing"),
    ("waiting", True): ((WAITING[0], START_EN), (WAITING[1], START_JA), "start"),
    ("running", True): (("", UNDO_EN), ("", UNDO_JA), "pause"),
    ("hall paused", True): ((PAUSED[0], RESUME_EN), (PAUSED[1], RESUME_JA), "resume"),
    ("table paused", True): ((PAUSED[0], RESUME_EN), (PAUSED[1], RESUME_JA), "resume"),
}


@pytest.mark.parametrize(("state", "alone"), sorted(HINTS))
def test_each_hall_state_hints_only_what_the_press_does(state: str, alone: bool) -> None:
    """Time of Empires' round file in a hall: the hint of its action phase's countdown names
    a press only where it does something, and says what (a countdown waiting for the hall's
    start is started by it, not resumed); without `pause_alone` the press does nothing."""
    box, play = at_action(alone)
    now = 21.0
    if state != "waiting":
        play = running(box, play, 0.0)
    if state == "hall paused":
        play, _ = box.step(play, Steer(P, 20.0, 20.0), 20.0)
    if state == "table paused":
        play, _ = box.step(play, NEXT_HOLD, 20.0)
    shown = box.screen(play, now)
    english, japanese, does = HINTS[(state, alone)]
    for language, words in (("en", english), ("ja", japanese)):
        items = {i.role: i.text for i in layout_play(shown, Panel(128, 64), language)}
        # a step's status row says it at the right; the clock (one step), big over it
        assert (items.get("status_right") or items.get("title", ""), items["hint"]) == words
    pressed, _ = box.step(play, NEXT_HOLD, now)
    done = ("nothing" if pressed == play else "pause" if pressed.timer_end is None
            else "start" if pressed.timer_end == pytest.approx(now + 545.0) else "resume")
    assert done == does


# Time of Empires' era in a hall, as the box plays it (its shipped round file in its own
# words: the era engine's screens, `era_screen`): the hint of each state (English, Japanese;
# running: after a NEXT press, which shows how to pause only where holding NEXT pauses), and
# what NEXT held does there: "pause", "resume" or "nothing" (what the era engine showed and
# did, which this test proved of it before its removal)
ERA_HINTS: dict[tuple[str, bool], tuple[tuple[str, str], str]] = {
    ("running", False): (("Action phase", "アクションフェイズ"), "nothing"),
    ("hall paused", False): (("Waiting for the hall", "会場の再開待ち"), "nothing"),
    ("running", True): (("hold NEXT to pause", "NEXT長押しで一時停止"), "pause"),
    ("hall paused", True): (("NEXT: resume", "NEXT: 再開"), "resume"),
    ("table paused", True): (("NEXT: resume", "NEXT: 再開"), "resume"),
}
# where the round engine does not yet show what the era engine showed
@pytest.mark.parametrize(("state", "alone"), sorted(ERA_HINTS))
def test_each_hall_state_of_an_era_hints_only_what_next_does(state: str, alone: bool) -> None:
    c = replace(config(alone), guide=False)
    box = ProfileEngine(configured(guided(own_rounds(), False), c), c, source=own_rounds())
    play = box.fresh(0.0, 0)[0]
    play, _ = box.step(play, Steer(S, 10.0, 10.0), 10.0)
    if state == "hall paused":
        play, _ = box.step(play, Steer(P, 20.0, 20.0), 20.0)
    if state == "table paused":
        play, _ = box.step(play, NEXT_HOLD, 20.0)
    now = 21.0
    pressed, _ = box.step(play, NEXT, now)
    shown = box.screen(pressed if state == "running" else play, now)
    assert isinstance(shown, Screen)
    (english, japanese), does = ERA_HINTS[(state, alone)]
    for language, words in (("en", english), ("ja", japanese)):
        for panel in (Panel(128, 64), Panel(128, 32)):
            items = {i.role: i for i in layout(shown, language=language, panel=panel).items
                     if isinstance(i, TextItem)}
            hint = items.get("hint")
            assert ("" if hint is None else hint.source) == words
            assert hint is None or (hint.box.inside(panel) and not hint.block.abbreviated)
    held, _ = box.step(play, NEXT_HOLD, now)
    after = box.screen(held, now)
    assert isinstance(after, Screen)
    done = ("nothing" if held == play else "pause" if after.kind is Phase.PAUSED
            else "resume" if after.kind is Phase.RUNNING else after.kind.value)
    assert done == does


SPRINT = """\
[game]
id = "sprint"
name = "Sprint"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 2

[buttons]
pause = "next_hold"

[[phase]]
id = "race"
label = "Race"
timer_s = 60
steps = ["Run", "Rest"]
hall = true

[[event]]
id = "storm"
label = "Storm"
steps = ["Take cover"]
"""


@pytest.mark.parametrize(("language", "hints"), [
    ("en", ("hold NEXT: start", "hold: NEXT start  ERA undo")),
    ("ja", ("NEXT長押し: 開始", "NEXT長押し:開始 ERA長押し:戻す")),
])
def test_a_countdown_waiting_for_the_hall_hints_its_start_where_an_event_can_start_too(
        language: str, hints: tuple[str, str]) -> None:
    """Where ERA hold starts an event, the hint of a countdown waiting for the hall's start
    (that the table may start alone) names only the start; where none can, undo too."""
    box = ProfileEngine(parse_profile(SPRINT, "sprint.toml"), config(alone=True))
    play, _ = box.step(box.fresh(0.0, 0)[0], ERA, 0.0)
    assert play.held_left == 60.0 and box.screen(play, 1.0).hall_start
    storm, _ = box.step(play, Input(Button.ERA, Gesture.HOLD), 0.5)
    done, _ = box.step(storm, NEXT, 1.0)  # the storm done: no event can start
    assert done.held_left == 60.0
    shown = []
    for held in (play, done):
        items = layout_play(box.screen(held, 2.0), Panel(128, 64), language)
        hint = next(i for i in items if i.role == "hint")
        assert hint.x + hint.mask.size[0] <= 128 and not hint.abbreviated  # it fits
        shown.append(hint.text)
    assert tuple(shown) == hints
    started, _ = box.step(done, NEXT_HOLD, 2.0)
    assert started.timer_end == 62.0  # what the hint says: it starts

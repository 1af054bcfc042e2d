"""A hall steering a round game's countdown (core/steer.py; docs/hall.md, "A round
game's countdown in a hall"; docs/profiles.md, `hall`): each order against a `hall = true`
countdown, on the countdown's own anchor, with `now` given; orders ignored elsewhere; in a
hall the countdown waits for the hall's start; a power cut after an order neither doubles
nor loses a call; the parser's errors."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from erabox.core import clock
from erabox.core.config import parse_config
from erabox.core.deadlines import countdown_start, next_deadline
from erabox.core.effects import PlayScreen, ShowPlay
from erabox.core.engine import ProfileEngine
from erabox.core.hall import SLEW_EVERY_S, HallState, keep_in_step
from erabox.core.hall_view import table_of
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    PlaySound,
    Save,
    Sound,
    Steer,
    SteerAction,
    Tick,
)
from erabox.core.play import Called, Play
from erabox.core.profile import ProfileError, parse_profile
from erabox.core.steer import LATE_S
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

RACE = """\
[game]
id = "race"
name = "Race"

[players]
min = 2
max = 2

[rounds]
name = "Round"
count = 1
start_gong = false

[[phase]]
id = "ready"
label = "Ready"

[[phase]]
id = "run"
label = "Run"
timer_s = 60
lead_in_s = 3
final_ticks_s = 2
timer_end = "next"
hall = true

[[phase.call]]
at_s = 10
prompt = "First"

[[phase.call]]
at_s = 30
prompt = "Second"

[[phase]]
id = "rest"
label = "Rest"
"""
PROFILE = parse_profile(RACE, "race.toml")
ALONE = parse_config("", "c.toml")
HALL = parse_config('[hall]\nbroker = "h"\nkey = "k"\n', "c.toml")
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
S, P, R, E, W = (SteerAction.START, SteerAction.PAUSE, SteerAction.RESUME, SteerAction.END,
                 SteerAction.SLEW)


def engine(hall: bool = True, profile: Any = PROFILE) -> ProfileEngine:
    return ProfileEngine(profile, replace(HALL if hall else ALONE, players=("A", "B")))


def at_run(hall: bool = True) -> tuple[ProfileEngine, Play]:
    """Round 1's "run" phase entered at 0 (in a hall: its countdown held for the start)."""
    box = engine(hall)
    play, _ = box.fresh(-2.0, 0)
    play, _ = box.step(play, ERA, -2.0)  # round 1, "ready"
    play, _ = box.step(play, NEXT, 0.0)  # "run"
    return box, play


def heard(box: ProfileEngine, play: Play, now: float, end: float,
          effects: tuple[object, ...] = ()) -> tuple[Play, list[tuple[float, str]]]:
    """The sounds given (with `effects`' at `now`), waking at each deadline up to `end`."""
    sounds = [(now, e.sound.value) for e in effects if isinstance(e, PlaySound)]
    while (due := next_deadline(play, now)) is not None and due <= end:
        now = due
        play, more = box.step(play, Tick(), now)
        sounds += [(round(now, 3), e.sound.value) for e in more if isinstance(e, PlaySound)]
    return play, sounds


def order(box: ProfileEngine, play: Play, action: SteerAction, at: float, running_s: float,
          now: float) -> tuple[Play, tuple[object, ...]]:
    return box.step(play, Steer(action, at, running_s), now)


def test_in_a_hall_the_countdown_waits_held_for_the_start() -> None:
    box, play = at_run()
    assert play.timer_end is None and play.held_left == 63.0 and play.cues_done == 0
    assert heard(box, play, 0.0, 100.0)[1] == []
    _alone_box, alone = at_run(hall=False)  # a box on its own: the countdown runs at once
    assert alone.timer_end == 63.0


def test_a_countdown_that_begins_as_the_one_before_runs_out_waits_held_too() -> None:
    chained = parse_profile(RACE.replace('label = "Ready"\n', 'label = "Ready"\ntimer_s = 5\n'
                                         'timer_end = "next"\n'), "race.toml")
    box = engine(profile=chained)
    play, _ = box.fresh(0.0, 0)
    play, _ = box.step(play, ERA, 0.0)  # "ready": 5 s, then "run" by itself
    play, _ = box.step(play, Tick(), 5.5)  # woken late: "run"'s first lead-in tick was due
    assert chained.phases[play.spot.phase].id == "run"
    assert (play.timer_end, play.held_left, play.cues_done) == (None, 63.0, 0)


def test_a_countdown_the_halls_end_moves_into_waits_held_too() -> None:
    twice = parse_profile(RACE.replace('id = "rest"\nlabel = "Rest"\n', 'id = "rest"\n'
                                       'label = "Rest"\ntimer_s = 30\nhall = true\n'),
                          "race.toml")
    box = engine(profile=twice)
    play, _ = box.fresh(-2.0, 0)
    play, _ = box.step(play, ERA, -2.0)
    play, _ = box.step(play, NEXT, 0.0)
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play, _ = order(box, play, E, 15.0, 5.0, 15.0)  # "run" ends: "rest", held for the hall
    assert twice.phases[play.spot.phase].id == "rest"
    assert (play.timer_end, play.held_left) == (None, 30.0)


def test_the_step_that_enters_the_phase_saves_it_held() -> None:
    box = engine()
    play, _ = box.fresh(-2.0, 0)
    play, _ = box.step(play, ERA, -2.0)
    play, effects = box.step(play, NEXT, 0.0)
    saves = [e for e in effects if isinstance(e, Save)]
    assert saves and saves[0].durable and saves[0].snapshot["timer_paused"] is True
    assert saves[0].snapshot["timer_left"] == 63.0


def test_a_start_ordered_ahead_lands_the_start_gong_on_the_halls_zero() -> None:
    box, play = at_run()
    play, effects = order(box, play, S, 21.5, 0.0, 20.0)  # zero at 21.5: ticks at 18.5 .. 20.5
    assert countdown_start(play) == 21.5
    play, sounds = heard(box, play, 20.0, 45.0, effects)
    # the tick at 18.5, already past, is skipped; the gong exactly on zero; calls from it
    assert sounds == [(20.5, "tick"), (21.5, "gong"), (31.5, "cry")]
    assert play.timer_end == 81.5


def test_a_late_start_sounds_the_gong_at_once_and_skips_old_calls() -> None:
    box, play = at_run()
    play, effects = order(box, play, S, 50.0, 12.0, 50.0)  # the hall is 12 s in
    assert [e.sound for e in effects if isinstance(e, PlaySound)] == [Sound.GONG]
    gong = next(i for i, e in enumerate(effects) if isinstance(e, PlaySound))
    assert any(isinstance(e, Save) and e.durable for e in effects[:gong])  # on disk first
    assert countdown_start(play) == 38.0
    play, sounds = heard(box, play, 50.0, 100.0)
    assert sounds == [(68.0, "cry"), (96.0, "tick"), (97.0, "tick"), (98.0, "gong")]
    assert LATE_S < 12.0 - 10.0  # the call at 10 s: counted given, never sounded


def test_a_start_just_late_still_sounds_a_call_within_late_s() -> None:
    box, play = at_run()
    play, effects = order(box, play, S, 50.0, 10.5, 50.0)
    sounds = [e.sound for e in effects if isinstance(e, PlaySound)]
    assert sounds == [Sound.GONG, Sound.CRY]  # the gong and the call half a second behind


def test_pause_holds_the_halls_time_and_resume_puts_it_at_at() -> None:
    box, play = at_run()
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play, _ = heard(box, play, 10.0, 24.0)
    play, effects = order(box, play, P, 25.0, 15.0, 25.004)
    assert play.timer_end is None and play.held_left == 45.0
    play, _ = order(box, play, P, 25.5, 14.5, 25.6)  # a paused one takes the hall's time
    assert play.held_left == 45.5
    assert heard(box, play, 25.6, 200.0)[1] == []  # nothing sounds while held
    play, effects = order(box, play, R, 100.0, 14.5, 100.002)
    assert countdown_start(play) == pytest.approx(85.5)
    play, sounds = heard(box, play, 100.002, 200.0, effects)
    assert sounds == [(115.5, "cry"), (143.5, "tick"), (144.5, "tick"), (145.5, "gong")]


def test_a_slew_moves_the_anchor_silently_and_later_calls_follow_it() -> None:
    box, play = at_run()
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play, _ = heard(box, play, 10.0, 15.0)
    play, effects = order(box, play, W, 15.0, 5.3, 15.0)  # 0.3 s behind the hall
    assert [e for e in effects if isinstance(e, PlaySound)] == []
    assert countdown_start(play) == pytest.approx(9.7)
    play, sounds = heard(box, play, 15.0, 41.0)
    assert sounds == [(19.7, "cry"), (39.7, "cry")]


def test_a_slew_past_a_call_counts_it_given_without_sounding_it() -> None:
    box, play = at_run()
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play, _ = heard(box, play, 10.0, 15.0)
    play, effects = order(box, play, W, 15.0, 14.0, 15.0)  # 9 s ahead: the call at 10 s
    assert [e for e in effects if isinstance(e, PlaySound)] == []
    assert countdown_start(play) == 1.0
    play, sounds = heard(box, play, 15.0, 40.0)
    assert sounds == [(31.0, "cry")]  # only the call at 30 s, on the new anchor


def test_end_sounds_the_end_now_saved_first_and_the_phase_moves_on() -> None:
    box, play = at_run()
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play, effects = order(box, play, E, 19.0, 9.0, 19.0)
    sounds = [i for i, e in enumerate(effects) if isinstance(e, PlaySound)]
    assert [effects[i].sound for i in sounds] == [Sound.GONG]  # type: ignore[attr-defined]
    assert any(isinstance(e, Save) and e.durable for e in effects[:sounds[0]])
    assert play.timer_done is False and play.timer_end is None  # `timer_end = "next"`: on
    assert PROFILE.phases[play.spot.phase].id == "rest"


def test_orders_outside_a_hall_countdown_change_nothing() -> None:
    box = engine()
    fresh, _ = box.fresh(0.0, 0)
    for action in SteerAction:  # at setup, then on a phase without a countdown
        assert order(box, fresh, action, 1.0, 0.0, 1.0)[0] == fresh
    ready, _ = box.step(fresh, ERA, 0.0)
    for action in SteerAction:
        assert order(box, ready, action, 1.0, 0.0, 1.0)[0].spot == ready.spot
    unmarked = parse_profile(RACE.replace("hall = true\n", ""), "race.toml")
    other = engine(profile=unmarked)
    play, _ = other.fresh(-2.0, 0)
    play, _ = other.step(play, ERA, -2.0)
    play, _ = other.step(play, NEXT, 0.0)  # a countdown the hall does not steer: it runs
    assert play.timer_end == 63.0
    play, _ = other.step(play, Tick(), 5.0)  # its lead-in and start gong given
    for action in SteerAction:
        moved, effects = order(other, play, action, 5.0, 30.0, 5.0)
        assert (moved.timer_end, moved.held_left, moved.cues_done) == (63.0, None, 4)
        assert [e for e in effects if isinstance(e, PlaySound)] == []
    box, marked = at_run()  # the same orders obey on the countdown marked `hall = true`
    assert order(box, marked, S, 5.0, 30.0, 5.0)[0].timer_end == 35.0


def test_pause_slew_and_end_before_the_start_change_nothing() -> None:
    box, play = at_run()
    assert play.held_left == 63.0  # held for the hall's start
    for action in (P, W, E):
        assert order(box, play, action, 5.0, 0.0, 5.0)[0] == play


def test_in_a_hall_the_table_may_not_start_or_pause_the_countdown_alone() -> None:
    box, play = at_run()
    assert box.step(play, ERA, 1.0)[0].held_left == 63.0  # still waiting for the hall
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    assert box.step(play, ERA, 20.0)[0].timer_end == 70.0  # still running
    allowed = ProfileEngine(PROFILE, replace(box.config, hall=replace(
        box.config.hall, pause_alone=True)))  # type: ignore[type-var]
    assert allowed.step(play, ERA, 20.0)[0].held_left == 50.0


def shown_words(box: ProfileEngine, shown: PlayScreen, height: int, language: str
                ) -> tuple[str, str]:
    """What the held countdown is called (a step's status row says it at the right; the clock
    of a phase of one step, big over it) and the hint row (the clock's: on both panels)."""
    items = {i.role: i.text for i in layout_play(shown, Panel(128, height), language)}
    return items.get("status_right") or items.get("title", ""), items.get("hint", "")


def shown_of(effects: tuple[object, ...]) -> PlayScreen:
    screens = [e.screen for e in effects if isinstance(e, ShowPlay)]
    assert screens
    return screens[-1]


@pytest.mark.parametrize("height", [64, 32])
def test_a_countdown_held_for_the_hall_says_so_and_hints_no_era_press(height: int) -> None:
    """Held for the hall's start, the screen says it waits for the hall, not "Paused", and
    hints no ERA press (in a hall without `pause_alone` ERA does nothing there); the hall's
    own pause is "Paused", still without the ERA hint. With `pause_alone` ERA starts it, and
    the hint says so ("start", not "resume")."""
    box, play = at_run()
    back, effects = box.restore(box.snapshot(play, 1.0), 1.0)  # after a power cut: the same
    assert shown_of(effects).hall_start and shown_of(effects).hall_only
    for shown in (box.screen(play, 1.0), shown_of(box.step(play, Tick(), 1.0)[1]),
                  shown_of(box.step(back, Tick(), 60.0)[1])):
        assert shown.paused and shown.hall_start and shown.hall_only
        assert shown_words(box, shown, height, "en") == (
            "Waiting for the hall", "NEXT: next  hold NEXT: undo")
        assert shown_words(box, shown, height, "ja") == (
            "会場の開始待ち", "NEXT: 次へ NEXT長押し: 戻す")
    assert box.step(play, ERA, 1.0)[0] == play  # what the hint no longer promises
    paused, _ = order(box, order(box, play, S, 10.0, 0.0, 10.0)[0], P, 25.0, 15.0, 25.0)
    shown = box.screen(paused, 26.0)
    assert shown.paused and not shown.hall_start and shown.hall_only
    assert shown_words(box, shown, height, "en")[0] == "Paused"
    assert "ERA" not in shown_words(box, shown, height, "en")[1]
    allowed = ProfileEngine(PROFILE, replace(box.config, hall=replace(
        box.config.hall, pause_alone=True)))  # type: ignore[type-var]
    shown = allowed.screen(play, 1.0)
    assert shown.hall_start and not shown.hall_only
    assert shown_words(allowed, shown, height, "en") == (
        "Waiting for the hall", "ERA: start  hold NEXT: undo")
    assert shown_words(allowed, shown, height, "ja") == (
        "会場の開始待ち", "ERA: 開始 NEXT長押し: 戻す")
    assert allowed.step(play, ERA, 1.0)[0].timer_end is not None  # ERA starts it alone
    _alone_box, alone = at_run(hall=False)  # no hall: nothing said of one
    shown = _alone_box.screen(alone, 1.0)
    assert not (shown.hall_start or shown.hall_only)


# each: the hall's orders (action, at, running_s, now), then the hall's state (its running
# time zero, or the running time it holds), and the calls its orders skip (at_s)
CUTS: dict[str, tuple[list[tuple[SteerAction, float, float, float]], tuple[str, float],
                      set[float]]] = {
    "start": ([(S, 10.0, 0.0, 10.0)], ("running", 10.0), set()),
    "late start": ([(S, 30.0, 15.0, 30.0)], ("running", 15.0), {10.0}),
    "slew": ([(S, 10.0, 0.0, 10.0), (W, 25.0, 32.0, 25.0)], ("running", -7.0), {30.0}),
    "pause": ([(S, 10.0, 0.0, 10.0), (P, 25.0, 15.0, 25.0)], ("paused", 15.0), set()),
    "resume": ([(S, 10.0, 0.0, 10.0), (P, 25.0, 15.0, 25.0), (R, 30.0, 15.0, 30.0)],
               ("running", 15.0), set()),
}


@pytest.mark.parametrize("cut_after", sorted(CUTS))
def test_a_power_cut_after_an_order_neither_doubles_nor_loses_a_call(cut_after: str) -> None:
    """A cut after any record the orders' steps wrote, the box restored and given the hall's
    newest order again (the broker keeps it): no call is given twice, none is lost (a call
    is given, counted in the record, or skipped by an order as more than LATE_S behind)."""
    box, play = at_run()
    orders, (state, value), skipped = CUTS[cut_after]
    records: list[dict[str, Any]] = []
    now = 0.0
    for action, at, running_s, now in orders:
        play, effects = order(box, play, action, at, running_s, now)
        records += [e.snapshot for e in effects if isinstance(e, Save)]
    assert records
    phase = PROFILE.phases[1]
    every = {call.at_s for call in phase.calls}
    for record in records:
        listed = clock.cues(phase)[:record.get("timer_cues", 0)]
        given = {phase.calls[c.call].at_s for c in listed if c.call is not None}
        back, _ = box.restore(record, now + 1.0)
        if state == "running":
            back, effects = order(box, back, R, now + 1.0, now + 1.0 - value, now + 1.0)
        else:
            back, _ = order(box, back, P, now + 1.0, value, now + 1.0)
            back, effects = order(box, back, R, now + 2.0, value, now + 2.0)
        later = now + 2.0
        called = [e.at_s for e in effects if isinstance(e, Called)]
        while (due := next_deadline(back, later)) is not None and due <= 300.0:
            later = due
            back, more = box.step(back, Tick(), later)
            called += [e.at_s for e in more if isinstance(e, Called)]
        assert len(called) == len(set(called)) and given.isdisjoint(called), (record, called)
        assert every - given - set(called) <= skipped, (record, called)


def kept_in_step(box: ProfileEngine, play: Play, now: float, end: float
                 ) -> tuple[Play, list[tuple[float, dict[str, Any]]], list[tuple[float, float]]]:
    """`play` kept in step with a hall running from 10.0 (its running time zero) by the
    link's rule every half second from `now` to `end`, woken at each of its deadlines: what
    it wrote to the card (when, what) and the calls it gave (when, which)."""
    state = HallState(S, 10.0, 0.0)
    records: list[tuple[float, dict[str, Any]]] = []
    called: list[tuple[float, float]] = []
    slew_at = now
    while now < end:
        due = next_deadline(play, now)
        if due is not None and due < slew_at:
            now = due
            play, effects = box.step(play, Tick(), now)
        else:
            now, slew_at = slew_at, slew_at + SLEW_EVERY_S
            kept = keep_in_step(table_of(play, now), state, state.running_at(now), now, now,
                                False, False, None)
            effects = () if kept.order is None else box.step(play, kept.order, now)[1]
            play = play if kept.order is None else box.step(play, kept.order, now)[0]
        records += [(now, e.snapshot) for e in effects if isinstance(e, Save)]
        called += [(now, e.at_s) for e in effects if isinstance(e, Called)]
    return play, records, called


def test_a_power_cut_after_corrections_comes_back_on_the_halls_time_each_call_once() -> None:
    """A box 0.2 s behind the hall, corrected every half second (no correction writes the
    card: the countdown's seconds go with its periodic save), cut at any moment: back from
    the last record it wrote, given the hall's newest order again (the broker keeps it), it
    runs on the hall's time at once, and every call sounds once, before or after the cut (or
    is shown given: its record written ahead of it)."""
    box, play = at_run()
    play, _ = order(box, play, S, 10.0, 0.0, 10.0)
    play = replace(play, timer_end=70.2)  # 0.2 s behind the hall
    play, records, called = kept_in_step(box, play, 10.0, 80.0)
    assert [at_s for _, at_s in called] == [10.0, 30.0]
    every = {call.at_s for call in PROFILE.phases[1].calls}
    for n, (saved_at, record) in enumerate(records):
        cut = records[n + 1][0] - 0.001 if n + 1 < len(records) else 80.0
        if cut <= saved_at:
            continue  # written in the same instant: the later record is the one on disk
        before = {at_s for at, at_s in called if at < cut}
        listed = clock.cues(PROFILE.phases[1])[:record.get("timer_cues", 0)]
        shown = {PROFILE.phases[1].calls[c.call].at_s for c in listed if c.call is not None}
        back, _ = box.restore(record, cut)
        back, effects = order(box, back, S, 10.0, 0.0, cut)  # the hall's newest order
        after = [e.at_s for e in effects if isinstance(e, Called)]
        if PROFILE.phases[back.spot.phase].id != "run":  # the countdown's end on disk
            assert before == every and after == [], (saved_at, cut)
            continue
        assert countdown_start(back) == 10.0, (saved_at, cut)  # on the hall's time at once
        back, _records, more = kept_in_step(box, back, cut, 100.0)
        again = after + [at_s for _, at_s in more]
        assert len(again) == len(set(again)) and before.isdisjoint(again), (saved_at, cut)
        assert shown >= before and every <= shown | set(again), (saved_at, cut, again)


def test_hall_is_checked_and_needs_a_timer() -> None:
    with pytest.raises(ProfileError, match=r"race.toml:.*hall.*true or false"):
        parse_profile(RACE.replace("hall = true", 'hall = "yes"'), "race.toml")
    with pytest.raises(ProfileError, match=r"hall needs a timer"):
        parse_profile(RACE.replace('label = "Ready"\n', 'label = "Ready"\nhall = true\n'),
                      "race.toml")
    assert PROFILE.phases[1].hall and not PROFILE.phases[0].hall

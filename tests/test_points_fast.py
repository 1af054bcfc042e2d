"""Fast points entry (device/erabox/core/entry.py, the round engine): the gestures
a table needs, counted.

The example of a typical 4-player Era II: destruction 0/3/0/6 VP (0/1/0/2 buildings),
construction bonus 8/11/6/9, wonders 4/0/6/2, culture 5/3/7/4: era totals 17/17/19/21. The
counts are those `erabox simulate` prints in its `entry` lines (docs/simulate.md), for a
script entering every number with the fewest gestures the design allows; run with `-s` to see
them printed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from erabox.core import play as scores
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input, Screen
from erabox.core.script import parse_script
from erabox.run.simulate import Simulation, simulate

CFG = Config()
START = CFG.realtime.lead_in_s + CFG.realtime.length_s + 1.0  # the era's scoring is open
GAP = 0.5  # between two gestures of the script
BUILDINGS = (0, 1, 0, 2)  # destruction, as the box asks it (x3: 0/3/0/6 VP)
STEPS = ((8, 11, 6, 9), (4, 0, 6, 2), (5, 3, 7, 4))  # construction, wonders, culture
TOTALS = (17, 17, 19, 21)
HEAVY = (38, 24, 41, 33)  # a heavier Era III, as era totals


def fewest(n: int) -> list[tuple[str, float]]:
    """The fewest gestures entering `n` and confirming it, as (script words, seconds NEXT is
    held on past its threshold): one hold ramped to the multiple of 5 nearest above or below,
    then +1 presses or -1 short chords, then ERA."""
    k = n % 5
    target = n - k if k <= 2 else n + 5 - k
    out: list[tuple[str, float]] = []
    while target > 0:
        take = min(target, scores.RAMP_MAX)
        out.append(("next hold", (take // scores.HOLD_ADDS - 1) * scores.RAMP_S + 0.1))
        target -= take
    out += [("next press", 0.0)] * k if k <= 2 else [("both press", 0.0)] * (5 - k)
    return [*out, ("era press", 0.0)]


def old_gestures(n: int) -> int:
    """What a number cost before the ramp, the chord and the era totals: holds of +5, presses
    of +1, ERA."""
    return n // 5 + n % 5 + 1


def script_for(numbers: list[int], start: float, extra_presses: int = 0) -> tuple[list[str],
                                                                                  float]:
    """Script lines entering `numbers` from `start`, then `extra_presses` ERA presses."""
    lines, t = [], start
    for n in numbers:
        for words, held in fewest(n):
            lines.append(f"{t:.2f} {words}" + (f" {held:g}" if words == "next hold" else ""))
            t += held + GAP
    for _ in range(extra_presses):
        lines.append(f"{t:.2f} era press")
        t += GAP
    return lines, t


def run(config: Config, lines: list[str], until: float) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    simulate(config, parse_script("\n".join(lines) + "\n"), until, events.append)
    return events


def one_era(config: Config, numbers: list[int], extra: int) -> list[dict[str, Any]]:
    lines, t = script_for(numbers, START, extra)
    return run(config, ["0 era press", *lines], t + 1)


def test_a_typical_era_as_era_totals_takes_at_most_30_gestures_and_60_seconds() -> None:
    events = one_era(CFG, list(TOTALS), extra=1)  # the standings' ERA
    (entry,) = [e for e in events if e["type"] == "entry"]
    points = [e["points"] for e in events if e["type"] == "points"]
    assert points == list(TOTALS)
    old = sum(old_gestures(n) for row in ((0, 3, 0, 6), *STEPS) for n in row) + 2 + 1
    print(f"\nexample Era II as era totals: {entry['gestures']} gestures, "
          f"{entry['button_s']} s of button time (before: {old} gestures)")
    assert old == 57  # the count the design started from
    assert entry["gestures"] <= 30 and entry["button_s"] <= 60
    assert entry["gestures"] == 15


def test_a_typical_era_per_step_is_counted_too() -> None:
    numbers = [n for row in (BUILDINGS, *STEPS) for n in row]
    lines, t = script_for(numbers[:8], START)
    lines.append(f"{t:.2f} era press")  # 3/6 leader cards: shown
    more, t = script_for(numbers[8:12], t + GAP)
    lines += more
    more, t = script_for(numbers[12:], t)
    lines += [*more, f"{t:.2f} era press", f"{t + GAP:.2f} era press"]  # 6/6 shown, standings
    events = run(replace(CFG, points_entry="steps"), ["0 era press", *lines], t + 2)
    (entry,) = [e for e in events if e["type"] == "entry"]
    totals = [e["total"] for e in events if e["type"] == "points"][-4:]
    assert totals == list(TOTALS)
    destruction = [e["points"] for e in events if e["type"] == "points" and e["step"] == 1]
    assert destruction == [0, 3, 0, 6]  # asked as buildings, recorded as VP
    print(f"\nexample Era II per step: {entry['gestures']} gestures, "
          f"{entry['button_s']} s of button time")
    assert entry["gestures"] == 46 and entry["button_s"] <= 60


# Any number up to the ramp in at most four gestures, the ramp chosen on release and shown
# while held: tests/test_rounds_entry.py, on the round engine's entry.


def test_a_whole_four_player_game_entered_with_the_fewest_gestures() -> None:
    """Three eras, as era totals: Era I and II the example, Era III a heavier one."""
    lines: list[str] = []
    t = 0.0
    for numbers in (TOTALS, TOTALS, HEAVY):
        lines.append(f"{t:.2f} era press")  # start the era from its guide
        more, t = script_for(list(numbers), t + START, extra_presses=1)
        lines += more
        t += 1.0
    events = run(CFG, lines, t + 1)
    entries = [e for e in events if e["type"] == "entry"]
    assert [e["era"] for e in entries] == [1, 2, 3]
    for e in entries:
        print(f"\nEra {e['era']}: {e['gestures']} gestures, {e['button_s']} s")
    assert all(e["gestures"] <= 30 and e["button_s"] <= 60 for e in entries)
    (ranking,) = [e for e in events if e["type"] == "ranking"]
    finals = {p["player"]: p["total"] for p in ranking["places"]}
    assert finals == {c: 2 * a + b for c, a, b in zip(CFG.players, TOTALS, HEAVY, strict=True)}
    assert ranking["winners"] == [CFG.players[2]]  # 19 + 19 + 41


def test_score_kept_on_paper_one_era_press_between_eras_and_no_points_screens() -> None:
    config = replace(CFG, keep_score=False)
    lines, t = [], 0.0
    for _ in range(3):
        lines += [f"{t:.2f} era press", f"{t + START:.2f} era press"]
        t += START + 1.0
    shown: list[Any] = []
    events: list[dict[str, Any]] = []
    simulate(config, parse_script("\n".join(lines) + "\n"), t + 1, events.append,
             lambda screen, _t: shown.append(screen))
    states = [e["state"] for e in events if e["type"] == "state"]
    assert states.count("scoring") == 3 and states[-1] == "game_over"
    # from each end gong to the next era's setup (or the end): exactly one input
    for i, event in enumerate(events):
        if event["type"] == "state" and event["state"] == "scoring":
            after = events[i + 1:]
            leave = next(j for j, e in enumerate(after) if e["type"] == "state")
            assert [e["type"] for e in after[:leave]] == ["input"]
            assert after[leave]["state"] in ("setup", "game_over")
    assert not [e for e in events if e["type"] in ("points", "standings", "ranking", "entry")]
    assert {s.entry for s in shown} == {None} and not any(s.places for s in shown)


def test_a_power_cut_mid_entry_comes_back_exactly_and_undo_still_works() -> None:
    """Through the core: the number being typed, the player and the entry mode are saved with
    every gesture; a cut in a hold keeps its first +5 (the ramp was not chosen yet)."""
    for mode in ("totals", "steps"):
        config = replace(CFG, points_entry=mode)
        sim = Simulation(config, lambda e: None)
        # the first player's 0; then 15 by one hold held on 1.1 s, and +1
        for line in parse_script(f"0 era press\n{START} era press\n{START + 1} next hold 1.1\n"
                                 f"{START + 3} next press\n"):
            sim.perform(line)
        before = asked(sim, sim.now)
        assert before[1:] == (16, mode == "steps")
        # a cut while NEXT is still held: its first +5 is in, the ramp is not
        sim.driver.step(Input(Button.NEXT, Gesture.HOLD), START + 5)
        sim.now = START + 5.9
        sim.restart()
        assert asked(sim, START + 5.9) == (before[0], 21, before[2])
        assert asked(sim, START + 6.9) == asked(sim, START + 5.9)  # no hold ramps on after it
        # undo: clears the number, then goes back to the first player's 0
        sim.driver.step(Input(Button.ERA, Gesture.HOLD), START + 7)
        sim.driver.step(Input(Button.ERA, Gesture.HOLD), START + 8)
        players = list(config.players)
        assert asked(sim, START + 8)[:2] == (players[players.index(before[0]) - 1], 0)


def asked(sim: Simulation, now: float) -> tuple[str, int | None, bool]:
    """The number being entered as the table sees it (Time of Empires' screen): the player
    asked, the number typed so far, whether it is asked per step."""
    screen = sim.driver.screen(now)
    assert isinstance(screen, Screen) and screen.player is not None
    return screen.player, screen.value, not screen.era_total

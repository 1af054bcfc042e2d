"""Step 2 of docs/architecture.md's plan: Time of Empires written in the round format
(tests/profiles/time-of-empires-rounds.toml, real time and introductory) played end to end
through `erabox simulate --game`, held against Time of Empires' era engine on the same play
(`erabox simulate` without --game, recorded before its removal: tests/golden/era_engine/):
every gong, cry and tick of the real-time eras at the same time, each era's music from its
start gong to its end gong (resumed after a cut at the running time), each introductory
era's gong after its preparation and its music looped from that gong to its end gong, the
calls after rounds 5 and 10, the era totals and the final ranking with the buildings
tie-break asked after Era III's standings, a power cut mid-era (a call never lost or
doubled), and a game whose eras switch mode at their setups (`[rounds] variant_per_era`:
Era I real time, Era II introductory, Era III real time again).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.config import parse_config
from erabox.core.engine import ProfileEngine
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, PlaySound, Steer, SteerAction, Tick
from erabox.core.play import State, new_play, screen
from erabox.core.profile import Label, parse_profile
from erabox.core.rules import SCHOLAR_PROMPT_S

PROFILES = Path(__file__).parent / "profiles"
REALTIME = PROFILES / "time-of-empires-rounds.toml"
PLAYERS = ("red", "blue", "green", "yellow")

# Each era's numbers per player, in the checklist's order: destroyed buildings (x3),
# construction bonus, wonders, cultural influence. Red and green tie on 25 after Era III;
# green has more buildings on the central board and wins.
NUMBERS = (
    {"red": (1, 1, 0, 2), "blue": (0, 1, 1, 1), "green": (2, 1, 0, 0), "yellow": (0, 0, 0, 1)},
    {"red": (1, 2, 1, 1), "blue": (1, 2, 0, 0), "green": (0, 2, 2, 2), "yellow": (2, 2, 0, 3)},
    {"red": (2, 3, 1, 2), "blue": (0, 3, 0, 1), "green": (2, 3, 1, 2), "yellow": (1, 3, 0, 0)},
)
BUILDINGS = {"red": 5, "green": 7}
ERA_STARTS = (20.0, 1000.0, 2000.0)  # when each real-time era's lead-in begins, in both
GAME_SETUP_STEPS = 11  # the round profile's game setup with four players (its players step first)
PREP_STEPS = (7, 9, 9)  # each era's preparation with four players (real time)
RECORDED: dict[str, Any] = json.loads((PROFILES.parent / "golden" / "era_engine" / "values.json")
                                      .read_text(encoding="utf-8"))["test_one_engine_toe"]


def era_engine(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    """The era engine's lines of the running test's play (its `own_*_script`), recorded."""
    return list(RECORDED["own"][request.node.name][0])


def era_points(era: int, player: str) -> int:
    destroyed, bonus, wonders, culture = NUMBERS[era][player]
    return 3 * destroyed + bonus + wonders + culture


def numbers(*values: int) -> list[str]:
    """Each number entered with NEXT presses (+1 each), confirmed with ERA."""
    return [g for v in values for g in ["next press"] * v + ["era press"]]


def timed(lines: list[tuple[float, str]]) -> str:
    return "".join(f"{t:g} {g}\n" for t, g in lines)


def after(start: float, gestures: list[str], step: float = 0.5) -> list[tuple[float, str]]:
    return [(start + i * step, g) for i, g in enumerate(gestures)]


def round_scoring(era: int) -> list[str]:
    """The round profile asks category by category, in seat order, leader cards and city
    sieges shown in their place (`points = false`: NEXT goes on)."""
    def asked(c: int) -> list[str]:
        return [g for p in PLAYERS for g in numbers(NUMBERS[era][p][c])]

    return [*asked(0), *asked(1), "next press", *asked(2), *asked(3), "next press"]


def tie_break() -> list[str]:
    """ERA on Era III's standings, then the buildings of the players tied for the most (the
    tie-break's category, asked after the standings: `tie_break_after = "standings"`), as
    Time of Empires asks them after its Era III standings on the way to the ranking."""
    return ["era press", *numbers(BUILDINGS["red"]), *numbers(BUILDINGS["green"])]


def own_scoring(era: int) -> list[str]:
    """Time of Empires' own engine asks each player's total for the era."""
    return [g for p in PLAYERS for g in numbers(era_points(era, p))]


def simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str,
             *args: str) -> list[dict[str, Any]]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    assert main(["simulate", "--script", str(path), *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def per_step(tmp_path: Path) -> list[str]:
    """The box's "Points entry" per step (`points_entry = "steps"`), which the round file
    follows (`[scoring] entry = "setting"`): it asks category by category, `round_scoring`."""
    path = tmp_path / "per-step.toml"
    path.write_text("points_entry = \"steps\"\n", encoding="utf-8")
    return ["--config", str(path)]


def rounds_realtime_script(cuts: tuple[float, ...] = ()) -> str:
    """The real-time game in the round profile: at each era's setup the guide walked with
    NEXT (`guide_at_setup`: before Era I the game's setup, then the era's preparation), ERA
    on its last step starting the action phase's lead-in at the era's `ERA_STARTS`, as Time
    of Empires' ERA; stray NEXT presses in each running era; at the end gong the scoring,
    then the standings' ERA to the next era's setup (its variant real time, as it opens)."""
    lines: list[tuple[float, str]] = []
    for era, start in enumerate(ERA_STARTS):
        steps = PREP_STEPS[era] + (GAME_SETUP_STEPS if era == 0 else 0)
        opening = start - steps
        if era:  # the standings' ERA: the era's setup, on real time (`variant_per_era`)
            lines += [(opening - 0.5, "era press")]
        lines += [(opening + i, "next press") for i in range(1, steps)]  # to its last step
        lines += [(start, "era press")]  # the era starts, as Time of Empires' ERA
        # stray NEXT presses in the lead-in and on the running clock: the era runs on
        # (`next_leaves = false`), as Time of Empires' running era does
        lines += [(start + 2.5, "next press"), (start + 100, "next press")]
        lines += after(start + 560, round_scoring(era))
    lines += after(ERA_STARTS[2] + 700, tie_break())  # Era III's standings: the ranking
    lines += [(t, "restart") for t in cuts]
    return timed(sorted(lines, key=lambda line: line[0]))


def own_realtime_script(cuts: tuple[float, ...] = ()) -> str:
    """The same game in Time of Empires' own engine: ERA at setup starts the lead-in; at
    the end gong the era totals, then the standings' ERA to the next era's setup."""
    lines: list[tuple[float, str]] = []
    for era, start in enumerate(ERA_STARTS):
        if era:
            lines += [(start - 5, "era press")]  # the standings: on to the era's setup
        lines += [(start, "era press")]
        lines += after(start + 560, own_scoring(era))
    lines += after(ERA_STARTS[2] + 600, ["era press", *numbers(BUILDINGS["red"]),
                                         *numbers(BUILDINGS["green"])])  # Era III's standings,
    # then the buildings of the players tied for the most
    lines += [(t, "restart") for t in cuts]
    return timed(sorted(lines, key=lambda line: line[0]))


def cues(lines: list[dict[str, Any]]) -> list[tuple[float, str]]:
    return [(e["t"], e["sound"]) for e in lines
            if e["type"] == "sound" and e["sound"] in ("gong", "cry", "tick")]


def music(lines: list[dict[str, Any]]) -> list[tuple[float, str]]:
    """The music's lines: when it starts, pauses, resumes and stops."""
    return [(e["t"], e["sound"]) for e in lines
            if e["type"] == "sound" and e["sound"].startswith("music_")]


def rounds_intro_timeline() -> tuple[str, list[float]]:
    """The introductory game in the round profile: at each era's setup NEXT held (the guide
    walked there skipped: `guide_at_setup`), NEXT (introductory: `variant_per_era`), ERA;
    round 1's turns, rounds 2 to 15 and the two scholar calls with NEXT; the scoring; the
    standings' ERA to the next era's setup. With it, each era's start: the ERA, which
    strikes the era's gong (`start_gong = "after_preparation"`, its preparation the
    guide's, walked at the setup), as Time of Empires' ERA on its guide."""
    gestures: list[str] = []
    starts: list[float] = []
    for era in range(3):
        if era:  # the standings: on to the era's setup, its variant chosen again
            gestures += ["era press"]
        gestures += ["next hold", "next press", "era press"]  # skip the guide, intro, start
        starts.append(float(len(gestures) - 1))
        gestures += ["next press"] * (1 + 14 + 2)
        gestures += round_scoring(era)
    gestures += tie_break()  # Era III's standings: on to the ranking
    return timed(after(0, gestures, 1)), starts


def rounds_intro_script() -> str:
    return rounds_intro_timeline()[0]


def own_intro_script() -> str:
    """The same in Time of Empires' own engine: ERA starts each era (its guide shown until
    then) as the round profile's NEXT leaves its preparation, NEXT the rounds and the
    scholar calls at the same instants, the era totals, the standings' ERA to the next
    era's setup."""
    lines: list[tuple[float, str]] = []
    for era, start in enumerate(rounds_intro_timeline()[1]):
        if era:
            lines += [(start - 1, "era press")]  # the standings, then the setup
        lines += after(start, ["era press"] + ["next press"] * (14 + 2 + 1)
                       + own_scoring(era), 1)
    lines += after(lines[-1][0] + 1, ["era press", *numbers(BUILDINGS["red"]),
                                      *numbers(BUILDINGS["green"])], 1)
    return timed(lines)


def intro_flow(lines: list[dict[str, Any]], own: bool) -> list[tuple[Any, ...]]:
    """Each round as (era, round, start player) and each cry as ("cry", era, the round it
    came after), in order, from either engine's lines."""
    flow: list[tuple[Any, ...]] = []
    era, round_no = 1, 0
    for e in lines:
        starts = (e["type"] == "state" and e["state"] == "intro_round" if own
                  else e["type"] == "round" and e["round"] >= 1)
        if starts:
            era, round_no = e["era"], e["round"]
            flow.append((era, round_no, e["start_player"]))
        elif e["type"] == "sound" and e["sound"] == "cry":
            flow.append(("cry", era, round_no))
    return flow


def standings(lines: list[dict[str, Any]]) -> list[list[tuple[int, str, int]]]:
    return [[(p["place"], p["player"], p["total"]) for p in e["places"]]
            for e in lines if e["type"] == "standings"]


def ranking(lines: list[dict[str, Any]]) -> tuple[list[tuple[int, str, int]], list[str]]:
    (last,) = [e for e in lines if e["type"] == "ranking"]
    return ([(p["place"], p["player"], p.get("score", p.get("total"))) for p in last["places"]],
            last["winners"])


FINAL = ([(1, "green", 25), (2, "red", 25), (3, "yellow", 18), (4, "blue", 12)], ["green"])


def check_scores(own: list[dict[str, Any]], rounds: list[dict[str, Any]]) -> None:
    """The era totals, the standings and the final ranking, the same in both engines: the
    round profile's points per category add up to the own engine's era totals."""
    eras = [e for e in rounds if e["type"] == "standings"]
    assert [{p["player"]: p["era_points"] for p in e["places"]} for e in eras] == [
        {p: era_points(era, p) for p in PLAYERS} for era in range(3)]
    assert [e["points"] for e in rounds if e["type"] == "points"
            and e["category"] == "destruction"] == [
        3 * NUMBERS[era][p][0] for era in range(3) for p in PLAYERS]  # x3
    assert standings(rounds) == standings(own)  # Era III's too (`last_standings`)
    assert [(e["player"], e["value"]) for e in rounds if e["type"] == "points"
            and e["category"] == "buildings"] == [("red", 5), ("green", 7)]
    assert [(e["player"], e["buildings"]) for e in own if e["type"] == "buildings"] == [
        ("red", 5), ("green", 7)]
    assert ranking(rounds) == ranking(own) == FINAL
    # Era III's standings, then the tied players' buildings, then the ranking, in both
    assert closing(rounds) == closing(own) == ["standings"] * 3 + ["buildings"] * 2 + [
        "ranking"]


def closing(lines: list[dict[str, Any]]) -> list[str]:
    """The standings, the buildings asked (either engine's line) and the ranking, in order."""
    return ["buildings" if e["type"] in ("points", "buildings") else e["type"] for e in lines
            if e["type"] in ("standings", "ranking", "buildings")
            or (e["type"] == "points" and e.get("category") == "buildings")]


def test_the_real_time_eras_sound_as_time_of_empires_own_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        request: pytest.FixtureRequest) -> None:
    own = era_engine(request)  # `own_*_script` with the config `players` = the four
    rounds = simulate(tmp_path, capsys, rounds_realtime_script(), "--game", str(REALTIME),
                      *per_step(tmp_path), "--players", ",".join(PLAYERS), "--until", "3000")
    # the preparation walked at each era's setup (`guide_at_setup`), not played in the round
    assert {e["phase"] for e in rounds if e["type"] == "phase"} == {"action"}
    assert not [e for e in rounds if e["type"] == "prompt" and e["prompt"] == "scholars"]
    # Everyone plays at once: no start player in a real-time era (the variant's own rule).
    assert {e.get("start_player") for e in rounds if e["type"] in ("era", "round")} == {None}
    # The wonders and the bonus token: one step each, the era's number in its text.
    assert [e["text"] for e in rounds if e["type"] == "guide" and (
        "wonder of" in e["text"] or "VP token" in e["text"])] == [
        text for n in (1, 2, 3) for text in (
            f"Wonder board: 1 random wonder of the new era ({n} on the board)",
            f"Construction bonus: place the {n} VP token on a free space")]
    expected: list[tuple[float, str]] = []
    for start in ERA_STARTS:  # 5 ticks, the start gong, cries at 3:00 and 6:00, 10 ticks, gong
        gong = start + 5
        expected += [(start + i, "tick") for i in range(5)] + [(gong, "gong")]
        expected += [(gong + 180, "cry"), (gong + 360, "cry")]
        expected += [(gong + 530 + i, "tick") for i in range(10)] + [(gong + 540, "gong")]
    assert cues(own) == expected
    # The round profile sounds every one of them at the same time, and no gong more: each
    # era opens on its preparation in silence (`start_gong = false`), as Time of Empires'
    # era opens on its setup screen.
    assert cues(rounds) == expected
    # each era's music from its start gong to its end gong, as the era engine's (the round
    # file's `music_from = "gong"`), the box's own era music (`box_music`) in real time
    assert music(rounds) == music(own) == [
        (start + 5 + at, action) for start in ERA_STARTS
        for at, action in ((0, "music_start"), (540, "music_stop"))]
    assert [(e["mode"], e["position"]) for e in rounds
            if e["type"] == "sound" and e["sound"].startswith("music_")] == [
        ("realtime", at) for n in (1, 2, 3) for at in (0.0, 540.0)]
    # each call the box's own "Appoint scholars!" (`prompt = "scholars"`), shown as long
    assert [(e["t"], e["at_s"], e["prompt"]) for e in rounds if e["type"] == "call"] == [
        (start + 5 + at, at, "scholars") for start in ERA_STARTS for at in (180.0, 360.0)]
    assert not [e for e in rounds if e["type"] == "call" and "text" in e]
    (action,) = [p for p in parse_profile(REALTIME.read_text(encoding="utf-8")).phases
                 if p.id == "action"]
    assert action.prompt_s == SCHOLAR_PROMPT_S == 15
    assert [e["t"] for e in own if e["type"] == "prompt"] == [
        start + 5 + at for start in ERA_STARTS for at in (180.0, 360.0)]
    check_scores(own, rounds)


def test_the_introductory_eras_call_the_scholars_as_time_of_empires_own_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        request: pytest.FixtureRequest) -> None:
    own = era_engine(request)  # `own_intro_script`, the four players, `default_mode = "intro"`
    rounds = simulate(tmp_path, capsys, rounds_intro_script(), "--game", str(REALTIME),
                      *per_step(tmp_path), "--players", ",".join(PLAYERS))
    assert [e["variant"] for e in rounds if e["type"] == "setup"][-1] == "intro"
    assert {e["phase"] for e in rounds if e["type"] == "phase"} == {"turns"}
    flow = intro_flow(rounds, own=False)
    assert flow == intro_flow(own, own=True)
    assert [c for c in flow if c[0] == "cry"] == [
        ("cry", era, after) for era in (1, 2, 3) for after in (5, 10)]
    # The oldest (first seat) starts Era I; the start passes left after each call and is
    # carried into the next era.
    starts = {(c[0], c[1]): c[2] for c in flow if c[0] != "cry"}
    assert [starts[era, n] for era in (1, 2, 3) for n in (1, 6, 11)] == [
        "red", "blue", "green", "green", "yellow", "red", "red", "blue", "green"]
    assert [e["prompt"] for e in rounds if e["type"] == "prompt"] == ["scholars"] * 6
    # Each era's gong as round 1 starts after its preparation, as Time of Empires' gong when
    # ERA starts the era its setup prepared (`[[variant]] start_gong =
    # "after_preparation"`), then the end gong: at the same instants in both engines.
    gongs = [t for t, sound in cues(rounds) if sound == "gong"]
    assert gongs == [t for t, sound in cues(own) if sound == "gong"]
    scored = [e["t"] for e in rounds if e["type"] == "state" and e["state"] == "scoring"
              ][:3]  # each era's scoring (then Era III's tie-break, after its standings)
    assert gongs == [t for start, end in zip(rounds_intro_timeline()[1], scored, strict=True)
                     for t in (start, end)]
    # the era's music from its gong through its rounds and scholar calls to its end gong,
    # looped as Time of Empires' introductory era's (`music_from = "era"`, the box's own)
    assert music(rounds) == music(own) == list(
        zip(gongs, ("music_start", "music_stop") * 3, strict=True))
    assert [e["mode"] for e in rounds if e.get("sound") == "music_start"] == ["intro"] * 3
    check_scores(own, rounds)


def test_a_power_cut_mid_era_neither_loses_nor_doubles_a_call(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        request: pytest.FixtureRequest) -> None:
    """Era II cut 1 s after its first cry (its prompt still up) and 0.5 s before its second:
    each cry is heard once, in both engines. Both come back paused, the first cry's prompt
    shown again (owed whole, never sounded again), "Resumed" after the second cut, the
    seconds since the last save (at most 5) given back, and run on when the table resumes
    them 1 s later with NEXT held (the round profile's `resume = "paused"` and `[buttons]
    pause = "next_hold"`): the second cry at the same instant in both."""
    gong = ERA_STARTS[1] + 5
    cuts = (gong + 181, gong + 359.5)
    resumes = "".join(f"{t + 1:g} next hold\n" for t in cuts)  # as Time of Empires' below
    script = sorted((rounds_realtime_script(cuts) + resumes).splitlines(),
                    key=lambda line: float(line.split()[0]))
    rounds = simulate(tmp_path, capsys, "\n".join(script) + "\n", "--game", str(REALTIME),
                      *per_step(tmp_path), "--players", ",".join(PLAYERS), "--until", "3000")
    cries = [t for t, sound in cues(rounds) if sound == "cry"]
    assert len(cries) == 6 and cries[2] == gong + 180
    # back paused (`resume = "paused"`), run on from where the last save held it once resumed
    assert [e["t"] for e in rounds if e["type"] == "resume"] == [t + 1 for t in cuts]
    assert cries[3] == gong + 365.5  # 4.5 s given back (last save at gong + 355), 1 s held
    era_two = [e for e in rounds if e["type"] in ("call", "prompt") and gong < e["t"] < gong + 540]
    assert [(e["type"], e.get("at_s", e.get("prompt"))) for e in era_two] == [
        ("call", 180.0), ("prompt", "scholars"), ("prompt", "resumed"), ("call", 360.0)]
    gongs = [t for t, sound in cues(rounds) if sound == "gong"]
    assert gongs[3] == cries[3] + 180  # Era II's end gong, on the same anchor as the call
    assert ranking(rounds) == FINAL

    own = era_engine(request)  # `own_realtime_script(cuts)`, NEXT pressed 1 s after each cut
    own_cries = [t for t, sound in cues(own) if sound == "cry"]
    assert len(own_cries) == 6 and own_cries[2] == gong + 180
    # the seconds since its last save given back too, and 1 s paused after each cut
    assert own_cries[3] == gong + 365.5 == cries[3]
    assert [e["prompt"] for e in own if e["type"] == "prompt" and e["t"] in (
        cuts[0], cuts[1])] == ["scholars", "resumed"]  # what the round engine shows there
    # the music resumed with the era at the same instants in both, the round engine's at the
    # running time (`music_from = "gong"`): the era engine's clock, as its next cue says
    assert music(rounds) == music(own)
    resumed = [(e["t"], e["position"]) for e in rounds if e.get("sound") == "music_resume"]
    assert resumed == [(cuts[0] + 1, 180.0), (cuts[1] + 1, 355.0)]
    assert own_cries[3] - resumed[1][0] == 360.0 - resumed[1][1]
    assert ranking(own) == FINAL


def test_the_real_time_calls_show_the_boxs_scholars_prompt_for_15_s() -> None:
    """Each cry shows the box's own "Appoint scholars!" (学者の任命！) over the clock for
    15 s, as Time of Empires' `[realtime] prompt_s`; then the step again."""
    play = new_play(parse_profile(REALTIME.read_text(encoding="utf-8")), PLAYERS)
    play, _ = step(play, Input(Button.ERA, Gesture.PRESS), 0.0)
    now = 0.0
    while play.spot.state is not State.ROUND or play.profile.phases[
            play.spot.phase].id != "action":
        play, _ = step(play, Input(Button.NEXT, Gesture.PRESS), now := now + 1)
    call = now + 5 + 180  # the start gong 5 s after the phase began, the cry 3:00 later
    for t, shown in ((call - 0.5, None), (call, "Appoint scholars!"),
                     (call + 14.9, "Appoint scholars!"), (call + 15, None)):
        play, _ = step(play, Tick(), t)
        assert screen(play, t).call == (None if shown is None
                                        else Label(shown, "学者の任命！"))


MIXED_STARTS = (20.0, 1000.0, 2000.0)  # Era I's lead-in, Era II's setup, Era III's lead-in


def rounds_mixed_script(cuts: tuple[float, ...] = ()) -> str:
    """Era I in real time, Era II introductory, Era III in real time again, in the round
    profile: the game's setup and Era I as `rounds_realtime_script`; on Era I's standings
    ERA (Era II's setup, its guide shown: `guide_at_setup`), NEXT held (the guide skipped),
    NEXT (introductory), ERA, its rounds and calls with NEXT, the same gestures as Time of
    Empires' own; on Era II's standings ERA (Era III's setup, on real time again), its
    guide walked with NEXT, ERA on its last step starting its lead-in."""
    first, second, third = MIXED_STARTS
    steps = GAME_SETUP_STEPS + PREP_STEPS[0]
    lines = [(first - steps + i, "next press") for i in range(1, steps)]  # the guide walked
    lines += [(first, "era press")]
    lines += after(first + 560, round_scoring(0))
    intro = ["era press", "next hold", "next press", "era press"] + ["next press"] * (
        1 + 14 + 2) + round_scoring(1)  # the guide skipped, as Time of Empires' below
    lines += after(second, intro, 1)
    opening = third - PREP_STEPS[2]
    lines += [(opening - 1, "era press")]
    lines += [(opening + i, "next press") for i in range(1, PREP_STEPS[2])]
    lines += [(third, "era press")]
    lines += after(third + 560, round_scoring(2))
    lines += after(third + 700, tie_break())  # Era III's standings: the ranking
    lines += [(t, "restart") for t in cuts]
    return timed(sorted(lines, key=lambda line: line[0]))


def own_mixed_script() -> str:
    """The same in Time of Empires' own engine: ERA at Era I's setup starts its lead-in; the
    standings' ERA to Era II's guide, NEXT held (its setup screen), NEXT (introductory), ERA,
    its rounds and calls; the
    standings' ERA to Era III's setup (real time, as every era's opens), ERA its lead-in."""
    first, second, third = MIXED_STARTS
    lines = [(first, "era press")] + after(first + 560, own_scoring(0))
    intro = ["era press", "next hold", "next press", "era press"] + ["next press"] * (
        14 + 2 + 1)  # the guide's NEXT hold: its setup screen, where NEXT switches the mode
    lines += after(second, intro + own_scoring(1), 1)
    lines += [(third - 5, "era press"), (third, "era press")]
    lines += after(third + 560, own_scoring(2))
    lines += after(third + 600, ["era press", *numbers(BUILDINGS["red"]),
                                 *numbers(BUILDINGS["green"])])
    return timed(sorted(lines, key=lambda line: line[0]))


def in_windows(lines: list[tuple[float, str]], *starts: float) -> list[tuple[float, str]]:
    """The cues of the real-time eras whose lead-in begins at `starts` (up to the end gong)."""
    return [(t, s) for t, s in lines if any(a <= t <= a + 545 for a in starts)]


@pytest.mark.parametrize("cuts", [(), (1002.5, 1010.5, 1995.5)], ids=["whole", "cut-in-era-ii"])
def test_each_era_plays_the_mode_its_own_setup_chose_as_time_of_empires(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cuts: tuple[float, ...],
        request: pytest.FixtureRequest) -> None:
    """Era I in real time, Era II introductory, Era III in real time again: the round
    profile's `variant_per_era` chooses each era's variant at its own setup (NEXT), as Time
    of Empires' era setup switches its mode. The real-time eras sound every cue at the same
    time in both, Era II's rounds, start players and calls are the same, and so are the
    totals, the standings and the ranking. Cut on Era II's setup just after NEXT chose
    introductory, in its round 7, and on a step of Era III's guide walked at its setup, the
    round profile comes back to the variant each era chose, and to that step of the guide."""
    own = era_engine(request)  # `own_*_script` with the config `players` = the four
    rounds = simulate(tmp_path, capsys, rounds_mixed_script(cuts), "--game", str(REALTIME),
                      *per_step(tmp_path), "--players", ",".join(PLAYERS), "--until", "3000")
    assert [e["t"] for e in rounds if e["type"] == "resume"] == []  # no countdown was held
    assert len([e for e in rounds if e["type"] == "prompt" and e["prompt"] == "resumed"]
               ) == len(cuts)
    modes = {(e["era"], e["mode"]) for e in own if e["type"] == "state"
             and e["state"] in ("lead_in", "intro_round")}
    assert sorted(modes) == [(1, "realtime"), (2, "intro"), (3, "realtime")]
    # Each era's variant, said as the game's is at its setup: each era's setup, as it opens
    # and as NEXT changes it, and as the era begins, on its standings and in the ranking.
    setups = [(e["era"], e["variant"]) for e in rounds if e["type"] == "setup"]
    assert list(dict.fromkeys(setups)) == [
        (1, "realtime"), (2, "realtime"), (2, "intro"), (3, "realtime")]
    assert [(e["era"], e["variant"]) for e in rounds if e["type"] == "era"] == [
        (1, "realtime"), (2, "intro"), (3, "realtime")]
    assert [e["variant"] for e in rounds if e["type"] == "standings"] == [
        "realtime", "intro", "realtime"]
    (ranked,) = [e for e in rounds if e["type"] == "ranking"]
    assert ranked["variants"] == ["realtime", "intro", "realtime"]
    first, _, third = MIXED_STARTS
    expected: list[tuple[float, str]] = []
    for start in (first, third):  # 5 ticks, the start gong, cries at 3:00, 6:00, 10 ticks, gong
        gong = start + 5
        expected += [(start + i, "tick") for i in range(5)] + [(gong, "gong")]
        expected += [(gong + 180, "cry"), (gong + 360, "cry")]
        expected += [(gong + 530 + i, "tick") for i in range(10)] + [(gong + 540, "gong")]
    assert in_windows(cues(own), first, third) == expected
    assert in_windows(cues(rounds), first, third) == expected
    # Era II: its rounds and start players (red, carried from Era I; passed left after each
    # call), its cries after rounds 5 and 10, the same in both (a cut's round once).
    def era_two(lines: list[dict[str, Any]], own: bool) -> list[tuple[Any, ...]]:
        flow = intro_flow([e for e in lines if first + 545 < e["t"] < third - 20], own)
        kept: list[tuple[Any, ...]] = []  # a round shown again after a cut, once
        for f in flow:
            if (f[1] if f[0] == "cry" else f[0]) == 2 and (f[0] == "cry" or f not in kept):
                kept.append(f)
        return kept

    flow = era_two(rounds, own=False)
    assert flow == era_two(own, own=True)
    assert [c for c in flow if c[0] == "cry"] == [("cry", 2, 5), ("cry", 2, 10)]
    assert [f[2] for f in flow if f[0] != "cry" and f[1] in (1, 6, 11)] == [
        "red", "blue", "green"]
    assert {e["phase"] for e in rounds if e["type"] == "phase"} == {"action", "turns"}
    if cuts:  # back on the step of Era III's guide it was cut on (the 5th of 9), walked on
        back = [(e["t"], e["step"]) for e in rounds if e["type"] == "guide" and e["era"] == 3]
        assert back[4:7] == [(1995.0, 5), (1996.0, 6), (1997.0, 7)]  # cut at 1995.5
    check_scores(own, rounds)


HALL_ORDERS = {  # the hall's orders (action, at, running_s), each handed to the box at `at`
    "start ahead, pause, resume, end": [
        (SteerAction.START, 20.0, 0.0), (SteerAction.PAUSE, 150.0, 130.0),
        (SteerAction.RESUME, 400.0, 130.0), (SteerAction.SLEW, 500.0, 230.4),
        (SteerAction.END, 700.0, 329.6)],
    "a late start": [(SteerAction.START, 20.0, 185.0)],
}


def hall_heard(engine: Any, state: Any, orders: list[tuple[SteerAction, float, float]]
               ) -> list[tuple[float, str]]:
    """The gongs, cries and ticks of an era steered by a hall's `orders` (a START handed over
    1.5 s ahead, as the link does), woken at each deadline up to 1000 s."""
    heard: list[tuple[float, str]] = []
    now = 0.0
    event: Steer | Tick
    handed = [(at - 1.5 if action is SteerAction.START else at, Steer(action, at, running_s))
              for action, at, running_s in orders]
    while True:
        due = engine.next_deadline(state, now)
        if handed and (due is None or handed[0][0] <= due):
            now, event = handed.pop(0)
        elif due is not None and due <= 1000.0:
            now, event = due, Tick()
        else:
            return heard
        state, effects = engine.step(state, event, now)
        heard += [(round(now, 3), e.sound.value) for e in effects
                  if isinstance(e, PlaySound) and e.sound.value in ("gong", "cry", "tick")]


@pytest.mark.parametrize("orders", sorted(HALL_ORDERS))
def test_a_hall_steers_the_round_files_era_as_the_era_engines(orders: str) -> None:
    """A box in a hall (`[hall]`): the round file's action phase (`hall = true`) waits held
    for the hall as Time of Empires' era waits at its setup, and the same orders sound every
    gong, cry and tick at the same instant in both engines."""
    config = replace(parse_config('[hall]\nbroker = "h"\nkey = "k"\n', "c.toml"),
                     players=PLAYERS)
    rounds = ProfileEngine(parse_profile(REALTIME.read_text(), str(REALTIME)), config)
    play, _ = rounds.fresh(0.0, 0)
    play, _ = rounds.step(play, Input(Button.ERA, Gesture.PRESS), 0.0)
    for _ in range(GAME_SETUP_STEPS + PREP_STEPS[0]):  # to the action phase: held
        play, _ = rounds.step(play, Input(Button.NEXT, Gesture.PRESS), 0.0)
    assert play.timer_end is None and play.held_left == 545.0
    heard = hall_heard(rounds, play, HALL_ORDERS[orders])
    assert heard == [(t, sound) for t, sound in RECORDED[f"hall/{orders}"]]  # the era engine's
    assert heard.count(heard[-1]) == 1 and heard[-1][1] == "gong"  # the era's end, once


def per_step_scoring(era: int) -> list[str]:
    """Per step in both engines: each step's numbers in seat order, the steps that give no
    points passed with ERA (the era engine's way; the round engine's too)."""
    def asked(c: int) -> list[str]:
        return [g for p in PLAYERS for g in numbers(NUMBERS[era][p][c])]

    return [*asked(0), *asked(1), "era press", *asked(2), *asked(3), "era press"]


@pytest.mark.parametrize("points_entry", ["steps", "totals"])
def test_the_round_file_asks_the_points_as_the_boxs_points_entry_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        points_entry: str, request: pytest.FixtureRequest) -> None:
    """The box's "Points entry" chooses in both engines (`[scoring] entry = "setting"`):
    "steps" asks every step's numbers player by player, "totals" each player's era total;
    the same gestures give the same numbers, standings and ranking in both."""
    config = tmp_path / "erabox.toml"
    config.write_text(f"players = {list(PLAYERS)!r}\npoints_entry = \"{points_entry}\"\n"
                      .replace("'", '"'), encoding="utf-8")
    module = __import__(__name__)
    monkeypatch.setattr(module, "round_scoring", per_step_scoring if points_entry == "steps"
                        else own_scoring)  # (the era engine's play recorded with the same)
    own = era_engine(request)
    rounds = simulate(tmp_path, capsys, rounds_realtime_script(), "--game", str(REALTIME),
                      "--config", str(config), "--players", ",".join(PLAYERS),
                      "--until", "3000")

    def entered(lines: list[dict[str, Any]]) -> list[tuple[str, int]]:
        return [(e["player"], e["points"]) for e in lines if e["type"] == "points"
                and e.get("category") != "buildings"]

    asked = 3 * len(PLAYERS) * (4 if points_entry == "steps" else 1)
    assert len(entered(own)) == asked
    assert entered(rounds) == entered(own)
    assert standings(rounds) == standings(own)
    assert ranking(rounds) == ranking(own) == FINAL

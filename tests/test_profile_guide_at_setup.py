"""`[rounds] guide_at_setup = true` (docs/profiles.md): with the box's first-game guide on,
the guide's parts (`guide = true` special rounds before round 1, phases, round 1's steps) are
walked at the setup, before ERA starts round 1, as Time of Empires' era engine shows its
preparation guide at an era's setup: NEXT walks its steps (after the last, the setup, where
NEXT chooses the variant), NEXT hold skips them, ERA starts round 1 at once as with the guide
off. The step walked is saved (a power cut on it comes back there), drawn in both languages
and said by `simulate --game`'s `guide` lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.guide import guided
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, PlaySound, Tick
from erabox.core.play import Play, State, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.core.script import ScriptLine
from erabox.run.simulate import simulate
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play
from test_profile_guide import GAME

WALKED = GAME.replace("start_gong = false\n", "start_gong = false\nguide_at_setup = true\n"
                      ).replace("guide = true }", "guide = true, until_round = 1 }")
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)
# Two variants, a game of two eras choosing its variant at each era's setup: Era II's setup
# walks its own steps (no game setup then).
ERAS = WALKED.replace("count = 1\n", "variant_per_era = true\n").replace("[[special]]", """\
[[variant]]
id = "short"
label = "Short"
rounds = 1

[[variant]]
id = "long"
label = "Long"
rounds = 2

[[era]]
label = "Act I"

[[era]]
label = "Act II"

[[special]]""", 1)


def walked(text: str = WALKED, guide: bool = True) -> Profile:
    return guided(parse_profile(text, "sprint.toml"), guide)


def shown(play: Play) -> tuple[str, str, tuple[int, int]] | None:
    s = screen(play, 0.0)
    if not s.guide:
        return None
    assert s.title is not None and s.text is not None and s.position is not None
    return s.title.en, s.text.en, s.position


def test_next_walks_the_guide_at_the_setup_then_the_setup_itself() -> None:
    play = new_play(walked(), PLAYERS)
    seen = []
    while shown(play) is not None:
        seen.append(shown(play))
        play, _ = step(play, NEXT, 0.0)
        assert play.spot.state is State.SETUP and play.timer_end is None
    assert seen == [("Setup", "Lay out the board", (1, 1)), ("Prepare", "Deal the cards", (1, 1)),
                    ("Race", "Turn the hourglasses", (1, 1))]
    assert screen(play, 0.0).kind == "setup" and play.spot.guide is None
    play, _ = step(play, ERA, 1.0)  # round 1 as with the guide off: the race's lead-in
    assert play.spot.state is State.ROUND and play.profile.phases[play.spot.phase].id == "race"
    assert play.timer_end == 1.0 + 3 + 60


def test_era_starts_at_once_from_any_step_and_next_hold_skips_the_guide() -> None:
    play, _ = step(new_play(walked(), PLAYERS), NEXT, 0.0)  # the guide's second step
    started, _ = step(play, ERA, 1.0)
    assert started.spot.state is State.ROUND and started.spot.guide is None
    assert [s.en for s in started.profile.phases[started.spot.phase].steps] == ["Run"]
    assert started.timer_end == 1.0 + 3 + 60
    skipped, _ = step(play, NEXT_HOLD, 1.0)
    assert skipped.spot.state is State.SETUP and shown(skipped) is None
    # with the guide off nothing is walked: the setup, ERA straight to the lead-in
    off = new_play(walked(guide=False), PLAYERS)
    assert shown(off) is None and off.spot.guide is None


def test_each_era_s_setup_walks_its_own_steps() -> None:
    play = new_play(walked(ERAS), PLAYERS)
    assert [shown(play)] == [("Setup", "Lay out the board", (1, 1))]
    play, _ = step(play, ERA, 0.0)
    now = 0.0
    while play.spot.state is not State.STANDINGS:  # Act I to its end, its scoring: none
        play, _ = step(play, NEXT if play.timer_end is None else ERA, now := now + 100)
    play, _ = step(play, ERA, now + 1)  # Act II's setup: its guide first, no game setup
    assert play.spot.state is State.ERA_SETUP
    assert shown(play) == ("Prepare", "Deal the cards", (1, 1))
    play, _ = step(play, NEXT, now + 2)
    play, _ = step(play, NEXT, now + 3)
    assert shown(play) is None and play.spot.variant == 0
    play, _ = step(play, NEXT, now + 4)  # now NEXT chooses the era's variant
    assert play.spot.variant == 1


def test_a_cut_on_a_step_of_the_guide_comes_back_to_it() -> None:
    profile = walked()
    play, _ = step(new_play(profile, PLAYERS), NEXT, 0.0)
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    assert record["spot"]["guide"] == 1
    back, _ = restore(record, profile, PLAYERS, 5.0)
    assert back.spot.guide == 1 and shown(back) == ("Prepare", "Deal the cards", (1, 1))
    for bad in (3, -1, True, "1"):
        with pytest.raises(ValueError, match="'guide'"):
            restore(record | {"spot": record["spot"] | {"guide": bad}}, profile, PLAYERS, 5.0)
    with pytest.raises(ValueError, match="'guide' is a step of the guide"):  # guide off
        restore(record, walked(guide=False), PLAYERS, 5.0)
    started, _ = step(play, ERA, 1.0)
    assert "guide" not in snapshot(started, 1.0)["spot"]  # a record without a walk: as ever


@pytest.mark.parametrize(("change", "key", "problem"), [
    (("guide_at_setup = true", "guide_at_setup = 1"), r"rounds\.guide_at_setup",
     "true or false"),
    (("after = [0]\nguide = true", "after = [1]\nguide = true"), r"special\[1\]\.after",
     "before round 1 only"),  # (keys are named 1-based)
    ((", until_round = 1 }", " }"), r"phase\[2\]\.steps\[1\]", "until_round = 1"),
])
def test_a_bad_guide_at_setup_is_named_with_its_file_line_and_key(
        change: tuple[str, str], key: str, problem: str) -> None:
    with pytest.raises(ProfileError, match=rf"^sprint\.toml:\d+: key '{key}'.*{problem}"):
        parse_profile(WALKED.replace(*change), "sprint.toml")
    bare = WALKED.replace("guide = true\n", "").replace(", guide = true", "")
    with pytest.raises(ProfileError, match=r"guide_at_setup needs parts of the guide"):
        parse_profile(bare, "sprint.toml")


def test_the_step_walked_is_drawn_and_said_in_both_languages() -> None:
    play, _ = step(new_play(walked(), PLAYERS), NEXT, 0.0)
    s = screen(play, 0.0)
    for language, title, hint, start in (
            ("en", "Prepare 1/1", "NEXT: next  hold NEXT: skip", "ERA: start"),
            ("ja", "Prepare 1/1", "NEXT: 次へ NEXT長押し: とばす", "ERA: 開始")):
        items = {i.role: i.text for i in layout_play(s, Panel(), language)}
        assert items["status"] == title and items["hint"] == hint
        assert items["step"] == "Deal the cards" and items["footer"] == start
        small = {i.role: i for i in layout_play(s, Panel(height=32), language)}
        assert small["step"].text == "Deal the cards" and not small["hint"].abbreviated
    eras = screen(new_play(walked(ERAS), PLAYERS), 0.0)
    items = {i.role: i.text for i in layout_play(eras, Panel(), "ja")}
    assert items["footer"] == "ERA: Act I・Shortを開始"


def test_simulate_says_each_step_walked() -> None:
    lines: list[dict[str, object]] = []
    script = [ScriptLine(0.0, NEXT, 1), ScriptLine(1.0, NEXT_HOLD, 2), ScriptLine(2.0, ERA, 3)]
    simulate(Config(players=PLAYERS), script, 10.0, lines.append,
             profile=parse_profile(WALKED, "sprint.toml"))  # the box's guide: on
    assert [(line["t"], line["phase"], line["step"], line["steps"], line["text"])
            for line in lines if line["type"] == "guide"] == [
        (0.0, "setup", 1, 1, "Lay out the board"), (0.0, "prepare", 1, 1, "Deal the cards")]
    assert [line["state"] for line in lines if line["type"] == "state"] == ["setup", "round"]


def test_time_of_empires_record_on_a_guide_step_comes_back_to_the_step_walked() -> None:
    """The era engine's record on its guide's third step (Era I's game setup), read by the
    round file with the guide on: the same step walked at the setup (the round file's third
    too: both begin with the players step); NEXT hold and ERA then start the era as the era
    engine's, its ticks at the same instants (the era engine's recorded before its removal,
    tests/golden/era_engine/record.py)."""
    rounds_file = Path(__file__).parent / "profiles" / "time-of-empires-rounds.toml"
    golden = Path(__file__).parent / "golden"
    text = (golden / "states" / "toe-guide.state.json").read_text(encoding="utf-8")
    config = Config(players=("red", "blue", "green", "yellow"))
    era = json.loads((golden / "era_engine" / "values.json").read_text(encoding="utf-8"))[
        "test_profile_guide_at_setup"]["heard"]
    engine = ProfileEngine(guided(parse_profile(rounds_file.read_text(encoding="utf-8"),
                                                str(rounds_file)), True), config)
    play, _ = engine.restore(engine.parse(text), 0.0)
    assert play.spot.state is State.SETUP and play.spot.guide == 2
    at = shown(play)
    assert at is not None and (at[0], at[2]) == ("Game setup", (3, 11))
    script = [(1.0, NEXT_HOLD), (30.0, ERA)]  # the era engine's gestures on its guide
    assert heard(engine, play, script) == [(t, sound) for t, sound in era] != []


def heard(engine: Any, state: Any, script: list[tuple[float, Input]]) -> list[tuple[float, str]]:
    """The gongs, cries and ticks of the script played on, each deadline woken, up to 60 s."""
    out: list[tuple[float, str]] = []
    now, todo = 0.0, list(script)
    while True:
        due = engine.next_deadline(state, now)
        event: Input | Tick
        if todo and (due is None or todo[0][0] <= due):
            now, event = todo.pop(0)
        elif due is not None and due <= 60.0:
            now, event = max(now, due), Tick()
        else:
            return out
        state, effects = engine.step(state, event, now)
        out += [(round(now, 3), e.sound.value) for e in effects
                if isinstance(e, PlaySound) and e.sound.value in ("gong", "cry", "tick")]

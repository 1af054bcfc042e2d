"""README's real-time example, "Camp Run", a game of its own in the round format
(device/erabox/examples/camp-run.toml, the same text): one round whose phase runs on a 10:00 clock
after a 5 s lead-in, gongs at 3:20 and 6:40 with the game's own prompt, ten final ticks, the
end gong ending the run with no press, then its scoring and the final ranking. It plays end to
end through `erabox simulate --game`, as a user would: the calls on time with no press, across
a pause (hold NEXT, then NEXT), across a power cut that neither loses nor repeats a call. Its
exhaustive power-cut proof is in tests/test_power_cut_rounds.py ("camp-run")."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Tick
from erabox.core.play import Play, new_play, screen
from erabox.core.profile import Profile, parse_profile
from erabox.core.profile_reader import Label
from erabox.ui.layout import StatusMarks, TextItem, layout_plan
from erabox.ui.panel import Panel
from erabox.ui.round_plans import clock_plan, is_clock

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "device" / "erabox" / "examples" / "camp-run.toml"
CAMP = Label("Return to camp", "キャンプへ戻れ")
LEAD_IN = [0.0, 1.0, 2.0, 3.0, 4.0]  # ERA at 0: a tick each second, the start gong at 5
# the scoring, each number with NEXT presses then ERA: red 3 treasure (6 points) and 4 camp
# points, blue 2 treasure (4) and 6 camp points: 10 each, red first on more treasure
ENTRIES = ((3, "red"), (2, "blue"), (4, "red"), (6, "blue"))


def readme_block() -> str:
    """The TOML block of README's real-time example."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("**A real-time game**"):readme.index("## Configuration")]
    return part.split("```toml\n", 1)[1].split("```", 1)[0]


def camp_run() -> Profile:
    return parse_profile(readme_block(), "camp-run.toml")


def test_readme_shows_the_example_word_for_word() -> None:
    assert readme_block() == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_is_one_round_on_a_running_clock_with_its_own_calls() -> None:
    game = camp_run()
    assert (game.id, game.min_players, game.max_players, game.eras) == ("camp-run", 2, 4, ())
    assert [v.rounds for v in game.variants] == [1] and not game.start_gong
    assert (game.pause, game.next_resumes) == ("next_hold", True)
    (run,) = game.phases
    assert (run.timer_s, run.lead_in_s, run.final_ticks_s, run.prompt_s) == (600, 5, 10, 15)
    assert (run.timer_end, run.next_leaves, run.gong) == ("next", False, True)
    assert [(c.at_s, c.sound, c.prompt) for c in run.calls] == [(200, "gong", CAMP),
                                                                (400, "gong", CAMP)]
    assert [(c.id, c.multiply) for c in game.categories] == [("treasure", 2), ("camp", 1)]


def scoring_script(start: float) -> str:
    """The table enters ENTRIES from `start`, a press a second."""
    lines, now = [], start
    for value, _ in ENTRIES:
        for button in ["next"] * value + ["era"]:
            lines.append(f"{now:g} {button} press\n")
            now += 1
    return "".join(lines)


def played(tmp_path: Path, script: str, by: str = "file") -> list[dict[str, Any]]:
    """README's block played by `erabox simulate --game`: its file named (`by` "file"), or
    saved in a `games/` folder beside a config and named by its id (`by` "name")."""
    (tmp_path / "run.script").write_text(script, encoding="utf-8")
    if by == "file":
        (tmp_path / "camp-run.toml").write_text(readme_block(), encoding="utf-8")
        args = ["--game", str(tmp_path / "camp-run.toml"), "--players", "red,blue"]
    else:
        (tmp_path / "games").mkdir()
        (tmp_path / "games" / "camp-run.toml").write_text(readme_block(), encoding="utf-8")
        (tmp_path / "erabox.toml").write_text('players = ["red", "blue"]\n', encoding="utf-8")
        args = ["--config", str(tmp_path / "erabox.toml"), "--game", "camp-run"]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["simulate", *args, "--script", str(tmp_path / "run.script"),
                     "--until", "900"])
    assert code == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def sounds(events: list[dict[str, Any]], ticks: bool = False) -> list[tuple[float, str]]:
    return [(e["t"], e["sound"]) for e in events
            if e["type"] == "sound" and (e["sound"] == "tick") == ticks]


def calls(events: list[dict[str, Any]]) -> list[tuple[float, float, str]]:
    return [(e["t"], e["at_s"], e["text"]) for e in events if e["type"] == "call"]


def ended_in_the_ranking(events: list[dict[str, Any]], end: float) -> None:
    """The end gong at `end` moved play to the scoring; ENTRIES gave the final ranking."""
    assert {"t": end, "type": "state", "state": "scoring"} in events
    points = [(e["category"], e["player"], e["value"], e["points"], e["total"])
              for e in events if e["type"] == "points"]
    assert points == [("treasure", "red", 3, 6, 6), ("treasure", "blue", 2, 4, 4),
                      ("camp", "red", 4, 4, 10), ("camp", "blue", 6, 6, 10)]
    (ranking,) = [e for e in events if e["type"] == "ranking"]
    assert ranking["places"] == [{"place": 1, "player": "red", "score": 10},
                                 {"place": 2, "player": "blue", "score": 10}]
    assert ranking["winners"] == ["red"]  # equal points: more treasure
    assert events[-1] == {"t": ranking["t"], "type": "state", "state": "game_over"}


@pytest.mark.parametrize("by", ["file", "name"])
def test_it_plays_end_to_end_its_calls_and_end_on_time_with_no_press(
        tmp_path: Path, by: str) -> None:
    # ERA at 0, then no press until the scoring
    events = played(tmp_path, "0 era press\n" + scoring_script(610), by)
    assert [e["t"] for e in events if e["type"] == "input"][:2] == [0.0, 610.0]
    # the start gong at 5, the calls 200 s and 400 s after it, the end gong 600 s after it
    assert sounds(events) == [(5.0, "gong"), (205.0, "gong"), (405.0, "gong"),
                              (605.0, "gong")]
    assert calls(events) == [(205.0, 200.0, CAMP.en), (405.0, 400.0, CAMP.en)]
    # the lead-in's ticks, then the ten final ticks before the end gong
    assert [t for t, _ in sounds(events, ticks=True)] == [*LEAD_IN,
                                                          *(595.0 + n for n in range(10))]
    ended_in_the_ranking(events, 605.0)


def test_its_calls_keep_their_time_across_a_pause(tmp_path: Path) -> None:
    # hold NEXT at 100 pauses the clock with 505 s left; NEXT at 130 resumes it: the calls,
    # the final ticks and the end gong come exactly 30 s later
    script = "0 era press\n100 next hold\n130 next press\n" + scoring_script(640)
    events = played(tmp_path, script)
    held = [(e["type"], e["t"], e["left"]) for e in events if e["type"] in ("pause", "resume")]
    assert held == [("pause", 100.0, 505.0), ("resume", 130.0, 505.0)]
    assert sounds(events) == [(5.0, "gong"), (235.0, "gong"), (435.0, "gong"),
                              (635.0, "gong")]
    assert calls(events) == [(235.0, 200.0, CAMP.en), (435.0, 400.0, CAMP.en)]
    assert [t for t, _ in sounds(events, ticks=True)] == [*LEAD_IN,
                                                          *(625.0 + n for n in range(10))]
    ended_in_the_ranking(events, 635.0)


def test_a_power_cut_mid_run_neither_loses_nor_repeats_a_call(tmp_path: Path) -> None:
    # paused 100 to 130 (the first call at 235); the power fails at 237.5 and comes back
    # from the call's record: its prompt shown again, silently, the 2.5 s given back
    script = "0 era press\n100 next hold\n130 next press\n237.5 restart\n" + scoring_script(650)
    events = played(tmp_path, script)
    assert sounds(events) == [(5.0, "gong"), (235.0, "gong"), (437.5, "gong"),
                              (637.5, "gong")]
    assert calls(events) == [(235.0, 200.0, CAMP.en), (437.5, 400.0, CAMP.en)]
    prompts = [(e["t"], e["prompt"], e.get("text")) for e in events if e["type"] == "prompt"]
    assert prompts == [(237.5, "scholars", CAMP.en)]
    ended_in_the_ranking(events, 637.5)


@pytest.mark.parametrize("cut", [150.0, 204.5, 300.0, 404.95, 597.5])
def test_at_any_cut_each_call_is_given_once_sounded_or_shown(tmp_path: Path,
                                                             cut: float) -> None:
    """A cut anywhere in the run: each call sounded once, or (cut 404.95, its record written
    ahead of it and its gong not yet sounded) shown silently, never twice nor lost."""
    events = played(tmp_path, f"0 era press\n{cut} restart\n" + scoring_script(700))
    shown = [e["t"] for e in events if e["type"] == "prompt" and e.get("text") == CAMP.en]
    given = sorted([at for _, at, _ in calls(events)] + [400.0] * len(shown))
    assert given == [200.0, 400.0]
    assert bool(shown) == (cut == 404.95)
    gongs = [t for t, s in sounds(events) if s == "gong"]
    assert len(gongs) == 4 - len(shown) and gongs[0] == 5.0
    # the seconds since the last save are given back (at most 5 s; a cut in the 0.1 s a
    # call's record goes ahead of it comes back at the call): the end comes that much later,
    # 200 s after the second call when the cut came before it
    end, second = gongs[-1], (shown or [t for t, at, _ in calls(events) if at == 400.0])[0]
    assert -0.1 <= end - 605.0 <= 5.0
    assert end - second == pytest.approx(200.0) or cut > second
    ended_in_the_ranking(events, end)


def at_the_first_call() -> Play:
    play = new_play(camp_run(), ("red", "blue"))
    play, _ = step(play, Input(Button.ERA, Gesture.PRESS), 0.0)
    now = 0.0
    while now < 205.0:
        now = next_deadline(play, now) or now + 1.0
        play, _ = step(play, Tick(), now)
    return play


def test_the_screen_shows_the_calls_own_words_until_its_time_is_up() -> None:
    play = at_the_first_call()
    assert screen(play, 205.0).call == CAMP
    assert screen(play, 219.9).call == CAMP and screen(play, 220.0).call is None  # 15 s


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_own_prompt_is_drawn_whole_on_both_panels(height: int, language: str) -> None:
    shown = screen(at_the_first_call(), 206.0)
    panel = Panel(128, height)  # the box draws a countdown as the clock (`round_plans`)
    assert is_clock(shown)
    placed = layout_plan(clock_plan(shown, language, panel), language, StatusMarks(), panel)
    drawn = [item for item in placed.items
             if isinstance(item, TextItem) and item.source == CAMP.text(language)]
    assert drawn and not any(item.block.abbreviated for item in drawn)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_paused_it_says_a_next_press_resumes_it(language: str) -> None:
    """Held (hold NEXT), the hint row says what resumes it: a NEXT press (`next_resumes`),
    and ERA's hold undoes; a press then does resume it."""
    play, _ = step(at_the_first_call(), Input(Button.NEXT, Gesture.HOLD), 230.0)
    shown = screen(play, 231.0)
    assert shown.paused and is_clock(shown)
    panel = Panel()
    placed = layout_plan(clock_plan(shown, language, panel), language, StatusMarks(), panel)
    (hint,) = [item for item in placed.items if isinstance(item, TextItem)
               and item.role == "hint"]
    assert hint.source == ("NEXT: resume  hold ERA: undo" if language == "en"
                           else "NEXT: 再開 ERA長押し: 戻す")
    assert not hint.block.abbreviated
    resumed, _ = step(play, Input(Button.NEXT, Gesture.PRESS), 240.0)
    assert not screen(resumed, 240.0).paused
    small = Panel(128, 32)  # its column beside the digits holds the press alone, whole
    placed = layout_plan(clock_plan(shown, language, small), language, StatusMarks(), small)
    (hint,) = [item for item in placed.items if isinstance(item, TextItem)
               and item.role == "hint"]
    assert (hint.source, hint.block.abbreviated) == ("NEXT: resume" if language == "en"
                                                     else "NEXT: 再開", False)

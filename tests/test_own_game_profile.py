"""Time of Empires' numbers come from its profile, games/time-of-empires.toml (in the round
format, `core/own_game.py` reading its numbers for the config): a copy of it in a `games/`
folder beside the config, changed to another era, plays that era in `erabox simulate` and
`erabox run` with no Python changed; a copy with a mistake stops the box with
the file, the line and the key."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.config import Call, Config
from erabox.core.model import GameMusic, Sound
from erabox.core.own_game import OwnNumbers, own_numbers_of
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.games import (
    available_games,
    game_folders,
    offer_games,
    shipped_games,
)
from test_run import daemon_env, read_events

SHIPPED = shipped_games() / "time-of-empires.toml"


def shipped_text() -> str:
    return SHIPPED.read_text(encoding="utf-8")


CRY = 'sound = "cry"\nprompt = "scholars"\n'  # a call's sound and prompt: the box's


def six_minute_era(text: str) -> str:
    """The shipped profile, edited as a user would: a 6:00 era, cries at 1:30, 3:00, 4:30."""
    assert text.count("timer_s = 540") == 1 and text.count(f"at_s = 360\n{CRY}") == 1
    text = text.replace("timer_s = 540", "timer_s = 360")
    text = text.replace("at_s = 180", "at_s = 90").replace(
        f"at_s = 360\n{CRY}", f"at_s = 180\n{CRY}\n[[phase.call]]\nat_s = 270\n{CRY}")
    return text


def short_era(text: str) -> str:
    """An era of 4 s with cries at 1, 2 and 3 s and no lead-in or ticks: real time a test
    can wait for."""
    text = six_minute_era(text)
    text = text.replace("timer_s = 360", "timer_s = 4")
    text = text.replace("at_s = 90", "at_s = 1").replace("at_s = 180", "at_s = 2")
    text = text.replace("at_s = 270", "at_s = 3")
    return text.replace("lead_in_s = 5", "lead_in_s = 0").replace("final_ticks_s = 10",
                                                                  "final_ticks_s = 0")


def beside_a_config(tmp_path: Path, profile: str, config: str = 'language = "en"\n') -> Path:
    (tmp_path / "games").mkdir(exist_ok=True)
    (tmp_path / "games" / "time-of-empires.toml").write_text(profile, encoding="utf-8")
    (tmp_path / "erabox.toml").write_text(config, encoding="utf-8")
    return tmp_path / "erabox.toml"


def simulate(args: list[str]) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["simulate", *args])
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def calls(events: list[dict[str, Any]]) -> list[tuple[float, str]]:
    return [(e["t"], e["sound"]) for e in events
            if e["type"] == "sound" and e["sound"] in ("gong", "cry")]


def test_the_shipped_profile_is_the_rulebook() -> None:
    """Every number the box takes from the shipped profile is the rulebook's (`rules.py`, the
    config's defaults): the era, its calls, the introductory rounds and scholars, the eras'
    wonders and bonus tokens, the guide's rows, the checklist."""
    own = parse_profile(shipped_text(), "time-of-empires.toml")
    assert (own.id, own.min_players, own.max_players) == ("time-of-empires", 2, 4)
    numbers = own_numbers_of(own)
    assert numbers.realtime.length_s == 540 and numbers.realtime.scholar_cues_s == (180, 360)
    assert numbers.intro.rounds == 15 and numbers.intro.scholar_after_rounds == (5, 10)
    assert numbers == OwnNumbers()


def test_the_copys_numbers_are_read_from_its_round_file() -> None:
    """The numbers of a changed copy: its countdown and calls (an own sound file and prompt),
    its introductory rounds and scholars, its eras, their numbers and music, its checklist."""
    text = six_minute_era(shipped_text()).replace("lead_in_s = 5", "lead_in_s = 3").replace(
        "final_ticks_s = 10", "final_ticks_s = 7").replace("prompt_s = 15", "prompt_s = 9")
    text = text.replace(f"at_s = 270\n{CRY}", 'at_s = 270\nsound = "horn.ogg"\n'
                        'prompt = { en = "Horn", ja = "ホルン" }\n')
    text = text.replace("rounds = 15", "rounds = 12").replace("intro = [5, 10]", "intro = [4, 8]")
    text = text.replace("numbers = { wonders = 3, bonus_token_vp = 3 }",
                        'numbers = { wonders = 3, bonus_token_vp = 5 }\nmusic = "late.ogg"\n'
                        'score = "march.ogg"')
    text = text.replace("multiply = 3", "multiply = 2")
    numbers = own_numbers_of(parse_profile(text, "/g/time-of-empires.toml", base_dir="/g"))
    rt = numbers.realtime
    assert (rt.length_s, rt.scholar_cues_s, rt.lead_in_s, rt.final_ticks_s,
            rt.scholar_prompt_s) == (360, (90, 180, 270), 3, 7, 9)
    assert rt.calls == (Call(), Call(), Call(Sound.CRY, ("Horn", "ホルン"), "/g/horn.ogg"))
    assert (numbers.intro.rounds, numbers.intro.scholar_after_rounds) == (12, (4, 8))
    assert numbers.eras == 3 and numbers.prep.bonus_token_vp == (1, 2, 5)
    assert numbers.music == (GameMusic(), GameMusic(), GameMusic("/g/late.ogg", "/g/march.ogg"))
    assert numbers.checklist.multiply == (2, 1, 1, 1, 1, 1)


@pytest.mark.parametrize("game", [[], ["--game", "time-of-empires"]], ids=["own", "game"])
def test_a_copy_beside_the_config_plays_a_six_minute_era(tmp_path: Path,
                                                         game: list[str]) -> None:
    config = beside_a_config(tmp_path, six_minute_era(shipped_text()))
    (tmp_path / "script.txt").write_text("0 era press\n")
    code, events, _ = simulate(["--config", str(config), "--script",
                                str(tmp_path / "script.txt"), "--until", "400", *game])
    assert code == 0
    # the 5 s lead-in, then the era's running times
    assert calls(events) == [(5.0, "gong"), (95.0, "cry"), (185.0, "cry"), (275.0, "cry"),
                             (365.0, "gong")]
    prompts = [e["t"] for e in events if e["type"] == "prompt"]
    assert prompts == [95.0, 185.0, 275.0]
    assert events[-1]["state"] == "scoring"


def test_the_config_keys_still_win_over_the_profile(tmp_path: Path) -> None:
    config = beside_a_config(tmp_path, six_minute_era(shipped_text()),
                             "[realtime]\nscholar_cues_s = [60]\n")
    (tmp_path / "script.txt").write_text("0 era press\n")
    code, events, _ = simulate(["--config", str(config), "--script",
                                str(tmp_path / "script.txt"), "--until", "400"])
    assert code == 0
    assert calls(events) == [(5.0, "gong"), (65.0, "cry"), (365.0, "gong")]


def test_erabox_run_plays_the_copy_on_its_own_clock(tmp_path: Path) -> None:
    """The real box (a real process, mock pins, no display or sound) plays the copy's era: a
    4 s era with cries at 1, 2 and 3 s, its calls at those running times."""
    config = beside_a_config(tmp_path, short_era(shipped_text()))
    (tmp_path / "run.script").write_text("0.3 era press\n8 end\n")
    events_file = tmp_path / "run.jsonl"
    args = [sys.executable, "-m", "erabox", "run", "--config", str(config), "--display", "none",
            "--audio", "none", "--events", str(events_file), "--script",
            str(tmp_path / "run.script")]
    done = subprocess.run(args, env=daemon_env(tmp_path), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    events = read_events(events_file)
    heard = calls(events)
    assert [sound for _, sound in heard] == ["gong", "cry", "cry", "cry", "gong"]
    start = heard[0][0]
    # on the era's anchor: each call at its running time (the event stream's times are the
    # box's own, to the millisecond; a generous bound for a loaded machine)
    for (at, _), due in zip(heard, (0, 1, 2, 3, 4), strict=True):
        assert abs(at - start - due) < 0.05, heard


def test_the_six_minute_copy_reaches_the_running_box(tmp_path: Path) -> None:
    """`erabox run` reads the config through the same path: its game's numbers are the
    copy's (the whole 6:00 era in real time is `make test-deep`'s, below)."""
    from erabox.files.config import load_config

    config = load_config(str(beside_a_config(tmp_path, six_minute_era(shipped_text()))),
                         environ={})
    assert config.realtime.length_s == 360
    assert config.realtime.scholar_cues_s == (90, 180, 270)
    assert config.game == ""
    assert config.own_game == str(tmp_path / "games" / "time-of-empires.toml")  # played


def test_the_box_plays_the_copy_itself(tmp_path: Path) -> None:
    """Not only its numbers: the copy found is the profile the box plays (its words too)."""
    from erabox.files.config import load_config
    from erabox.run.simulate import Simulation

    text = shipped_text().replace('"Real time: turn your hourglasses', '"Go: turn your hourglasses')
    config = load_config(str(beside_a_config(tmp_path, text)), environ={})
    sim = Simulation(config, lambda event: None)
    assert sim.driver.profile is not None
    assert sim.driver.profile.source == str(tmp_path / "games" / "time-of-empires.toml")
    assert sim.driver.profile.phases[1].steps[0].en.startswith("Go: turn")


def test_every_text_a_guide_step_may_say_is_the_boxs_in_both_languages() -> None:
    from erabox.core.rules import GUIDE_TEXTS
    from erabox.ui.strings import STRINGS

    for language in ("en", "ja"):
        assert all(STRINGS[language][key] for key in GUIDE_TEXTS)


def test_the_guide_shows_the_copys_preparation_numbers(tmp_path: Path) -> None:
    """The guide is the profile's: wonders and bonus tokens per era, and from how many
    players the extra leader and effect tile are placed (its steps' `players_at_least`)."""
    text = shipped_text().replace("{ wonders = 1, bonus_token_vp = 1 }",
                                  "{ wonders = 2, bonus_token_vp = 4 }").replace(
        "players_at_least = 4", "players_at_least = 3")
    config = beside_a_config(tmp_path, text, 'players = ["red", "blue", "green"]\n')
    (tmp_path / "script.txt").write_text("".join(f"{n} next press\n" for n in range(1, 20)))
    code, events, _ = simulate(["--config", str(config), "--script",
                                str(tmp_path / "script.txt"), "--until", "20"])
    assert code == 0
    shown = {(e["part"], e["what"]): e["n"] for e in events if e["type"] == "guide"}
    assert shown[("era", "wonder")] == 2 and shown[("era", "bonus_token")] == 4
    assert ("game", "extra_effect") in shown and ("era", "extra_leader") in shown
    # the shipped numbers: three players place no extra leader
    beside_a_config(tmp_path, shipped_text(), 'players = ["red", "blue", "green"]\n')
    _, events, _ = simulate(["--config", str(config), "--script",
                             str(tmp_path / "script.txt"), "--until", "20"])
    shown = {(e["part"], e["what"]): e["n"] for e in events if e["type"] == "guide"}
    assert shown[("era", "wonder")] == 1 and ("era", "extra_leader") not in shown


def test_the_scoring_checklist_plays_the_copys_points_and_multiply(tmp_path: Path) -> None:
    """Which steps ask points and how many times a number counts are the profile's: a copy
    with destruction at 2 VP a building and wonders giving none."""
    wonders = next(line for line in shipped_text().splitlines()
                   if line.startswith('label = { en = "Wonders'))
    text = shipped_text().replace("multiply = 3", "multiply = 2").replace(
        wonders, wonders + "\npoints = false")
    assert text.count("\npoints = false") == 3
    config = beside_a_config(tmp_path, text, 'players = ["red", "blue"]\n'
                             'points_entry = "steps"\n')
    # the era, then one building destroyed for red and every other number 0
    script = "0 era press\n546 next press\n" + "".join(f"{547 + n} era press\n"
                                                      for n in range(12))
    (tmp_path / "script.txt").write_text(script)
    code, events, _ = simulate(["--config", str(config), "--script",
                                str(tmp_path / "script.txt"), "--until", "560"])
    assert code == 0
    points = [(e["step"], e["player"], e["points"]) for e in events if e["type"] == "points"]
    assert points == [(1, "red", 2), (1, "blue", 0), (2, "red", 0), (2, "blue", 0),
                      (5, "red", 0), (5, "blue", 0)]
    assert any(e["type"] == "standings" for e in events)


@pytest.mark.skipif(not os.environ.get("ERABOX_TEST_DEEP"), reason="6 minutes: make test-deep")
def test_erabox_run_plays_the_six_minute_copy_in_real_time(tmp_path: Path) -> None:
    config = beside_a_config(tmp_path, six_minute_era(shipped_text()))
    (tmp_path / "run.script").write_text("0.3 era press\n372 end\n")
    events_file = tmp_path / "run.jsonl"
    args = [sys.executable, "-m", "erabox", "run", "--config", str(config), "--display", "none",
            "--audio", "none", "--events", str(events_file), "--script",
            str(tmp_path / "run.script")]
    done = subprocess.run(args, env=daemon_env(tmp_path), capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()
    heard = calls(read_events(events_file))
    start = heard[0][0]
    assert [round(at - start, 1) for at, _ in heard] == [0.0, 90.0, 180.0, 270.0, 360.0]


CALL = f"at_s = 180\n{CRY}"


@pytest.mark.parametrize(("edit", "key", "problem"), [
    (lambda t: t.replace("at_s = 360", "at_s = 600"), "phase[2].call[2].at_s",
     "before its end (540 s), got 600"),
    (lambda t: t.replace("at_s = 360", "at_s = 100"), "phase[2].call[2].at_s",
     "after the call before"),
    (lambda t: t.replace("lead_in_s = 5", "lead_in = 5"), "phase[2].lead_in",
     "unknown key"),
    (lambda t: t.replace("timer_s = 540", "timer_s = -1"), "phase[2].timer_s",
     "a number of seconds above 0"),
    (lambda t: t.replace("final_ticks_s = 10", "final_ticks_s = 100"), "phase[2].final_ticks_s",
     "a whole number of seconds from 0 to 60"),
    (lambda t: t.replace(CALL, CALL.replace('"cry"', '"bell"')), "phase[2].call[1].sound",
     "one of 'gong', 'cry', 'tick', or a sound file's name"),
    (lambda t: t.replace(CALL, CALL.replace('"scholars"', '{ en = "Camp", ja = " " }')),
     "phase[2].call[1].prompt.ja", "a printable text"),
    (lambda t: t.replace(CALL, CALL.replace('"scholars"', '{ en = "' + "x" * 41
                                            + '", ja = "x" }')),
     "phase[2].call[1].prompt.en", "a text of at most 40 characters"),
    (lambda t: t.replace("rounds = 15", "rounds = 0"), "variant[2].rounds",
     "a whole number from 1 to 999"),
    (lambda t: t.replace("{ wonders = 2,", "{ wonders = -2,"), "era[2].numbers.wonders",
     "a whole number from 0 to 999"),
    (lambda t: t.replace("min = 2", "min = 0"), "players.min", "a whole number from 1 to 8"),
    (lambda t: t.replace('say = "prep_leaders"', 'say = "prep_leader"', 1),
     "phase[1].steps[5].say", "one of 'setup_players'"),
    (lambda t: t.replace("from_era = 2,", "from_era = 4,", 1), "phase[1].steps[1].from_era",
     "a whole number from 1 to 3"),
])
def test_a_mistake_in_the_copy_names_file_line_and_key(tmp_path: Path, edit: Any, key: str,
                                                       problem: str) -> None:
    text = edit(shipped_text())
    assert text != shipped_text()
    config = beside_a_config(tmp_path, text)
    code, events, err = simulate(["--config", str(config), "--until", "1"])
    assert code == 2 and events == []
    # the line the user changed
    line = next(n for n, (new, old) in enumerate(zip(text.splitlines(),
                                                     shipped_text().splitlines(), strict=False), 1)
                if new != old)
    assert re.search(rf"time-of-empires.toml:{line}: key '{re.escape(key)}'", err), err
    assert problem in err, err
    assert "Traceback" not in err
    with pytest.raises(ProfileError):
        parse_profile(text, "x.toml")


def test_a_broken_copy_given_with_game_stops_the_command_naming_it(tmp_path: Path) -> None:
    """`--game time-of-empires` finds the broken copy beside the config: exit 2, the file,
    line and key, no traceback (`erabox run` reads the config the same way, first)."""
    text = shipped_text().replace("timer_s = 540", "timer_s = -1")
    config = beside_a_config(tmp_path, text)
    code, events, err = simulate(["--config", str(config), "--game", "time-of-empires",
                                  "--until", "1"])
    line = text.splitlines().index("timer_s = -1") + 1
    assert code == 2 and events == [] and "Traceback" not in err
    assert f"time-of-empires.toml:{line}: key 'phase[2].timer_s'" in err, err


def test_the_menu_offers_time_of_empires_once(tmp_path: Path) -> None:
    """The settings menu's "Game" has Time of Empires as its first value already: its
    profile is not offered again as a round-based game."""
    found = available_games(game_folders(None, {"XDG_CONFIG_HOME": str(tmp_path)}))
    assert "time-of-empires" in found
    offered = offer_games(Config(), game_folders(None, {"XDG_CONFIG_HOME": str(tmp_path)}))
    assert "time-of-empires" not in offered.games
    assert "altay" in offered.games
    assert "time-of-empires" not in [name for name, *_ in offered.game_names]

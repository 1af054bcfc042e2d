"""Issue #31's trial, pinned: each shipped game chosen in the settings menu from the box's
first screen (Time of Empires, four players), set up, played to its final ranking and scored,
with 3 and with 5 players where the game seats five, through `erabox simulate` on the scripts
in tests/trials/ (a script per trial, each gesture commented). The counts are the table of
docs/profiles.md, "At the table: gestures per game"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main

TRIALS = Path(__file__).resolve().parent / "trials"


def play(capsys: pytest.CaptureFixture[str], name: str) -> list[dict[str, Any]]:
    code = main(["simulate", "--script", str(TRIALS / f"{name}.txt")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Traceback" not in captured.err
    return [json.loads(line) for line in captured.out.splitlines()]


def gestures(events: list[dict[str, Any]]) -> int:
    """Presses, holds and chords (a NEXT hold's release is part of its hold)."""
    return sum(1 for e in events if e["type"] == "input" and e["gesture"] != "release")


def at(events: list[dict[str, Any]], test: Any) -> int:
    return next(i for i, e in enumerate(events) if test(e))


# name: game, players, (choose, setup, one round, scoring, total), winner
PROFILE_TRIALS = {
    "lords-of-xidit-3": ("lords-of-xidit", 3, (8, 1, 7, 24, 138), "red"),
    "lords-of-xidit-5": ("lords-of-xidit", 5, (7, 1, 7, 37, 150), "yellow"),
    "hadrians-wall-3": ("hadrians-wall", 3, (12, 1, 8, 74, 135), "red"),
    "hadrians-wall-5": ("hadrians-wall", 5, (6, 1, 8, 119, 174), "yellow"),
    "altay-3": ("altay", 3, (6, 5, 9, 77, 162), "red"),
}


@pytest.mark.parametrize("name", sorted(PROFILE_TRIALS))
def test_a_game_profile_chosen_in_the_menu_played_to_its_final_ranking(
        capsys: pytest.CaptureFixture[str], name: str) -> None:
    game, players, counts, winner = PROFILE_TRIALS[name]
    events = play(capsys, name)
    setup = at(events, lambda e: e["type"] == "setup")
    assert events[setup]["game"] == game and len(events[setup]["players"]) == players
    first = at(events, lambda e: e["type"] == "round" and e["round"] == 1)
    second = at(events, lambda e: e["type"] == "round" and e["round"] == 2)
    scoring = at(events, lambda e: e.get("state") == "scoring")
    found = (gestures(events[:setup]), gestures(events[setup:first]),
             gestures(events[first:second]), gestures(events[scoring:]), gestures(events))
    assert found == counts
    (ranking,) = [e for e in events if e["type"] == "ranking"]
    assert ranking["winners"] == [winner]
    assert [e["state"] for e in events if e["type"] == "state"][-1] == "game_over"


def test_time_of_empires_for_three_from_the_first_screen_to_its_final_ranking(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The reference: 3 players set in the menu (Time of Empires seats 2 to 4), every setup
    step walked, three real-time eras, every era's points entered with the hold's ramp."""
    events = play(capsys, "time-of-empires-3")
    states = [(i, e["state"]) for i, e in enumerate(events) if e["type"] == "state"]
    closed = next(i for (i, _), (_, before) in zip(states[1:], states[:-1], strict=True)
                  if before == "settings")
    started = at(events, lambda e: e.get("state") == "lead_in")
    entries = [e for e in events if e["type"] == "entry"]
    era_one = at(events, lambda e: e["type"] == "entry" and e["era"] == 1)
    era_two = at(events, lambda e: e["type"] == "entry" and e["era"] == 2)
    found = (gestures(events[:closed]), gestures(events[closed:started]),
             gestures(events[era_one + 1:era_two + 1]), sum(e["gestures"] for e in entries),
             gestures(events))
    assert found == (5, 17, 19, 33, 73)
    (ranking,) = [e for e in events if e["type"] == "ranking"]
    assert ranking["winners"] == ["green"]
    assert [p["total"] for p in ranking["places"]] == [92, 74, 64]


def test_hold_era_at_a_chosen_games_setup_opens_the_menu_again(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The wrong game or count chosen: ERA held at its setup is the menu again (on "Game"),
    where another is chosen, in `erabox simulate` as on the box."""
    script = tmp_path / "back.txt"
    script.write_text("0 era hold\n1 era press\n2 era hold\n"  # Altay for four
                      "3 era hold\n4 era press\n5 era hold\n",  # back: Hadrian's Wall
                      encoding="utf-8")
    assert main(["simulate", "--script", str(script), "--until", "8"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["game"] for e in events if e["type"] == "setup"] == ["altay", "hadrians-wall"]
    assert [e["state"] for e in events if e.get("state") == "settings"] == ["settings"] * 2


def test_closing_the_menu_on_another_game_draws_that_game_and_no_time_of_empires_screen(
) -> None:
    """The trial's finding: the menu closed on Lords of Xidit for five drew Time of Empires'
    setup once more ("Time of Empires, 5 players", untrue) before the profile's setup."""
    from erabox.core.config import Config
    from erabox.core.model import Phase, Screen
    from erabox.files.games import game_folders, load_game, offer_games
    from erabox.files.script import read_script
    from erabox.run.simulate import Simulation

    folders = game_folders(None)
    config = offer_games(Config(), folders)
    screens: list[object] = []
    sim = Simulation(config, lambda e: None, lambda s, t: screens.append(s),
                     find_profile=lambda name: load_game(name, folders))
    sim.run(read_script(str(TRIALS / "lords-of-xidit-5.txt"))[:7], until=30.0)
    menu = max(i for i, s in enumerate(screens)
               if isinstance(s, Screen) and s.kind == Phase.SETTINGS)
    after = screens[menu + 1:]
    assert after, "the menu closed on nothing"
    assert not any(isinstance(s, Screen) for s in after), after[0]

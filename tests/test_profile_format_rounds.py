"""The round-based format's start rules, endings and scoring tables (docs/profiles.md, "The
format"), played through the pure machine and through `erabox simulate --game`:

- `pass_right`: the start passes to the previous seat each round, and a special round that
  passes the start player passes it the same way.
- `chosen`: NEXT at setup chooses who starts round 1 (said on the setup screen, kept in the
  save); the start then passes to the next seat each round.
- `ends = "round" | "now" | "one_more_turn"` of an event (`ends_game = true`: "round").
- A category's `table` (n entered scores the entry n, counting from 0; the last beyond
  the end) and `min` (below 0: ERA hold turns a number negative before it clears it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.core.profile_machine import step
from erabox.core.profile_play import Play, State, new_play, start_player, turn_seat

PLAYERS = ("red", "blue", "green")
GESTURES = {"n": Input(Button.NEXT, Gesture.PRESS), "N": Input(Button.NEXT, Gesture.HOLD),
            "e": Input(Button.ERA, Gesture.PRESS), "E": Input(Button.ERA, Gesture.HOLD)}
NAMES = {"n": "next press", "N": "next hold", "e": "era press", "E": "era hold"}

# Four rounds: a shared phase of one step, then a turn each (one step); a feast after
# round 2 that passes the start player; one number each at the end.
BASE = """
[game]
id = "ring"
name = "Ring"

[players]
min = 1
max = 4

[rounds]
name = "Round"
count = 4

[start_player]
rule = "{rule}"

[[phase]]
id = "draw"
label = "Draw"

[[phase]]
id = "turns"
label = "Turns"
each_player = true

[[special]]
id = "feast"
label = "Feast"
after = [2]
passes_start_player = {passes}
{more}
[[scoring.category]]
id = "vp"
label = "VP"
{category}
"""


def text(rule: str = "pass_left", passes: bool = False, more: str = "",
         category: str = "") -> str:
    return BASE.format(rule=rule, passes=str(passes).lower(), more=more, category=category)


def profile(**kwargs: Any) -> Profile:
    return parse_profile(text(**kwargs), "ring.toml", default_id="ring")


def played(prof: Profile, gestures: str, players: tuple[str, ...] = PLAYERS) -> Play:
    play = new_play(prof, players)
    for t, g in enumerate(gestures, start=1):
        play, _ = step(play, GESTURES[g], float(t))
    return play


def round_starts(prof: Profile, rounds: int, players: tuple[str, ...] = PLAYERS,
                 setup: str = "") -> list[str | None]:
    """Who starts rounds 1.. `rounds`, playing through (each round: draw, a turn each)."""
    play = played(prof, setup + "e", players)
    starts = []
    while play.spot.state is not State.SCORING and len(starts) < rounds:
        if play.spot.state is State.ROUND and play.spot.phase == 0:
            starts.append(start_player(play))
            play, _ = step(play, GESTURES["n"], 0.0)
        play, _ = step(play, GESTURES["n"], 0.0)
        while play.spot.state is not State.ROUND and play.spot.state is not State.SCORING:
            play, _ = step(play, GESTURES["n"], 0.0)
        while play.spot.state is State.ROUND and play.spot.phase == 1:
            play, _ = step(play, GESTURES["n"], 0.0)
    return starts


def simulate(tmp_path: Path, toml: str, gestures: str, capsys: pytest.CaptureFixture[str],
             players: tuple[str, ...] = PLAYERS) -> list[dict[str, Any]]:
    """`erabox simulate --game FILE` with the gestures one a second; its event lines."""
    (tmp_path / "ring.toml").write_text(toml, encoding="utf-8")
    (tmp_path / "s.txt").write_text("".join(f"{t} {NAMES[g]}\n" for t, g in
                                            enumerate(gestures, start=1)), encoding="utf-8")
    assert main(["simulate", "--game", str(tmp_path / "ring.toml"), "--players",
                 ",".join(players), "--script", str(tmp_path / "s.txt")]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


# --- pass_right -------------------------------------------------------------------------------


def test_pass_right_passes_the_start_to_the_previous_seat_each_round() -> None:
    assert round_starts(profile(rule="pass_right"), 4) == ["red", "green", "blue", "red"]
    assert round_starts(profile(rule="pass_left"), 4) == ["red", "blue", "green", "red"]


def test_a_special_round_passes_the_start_the_same_way_as_the_rule() -> None:
    # right: red, green; after the feast one seat further right: red (not blue), green
    assert round_starts(profile(rule="pass_right", passes=True), 4) == [
        "red", "green", "red", "green"]
    play = played(profile(rule="pass_right", passes=True), "e" + "n" * 8)
    assert play.spot.state is State.SPECIAL
    from erabox.core.profile_play import screen
    assert screen(play, 0.0).next_start_player == "red"


def test_pass_right_turns_still_go_in_seat_order_from_the_start_player() -> None:
    play = played(profile(rule="pass_right"), "e" + "n" * 4 + "n")  # round 2's turns
    assert play.spot.round == 2 and play.spot.phase == 1
    seats = []
    for _ in PLAYERS:
        turn = turn_seat(play)
        assert turn is not None
        seats.append(PLAYERS[turn])
        play, _ = step(play, GESTURES["n"], 0.0)
    assert seats == ["green", "red", "blue"]


def test_simulate_plays_pass_right(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = simulate(tmp_path, text(rule="pass_right", passes=True), "e" + "n" * 17, capsys)
    starts = [(e["round"], e["start_player"]) for e in lines if e["type"] == "round"]
    assert starts == [(1, "red"), (2, "green"), (3, "red"), (4, "green")]
    feast = next(e for e in lines if e["type"] == "prompt" and e.get("prompt") == "feast")
    assert feast["next_start_player"] == "red"


def test_an_unknown_start_rule_names_the_file_line_key_and_the_new_rules() -> None:
    with pytest.raises(ProfileError, match=r"ring\.toml:15: key 'start_player\.rule': "
                       r"expected one of .*'pass_right'"):
        profile(rule="pass_up")

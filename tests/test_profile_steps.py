"""Steps for some variants and rounds only (docs/profiles.md, "The format": a step's
`variants`, `from_round`, `until_round`), played through the pure machine, saved and
restored, checked by the parser, and played through `erabox simulate --game`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile

PLAYERS = ("red", "blue", "green")
GESTURES = {"n": Input(Button.NEXT, Gesture.PRESS), "N": Input(Button.NEXT, Gesture.HOLD),
            "e": Input(Button.ERA, Gesture.PRESS), "E": Input(Button.ERA, Gesture.HOLD)}
NAMES = {"n": "next press", "N": "next hold", "e": "era press", "E": "era hold"}

# A long game of 3 rounds and a short one of 2; a draw phase whose steps change with the
# round, the variant and the players; a special round at the setup (round 0) and after
# round 2; an event whose steps change with the round it happens in.
RING = """\
[game]
id = "ring"
name = "Ring"

[players]
min = 1
max = 4

[rounds]
name = "Round"

[[variant]]
id = "long"
label = "Long"
rounds = 3

[[variant]]
id = "short"
label = "Short"
rounds = 2

[[phase]]
id = "draw"
label = "Draw"
steps = [
  "Draw 2 cards",
  { en = "First round: draw 1 more", ja = "1ラウンド目：もう1枚", until_round = 1 },
  { en = "Short game: draw 1 more", ja = "短いゲーム：もう1枚", variants = ["short"] },
  { en = "Discard 1", ja = "1枚捨てる", from_round = 2, players_at_least = 2 },
]

[[special]]
id = "deal"
label = "Deal"
after = [0, 2]
steps = [
  { en = "Deal the hands", ja = "手札を配る", until_round = 0 },
  { en = "Harvest", ja = "収穫", from_round = 1 },
]

[[event]]
id = "war"
label = "War"
steps = [
  { en = "War in round 1", ja = "1ラウンド目の戦争", until_round = 1 },
  { en = "War later", ja = "後の戦争", from_round = 2 },
]
"""


def played(gestures: str, players: tuple[str, ...] = PLAYERS, play: Play | None = None
           ) -> Play:
    play = play or new_play(parse_profile(RING, "ring.toml"), players)
    for t, g in enumerate(gestures, start=1):
        play, _ = step(play, GESTURES[g], float(t))
    return play


def shown(play: Play) -> tuple[int | None, str, tuple[int, int] | None]:
    view = screen(play, 0.0)
    assert view.text is not None
    return view.round, view.text.en, view.position


def walk(setup: str, players: tuple[str, ...] = PLAYERS) -> list[Any]:
    """Every step shown from the start to the end (no scoring), NEXT after NEXT."""
    play, seen = played(setup + "e", players), []
    while play.spot.state in (State.ROUND, State.SPECIAL):
        seen.append(shown(play))
        play, _ = step(play, GESTURES["n"], 0.0)
    return seen


def test_the_steps_follow_the_round_and_the_variant_and_n_of_count_counts_them() -> None:
    assert walk("") == [
        (0, "Deal the hands", (1, 1)),  # the setup's special round: round 0
        (1, "Draw 2 cards", (1, 2)), (1, "First round: draw 1 more", (2, 2)),
        (2, "Draw 2 cards", (1, 2)), (2, "Discard 1", (2, 2)),
        (2, "Harvest", (1, 1)),  # after round 2: round 2's
        (3, "Draw 2 cards", (1, 2)), (3, "Discard 1", (2, 2))]
    assert walk("n") == [  # NEXT at setup: the short game
        (0, "Deal the hands", (1, 1)),
        (1, "Draw 2 cards", (1, 3)), (1, "First round: draw 1 more", (2, 3)),
        (1, "Short game: draw 1 more", (3, 3)),
        (2, "Draw 2 cards", (1, 3)), (2, "Short game: draw 1 more", (2, 3)),
        (2, "Discard 1", (3, 3)), (2, "Harvest", (1, 1))]
    assert walk("", ("red",))[3:5] == [(2, "Draw 2 cards", (1, 1)), (2, "Harvest", (1, 1))]


def test_an_event_shows_the_steps_of_the_round_it_happens_in() -> None:
    assert shown(played("enE")) == (1, "War in round 1", (1, 1))
    assert shown(played("ennnE")) == (2, "War later", (1, 1))


def test_undo_goes_back_to_the_steps_of_the_round_before() -> None:
    play = played("ennn")
    assert shown(play) == (2, "Draw 2 cards", (1, 2))
    assert shown(played("N", play=play)) == (1, "First round: draw 1 more", (2, 2))


@pytest.mark.parametrize("gestures", ["enn", "ennnn", "ennnnn", "ennE"])
def test_a_save_comes_back_at_the_same_step(gestures: str) -> None:
    play = played(gestures)
    back, _ = restore(json.loads(json.dumps(snapshot(play, 0.0))), play.profile, PLAYERS,
                      0.0)
    assert back.spot == play.spot and shown(back) == shown(play)


def test_a_saved_step_beyond_the_steps_of_its_round_is_refused() -> None:
    play = played("ennnn")  # round 2: "Discard 1", the second of the 2 shown
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    assert record["spot"]["step"] == 1
    record["spot"]["step"] = 2  # the draw has 4 steps, but 2 in round 2 of the long game
    with pytest.raises(ValueError, match="'step'"):
        restore(record, play.profile, PLAYERS, 0.0)


LINE = '  { en = "Discard 1", ja = "1枚捨てる", from_round = 2, players_at_least = 2 },\n'
DEAL = '  { en = "Harvest", ja = "収穫", from_round = 1 },\n'
BAD = [  # (what replaces what, the key, its line, the problem)
    (LINE, '  { en = "D", ja = "D", variants = ["medium"] },\n', "phase[1].steps[4].variants[1]",
     29, "expected the id of a [[variant]] (long, short), got 'medium'"),
    (LINE, '  { en = "D", ja = "D", variants = [] },\n', "phase[1].steps[4].variants", 29,
     "expected a list of variant ids (at least one)"),
    (LINE, '  { en = "D", ja = "D", from_round = 4 },\n', "phase[1].steps[4].from_round", 29,
     "never shown: this comes in no round from 4 to 999"),
    (LINE, '  { en = "D", ja = "D", until_round = 0 },\n', "phase[1].steps[4].until_round", 29,
     "never shown: this comes in no round from 0 to 0"),
    (LINE, '  { en = "D", ja = "D", from_round = 3, variants = ["short"] },\n',
     "phase[1].steps[4].from_round", 29, "from 3 to 999 in its variants"),
    (LINE, '  { en = "D", ja = "D", from_round = 2, until_round = 1 },\n',
     "phase[1].steps[4].until_round", 29, "from 2 to 999, got 1"),
    (DEAL, '  { en = "H", ja = "H", from_round = 3 },\n', "special[1].steps[2].from_round",
     38, "never shown: this comes in no round from 3 to 999"),
    ('after = [0, 2]\n', 'after = { long = [0, 2], short = [] }\n',
     "special[1].steps[2].variants", 38, "never shown: this does not come in these"),
    ('steps = [\n  "Draw 2 cards",\n', 'steps = [\n', "phase[1].steps", 25,
     "no step left with 1 player in round 2 of the variant 'long'"),
    ('  "Draw 2 cards",\n', '  { en = "D", ja = "D", variants = ["short"] },\n',
     "phase[1].steps", 25, "no step left with 1 player in round 2 of the variant 'long'"),
    ('  { en = "War later", ja = "後の戦争", from_round = 2 },\n',
     '  { en = "War later", ja = "後の戦争", from_round = 3 },\n',
     "event[1].steps", 44, "no step left with 1 player in round 2 of the variant 'long'"),
]


@pytest.mark.parametrize(("old", "new", "key", "line", "problem"), BAD)
def test_a_step_never_shown_or_a_round_without_steps_names_the_file_line_and_key(
        old: str, new: str, key: str, line: int, problem: str) -> None:
    text = RING.replace(old, new)
    if "variants" in key and "never" in problem:  # a step for the short game only
        text = text.replace(DEAL, '  { en = "H", ja = "H", variants = ["short"] },\n')
    assert text != RING
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/ring.toml")
    message = str(caught.value)
    assert message.startswith(f"games/ring.toml:{line}: key '{key}'"), message
    assert problem in message, message


def test_variants_need_variant_tables() -> None:
    text = RING.replace('[[variant]]\nid = "short"\nlabel = "Short"\nrounds = 2\n\n', "")
    text = text.replace('[[variant]]\nid = "long"\nlabel = "Long"\nrounds = 3',
                        "count = 3").replace("[rounds]\nname = \"Round\"\n\n", "[rounds]\n"
                                             "name = \"Round\"\n")
    with pytest.raises(ProfileError, match=r"ring.toml:\d+: key 'phase\[1\].steps\[3\]"
                       r".variants': this game has no \[\[variant\]\] tables"):
        parse_profile(text, "ring.toml")


def test_simulate_shows_the_steps_of_each_round(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ring.toml").write_text(RING, encoding="utf-8")
    gestures = "e" + "n" + "E" + "n" * 8
    (tmp_path / "s.txt").write_text("".join(f"{t} {NAMES[g]}\n" for t, g in
                                            enumerate(gestures, start=1)), encoding="utf-8")
    assert main(["simulate", "--game", str(tmp_path / "ring.toml"), "--players",
                 ",".join(PLAYERS), "--script", str(tmp_path / "s.txt")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    steps = [(e["round"], e["phase"], e["step"], e["steps"], e["text"]) for e in lines
             if e["type"] == "step"]
    assert steps == [
        (0, "deal", 1, 1, "Deal the hands"),
        (1, "draw", 1, 2, "Draw 2 cards"), (1, "war", 1, 1, "War in round 1"),
        (1, "draw", 1, 2, "Draw 2 cards"), (1, "draw", 2, 2, "First round: draw 1 more"),
        (2, "draw", 1, 2, "Draw 2 cards"), (2, "draw", 2, 2, "Discard 1"),
        (2, "deal", 1, 1, "Harvest"),
        (3, "draw", 1, 2, "Draw 2 cards"), (3, "draw", 2, 2, "Discard 1")]
    assert [e["state"] for e in lines if e["type"] == "state"][-1] == "game_over"

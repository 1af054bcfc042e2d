"""A round profile in eras (docs/profiles.md, "Eras"): `[[era]]` tables, each era's rounds, its
scoring (a category's `eras`), the standings with running totals, the start player carried
across eras, the final ranking on the sum; steps by era (`from_era`, `era`); saved across a
power cut; the screens; and `erabox simulate --game` of tests/profiles/two-acts.toml.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, Standings, State, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

TWO_ACTS = Path(__file__).parent / "profiles" / "two-acts.toml"
PLAYERS = ("red", "blue", "green", "yellow")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)

BASE = """\
[game]
id = "ages"
name = "Ages"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 2

[start_player]
rule = "pass_left"
"""
PHASE = """
[[phase]]
id = "act"
label = "Act"
"""
ERAS = """
[[era]]
label = "Dawn"

[[era]]
rounds = 3
"""
GOLD = """
[[scoring.category]]
id = "gold"
label = "Gold"
"""


def two_acts() -> Profile:
    return parse_profile(TWO_ACTS.read_text(encoding="utf-8"), "two-acts.toml")


def error(text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "ages.toml")
    return str(caught.value)


class Table:
    """The pure machine played by hand, a second between gestures."""

    def __init__(self, profile: Profile, players: tuple[str, ...] = PLAYERS,
                 seat: int = 0) -> None:
        self.play: Play = new_play(profile, players, seat)
        self.t = 0.0
        self.effects: list[object] = []

    def press(self, *events: Input) -> Table:
        for event in events:
            self.t += 1
            self.play, effects = step(self.play, event, self.t)
            self.effects += effects
        return self

    def to(self, state: State) -> Table:
        while self.play.spot.state is not state:
            self.press(NEXT)
        return self

    def enter(self, *values: int) -> Table:
        for value in values:
            self.press(*[NEXT] * value, ERA)
        return self


# --- the format ---------------------------------------------------------------------------


def test_eras_are_read_with_their_label_and_rounds() -> None:
    profile = parse_profile(BASE + PHASE + ERAS + GOLD, "ages.toml")
    assert [(e.label and e.label.en, e.rounds) for e in profile.eras] == [("Dawn", None),
                                                                          (None, 3)]
    assert profile.era_rounds(0, 0) == 2 and profile.era_rounds(0, 1) == 3
    assert parse_profile(BASE + PHASE, "ages.toml").eras == ()


@pytest.mark.parametrize(("extra", "line", "key", "says"), [
    ("\n[[era]]\nwonders = 2\n", 21, "era[1].wonders", "unknown key"),
    ("\n[[era]]\nrounds = 0\n", 21, "era[1].rounds", "a whole number from 1 to 999"),
    ("\n[[era]]\nlabel = 5\n", 21, "era[1].label", "expected a table"),
    ("\n[[era]]\n" * 10, 38, "era[10]", "at most 9 [[era]] tables"),
])
def test_a_bad_era_is_an_error_naming_file_line_and_key(extra: str, line: int, key: str,
                                                        says: str) -> None:
    message = error(BASE + PHASE + extra)
    assert message.startswith(f"ages.toml:{line}: key '{key}'") and says in message, message


@pytest.mark.parametrize(("eras", "extra", "key", "says"), [
    ("", "eras = [1]\n", "scoring.category[1].eras", "this game has no [[era]] tables"),
    (ERAS, "eras = [3]\n", "scoring.category[1].eras[1]", "an era number from 1 to 2"),
    (ERAS, "eras = []\n", "scoring.category[1].eras", "increasing era numbers"),
    (ERAS, "eras = [2, 1]\n", "scoring.category[1].eras[2]", "increasing era numbers"),
])
def test_a_category_s_eras_are_checked(eras: str, extra: str, key: str, says: str) -> None:
    message = error(BASE + PHASE + eras + GOLD + extra)
    assert f"key '{key}'" in message and says in message, message


def test_a_category_names_the_eras_it_is_asked_in() -> None:
    profile = parse_profile(BASE + PHASE + ERAS + GOLD + "eras = [2]\n", "ages.toml")
    assert profile.categories[0].eras == (2,)
    assert not profile.categories[0].in_era(1) and profile.categories[0].in_era(2)


@pytest.mark.parametrize(("eras", "step", "key", "says"), [
    ("", '{ en = "a", ja = "a", era = 1 }', "phase[1].steps[1].era", "no [[era]] tables"),
    ("", '{ en = "a", ja = "a", from_era = 1 }', "phase[1].steps[1].from_era",
     "no [[era]] tables"),
    (ERAS, '{ en = "a", ja = "a", from_era = 3 }', "phase[1].steps[1].from_era",
     "from 1 to 2"),
    (ERAS, '{ en = "a", ja = "a", era = 3 }', "phase[1].steps[1].era", "from 0 to 2"),
    (ERAS, '{ en = "a", ja = "a", from_era = 2, era = 1 }', "phase[1].steps[1].era",
     "never shown"),
    (ERAS, '{ en = "a", ja = "a", era = 1 }', "phase[1].steps", "no step left with 2 "
     "players in era 2"),
])
def test_a_step_s_eras_are_checked(eras: str, step: str, key: str, says: str) -> None:
    message = error(BASE + PHASE + f"steps = [{step}]\n" + eras)
    assert f"key '{key}'" in message and says in message, message


def test_an_event_that_ends_the_game_is_refused_in_a_game_of_eras() -> None:
    event = '\n[[event]]\nid = "end"\nlabel = "End"\nends = "now"\n'
    message = error(BASE + PHASE + ERAS + event)
    assert "key 'event[1].ends'" in message and "not played in a game of [[era]]s" in message


def test_each_era_needs_its_rounds() -> None:
    text = (BASE.replace("count = 2", 'count = "until_event"') + PHASE
            + "\n[[era]]\nrounds = 2\n\n[[era]]\n")
    message = error(text)
    assert "key 'rounds.count'" in message and "era 2 has no rounds" in message, message


# --- the play -----------------------------------------------------------------------------


def test_two_eras_each_scored_with_standings_then_the_ranking_on_the_sum() -> None:
    table = Table(two_acts()).press(ERA).to(State.SCORING)
    assert table.play.spot.round == 3
    table.enter(6, 0, 2, 11)  # gold, era 1 (crowns only in era 2)
    assert table.play.spot.state is State.STANDINGS
    (standings,) = [e for e in table.effects if isinstance(e, Standings)]
    assert standings == Standings(1, ((1, "yellow", 11, 11), (2, "red", 6, 6),
                                      (3, "green", 2, 2), (4, "blue", 0, 0)))
    shown = screen(table.play, table.t)
    assert shown.kind == "standings" and shown.era == 1 and shown.standings == (
        standings.places)
    table.press(ERA).to(State.SCORING)  # era 2: its rounds from round 1 again
    assert len(table.play.spot.past) == 1 and table.play.spot.round == 3
    table.enter(1, 4, 2, 0)  # gold, era 2
    table.enter(1, 0, 3, 0)  # crowns (x2), era 2 only
    assert table.play.spot.state is State.GAME_OVER
    assert screen(table.play, table.t).places == (
        (1, "yellow", 11, None, None), (2, "green", 10, None, None), (3, "red", 9, None, None),
        (4, "blue", 4, None, None))


def test_the_start_player_is_carried_into_the_next_era() -> None:
    table = Table(two_acts()).press(ERA)
    starts: dict[tuple[int, int], str | None] = {}
    while table.play.spot.state is not State.GAME_OVER:
        spot = table.play.spot
        if spot.state is State.ROUND:
            starts[(len(spot.past) + 1, spot.round)] = screen(table.play, table.t).start_player
        table.press(ERA if spot.state in (State.SCORING, State.STANDINGS) else NEXT)
    # three rounds from red, then era 2 from the seat after the third round's: yellow
    assert list(starts.values()) == ["red", "blue", "green", "yellow", "red", "blue"]


def test_a_special_round_that_passes_the_start_player_counts_for_the_next_era() -> None:
    text = (BASE + PHASE + '\n[[special]]\nid = "pass"\nlabel = "Pass"\nafter = [2]\n'
            "passes_start_player = true\n" + "\n[[era]]\n\n[[era]]\n" + GOLD)
    table = Table(parse_profile(text, "ages.toml"), PLAYERS[:3])
    table.press(ERA).to(State.SCORING).enter(0, 0, 0).press(ERA)
    # red, blue in era 1; the special round passes once more: era 2 starts with red again
    assert screen(table.play, table.t).start_player == "red"
    assert table.play.spot.first_seat == 0 and table.play.spot.round == 1


def test_a_random_start_player_keeps_starting_each_era() -> None:
    text = (BASE.replace('"pass_left"', '"random"') + PHASE + "\n[[era]]\n\n[[era]]\n" + GOLD)
    table = Table(parse_profile(text, "ages.toml"), PLAYERS[:3], seat=2)
    table.press(ERA).to(State.SCORING).enter(0, 0, 0).press(ERA)
    assert screen(table.play, table.t).start_player == "green"


def test_undo_goes_back_from_the_next_era_to_the_standings_and_the_last_number() -> None:
    table = Table(two_acts()).press(ERA).to(State.SCORING).enter(6, 0, 2, 11).press(ERA)
    assert table.play.spot.state is State.ROUND and len(table.play.spot.past) == 1
    table.press(NEXT_HOLD)
    assert table.play.spot.state is State.STANDINGS and table.play.spot.past == ()
    table.press(NEXT_HOLD)
    assert table.play.spot.state is State.SCORING and table.play.value == 11


def test_the_tie_breaks_and_eliminations_work_on_the_totals() -> None:
    text = (BASE + PHASE + "\n[[era]]\n\n[[era]]\n" + GOLD + """
[[scoring.category]]
id = "tiles"
label = "Tiles"
counts = false

[scoring]
order = "eliminations"

[[scoring.stage]]
category = "gold"
eliminate = 1

[[scoring.stage]]
category = "tiles"

[[scoring.tie_break]]
more = "tiles"
""")
    table = Table(parse_profile(text, "ages.toml"), PLAYERS[:3])
    table.press(ERA).to(State.SCORING).enter(5, 1, 0).enter(1, 2, 3)
    assert table.play.spot.state is State.STANDINGS
    # era 2: gold red 0, blue 4, green 5 -> totals 5, 5, 5; tiles 1+2, 2+0, 3+0 -> 3, 2, 3
    table.press(ERA).to(State.SCORING).enter(0, 4, 5).enter(2, 0, 0)
    places = screen(table.play, table.t).places
    assert [(p[1], p[3]) for p in places] == [("red", None), ("green", None), ("blue", 1)]


# --- across a power cut -------------------------------------------------------------------


@pytest.mark.parametrize("where", ["standings", "scoring"])
def test_a_cut_on_the_standings_or_in_era_2_s_scoring_comes_back_there(where: str) -> None:
    profile = two_acts()
    table = Table(profile).press(ERA).to(State.SCORING).enter(6, 0, 2, 11)
    if where == "scoring":
        table.press(ERA).to(State.SCORING).enter(1, 4)
    record = json.loads(json.dumps(snapshot(table.play, table.t)))
    back, _ = restore(record, profile, PLAYERS, 100.0)
    assert back.spot == table.play.spot and back.history == table.play.history
    assert screen(back, 100.0).standings == screen(table.play, table.t).standings
    assert screen(back, 100.0).totals == screen(table.play, table.t).totals


def test_a_record_without_past_eras_still_loads_and_a_wrong_one_is_refused() -> None:
    profile = two_acts()
    table = Table(profile).press(ERA, NEXT)
    record = snapshot(table.play, table.t)
    assert "past" not in record["spot"]  # era 1: the record as it always was
    assert restore(record, profile, PLAYERS, 50.0)[0].spot == table.play.spot
    too_many = json.loads(json.dumps(record))
    sheet = too_many["spot"]["sheet"]
    too_many["spot"]["past"] = [sheet, sheet]
    with pytest.raises(ValueError, match="'past' should list at most 1"):
        restore(too_many, profile, PLAYERS, 50.0)
    last = json.loads(json.dumps(record))
    last["spot"] |= {"state": "standings", "past": [sheet]}
    with pytest.raises(ValueError, match="the standings come after an era before the last"):
        restore(last, profile, PLAYERS, 50.0)


# --- the screens --------------------------------------------------------------------------


def texts(play: Play, t: float, height: int, language: str) -> list[str]:
    items = layout_play(screen(play, t), Panel(128, height), language)
    return [i.text for i in sorted(items, key=lambda i: (i.y, i.x)) if i.text]


@pytest.mark.parametrize("height", [64, 32])
def test_the_screens_say_the_era_and_the_standings(height: int) -> None:
    table = Table(two_acts()).press(ERA)
    assert texts(table.play, table.t, height, "en")[0] == "Act I Round 1/3"
    assert texts(table.play, table.t, height, "ja")[0] == "第一幕 1/3"  # the round's name
    table.to(State.SCORING).enter(6, 0, 2, 11)  # does not fit beside the start player
    english = texts(table.play, table.t, height, "en")
    japanese = texts(table.play, table.t, height, "ja")
    assert english[0] == "Act I standings" and japanese[0] == "第一幕終了時の順位"
    if height == 64:
        assert english[1:] == ["1 yellow +11 = 11", "2 red +6 = 6", "3 green +2 = 2",
                               "4 blue +0 = 0", "then yellow starts", "ERA: start Act II"]
        assert japanese[1:] == ["1位黄 +11 計11", "2位赤 +6 計6", "3位緑 +2 計2",
                                "4位青 +0 計0", "次のスタート: 黄", "ERA: 第二幕開始"]
    else:
        assert english[1:] == ["1 yellow +11 = 11  2 red +6 = 6", "NEXT: more ERA: Act II"]
        table.press(NEXT)
        assert texts(table.play, table.t, height, "en")[1] == "3 green +2 = 2  4 blue +0 = 0"
    table.press(ERA)
    assert texts(table.play, table.t, height, "en")[0] == "Act II Round 1/3"


# --- erabox simulate --game ---------------------------------------------------------------


def script(gestures: list[str]) -> str:
    return "".join(f"{t} {g}\n" for t, g in enumerate(gestures, start=1))


def test_simulate_plays_two_eras_with_standings_and_a_cut_in_era_2_s_scoring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def numbers(*values: int) -> list[str]:
        return [g for v in values for g in ["next press"] * v + ["era press"]]

    rounds = ["next press"] * 6  # three rounds of two steps
    gestures = (["era press", *rounds, *numbers(6, 0, 2, 11), "era press", *rounds,
                 *numbers(1, 4), "restart", *numbers(2, 0), *numbers(1, 0, 3, 0)])
    (tmp_path / "s.txt").write_text(script(gestures), encoding="utf-8")
    assert main(["simulate", "--game", str(TWO_ACTS), "--players", ",".join(PLAYERS),
                 "--script", str(tmp_path / "s.txt")]) == 0
    lines: list[dict[str, Any]] = [json.loads(line)
                                   for line in capsys.readouterr().out.splitlines()]
    eras = [e for e in lines if e["type"] == "era"]
    assert [{k: v for k, v in e.items() if k != "t"} for e in eras] == [
        {"type": "era", "era": 1, "eras": 2, "rounds": 3, "start_player": "red",
         "label": "Act I"},
        {"type": "era", "era": 2, "eras": 2, "rounds": 3, "start_player": "yellow",
         "label": "Act II"}]
    assert [(e["era"], e["round"], e["start_player"]) for e in lines
            if e["type"] == "round"] == [(1, 1, "red"), (1, 2, "blue"), (1, 3, "green"),
                                         (2, 1, "yellow"), (2, 2, "red"), (2, 3, "blue")]
    (standings,) = [e for e in lines if e["type"] == "standings"]
    assert standings["era"] == 1 and standings["places"] == [
        {"place": 1, "player": "yellow", "era_points": 11, "total": 11},
        {"place": 2, "player": "red", "era_points": 6, "total": 6},
        {"place": 3, "player": "green", "era_points": 2, "total": 2},
        {"place": 4, "player": "blue", "era_points": 0, "total": 0}]
    points = [(e["category"], e["player"], e["points"], e["total"]) for e in lines
              if e["type"] == "points"]
    assert points[4:] == [  # era 2: the totals run on from era 1's
        ("gold", "red", 1, 7), ("gold", "blue", 4, 4), ("gold", "green", 2, 4),
        ("gold", "yellow", 0, 11), ("crowns", "red", 2, 9), ("crowns", "blue", 0, 4),
        ("crowns", "green", 6, 10), ("crowns", "yellow", 0, 11)]
    resumed = [e for e in lines if e.get("prompt") == "resumed"]
    assert len(resumed) == 1  # the cut in era 2's scoring came back there
    (ranking,) = [e for e in lines if e["type"] == "ranking"]
    assert ranking["places"] == [{"place": 1, "player": "yellow", "score": 11},
                                 {"place": 2, "player": "green", "score": 10},
                                 {"place": 3, "player": "red", "score": 9},
                                 {"place": 4, "player": "blue", "score": 4}]
    assert [e["step"] and e["text"] for e in lines if e["type"] == "step"][::2] == (
        ["Deal the act's cards"] * 3 + ["Deal the finale's cards"] * 3)


def test_the_documented_lines_are_what_simulate_prints(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "simulate.md").read_text(
        encoding="utf-8").split("A game of eras (", 1)[1]
    block = [json.loads(line) for line in doc.split("```\n", 2)[1].splitlines()]
    gestures = ["era press", *["next press"] * 6] + [
        g for v in (6, 0, 2, 11) for g in ["next press"] * v + ["era press"]] + ["era press"]
    (tmp_path / "s.txt").write_text("".join(f"{t} {g}\n" for t, g in enumerate(gestures)),
                                    encoding="utf-8")  # the docs' script starts at 0
    assert main(["simulate", "--game", str(TWO_ACTS), "--players", ",".join(PLAYERS),
                 "--script", str(tmp_path / "s.txt")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    shown = [e for e in lines if e["type"] != "input" and block[0]["t"] <= e["t"]]
    assert shown[:len(block)] == block

"""The shipped game profiles played whole through `erabox simulate --game`, checked against
what the games' documents say (docs/profiles.md quotes them): years, the start player of each
year, the census after the right years in both lengths, the Titans, Hadrian's Wall's disdain
table and tie-breaks, Altay's equal turns and its rounding, and Time of Empires' introductory
era played by the profile exactly as by the box itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main

# Time of Empires' introductory era written as a round-based profile (no longer shipped: the
# box's own profile, games/time-of-empires.toml, has both modes); kept to hold the round-based
# engine to the box's own introductory era.
INTRO_PROFILE = Path(__file__).resolve().parent / "profiles" / "time-of-empires-intro.toml"
XIDIT_YEAR = 1 + 6  # orders, then actions 1..6
CENSUS = 5 + 1  # one reveal per unit type, then what a tie for most gives
FINAL = 3  # IV Final scoring: how harps give fame (most, a tie for most, a tie for second)


def run_game(capsys: pytest.CaptureFixture[str], tmp_path: Any, script: list[str],
             *args: str) -> list[dict[str, Any]]:
    """`erabox simulate --game ...` on a script of gestures, one a second."""
    path = tmp_path / "script.txt"
    path.write_text("".join(f"{t} {g}\n" for t, g in enumerate(script)), encoding="utf-8")
    code = main(["simulate", "--script", str(path), *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return [json.loads(line) for line in captured.out.splitlines()]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def points(values: list[int]) -> list[str]:
    """Enter each number (holds for fives, presses for the rest), confirming each."""
    out: list[str] = []
    for value in values:
        out += ["next hold"] * (value // 5) + ["next press"] * (value % 5) + ["era press"]
    return out


# --- Lords of Xidit ---------------------------------------------------------------------------

COLOURS5 = "red,blue,green,yellow,purple"


def xidit_years(years: int, census_after: tuple[int, ...]) -> list[str]:
    """Every year and census, then the final scoring's harp steps: on to the scoring."""
    return ["next press"] * (years * XIDIT_YEAR + len(census_after) * CENSUS + FINAL)


@pytest.mark.parametrize(("variant_presses", "years", "census_after"),
                         [(0, 12, (4, 8, 12)), (1, 9, (3, 6, 9))])
def test_xidit_years_start_player_and_census(capsys: pytest.CaptureFixture[str], tmp_path: Any,
                                             variant_presses: int, years: int,
                                             census_after: tuple[int, ...]) -> None:
    players = COLOURS5.split(",")
    script = (["next press"] * variant_presses + ["era press"]
              + xidit_years(years, census_after))
    events = run_game(capsys, tmp_path, script, "--game", "lords-of-xidit",
                      "--players", COLOURS5)
    rounds = of(events, "round")
    assert [r["round"] for r in rounds] == list(range(1, years + 1))
    assert {r["rounds"] for r in rounds} == {years}
    # the start player passes to the left (the next seat) each year
    assert [r["start_player"] for r in rounds] == [players[y % 5] for y in range(years)]
    prompts = of(events, "prompt")
    assert [(p["prompt"], p["round"]) for p in prompts] == [
        *[("census", y) for y in census_after], ("final-scoring", years)]
    # each census comes after the year's sixth action and before the next year begins
    for year in census_after:
        at = next(i for i, e in enumerate(events) if e["type"] == "prompt" and e["round"] == year)
        before = [e for e in events[:at] if e["type"] == "step"][-1]
        assert (before["round"], before["phase"], before["step"]) == (year, "execution", 6)
        reveals = [e["text"].split(":")[0] for e in events[at:] if e["type"] == "step"
                   and e["phase"] == "census"][:CENSUS]
        assert reveals == ["Peasants", "Archers", "Infantry", "Priests", "Mages",
                           "A tie for most"]
    assert of(events, "state")[-1]["state"] == "scoring"


@pytest.mark.parametrize("players", ["red,blue,green", COLOURS5])
@pytest.mark.parametrize(("variant_presses", "years", "census_after"),
                         [(0, 12, (4, 8, 12)), (1, 9, (3, 6, 9))])
def test_xidit_census_tie_and_harp_fame_before_the_scoring(
        capsys: pytest.CaptureFixture[str], tmp_path: Any, players: str, variant_presses: int,
        years: int, census_after: tuple[int, ...]) -> None:
    """The census says what a tie for most gives; after the last year (and its census) the
    final scoring says how harps give fame, region by region, ties included: then the
    numbers are asked."""
    script = (["next press"] * variant_presses + ["era press"]
              + xidit_years(years, census_after))
    events = run_game(capsys, tmp_path, script, "--game", "lords-of-xidit",
                      "--players", players)
    census = [e["text"] for e in of(events, "step") if e["phase"] == "census"]
    assert census.count("A tie for most: each tied player takes one of that unit's rewards "
                        "(gold, harp or guild)") == len(census_after)
    final = [(e["round"], e["step"], e["text"]) for e in of(events, "step")
             if e["phase"] == "final-scoring"]
    assert final == [
        (years, 1, "Harps, region by region: most harps scores the higher fame, second most "
                   "the lower"),
        (years, 2, "Tied for most harps: all of them score the higher; nobody scores the "
                   "lower"),
        (years, 3, "Tied for second: all of them score the lower")]
    at = next(i for i, e in enumerate(events) if e["type"] == "prompt"
              and e["prompt"] == "final-scoring")
    assert [e["phase"] for e in events[:at] if e["type"] == "step"][-1] == "census"
    assert [e["state"] for e in of(events[at:], "state")] == ["scoring"]


def test_xidit_titans_awaken_when_the_players_say_and_play_goes_on(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    script = ["era press"] + ["next press"] * (XIDIT_YEAR * 6 + CENSUS + 3) + ["era hold"]
    script += ["next press"] * 5 + ["era hold"]  # its five steps; a second hold: nothing
    events = run_game(capsys, tmp_path, script, "--game", "lords-of-xidit")
    prompt = of(events, "prompt")[-1]
    assert (prompt["prompt"], prompt["kind"], prompt["round"]) == ("titans", "event", 7)
    titan_steps = [e for e in of(events, "step") if e["phase"] == "titans"]
    assert [s["step"] for s in titan_steps] == [1, 2, 3, 4, 5]
    last = of(events, "step")[-1]  # back at year 7's action 3, where it was
    assert (last["round"], last["phase"], last["step"]) == (7, "execution", 3)
    assert [e["sound"] for e in of(events, "sound")].count("gong") == 2  # start, Titans


def xidit_scoring(criteria: list[list[int]], units: list[int]) -> list[str]:
    """A whole game, then the numbers the scoring asks, in its order: by criterion, then the
    units (only those that can change the ranking are asked)."""
    years = xidit_years(12, (4, 8, 12))
    values = [v for row in criteria for v in row] + units
    return ["era press", *years, *points(values)]


def asked_of(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["category"], e["player"]) for e in of(events, "points")]


def test_xidit_five_players_two_out_after_each_of_the_first_two_criteria(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # red blue green yellow purple; after year 12 the start player is blue (11 seats on)
    # yellow and purple are out after the 1st criterion, green after the 2nd: their later
    # criteria are not asked; red and blue tie on the 2nd, so both are asked the 3rd and
    # their units
    criteria = [[5, 3, 8, 1, 2], [4, 4, 2], [7, 1]]
    events = run_game(capsys, tmp_path, xidit_scoring(criteria, [2, 2]),
                      "--game", "lords-of-xidit", "--players", COLOURS5)
    assert asked_of(events) == [
        *[("criterion-1", c) for c in COLOURS5.split(",")],
        ("criterion-2", "red"), ("criterion-2", "blue"), ("criterion-2", "green"),
        ("criterion-3", "red"), ("criterion-3", "blue"), ("units", "red"), ("units", "blue")]
    ranking = of(events, "ranking")[-1]
    assert [(p["player"], p["place"], p.get("out_after")) for p in ranking["places"]] == [
        ("red", 1, None),
        # red and blue tie on the 2nd criterion with equal units: red sits furthest from
        # the start player (blue), so blue is out with green
        ("blue", 2, 2), ("green", 3, 2),
        ("purple", 4, 1), ("yellow", 5, 1)]
    assert ranking["winners"] == ["red"]


def test_xidit_four_players_one_out_each_time_ties_to_more_units(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # red and blue tie on the 1st, to be told apart by the units asked last: both are asked
    # the 2nd and the 3rd; yellow, last on the 2nd whichever of them is in, is not asked
    # the 3rd, nor the units (tied with nobody). Green ties with red on the 3rd, but once
    # red's units show red out after the 1st, green's units cannot matter
    criteria = [[3, 3, 5, 6], [2, 5, 4, 1], [6, 1, 6]]
    units = [1, 4]
    events = run_game(capsys, tmp_path, xidit_scoring(criteria, units),
                      "--game", "lords-of-xidit", "--players", "red,blue,green,yellow")
    assert asked_of(events)[8:] == [
        ("criterion-3", "red"), ("criterion-3", "blue"), ("criterion-3", "green"),
        ("units", "red"), ("units", "blue")]
    places = of(events, "ranking")[-1]["places"]
    # 1st: red and blue tie on 3, blue has more units: red is out. 2nd (blue 5, green 4,
    # yellow 1): yellow out. 3rd: green 6 beats blue 1.
    assert [(p["player"], p.get("out_after")) for p in places] == [
        ("green", None), ("blue", None), ("yellow", 2), ("red", 1)]


def test_xidit_asks_no_criterion_of_a_player_already_out_nor_units_without_a_tie(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # green is out after the 1st criterion, blue after the 2nd: 6 numbers of 12
    events = run_game(capsys, tmp_path, xidit_scoring([[5, 3, 1], [4, 2], [7]], []),
                      "--game", "lords-of-xidit", "--players", "red,blue,green")
    assert asked_of(events) == [
        ("criterion-1", "red"), ("criterion-1", "blue"), ("criterion-1", "green"),
        ("criterion-2", "red"), ("criterion-2", "blue"), ("criterion-3", "red")]
    assert [(p["player"], p.get("out_after")) for p in of(events, "ranking")[-1]["places"]] == [
        ("red", None), ("blue", 2), ("green", 1)]


def test_xidit_needs_three_to_five_players(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Any) -> None:
    path = tmp_path / "s.txt"
    path.write_text("0 era press\n", encoding="utf-8")
    code = main(["simulate", "--script", str(path), "--game", "lords-of-xidit",
                 "--players", "red,blue"])
    assert code == 2
    assert "for 3 to 5 players, not 2" in capsys.readouterr().err


# --- Hadrian's Wall ---------------------------------------------------------------------------

def hadrian_year(players: int) -> int:
    """Start-of-year checklist, actions, end-of-year checklist: the neutral deck's steps
    (one at the start, two at the end) only for 1 and 2 players."""
    return 4 + 1 + 3 + (3 if players <= 2 else 0)


PENALTY = [0, 1, 3, 5, 7, 9, 12, 15, 18, 22, 22, 22]  # disdain 0..11 (the document's table)


def hadrian_game(sheet: list[list[int]]) -> list[str]:
    """`sheet`: per category (honour, faith, valour, discipline, disdain, goals), per player."""
    return ["era press", *["next press"] * (6 * hadrian_year(len(sheet[0]))),
            *points([v for row in sheet for v in row])]


SOLO_NEUTRAL = "Solo: reveal 2 cards of the neutral deck"
TWO_NEUTRAL = "Two players: reveal 1 card of the neutral deck"
NEUTRAL_FATE = "1 more fate card per resource or soldier on the neutral cards"
NEUTRAL_BACK = ("Neutral cards: their resources and soldiers back to the supply, the cards "
                "discarded")


@pytest.mark.parametrize(("players", "start_neutral", "end_neutral"), [
    ("red", [SOLO_NEUTRAL], [NEUTRAL_FATE, NEUTRAL_BACK]),
    ("red,blue", [TWO_NEUTRAL], [NEUTRAL_FATE, NEUTRAL_BACK]),
    ("red,blue,green", [], []),
    ("red,blue,green,yellow,purple", [], []),
    ("red,blue,green,yellow,purple,orange,white,black", [], [])])
def test_hadrians_wall_six_years_no_start_player_and_the_checklists(
        capsys: pytest.CaptureFixture[str], tmp_path: Any, players: str,
        start_neutral: list[str], end_neutral: list[str]) -> None:
    """The neutral deck is for 1 and 2 players: 2 cards solo, 1 with two; their extra fate
    cards and clearing at the end of the year. From 3 players none of it is shown."""
    seats = len(players.split(","))
    events = run_game(capsys, tmp_path, ["era press"] + ["next press"] * (6 * hadrian_year(seats)),
                      "--game", "hadrians-wall", "--players", players)
    rounds = of(events, "round")
    assert [(r["round"], r["start_player"]) for r in rounds] == [(y, None) for y in range(1, 7)]
    for year in range(1, 7):
        steps = [s for s in of(events, "step") if s["round"] == year]
        start = [s["text"] for s in steps if s["phase"] == "start-of-year"]
        end = [s["text"] for s in steps if s["phase"] == "end-of-year"]
        assert [s["phase"] for s in steps] == (["start-of-year"] * len(start) + ["actions"]
                                               + ["end-of-year"] * len(end))
        assert start[3:-1] == start_neutral
        assert len(start) == 4 + len(start_neutral)
        assert start[-1].startswith("Production")
        assert [t for t in end if "neutral" in t.lower()] == end_neutral
        assert end[-1 - len(end_neutral[1:])].startswith("The Picts attack")
        assert {s["steps"] for s in steps if s["phase"] == "end-of-year"} == {
            3 + len(end_neutral)}
    neutral = [s for s in of(events, "step") if "neutral" in s["text"].lower()]
    assert len(neutral) == 6 * (len(start_neutral) + len(end_neutral))
    assert of(events, "state")[-1]["state"] == "scoring"


@pytest.mark.parametrize("disdain", range(12))
def test_hadrians_wall_disdain_penalty_table(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Any, disdain: int) -> None:
    sheet = [[10], [5], [3], [2], [disdain], [7]]
    events = run_game(capsys, tmp_path, hadrian_game(sheet), "--game", "hadrians-wall",
                      "--players", "red")
    entered = {p["category"]: p for p in of(events, "points")}
    assert entered["disdain"]["points"] == -PENALTY[disdain]
    assert entered["goals"]["total"] == 27 - PENALTY[disdain]
    assert of(events, "ranking")[-1]["places"][0]["score"] == 27 - PENALTY[disdain]


def test_hadrians_wall_ties_to_fewer_disdain_then_more_goal_points(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    # red, blue, green, yellow all on 20 points
    sheet = [[10, 9, 12, 11],  # honour
             [5, 5, 5, 5], [0, 0, 0, 0], [0, 0, 0, 0],
             [2, 1, 1, 2],  # disdain: -3, -1, -1, -3
             [8, 7, 4, 7]]  # goals
    events = run_game(capsys, tmp_path, hadrian_game(sheet), "--game", "hadrians-wall",
                      "--players", "red,blue,green,yellow")
    ranking = of(events, "ranking")[-1]
    assert {p["score"] for p in ranking["places"]} == {20}
    # blue and green have the least disdain; blue has more goal points. Then red (8 goal
    # points) before yellow (7).
    assert [(p["player"], p["place"]) for p in ranking["places"]] == [
        ("blue", 1), ("green", 2), ("red", 3), ("yellow", 4)]
    assert ranking["winners"] == ["blue"]


@pytest.mark.parametrize(("score", "rank"), [(39, "Miles"), (40, "Centurion"),
                                             (59, "Primus Pilus"), (65, "Praefectus castrorum"),
                                             (70, "Legatus legionis")])
def test_hadrians_wall_solo_ranks(capsys: pytest.CaptureFixture[str], tmp_path: Any,
                                  score: int, rank: str) -> None:
    honour, faith = min(score, 25), min(max(0, score - 25), 25)
    sheet = [[honour], [faith], [score - honour - faith], [0], [0], [0]]
    events = run_game(capsys, tmp_path, hadrian_game(sheet), "--game", "hadrians-wall",
                      "--players", "red")
    ranking = of(events, "ranking")[-1]
    place = ranking["places"][0]
    assert (place["score"], place["rank"]) == (score, rank)
    assert ranking["winners"] == []  # a solo game has a score and a rank, not a winner


@pytest.mark.parametrize(("honour", "disdain", "score"), [(10, 9, -12), (1, 9, -21),
                                                          (0, 0, 0)])
def test_hadrians_wall_solo_score_below_zero_is_given_without_a_rank(
        capsys: pytest.CaptureFixture[str], tmp_path: Any, honour: int, disdain: int,
        score: int) -> None:
    """The summary's ranks start at 0 (0-39 Miles): a negative score is said as it is,
    with no rank; 0 is Miles."""
    sheet = [[honour], [0], [0], [0], [disdain], [0]]
    events = run_game(capsys, tmp_path, hadrian_game(sheet), "--game", "hadrians-wall",
                      "--players", "red")
    place = of(events, "ranking")[-1]["places"][0]
    assert place["score"] == score
    assert place.get("rank") == (None if score < 0 else "Miles")


# --- Altay ------------------------------------------------------------------------------------

ALTAY_TURN = 3  # act, discard, draw 5


def altay_setup(players: int) -> list[str]:
    """The setup before round 1: the reduced board (2 or 3 players), factions, start areas,
    the first settlement."""
    return ["next press"] * (4 if players <= 3 else 3)


def test_altay_random_start_turns_in_seat_order_and_equal_turns_at_the_end(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    players = ["red", "blue", "green"]
    # Three rounds, then in round 4 the second player to move triggers the end mid-turn.
    script = ["era press", *altay_setup(3)] + ["next press"] * (3 * 3 * ALTAY_TURN + ALTAY_TURN
                                                                 + 1)
    script += ["era hold", "next press"] + ["next press"] * (ALTAY_TURN * 2 - 1)
    script += ["next press"] * 3  # already scoring: NEXT adds to the number, no new round
    events = run_game(capsys, tmp_path, script, "--game", "altay", "--players",
                      ",".join(players), "--seed", "7")
    first = of(events, "round")[0]["start_player"]
    start = players.index(first)
    turns = [p for p in of(events, "phase") if p["phase"] == "turn"]
    assert [t["player"] for t in turns] == [players[(start + k) % 3] for k in range(len(turns))]
    assert {r["start_player"] for r in of(events, "round")} == {first}  # the token stays
    assert of(events, "ending") == [{"t": pytest.approx(of(events, "ending")[0]["t"]),
                                     "type": "ending", "last_round": 4}]
    # everyone had exactly 4 turns, the last by the player before the start player
    assert len(turns) == 4 * 3
    assert all(sum(t["player"] == p for t in turns) == 4 for p in players)
    assert turns[-1]["player"] == players[(start - 1) % 3]
    assert of(events, "state")[-1]["state"] == "scoring"


def test_altay_random_start_player_follows_the_seed(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Any) -> None:
    firsts = set()
    for seed in range(12):
        events = run_game(capsys, tmp_path, ["era press"], "--game", "altay", "--players",
                          "red,blue,green,yellow", "--seed", str(seed))
        firsts.add(of(events, "round")[0]["start_player"])
        again = run_game(capsys, tmp_path, ["era press"], "--game", "altay", "--players",
                         "red,blue,green,yellow", "--seed", str(seed))
        assert of(again, "round") == of(events, "round")
    assert len(firsts) > 1


@pytest.mark.parametrize(("players", "board"), [
    ("red,blue", True), ("red,blue,green", True), ("red,blue,green,yellow", False)])
def test_altay_setup_before_round_1_factions_clockwise_areas_in_reverse(
        capsys: pytest.CaptureFixture[str], tmp_path: Any, players: str, board: bool) -> None:
    """Once the start player is drawn, before round 1: with 2 or 3 players the reduced board;
    factions chosen clockwise from the start player; starting areas in reverse order."""
    seats = players.split(",")
    events = run_game(capsys, tmp_path, ["era press", *altay_setup(len(seats)), "next press"],
                      "--game", "altay", "--players", players, "--seed", "3")
    prompt = of(events, "prompt")[0]
    first = of(events, "round")[0]
    assert (prompt["prompt"], prompt["kind"], prompt["round"]) == ("setup", "special", 0)
    assert first["round"] == 0 and first["start_player"] in seats
    steps = [(s["round"], s["text"].split(":")[0]) for s in of(events, "step")]
    setup = [text for round_, text in steps if round_ == 0]
    assert setup == ["2 or 3 players"] * board + ["Factions", "Start areas", "Settlement"]
    factions = next(s["text"] for s in of(events, "step") if s["text"].startswith("Factions"))
    assert "clockwise from the start player" in factions
    areas = next(s["text"] for s in of(events, "step") if s["text"].startswith("Start areas"))
    assert "in reverse order, from the last player" in areas
    # then round 1, the same start player taking the first turn
    rounds = of(events, "round")
    assert [r["round"] for r in rounds] == [0, 1]
    assert rounds[1]["start_player"] == first["start_player"]
    assert of(events, "phase")[0]["player"] == first["start_player"]
    assert [e["sound"] for e in of(events, "sound")] == ["gong"]  # the start, once


def altay_game(per_player: list[list[int | list[int]]]) -> list[str]:
    """Per category (technology, wonders as lists, secret, action cards, areas, settlements,
    conquest), per player."""
    # two players: the end is triggered in the first turn, the round is played out
    script = ["era press", *altay_setup(2), "era hold", "next press"] + ["next press"] * (
        ALTAY_TURN * 2)
    for row in per_player:
        for value in row:
            script += points(value + [0]) if isinstance(value, list) else points([value])
    return script


def test_altay_conquest_divided_by_three_rounded_down_wonders_capped_at_seven(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    events = run_game(capsys, tmp_path, altay_game([
        [2, 3], [[9, 4], []], [1, 0], [5, 5], [6, 6], [1, 1], [8, 2]]),
        "--game", "altay", "--players", "red,blue")
    entered = [(p["category"], p["player"], p["value"], p["points"]) for p in
               of(events, "points")]
    assert ("conquest", "red", 8, 2) in entered and ("conquest", "blue", 2, 0) in entered
    assert ("wonders", "red", 9, 7) in entered and ("wonders", "red", 4, 4) in entered
    assert ("secret-wonder", "red", 1, 3) in entered
    places = of(events, "ranking")[-1]["places"]
    # red: 2 + 7 + 4 + 3 + 5 + 6 + 1 + 2 = 30; blue: 3 + 0 + 0 + 5 + 6 + 1 + 0 = 15
    assert [(p["player"], p["score"]) for p in places] == [("red", 30), ("blue", 15)]


def test_altay_ties_compared_category_by_category(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Any) -> None:
    # Both 20: equal technology (4), then wonders with the secret bonus: blue 7 + 3 beats red 9.
    events = run_game(capsys, tmp_path, altay_game([
        [4, 4], [[9], [7]], [0, 1], [5, 2], [4, 4], [0, 0], [0, 0]]),
        "--game", "altay", "--players", "red,blue")
    places = of(events, "ranking")[-1]["places"]
    assert [(p["player"], p["score"], p["place"]) for p in places] == [
        ("blue", 20, 1), ("red", 20, 2)]


# --- Time of Empires' introductory era: the profile against the box ------------------------


def test_time_of_empires_profile_plays_the_intro_era_as_the_box_does(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """The same script through the box's own introductory era and through the profile:
    the same rounds, start players, scholar calls and sounds, in the same order."""
    # Rounds 1..5, the scholars, undo, again, round 6, undo (back to the scholars), on to
    # the end (the 15th round and the second call after round 10), then points.
    script = (["era press"] + ["next press"] * 5 + ["next hold"] + ["next press"] * 2
              + ["next hold"] + ["next press"] * 12 + ["next hold"] * 2 + ["next press"])
    config = tmp_path / "erabox.toml"
    config.write_text('default_mode = "intro"\n', encoding="utf-8")
    box = run_game(capsys, tmp_path, script, "--config", str(config))
    profile = run_game(capsys, tmp_path, script, "--game", str(INTRO_PROFILE))

    def moments(events: list[dict[str, Any]], box_names: bool) -> list[tuple[Any, ...]]:
        """Per moment (each script line is its own second): the cues sounded, and where the
        play is after it: (state, round, start player)."""
        out: list[tuple[Any, ...]] = []
        where: dict[str, Any] = {}
        for t in sorted({e["t"] for e in events}):
            at = [e for e in events if e["t"] == t]
            sounds = [e["sound"] for e in at if e["type"] == "sound"
                      and e["sound"] in ("gong", "cry")]
            for e in at:
                if box_names and e["type"] == "state":
                    state = {"intro_round": "round", "scholars": "special"}.get(
                        e["state"], e["state"])
                    where = {"state": state, "round": e["round"], "start": e["start_player"]}
                elif not box_names and e["type"] == "state":
                    where = {**where, "state": e["state"]}
                elif not box_names and e["type"] == "round":
                    where = {**where, "round": e["round"], "start": e["start_player"]}
            if where.get("state") in ("scoring", "setup"):
                where = {"state": where["state"]}
            out.append((t, tuple(sounds), tuple(sorted(where.items()))))
        return out

    box_moments, profile_moments = moments(box, True), moments(profile, False)
    assert profile_moments == box_moments
    specials = [(m[0], dict(m[2])["round"]) for m in box_moments
                if dict(m[2]).get("state") == "special"]
    assert [r for _, r in specials] == [5, 5, 5, 10]  # called, undone, called, undo back to it
    starts = {dict(m[2])["round"]: dict(m[2])["start"] for m in box_moments
              if dict(m[2]).get("state") == "round"}
    assert starts[5] == "red" and starts[6] == "blue" and starts[11] == "green"
    assert dict(box_moments[-1][2]) == {"state": "scoring"}
    # the profile's own prompt lines name the call
    assert [(p["prompt"], p["round"]) for p in of(profile, "prompt")] == [
        ("scholars", 5), ("scholars", 5), ("scholars", 5), ("scholars", 10)]


# --- the event lines as docs/simulate.md documents them --------------------------------------

FIELDS = {
    "input": {"button", "gesture"},
    "state": {"state"},
    "setup": {"game", "variant", "players"},
    "round": {"round", "rounds", "start_player"},
    "ending": {"last_round"},
    "phase": {"round", "phase", "player"},
    "prompt": {"prompt", "kind", "round", "start_player"},
    "step": {"round", "phase", "player", "step", "steps", "text"},
    "sound": {"sound"},
    "points": {"category", "player", "value", "points", "total"},
    "ranking": {"places", "winners"},
}
OPTIONAL = {"prompt": {"next_start_player"}}


def test_every_line_has_the_documented_fields(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Any) -> None:
    seen: set[str] = set()
    plays = [
        (["era press", *altay_setup(2), "era hold", *["next press"] * 7,
          *points([3, 4, 0, 0, 0, 0, 0]),
          "era press", *points([0, 0, 0, 0, 0, 0])], ("altay", "red,blue")),
        (["era press", *["next press"] * 17, *points([1, 2, 3, 4, 5, 6, 7, 8])],
         (str(INTRO_PROFILE), "red,blue")),
        (["era press", *["next press"] * (6 * hadrian_year(1)), *points([30, 9, 9, 9, 9, 0])],
         ("hadrians-wall", "red")),
    ]
    for script, (game, players) in plays:
        events = run_game(capsys, tmp_path, [*script, "restart"], "--game", game,
                          "--players", players)
        for event in events:
            extra = {"prompt"} if event.get("prompt") == "resumed" else FIELDS[event["type"]]
            fields = set(event) - {"t", "type"}
            assert extra <= fields <= extra | OPTIONAL.get(event["type"], set()), event
            seen.add(event["type"])
        assert of(events, "ranking"), game
    assert seen == set(FIELDS)


def test_the_documented_example_is_what_simulate_prints(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Any) -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "simulate.md").read_text(
        encoding="utf-8").split("## Game profiles", 1)[1]
    block = doc.split("```\n", 2)[1].splitlines()
    assert block[0].startswith("$ printf '0 era press\\n1 next press\\n' | erabox simulate")
    events = run_game(capsys, tmp_path, ["era press", "next press"], "--game",
                      "hadrians-wall", "--players", "red,blue")
    assert [json.loads(line) for line in block[1:]] == events


def test_frames_writes_each_distinct_profile_screen(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Any) -> None:
    frames = tmp_path / "frames"
    config = tmp_path / "erabox.toml"
    config.write_text('language = "ja"\n[display]\nheight = 32\n', encoding="utf-8")
    run_game(capsys, tmp_path, ["era press", "next press", "next press", "next hold"],
             "--game", "hadrians-wall", "--players", "red,blue", "--frames", str(frames),
             "--config", str(config))
    from PIL import Image

    files = sorted(p.name for p in frames.iterdir())
    # setup (its hint row, then "hold ERA: settings"), steps 1, 2, 3, then step 2 again after
    # the undo: each step a line at a time on 128x32, as the box turns them, twice over (its
    # three lines, the hint row's undo gesture every other page)
    expected = ["0000-0.000.png", "0001-0.000-page2.png"]
    for t in range(4):
        for page in range(1, 7):
            expected.append(f"{len(expected):04d}-{t}.000"
                            + ("" if page == 1 else f"-page{page}") + ".png")
    assert files == expected
    with Image.open(frames / files[-1]) as image:
        assert image.size == (128, 32)

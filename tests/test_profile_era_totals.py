"""Scoring steps that give no points, and the era totals (docs/profiles.md, "Scoring":
`[[scoring.category]] points = false`, `[scoring] entry = "totals"`): a category with
`points = false` is shown in its place in the scoring, one screen, NEXT (or ERA) going on,
asking no number and adding nothing; with `entry = "totals"` each era asks one total per
player (the hold's ramp and the -1 chord as Time of Empires' era totals), the counted
categories listed on its screen as a checklist, and the standings, running totals and ranking
work from those totals; a power cut during the entry comes back to the same player, the totals
entered kept. Bad keys name the file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from erabox.core.deadlines import next_deadline
from erabox.core.effects import Entered, Standings
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, entries, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Label, Profile, ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play
from test_one_engine_toe import (
    BUILDINGS,
    REALTIME,
    after,
    numbers,
    own_intro_script,
    own_scoring,
    ranking,
    simulate,
    standings,
    timed,
)
from test_one_engine_toe import (
    PLAYERS as TOE_PLAYERS,
)

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
HOLD, RELEASE = Input(Button.NEXT, Gesture.HOLD), Input(Button.NEXT, Gesture.RELEASE)
CHORD, UNDO = Input(Button.BOTH, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
PLAYERS = ("red", "blue", "green")

HEAD = """\
[game]
name = "Empires"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[era]]

[[era]]

[[phase]]
id = "play"
label = "Play"
steps = ["Play"]

[scoring]
last_standings = true
"""

CATEGORIES = """
[[scoring.category]]
id = "destruction"
label = "Destroyed buildings"
multiply = 3

[[scoring.category]]
id = "leaders"
label = { en = "Leader cards", ja = "指導者カード" }
points = false

[[scoring.category]]
id = "culture"
label = "Culture"

[[scoring.category]]
id = "buildings"
label = "Buildings"
counts = false
eras = [2]

[[scoring.tie_break]]
more = "buildings"
"""

TEXT = HEAD + CATEGORIES
TOTALS = HEAD + 'entry = "totals"\n' + CATEGORIES


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "empires.toml")


def problem(text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        profile(text)
    return str(caught.value)


def play_to_scoring(text: str = TEXT) -> Play:
    play, _ = step(new_play(profile(text), PLAYERS), ERA, 0.0)
    play, _ = step(play, NEXT, 0.0)  # the round's last step: the scoring
    assert play.spot.state is State.SCORING
    return play


def enter(play: Play, *numbers: int) -> tuple[Play, list[object]]:
    """Each number by NEXT presses, then ERA."""
    effects: list[object] = []
    for number in numbers:
        for _ in range(number):
            play, _ = step(play, NEXT, 0.0)
        play, more = step(play, ERA, 0.0)
        effects += more
    return play, effects


# --- points = false ---------------------------------------------------------------------------


def test_a_category_without_points_is_shown_in_its_place_and_asks_nothing() -> None:
    play = play_to_scoring()
    assert [c for c, _ in entries(play)] == [0, 0, 0, 1, 2, 2, 2]
    play, _ = enter(play, 1, 2, 3)  # destruction
    shown = screen(play, 0.0)
    assert shown.shown and shown.title is not None and shown.title.en == "Leader cards"
    assert shown.player is None and shown.position == (4, 7)
    for press in (Input(Button.NEXT, Gesture.HOLD), Input(Button.DIAL_UP, Gesture.PRESS)):
        assert step(play, press, 0.0)[0].spot == play.spot  # no number to change
    play, effects = step(play, NEXT, 0.0)  # NEXT goes on
    assert not any(isinstance(e, Entered) for e in effects)
    assert screen(play, 0.0).title == Label("Culture", "Culture")
    back, _ = step(play, UNDO, 0.0)  # ERA hold: back to the step shown
    assert screen(back, 0.0).shown
    back, _ = step(back, UNDO, 0.0)  # and to the last number before it, to correct
    assert back.value == 3 and screen(back, 0.0).player == "green"
    play, entered = enter(play, 4, 5, 6)  # culture: the standings
    assert play.spot.state is State.STANDINGS
    standings = next(e for e in entered if isinstance(e, Standings))
    assert [(line[1], line[3]) for line in standings.places] == [
        ("green", 15), ("blue", 11), ("red", 7)]


def test_the_step_shown_is_drawn_on_every_panel_in_both_languages() -> None:
    play, _ = enter(play_to_scoring(), 1, 2, 3)
    for height in (32, 64):
        for language in ("en", "ja"):
            items = layout_play(screen(play, 0.0), Panel(height=height), language)
            assert "value" not in {item.role for item in items}  # no number


def test_a_category_without_points_takes_no_number_keys() -> None:
    for key, value in (("multiply", "2"), ("max", "5"), ("counts", "false"), ("each", "true")):
        text = TEXT.replace('points = false\n', f'points = false\n{key} = {value}\n')
        assert problem(text) == (f"empires.toml:{text.splitlines().index(f'{key} = {value}') + 1}"
                                 f": key 'scoring.category[2].{key}': a category with points "
                                 f"= false asks no number and gives no points: no {key}")
    assert "expected true or false" in problem(TEXT.replace("points = false", "points = 0"))


def test_a_category_without_points_breaks_no_ties() -> None:
    text = TEXT.replace('more = "buildings"', 'more = "leaders"')
    line = text.splitlines().index('more = "leaders"') + 1
    assert problem(text) == (f"empires.toml:{line}: key 'scoring.tie_break[1].more': the "
                             "category 'leaders' gives no points (points = false): it cannot "
                             "break ties")


# --- entry = "totals" -----------------------------------------------------------------------


def test_the_era_totals_are_asked_one_per_player_the_categories_a_checklist() -> None:
    play = play_to_scoring(TOTALS)
    shown = screen(play, 0.0)
    assert shown.title is not None and shown.title.en == "Era total"
    assert [c.en for c in shown.checklist] == ["Destroyed buildings", "Leader cards", "Culture"]
    assert shown.player == "red" and shown.position == (1, 3)
    play, effects = enter(play, 7, 12, 3)
    assert [(e.player, e.points, e.total) for e in effects if isinstance(e, Entered)] == [
        ("red", 7, 7), ("blue", 12, 12), ("green", 3, 3)]
    standings = next(e for e in effects if isinstance(e, Standings))
    assert [(line[1], line[2], line[3]) for line in standings.places] == [
        ("blue", 12, 12), ("red", 7, 7), ("green", 3, 3)]
    play, _ = step(play, ERA, 0.0)  # era 2
    play, _ = step(play, NEXT, 0.0)
    assert [c for c, _ in entries(play)] == [4, 4, 4, 3, 3, 3]  # totals, then buildings
    play, effects = enter(play, 5, 0, 9)  # red and blue tie on 12, green 12 too
    assert screen(play, 0.0).title == Label("Buildings", "Buildings")
    play, effects = enter(play, 2, 4, 1)
    standings = next(e for e in effects if isinstance(e, Standings))
    assert [(line[1], line[3]) for line in standings.places] == [
        ("red", 12), ("blue", 12), ("green", 12)]
    play, _ = step(play, ERA, 0.0)  # the final ranking: the buildings break the tie
    assert [(p[1], p[2]) for p in screen(play, 0.0).places] == [
        ("blue", 12), ("red", 12), ("green", 12)]


def test_the_hold_s_ramp_and_the_minus_chord_enter_a_total() -> None:
    play = play_to_scoring(TOTALS)
    play, _ = step(play, HOLD, 10.0)  # +5 at once
    assert play.value == 5 and screen(play, 10.0).ramp == 5
    assert next_deadline(play, 10.0) == 10.5  # the screen counts up while NEXT is held
    assert screen(play, 11.6).value == 20 and screen(play, 11.6).ramp == 20  # 1.6 s: +20
    play, _ = step(play, RELEASE, 11.6)  # let go: what the screen showed
    assert play.value == 20 and screen(play, 11.6).ramp is None
    play, _ = step(play, CHORD, 11.8)  # NEXT+ERA together: -1
    assert play.value == 19
    play, _ = step(play, HOLD, 12.0)
    play, _ = step(play, RELEASE, 60.0)  # a forgotten finger adds at most 50
    assert play.value == 69
    play, _ = step(play, HOLD, 70.0)
    play, _ = step(play, ERA, 71.0)  # another gesture ends the ramp: its first +5 only
    assert play.spot.sheet[-1][0] == (74,)


def test_the_era_total_s_screen_is_drawn_on_every_panel_in_both_languages() -> None:
    play, _ = step(play_to_scoring(TOTALS), HOLD, 0.0)
    for now in (0.0, 2.0):  # NEXT held: the ramp in the hint row
        for height in (32, 64):
            for language in ("en", "ja"):
                items = layout_play(screen(play, now), Panel(height=height), language)
                assert {"value", "hint"} <= {item.role for item in items}


def test_the_per_category_entry_keeps_its_gestures() -> None:
    play, _ = enter(play_to_scoring(), 0, 0, 0)  # past destruction: to culture (after leaders)
    play, _ = step(play, NEXT, 0.0)
    play, _ = step(play, HOLD, 0.0)
    play, _ = step(play, RELEASE, 5.0)
    play, _ = step(play, CHORD, 5.0)
    assert play.value == 5 and screen(play, 5.0).ramp is None


def test_a_power_cut_comes_back_to_the_same_player_the_totals_kept() -> None:
    play, _ = enter(play_to_scoring(TOTALS), 7, 12)
    for _ in range(4):
        play, _ = step(play, NEXT, 0.0)
    back = restore(snapshot(play, 0.0), profile(TOTALS), PLAYERS, 1.0)[0]
    assert back.spot == play.spot and screen(back, 1.0).player == "green"
    assert back.spot.sheet[-1] == ((7,), (12,), None)


def test_a_game_without_eras_asks_its_one_total() -> None:
    text = TOTALS.replace("[[era]]\n\n[[era]]\n", "").replace("last_standings = true\n", "")
    text = text.replace("eras = [2]\n", "")
    play, _ = step(new_play(profile(text), PLAYERS), ERA, 0.0)
    play, _ = step(play, NEXT, 0.0)
    assert screen(play, 0.0).title == Label("Total", "合計")
    play, _ = enter(play, 3, 1, 2)
    assert play.spot.state is State.GAME_OVER
    assert [(p[1], p[2]) for p in screen(play, 0.0).places] == [
        ("red", 3), ("green", 2), ("blue", 1)]


def test_totals_keys_are_checked() -> None:
    text = TOTALS.replace('entry = "totals"', 'entry = "total"')
    assert problem(text) == ("empires.toml:23: key 'scoring.entry': expected one of "
                             "'categories', 'totals', 'setting', got 'total'")
    text = TOTALS.replace('more = "buildings"', 'more = "culture"')
    line = text.splitlines().index('more = "culture"') + 1
    assert problem(text).startswith(f"empires.toml:{line}: key 'scoring.tie_break[1].more': "
                                    "the category 'culture' is not asked with entry = ")
    text = TOTALS.replace('entry = "totals"', 'entry = "totals"\norder = "eliminations"')
    text += '\n[[scoring.stage]]\ncategory = "buildings"\n'
    assert problem(text) == ("empires.toml:23: key 'scoring.entry': \"totals\" needs order = "
                             "\"total\" (an elimination ranks on one category's points)")
    text = TOTALS.replace('id = "culture"', 'id = "total"')
    line = text.splitlines().index('id = "total"') + 1
    assert problem(text) == (f"empires.toml:{line}: key 'scoring.category[3].id': the id "
                             "'total' names the era totals with entry = \"totals\": give another")


# --- Time of Empires' round file asking era totals, against the era engine's ------------------


def test_time_of_empires_era_totals_are_entered_as_in_its_own_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The round file with `entry = "totals"` takes the era engine's scoring gestures (each
    player's era total, by NEXT presses and ERA; Era III's tied players' buildings after its
    standings, `tie_break_after = "standings"`) and gives the same standings and final
    ranking."""
    text = REALTIME.read_text(encoding="utf-8")
    game = tmp_path / "toe-totals.toml"
    game.write_text(text.replace('entry = "setting"', 'entry = "totals"'),
                    encoding="utf-8")
    gestures: list[str] = []
    for era in range(3):
        if era:  # the standings: on to the era's setup, its variant chosen again
            gestures += ["era press"]
        # the guide walked at the setup skipped (`guide_at_setup`), introductory, ERA
        gestures += ["next hold", "next press", "era press"]
        gestures += ["next press"] * (1 + 14 + 2) + own_scoring(era)
    gestures += ["era press", *numbers(BUILDINGS["red"]), *numbers(BUILDINGS["green"])]
    rounds = simulate(tmp_path, capsys, timed(after(0, gestures, 1)), "--game", str(game),
                      "--players", ",".join(TOE_PLAYERS))
    (tmp_path / "erabox.toml").write_text(
        f"players = {list(TOE_PLAYERS)!r}\ndefault_mode = \"intro\"\n".replace("'", '"'),
        encoding="utf-8")
    own = simulate(tmp_path, capsys, own_intro_script(), "--config",
                   str(tmp_path / "erabox.toml"))
    assert {e["category"] for e in rounds if e["type"] == "points"} == {"total", "buildings"}
    assert len(standings(rounds)) == 3 and standings(rounds) == standings(own)
    assert ranking(rounds) == ranking(own)

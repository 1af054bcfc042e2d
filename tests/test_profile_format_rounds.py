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
import re
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, new_play, start_player, turn_seat
from erabox.core.profile import Profile, ProfileError, parse_profile

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
    from erabox.core.play import screen
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


# --- endings ----------------------------------------------------------------------------------


def ending(ends: str) -> str:
    """The base game (start passing left) with a `gong` event ending it as `ends` says."""
    return text(more=f'\n[[event]]\nid = "end"\nlabel = "The end"\n{ends}\n')


def test_ends_game_true_is_the_older_spelling_of_ends_round() -> None:
    old = parse_profile(ending("ends_game = true"), "ring.toml")
    new = parse_profile(ending('ends = "round"'), "ring.toml")
    assert old.events[0].ends == new.events[0].ends == "round"
    assert parse_profile(ending("ends_game = false"), "ring.toml").events[0].ends == ""


@pytest.mark.parametrize(("ends", "line", "key", "problem"), [
    ('ends = "later"', 35, "event[1].ends", "expected one of 'round', 'now', 'one_more_turn'"),
    ('ends = "now"\nends_game = true', 36, "event[1].ends_game", "not both"),
])
def test_a_wrong_ending_names_the_file_line_and_key(ends: str, line: int, key: str,
                                                    problem: str) -> None:
    with pytest.raises(ProfileError,
                       match=rf"ring\.toml:{line}: key '{re.escape(key)}': .*{problem}"):
        parse_profile(ending(ends), "ring.toml")


def test_one_more_turn_needs_a_phase_played_in_turns() -> None:
    toml = ending('ends = "one_more_turn"').replace("each_player = true\n", "")
    with pytest.raises(ProfileError, match=r"ring\.toml:34: key 'event\[1\]\.ends': .*"
                       "each_player = true"):
        parse_profile(toml, "ring.toml")


def test_until_event_takes_any_ending() -> None:
    toml = ending('ends = "now"').replace("count = 4", 'count = "until_event"')
    assert parse_profile(toml, "ring.toml").variants[0].rounds is None


def ended(ends: str, gestures: str) -> Play:
    return played(parse_profile(ending(ends), "ring.toml"), gestures)


def test_ends_round_plays_the_round_out() -> None:
    # round 1: draw, then red's turn: the event; blue and green still play round 1
    play = ended('ends = "round"', "en" + "E" + "n")
    assert play.spot.state is State.ROUND and turn_seat(play) == 0
    play = played_on(play, "nn")
    assert turn_seat(play) == 2
    assert played_on(play, "n").spot.state is State.SCORING


def played_on(play: Play, gestures: str) -> Play:
    for g in gestures:
        play, _ = step(play, GESTURES[g], 0.0)
    return play


def test_ends_now_goes_straight_to_the_scoring_after_its_steps() -> None:
    play = ended('ends = "now"', "en" + "E")
    assert play.spot.state is State.EVENT
    play, effects = step(play, GESTURES["n"], 0.0)
    assert play.spot.state is State.SCORING and play.spot.last_round == 1
    assert any(getattr(e, "sound", None) is not None for e in effects)  # the end's gong
    back = played_on(play, "E")  # ERA hold on 0: back to the event's last step
    assert back.spot.state is State.EVENT


def test_one_more_turn_gives_everyone_exactly_one_more_turn_from_the_next_player() -> None:
    # round 2 starts with blue: draw, blue's turn, green's turn: the event in green's turn
    play = ended('ends = "one_more_turn"', "e" + "n" * 4 + "n" + "n" + "E" + "n")
    assert play.spot.round == 2 and turn_seat(play) == 2 and play.spot.state is State.ROUND
    seats = []
    play = played_on(play, "n")  # green's turn ends (one step)
    while play.spot.state is State.ROUND:
        turn = turn_seat(play)
        assert turn is not None
        seats.append(PLAYERS[turn])
        assert screen_of(play).last_turns
        play = played_on(play, "n")
    assert seats == ["red", "blue", "green"]  # the one who triggered it plays last
    assert play.spot.state is State.SCORING and play.spot.round == 2


def screen_of(play: Play) -> Any:
    from erabox.core.play import screen
    return screen(play, 0.0)


def test_one_more_turn_waits_for_a_turn_and_survives_a_power_cut() -> None:
    from erabox.core.play import next_event
    from erabox.core.play_record import restore, snapshot
    prof = parse_profile(ending('ends = "one_more_turn"'), "ring.toml")
    play = played(prof, "e")  # the draw: nobody's turn
    assert next_event(play) is None and played_on(play, "E") == play
    play = played_on(play, "nE" + "n" + "nn")  # red's turn: the event; then blue's, green's
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    assert record["spot"]["final_turn"] == 3 and record["spot"]["turn"] == 2
    back, _ = restore(record, prof, PLAYERS, 0.0)
    assert back.spot == play.spot
    assert played_on(back, "n").spot.state is State.ROUND  # red's last turn
    assert played_on(back, "nn").spot.state is State.SCORING


def test_simulate_plays_one_more_turn(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # round 1: draw, red's turn, blue's turn: the event; green, red, blue, then scoring
    lines = simulate(tmp_path, ending('ends = "one_more_turn"\nsound = "gong"'),
                     "enn" + "E" + "n" + "n" + "nnn", capsys)
    end = next(e for e in lines if e["type"] == "ending")
    assert end["last_turn"] == "blue"
    turns = [e["player"] for e in lines if e["type"] == "phase" and e["t"] > end["t"]]
    assert turns == ["green", "red", "blue"]
    state = [e for e in lines if e["type"] == "state"][-1]
    assert state["state"] == "scoring" and state["t"] == 9.0


def test_simulate_plays_ends_now(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = simulate(tmp_path, ending('ends = "now"'), "en" + "E" + "n", capsys)
    assert [e["state"] for e in lines if e["type"] == "state"] == [
        "setup", "round", "event", "scoring"]
    assert [e["t"] for e in lines if e["type"] == "sound"] == [1.0, 4.0]  # start, end


def test_the_screen_says_whose_last_turn_it_is() -> None:
    from erabox.ui.panel import Panel
    from erabox.ui.screens import layout_play
    play = ended('ends = "one_more_turn"', "en" + "E" + "n" + "n")  # blue's last turn next
    for panel, language, said in [(Panel(), "en", "1/1 blue's last turn"),
                                  (Panel(height=32), "ja", "1/1 青の最後の手番")]:
        footer = next(i for i in layout_play(screen_of(play), panel, language)
                      if i.role == "footer")
        assert footer.text.startswith(said)


# --- chosen -----------------------------------------------------------------------------------


VARIANTS = """
[[variant]]
id = "long"
label = "Long"
rounds = 4

[[variant]]
id = "short"
label = "Short"
rounds = 2
"""


def chosen(variants: bool = False) -> str:
    toml = text(rule="chosen")
    return toml.replace("count = 4\n", "") + VARIANTS if variants else toml


def test_next_at_setup_chooses_who_starts_and_the_start_passes_left_from_there() -> None:
    prof = parse_profile(chosen(), "ring.toml")
    play = played(prof, "nn")
    assert play.spot.state is State.SETUP and start_player(play) == "green"
    assert screen_of(play).drawn and screen_of(play).chosen
    assert round_starts(prof, 4, setup="nn") == ["green", "red", "blue", "green"]
    assert start_player(played(prof, "nnn")) == "red"  # round again after the last seat


def test_with_variants_next_goes_through_the_seats_then_the_next_variant() -> None:
    prof = parse_profile(chosen(variants=True), "ring.toml")
    seen = []
    for presses in range(7):
        play = played(prof, "n" * presses)
        seen.append((prof.variants[play.spot.variant].id, start_player(play)))
    assert seen == [("long", "red"), ("long", "blue"), ("long", "green"),
                    ("short", "red"), ("short", "blue"), ("short", "green"), ("long", "red")]


def test_the_chosen_start_player_is_kept_in_the_save_at_setup_and_in_play() -> None:
    from erabox.core.play_record import restore, snapshot
    prof = parse_profile(chosen(), "ring.toml")
    for gestures in ("n", "ne", "nen" + "n" * 4):
        play = played(prof, gestures)
        record = json.loads(json.dumps(snapshot(play, 0.0)))
        back, _ = restore(record, prof, PLAYERS, 0.0)
        assert start_player(back) == start_player(play)
        assert back.spot == play.spot
    assert start_player(play) == "green" and play.spot.round == 2


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_setup_screen_says_who_starts_and_how_to_choose(language: str) -> None:
    from erabox.ui.game_words import word as profile_word
    from erabox.ui.panel import Panel
    from erabox.ui.screens import layout_play
    from erabox.ui.strings import colour_name
    for variants, hint in [(False, "hint_chosen"), (True, "hint_chosen_variant")]:
        play = played(parse_profile(chosen(variants), "ring.toml"), "n")
        for panel in (Panel(), Panel(height=32)):
            items = {i.role: i for i in layout_play(screen_of(play), panel, language)}
            assert profile_word(language, "starts", colour=colour_name("blue", language)) in (
                items["variant"].text)
            assert items["hint"].text == profile_word(language, hint)
            assert not items["hint"].abbreviated


def test_simulate_plays_a_chosen_start_player(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    lines = simulate(tmp_path, chosen(), "n" + "e" + "n" * 9, capsys)
    setup = [e["start_player"] for e in lines if e["type"] == "setup"]
    assert setup == ["red", "blue"]
    starts = [(e["round"], e["start_player"]) for e in lines if e["type"] == "round"]
    assert starts == [(1, "blue"), (2, "green"), (3, "red")]


# --- scoring: a table of points, numbers below 0 ----------------------------------------------


def scored(category: str) -> Profile:
    return profile(category=category)


def test_a_table_scores_the_entry_of_the_number_entered_and_the_last_beyond() -> None:
    cat = scored("table = [0, 1, 3, 6, 10, 15]").categories[0]
    assert [cat.points(n) for n in (0, 1, 2, 5, 6, 40)] == [0, 1, 3, 15, 15, 15]


@pytest.mark.parametrize(("extra", "line", "key", "problem"), [
    ("table = [0, 1, 3]\nmultiply = 2", 35, "scoring.category[1].table",
     "a points table takes no multiply, divide, cap or penalty"),
    ("table = [0, 1, 3]\npenalty = [1]", 35, "scoring.category[1].table", "no .*penalty"),
    ("cap = 3\ntable = [0, 1, 3]", 36, "scoring.category[1].table", "no multiply"),
    ("table = []", 35, "scoring.category[1].table", "at least one"),
    ('table = [0, "x"]', 35, "scoring.category[1].table[2]", "a whole number"),
    ("min = -3\ntable = [0, 1]", 35, "scoring.category[1].min", "no min below 0"),
    ("min = -3\npenalty = [1]", 35, "scoring.category[1].min", "no min below 0"),
    ("min = 1", 35, "scoring.category[1].min", "a whole number from -999 to 0"),
])
def test_a_wrong_table_or_min_names_the_file_line_and_key(extra: str, line: int, key: str,
                                                          problem: str) -> None:
    with pytest.raises(ProfileError,
                       match=rf"ring\.toml:{line}: key '{re.escape(key)}': .*{problem}"):
        scored(extra)


def to_scoring(prof: Profile, players: tuple[str, ...] = PLAYERS) -> Play:
    play = played(prof, "e", players)
    while play.spot.state is not State.SCORING:
        play, _ = step(play, GESTURES["n"], 0.0)
    return play


def test_a_number_goes_below_0_only_where_the_category_allows_it() -> None:
    plain = to_scoring(scored(""))
    assert played_on(plain, "nnE").value == 0  # hold ERA clears
    assert played_on(plain, "nn").value == 2
    minus = to_scoring(scored("min = -4\nmultiply = 2"))
    at_3 = played_on(minus, "nnn")
    assert played_on(at_3, "E").value == -3  # hold ERA: negative
    assert played_on(at_3, "EE").value == 0  # again: cleared
    assert played_on(at_3, "EEn").value == 1
    assert played_on(minus, "NE").value == -4  # 5 -> at most the category's min
    assert played_on(at_3, "En").value == -2  # +1 from -3
    assert played_on(minus, "E").spot.state is State.ROUND  # hold on 0: back, as before
    done = played_on(at_3, "Ee")
    assert done.spot.sheet[0][0] == (-3,)
    dial_down = Input(Button.DIAL_DOWN, Gesture.PRESS)  # an encoder turn: -1
    assert step(minus, dial_down, 0.0)[0].value == -1
    assert step(plain, dial_down, 0.0)[0].value == 0


def test_negative_numbers_count_and_survive_a_power_cut() -> None:
    from erabox.core.play import ranking
    from erabox.core.play_record import restore, snapshot
    prof = scored("min = -10\ndivide = 2")
    play = played_on(to_scoring(prof), "nnnEe" + "e" + "nE" + "e")  # -3, 0, -1
    assert play.spot.state is State.GAME_OVER
    assert [(line.seat, line.score) for line in ranking(play)] == [(1, 0), (2, -1), (0, -2)]
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    back, _ = restore(record, prof, PLAYERS, 0.0)
    assert back.spot.sheet == play.spot.sheet == (((-3,), (0,), (-1,)),)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_scoring_screen_hints_the_minus_where_a_number_may_be_negative(
        language: str) -> None:
    from erabox.ui.game_words import word as profile_word
    from erabox.ui.panel import Panel
    from erabox.ui.screens import layout_play
    for category, minus in (("", False), ("min = -20", True)):
        play = played_on(to_scoring(scored(category)), "NNNE")  # -15 where it may be
        for panel in (Panel(), Panel(height=32)):
            items = {i.role: i for i in layout_play(screen_of(play), panel, language)}
            said = profile_word(language, "minus" if panel.compact else "hint_minus")
            assert (said in items["hint"].text) is minus
            assert not items["hint"].abbreviated
            assert items["value"].mask.size[0] > (40 if minus else 0)


def test_simulate_plays_a_table_and_a_negative_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = text(category="table = [0, 1, 3, 6]") + (
        '\n[[scoring.category]]\nid = "debt"\nlabel = "Debt"\nmin = -9\n')
    to_end = "e" + "n" * 17  # four rounds and the feast
    lines = simulate(tmp_path, toml, to_end + "nne" + "nnnnne" + "e" + "nnEe" + "ee", capsys)
    points = [(e["category"], e["player"], e["value"], e["points"], e["total"])
              for e in lines if e["type"] == "points"]
    assert points == [("vp", "red", 2, 3, 3), ("vp", "blue", 5, 6, 6), ("vp", "green", 0, 0, 0),
                      ("debt", "red", -2, -2, 1), ("debt", "blue", 0, 0, 6),
                      ("debt", "green", 0, 0, 0)]


def test_a_negative_value_of_a_list_is_a_value_and_0_still_ends_the_list() -> None:
    play = played_on(to_scoring(scored("min = -5\neach = true")), "nnEe")
    assert play.spot.entry == 0 and play.spot.sheet[0][0] == (-2,)
    play = played_on(play, "ne" + "e")
    assert play.spot.entry == 1 and play.spot.sheet[0][0] == (-2, 1)

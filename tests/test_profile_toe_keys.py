"""Round-format keys that say what Time of Empires' era engine does (docs/architecture.md,
"What the round format cannot yet say of Time of Empires"): `[[phase]] next_leaves`,
`[rounds] start_gong`, `[scoring] last_standings`, a call's `prompt = "scholars"` and
`[[phase]] prompt_s`: each parsed (errors naming file, line and key), played and shown.
"""

from __future__ import annotations

import pytest

from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, PlaySound, Tick
from erabox.core.play import Called, Play, Ranked, Standings, State, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play
from erabox.ui.strings import say

SPRINT = """\
[game]
id = "sprint"
name = "Sprint"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 10
lead_in_s = 3
timer_end = "next"
next_leaves = false
steps = ["Run", "Rest"]

[[phase.call]]
at_s = 4
prompt = "Swap"
"""
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)


def started(text: str = SPRINT) -> Play:
    play = new_play(parse_profile(text, "sprint.toml"), PLAYERS)
    play, _ = step(play, ERA, 0.0)
    return play


def until(play: Play, now: float, end: float) -> tuple[Play, list[tuple[float, str]]]:
    heard: list[tuple[float, str]] = []
    while (due := next_deadline(play, now)) is not None and due <= end:
        now = due
        play, effects = step(play, Tick(), now)
        heard += [(now, e.sound.value) for e in effects if isinstance(e, PlaySound)]
    return play, heard


def hint(play: Play, now: float, language: str = "en") -> str:
    items = layout_play(screen(play, now), Panel(128, 64), language)
    return next(item.text for item in items if item.role == "hint")


# --- [[phase]] next_leaves ----------------------------------------------------------------


@pytest.mark.parametrize("at", [1.2, 5.2], ids=["lead-in", "countdown"])
def test_next_on_the_last_step_waits_for_the_countdowns_end(at: float) -> None:
    play = started()
    play, _ = step(play, NEXT, at - 0.5)  # "Rest", the last step
    play, _ = until(play, at - 0.5, at)
    held, effects = step(play, NEXT, at)
    assert held.spot == play.spot and not [e for e in effects if isinstance(e, PlaySound)]
    assert held.timer_end == play.timer_end  # the countdown and its calls go on
    held, heard = until(held, at, 20.0)
    assert heard[-1] == (13.0, "gong") and held.spot.state is State.GAME_OVER


def test_a_paused_countdown_waits_too_and_undo_stays() -> None:
    play = started()
    play, _ = step(play, NEXT, 4.0)
    play, _ = step(play, ERA, 5.0)  # paused
    held, _ = step(play, NEXT, 6.0)
    assert held.spot == play.spot and held.held_left == play.held_left
    back, _ = step(held, NEXT_HOLD, 7.0)
    assert back.spot.step == 0  # undo still goes back to "Run"
    again, _ = step(back, NEXT, 8.0)
    assert again.spot.step == 1


def test_next_leaves_by_default_and_once_the_countdown_ran_out_with_wait() -> None:
    play = started(SPRINT.replace("next_leaves = false\n", ""))
    play, _ = step(play, NEXT, 1.0)
    play, _ = step(play, NEXT, 2.0)
    assert play.spot.state is State.GAME_OVER
    waits = started(SPRINT.replace('timer_end = "next"\n', ""))
    waits, _ = step(waits, NEXT, 1.0)
    waits, _ = until(waits, 1.0, 20.0)  # run out, "Time!": NEXT leaves again
    waits, _ = step(waits, NEXT, 20.5)
    assert waits.spot.state is State.GAME_OVER


def test_the_hint_says_the_table_waits_for_the_gong() -> None:
    play = started()
    assert hint(play, 1.0) == "NEXT: next  hold NEXT: undo"  # "Run": NEXT goes to "Rest"
    play, _ = step(play, NEXT, 1.0)
    assert hint(play, 1.5) == "Until the gong  hold NEXT: undo"
    assert hint(play, 1.5, "ja") == "終了の合図まで NEXT長押し: 戻す"


@pytest.mark.parametrize(("old", "new", "message"), [
    ("next_leaves = false", 'next_leaves = "no"',
     "sprint.toml:19: key 'phase[1].next_leaves': expected true or false, got 'no'"),
    ('timer_s = 10\nlead_in_s = 3\ntimer_end = "next"\n', "",
     "sprint.toml:16: key 'phase[1].next_leaves': next_leaves needs a timer (timer_s)"),
])
def test_a_bad_next_leaves_names_the_file_line_and_key(old: str, new: str, message: str
                                                       ) -> None:
    text = SPRINT.replace('[[phase.call]]\nat_s = 4\nprompt = "Swap"\n', "")
    with pytest.raises(ProfileError) as caught:
        parse_profile(text.replace(old, new), "sprint.toml")
    assert str(caught.value) == message


# --- [rounds] start_gong ------------------------------------------------------------------

AGES = """\
[game]
id = "ages"
name = "Ages"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1
start_gong = false

[[phase]]
id = "act"
label = "Act"

[[era]]
label = "Dawn"

[[era]]
label = "Dusk"

[[scoring.category]]
id = "gold"
label = "Gold"
"""
SETUP_ROUND = """
[[special]]
id = "setup"
label = "Setup"
after = [0]
sound = "cry"
"""


def gongs(effects: tuple[object, ...]) -> list[str]:
    return [e.sound.value for e in effects if isinstance(e, PlaySound)]


def ages_to_standings(text: str) -> tuple[Play, list[list[str]]]:
    """ERA at setup, NEXT through era 1 (its setup round too), its gold: the standings."""
    play = new_play(parse_profile(text, "ages.toml"), PLAYERS)
    heard: list[list[str]] = []
    now = 0.0
    for gesture in (ERA, NEXT, NEXT, ERA, ERA):
        if play.spot.state is State.STANDINGS:
            break
        now += 1.0
        play, effects = step(play, gesture, now)
        heard.append(gongs(effects))
    return play, heard


@pytest.mark.parametrize(("text", "opening"), [
    (AGES, []), (AGES.replace("start_gong = false\n", ""), ["gong"]),
    (AGES.replace("start_gong = false\n", "start_gong = true\n"), ["gong"])])
def test_start_gong_false_starts_round_1_and_each_era_in_silence(
        text: str, opening: list[str]) -> None:
    play, heard = ages_to_standings(text)
    assert heard[0] == opening  # ERA at setup: round 1
    assert play.spot.state is State.STANDINGS
    play, effects = step(play, ERA, 10.0)  # the next era's round 1
    assert play.spot.state is State.ROUND and gongs(effects) == opening


def test_without_the_start_gong_a_setup_round_still_sounds_its_own() -> None:
    play = new_play(parse_profile(AGES + SETUP_ROUND, "ages.toml"), PLAYERS)
    play, effects = step(play, ERA, 1.0)
    assert play.spot.state is State.SPECIAL and gongs(effects) == ["cry"]


def test_a_bad_start_gong_names_the_file_line_and_key() -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(AGES.replace("start_gong = false", "start_gong = 0"), "ages.toml")
    assert str(caught.value) == ("ages.toml:12: key 'rounds.start_gong': expected true or "
                                 "false, got 0")


# --- [scoring] last_standings -------------------------------------------------------------

LAST = AGES.replace("start_gong = false\n", "") + "\n[scoring]\nlast_standings = true\n"


def to_the_last_standings(text: str = LAST) -> tuple[Play, list[object]]:
    """Both eras played, each player's gold entered (red 2 then 3, blue 1 then 5)."""
    play = new_play(parse_profile(text, "ages.toml"), PLAYERS)
    effects: list[object] = []
    now = 0.0
    gold = iter(((2, 1), (3, 5)))
    for era in range(2):
        play, _ = step(play, ERA, now := now + 1)  # round 1 (setup, or the standings)
        play, _ = step(play, NEXT, now := now + 1)  # the round's end: the scoring
        for value in next(gold):
            for _ in range(value):
                play, _ = step(play, NEXT, now := now + 1)
            play, more = step(play, ERA, now := now + 1)
            effects += more
        assert era or play.spot.state is State.STANDINGS
    return play, effects


def test_last_standings_shows_the_standings_after_the_last_era_then_the_ranking() -> None:
    play, effects = to_the_last_standings()
    assert play.spot.state is State.STANDINGS
    (last,) = [e for e in effects if isinstance(e, Standings) and e.era == 2]
    assert last.places == ((1, "blue", 5, 6), (2, "red", 3, 5))  # the event line's
    shown = screen(play, 50.0)
    assert shown.standings == ((1, "blue", 5, 6), (2, "red", 3, 5))
    assert shown.next_start_player is None  # no era after the last
    back, _ = step(play, NEXT_HOLD, 51.0)  # undo: the era's last number again
    assert back.spot.state is State.SCORING
    over, effects2 = step(play, ERA, 52.0)
    assert over.spot.state is State.GAME_OVER
    assert [e for e in effects2 if isinstance(e, Ranked)] == [Ranked(screen(over, 52.0).places)]
    assert not gongs(tuple(effects2))


def test_without_last_standings_the_last_era_goes_to_the_ranking() -> None:
    play, effects = to_the_last_standings(LAST.replace("last_standings = true", ""))
    assert play.spot.state is State.GAME_OVER
    assert [e.era for e in effects if isinstance(e, Standings)] == [1]
    assert [e for e in effects if isinstance(e, Ranked)]


def test_the_last_standings_are_saved_across_a_power_cut_and_say_the_ranking_next() -> None:
    play, _ = to_the_last_standings()
    again, _ = restore(snapshot(play, 50.0), parse_profile(LAST, "ages.toml"), PLAYERS, 60.0)
    assert again.spot == play.spot
    with pytest.raises(ValueError, match="the standings come after an era before the last"):
        restore(snapshot(play, 50.0),
                parse_profile(LAST.replace("last_standings = true", ""), "ages.toml"), PLAYERS,
                60.0)
    for size, language, hint_text in (((128, 64), "en", "ERA: final ranking"),
                                      ((128, 64), "ja", "ERA: 最終順位へ"),
                                      ((128, 32), "en", "ERA: final ranking")):
        items = layout_play(screen(again, 60.0), Panel(*size), language)
        assert [i.text for i in items if i.role == "hint"] == [hint_text]


def test_a_bad_last_standings_names_the_file_line_and_key() -> None:
    text = LAST.replace("[[era]]\nlabel = \"Dawn\"\n\n[[era]]\nlabel = \"Dusk\"\n", "")
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "ages.toml")
    line = text.splitlines().index("last_standings = true") + 1
    assert str(caught.value) == (f"ages.toml:{line}: key 'scoring.last_standings': "
                                 "last_standings needs [[era]] tables")
    with pytest.raises(ProfileError) as caught:
        parse_profile(LAST.replace("= true", "= 1"), "ages.toml")
    assert "key 'scoring.last_standings': expected true or false, got 1" in str(caught.value)


# --- a call's prompt = "scholars", [[phase]] prompt_s ---------------------------------------

SCHOLARS = SPRINT.replace('prompt = "Swap"', 'prompt = "scholars"').replace(
    "next_leaves = false\n", "next_leaves = false\nprompt_s = 15\n").replace(
    "timer_s = 10", "timer_s = 30")


def call_shown(play: Play, now: float, language: str = "en") -> str | None:
    items = layout_play(screen(play, now), Panel(128, 64), language)
    lines = [item.text for item in items if item.role == "call"]  # big: a word a line
    return " ".join(lines) if lines else None


def test_a_scholars_call_shows_the_boxs_own_prompt_for_prompt_s() -> None:
    play = started(SCHOLARS)
    play, _ = until(play, 0.0, 6.9)
    play, effects = step(play, Tick(), 7.0)  # the call, 4 s after the start gong at 3 s
    (called,) = [e for e in effects if isinstance(e, Called)]
    assert called == Called("race", 4.0, None, "scholars")
    assert call_shown(play, 7.0) == say("en", "prompt_scholars") == "Appoint scholars!"
    assert call_shown(play, 7.0, "ja") == say("ja", "prompt_scholars")
    play, _ = until(play, 7.0, 21.5)
    assert call_shown(play, 21.9) == "Appoint scholars!"
    assert next_deadline(play, 21.9) == 22.0  # where its 15 s end
    play, _ = step(play, Tick(), 22.0)
    assert call_shown(play, 22.0) is None


def test_a_calls_prompt_stays_5_s_by_default() -> None:
    play = started(SCHOLARS.replace("prompt_s = 15\n", ""))
    play, _ = until(play, 0.0, 7.0)
    assert call_shown(play, 11.9) == "Appoint scholars!"
    play, _ = step(play, Tick(), 12.0)
    assert call_shown(play, 12.0) is None


@pytest.mark.parametrize(("old", "new", "message"), [
    ("prompt_s = 15", "prompt_s = 0", "sprint.toml:20: key 'phase[1].prompt_s': expected a "
     "number of seconds above 0 and at most 600, got 0"),
    ("timer_s = 30\nlead_in_s = 3\ntimer_end = \"next\"\nnext_leaves = false\n", "",
     "sprint.toml:16: key 'phase[1].prompt_s': prompt_s needs a timer (timer_s)"),
])
def test_a_bad_prompt_s_names_the_file_line_and_key(old: str, new: str, message: str) -> None:
    text = SCHOLARS.replace('[[phase.call]]\nat_s = 4\nprompt = "scholars"\n', "")
    with pytest.raises(ProfileError) as caught:
        parse_profile(text.replace(old, new), "sprint.toml")
    assert str(caught.value) == message

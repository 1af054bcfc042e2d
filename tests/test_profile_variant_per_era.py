"""`[rounds] variant_per_era = true` (docs/profiles.md, "Eras"): in a game of eras each era's
variant is chosen at its own setup, between the standings and its round 1 (NEXT: the next
variant, ERA: the era starts), as Time of Empires' era setup switches its mode. The phases,
the start player and the steps follow the era's variant; each era's variant is kept in the
play and its saved record (a cut anywhere comes back to them, a record written before they
were kept still loads); the event stream says them; a bad key names the file, line and key.
Time of Empires' round file plays it against the era engine in
tests/test_one_engine_toe.py."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from erabox.core.era_moves import era_variants
from erabox.core.events import PlayRecorder
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import (
    Play,
    State,
    new_play,
    screen,
    start_player,
    steps_here,
)
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.ui.panel import MARGIN, Panel
from erabox.ui.screens import layout_play
from erabox.ui.strings import LANGUAGES

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
NEXT_HOLD = Input(Button.NEXT, Gesture.HOLD)
PLAYERS = ("red", "blue", "green")

TEXT = """\
[game]
id = "ages"
name = "Ages"

[players]
min = 2
max = 4

[rounds]
name = "Round"
variant_per_era = true

[[variant]]
id = "clock"
label = "Clock"
rounds = 1
start_player = "none"

[[variant]]
id = "turns"
label = "Turns"
rounds = 2

[start_player]
rule = "pass_left"

[[era]]
label = "Dawn"

[[era]]
label = "Noon"

[[era]]
label = "Dusk"

[[phase]]
id = "race"
variants = ["clock"]
label = "Race"
steps = ["Race: everyone at once"]

[[phase]]
id = "turn"
variants = ["turns"]
label = "Turn"
steps = ["Take a turn"]

[[phase]]
id = "tidy"
label = "Tidy"
steps = [
  { en = "Clock: stop it", ja = "時計：止める", variants = ["clock"] },
  { en = "Turns: pass the box", ja = "手番：箱を渡す", variants = ["turns"] },
]

[[scoring.category]]
id = "gold"
label = "Gold"
"""


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "ages.toml")


def press(play: Play, *inputs: Input, now: float = 0.0) -> Play:
    for event in inputs:
        play, _ = step(play, event, now)
    return play


def through_era(play: Play) -> Play:
    """NEXT through the era's rounds, then a 1 for each player: its standings."""
    while play.spot.state is not State.SCORING:
        play = press(play, NEXT)
    while play.spot.state is State.SCORING:
        play = press(play, NEXT, ERA)
    return play


def test_the_key_is_read_and_off_by_default() -> None:
    assert profile().variant_per_era
    assert not profile(TEXT.replace("variant_per_era = true\n", "")).variant_per_era


def test_each_era_s_setup_chooses_its_variant_and_the_era_plays_it() -> None:
    play = press(new_play(profile(), PLAYERS), ERA)  # Dawn on the clock: the game's choice
    assert (play.spot.state, play.profile.phases[play.spot.phase].id) == (State.ROUND, "race")
    assert [t.en for t in steps_here(play)] == ["Race: everyone at once"]
    assert [t.en for t in steps_here(press(play, NEXT))] == ["Clock: stop it"]
    assert start_player(play) is None  # the clock variant's own rule
    play = press(through_era(play), ERA)  # the standings' ERA: Noon's setup
    shown = screen(play, 0.0)
    assert (play.spot.state, shown.kind, shown.era) == (State.ERA_SETUP, "era_setup", 2)
    assert shown.variant is not None and shown.variant.en == "Clock"  # it opens on the first
    play = press(play, NEXT)  # turns, for Noon
    assert screen(play, 0.0).variant.en == "Turns"  # type: ignore[union-attr]
    assert screen(play, 0.0).start_player == "red"  # the turns' rule: the seat carried
    noon = press(play, ERA)
    assert (noon.spot.round, noon.profile.phases[noon.spot.phase].id) == (1, "turn")
    assert [t.en for t in steps_here(noon)] == ["Take a turn"]
    assert [t.en for t in steps_here(press(noon, NEXT))] == ["Turns: pass the box"]
    assert screen(noon, 0.0).rounds == 2 and start_player(noon) == "red"
    second = press(noon, NEXT, NEXT)
    assert second.spot.round == 2 and start_player(second) == "blue"
    dusk = press(through_era(noon), ERA)
    assert dusk.spot.variant == 0 and screen(dusk, 0.0).variant.en == "Clock"  # type: ignore[union-attr]
    assert era_variants(dusk) == (0, 1, 0)
    assert press(dusk, NEXT, NEXT).spot.variant == 0  # NEXT cycles: after the last, the first
    over = press(through_era(press(dusk, ERA)))
    assert over.spot.state is State.GAME_OVER and era_variants(over) == (0, 1, 0)


def test_without_the_key_the_standings_start_the_next_era_in_the_game_s_variant() -> None:
    play = press(new_play(profile(TEXT.replace("variant_per_era = true\n", "")), PLAYERS),
                 NEXT, ERA)
    noon = press(through_era(play), ERA)
    assert (noon.spot.state, noon.spot.round, noon.spot.variant) == (State.ROUND, 1, 1)
    assert noon.spot.past_variants == () and era_variants(noon) == (1, 1)


def test_undo_at_an_era_s_setup_goes_back_to_the_standings_and_its_era_s_variant() -> None:
    standings = through_era(press(new_play(profile(), PLAYERS), ERA))
    setup = press(standings, ERA, NEXT)
    back = press(setup, NEXT_HOLD)
    assert back.spot == standings.spot and back.spot.variant == 0
    started = press(setup, ERA)
    assert press(started, NEXT_HOLD).spot == setup.spot  # undo from round 1: the setup


def cut(play: Play, now: float = 50.0) -> Play:
    record = snapshot(play, now)
    back, _ = restore(record, play.profile, play.players, now + 1.0)
    return back


def test_a_power_cut_anywhere_comes_back_to_each_era_s_variant() -> None:
    play = press(new_play(profile(), PLAYERS), NEXT, ERA)  # Dawn in turns
    play = press(through_era(play), ERA)  # Noon's setup, on the clock
    assert cut(play).spot == play.spot
    chosen = press(play, NEXT)  # Noon in turns too
    assert cut(chosen).spot == chosen.spot and cut(chosen).spot.variant == 1
    play = press(through_era(press(chosen, ERA)), ERA)  # Dusk's setup: the clock
    play = press(play, ERA, NEXT)  # Dusk on the clock, its tidying
    back = cut(play)
    assert back.spot == play.spot and back.history == play.history
    assert era_variants(back) == (1, 1, 0)
    assert [t.en for t in steps_here(back)] == ["Clock: stop it"]
    assert press(back, NEXT_HOLD, NEXT_HOLD).spot.state is State.ERA_SETUP  # undo survives


def test_a_record_written_before_each_era_kept_its_variant_still_loads() -> None:
    """Without `past_variants` (a record from before the key): every era played the one
    variant the game was set up with."""
    play = press(new_play(profile(), PLAYERS), NEXT, ERA)
    play = press(through_era(play), ERA, NEXT, ERA)  # Noon, in turns as Dawn
    record = snapshot(play, 10.0)
    assert record["spot"]["past_variants"] == [1]
    for spot in (record["spot"], *record["history"]):
        spot.pop("past_variants", None)
    back, _ = restore(record, play.profile, PLAYERS, 20.0)
    assert back.spot == play.spot and era_variants(back) == (1, 1)


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(past_variants=[0, 1]), "'past_variants' should list the variant"),
    (lambda s: s.update(past_variants=[2]), "'past_variants' should list the variant"),
    (lambda s: s.update(past_variants=[True]), "'past_variants' should list the variant"),
    (lambda s: s.update(past=[]), "an era's setup comes after an era"),
])
def test_a_bad_record_of_an_era_s_setup_says_what_does_not_fit(
        change: Any, message: str) -> None:
    play = press(through_era(press(new_play(profile(), PLAYERS), ERA)), ERA)
    record = snapshot(play, 10.0)
    change(record["spot"])
    with pytest.raises(ValueError, match=message):
        restore(record, play.profile, PLAYERS, 20.0)


def test_an_era_s_setup_is_no_state_of_a_game_without_the_key() -> None:
    play = press(through_era(press(new_play(profile(), PLAYERS), ERA)), ERA)
    record = snapshot(play, 10.0)
    plain = profile(TEXT.replace("variant_per_era = true\n", ""))
    with pytest.raises(ValueError, match="chooses its variant era by era only"):
        restore(record, plain, PLAYERS, 20.0)


def test_the_event_stream_says_each_era_s_variant_as_the_game_s_setup_does() -> None:
    lines: list[dict[str, Any]] = []
    recorder = PlayRecorder(lines.append)
    play = new_play(profile(), PLAYERS)
    recorder.play(play, 0.0)
    now = 0.0

    def go(*inputs: Input) -> None:
        nonlocal play, now
        for event in inputs:
            now += 1.0
            play, effects = step(play, event, now)
            recorder.step(effects, play, now)

    go(ERA)
    while play.spot.state is not State.GAME_OVER:
        if play.spot.state is State.ERA_SETUP and len(play.spot.past) == 1:
            go(NEXT, ERA)  # Noon in turns
        else:
            go(ERA if play.spot.state in (State.SCORING, State.STANDINGS, State.ERA_SETUP)
               else NEXT)
    assert [(e["era"], e["variant"]) for e in lines if e["type"] == "setup"] == [
        (1, "clock"), (2, "clock"), (2, "turns"), (3, "clock")]
    assert [(e["era"], e["variant"]) for e in lines if e["type"] == "era"] == [
        (1, "clock"), (2, "turns"), (3, "clock")]
    assert [e["variant"] for e in lines if e["type"] == "standings"] == [
        "clock", "turns"]
    (ranked,) = [e for e in lines if e["type"] == "ranking"]
    assert ranked["variants"] == ["clock", "turns", "clock"]
    assert [e["state"] for e in lines if e["type"] == "state"].count("era_setup") == 2


@pytest.mark.parametrize(("old", "new", "message"), [
    ("variant_per_era = true", 'variant_per_era = "yes"',
     "ages.toml:11: key 'rounds.variant_per_era': expected true or false, got 'yes'"),
    ('[[era]]\nlabel = "Dawn"\n\n[[era]]\nlabel = "Noon"\n\n[[era]]\nlabel = "Dusk"\n', "",
     "ages.toml:11: key 'rounds.variant_per_era': variant_per_era needs [[era]] tables (a "
     "variant chosen at each era's setup)"),
    ('[[variant]]\nid = "turns"\nlabel = "Turns"\nrounds = 2\n', "",
     "ages.toml:11: key 'rounds.variant_per_era': variant_per_era needs two [[variant]] "
     "tables at least (the variants each era's setup chooses from)"),
])
def test_a_bad_variant_per_era_names_the_file_line_and_key(old: str, new: str,
                                                           message: str) -> None:
    text = TEXT.replace(old, new)
    if "turns" not in new and '"turns"' in old:  # no second variant: no phase of its own
        text = text.replace('variants = ["turns"]\n', "")
    with pytest.raises(ProfileError) as caught:
        profile(text)
    assert str(caught.value) == message


PANELS = (Panel(), Panel(height=32))


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_an_era_s_setup_screen_says_the_era_its_variant_and_the_buttons(
        panel: Panel, language: str) -> None:
    setup = press(through_era(press(new_play(profile(), PLAYERS), ERA)), ERA, NEXT)
    items = layout_play(screen(setup, 0.0), panel, language)
    text = {i.role: i.text for i in items}
    words = {"en": ("Noon setup", "Turns", "red starts", "NEXT: variant  ERA: start"),
             "ja": ("Noonの準備", "Turns", "スタート: 赤", "NEXT: 選ぶ ERA: 開始")}[language]
    assert text["status"] == words[0]
    assert text["variant"].startswith(words[1]) and text["variant"].endswith(words[2])
    assert text["hint"] == words[3]
    assert "notes" not in text
    for item in items:
        ink = item.mask.getbbox()
        assert ink is not None
        assert item.x + ink[0] >= MARGIN and item.y + ink[1] >= MARGIN
        assert item.x + ink[2] <= panel.width - MARGIN
        assert item.y + ink[3] <= panel.height - MARGIN
    for a, b in combinations(items, 2):
        ax0, ay0, ax1, ay1 = a.box
        bx0, by0, bx1, by1 = b.box
        assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0

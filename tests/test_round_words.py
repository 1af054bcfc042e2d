"""A round's name on the status row, in the table's own word order (issue #31): English puts
the number after the word ("Year 1/12"), Japanese counts with the number first ("1年目/12",
"1巡目"). `[rounds] name` says where the number goes with `{n}`; without it the number
follows the name. Each shipped game's first round is read off the screen in both languages
and on both panel sizes. Altay's phase played in turns was called "Turn" above "1/3 red's
turn"; it now says what is done in it, and on 128x32 a phase's name too long to share the hint
row with whose turn gets a page of its own instead of being cut."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, new_play, screen
from erabox.core.profile import ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screen_parts import Marks, round_label
from erabox.ui.screens import layout_play, turning

ERA = Input(Button.ERA, Gesture.PRESS)
NEXT = Input(Button.NEXT, Gesture.PRESS)

# game: its first round's status row (English, Japanese)
SHIPPED = {
    "altay": ("Round 1", "1巡目"),
    "hadrians-wall": ("Year 1/6", "1年目/6"),
    "lords-of-xidit": ("Year 1/12", "1年目/12"),
}


def first_round(game: str) -> Play:
    text = resources.files("erabox.games").joinpath(f"{game}.toml").read_text("utf-8")
    play = new_play(parse_profile(text, f"{game}.toml"), ("red", "blue", "green"))
    t = 1.0
    while play.spot.state is not State.ROUND:
        play, _ = step(play, ERA if play.spot.state is State.SETUP else NEXT, t)
        t += 1.0
    return play


@pytest.mark.parametrize("game", sorted(SHIPPED))
@pytest.mark.parametrize("height", [64, 32])
def test_each_shipped_game_counts_its_rounds_in_the_table_s_word_order(game: str,
                                                                       height: int) -> None:
    play = first_round(game)
    for language, said in zip(("en", "ja"), SHIPPED[game], strict=True):
        items = layout_play(screen(play, 0.0), Panel(height=height), language)
        status = next(i for i in items if i.role == "status")
        assert status.text == said, (language, height)


def test_the_number_goes_where_the_name_says() -> None:
    assert round_label("{n}巡目", 3) == "3巡目"
    assert round_label("{n}年目", 2, "/12") == "2年目/12"
    assert round_label("Year", 2, "/12") == "Year 2/12"
    assert round_label("Round", 7) == "Round 7"


HEAD = """[game]
id = "ring"
name = "Ring"

[players]
min = 2
max = 4

[rounds]
name = NAME
count = 2

[[phase]]
id = "play"
label = "Play"
"""


def test_a_name_with_its_number_placeholder_reads() -> None:
    prof = parse_profile(HEAD.replace("NAME", '{ en = "Round", ja = "{n}巡目" }'), "ring.toml")
    assert (prof.round_name.en, prof.round_name.ja) == ("Round", "{n}巡目")


@pytest.mark.parametrize("name, key", [
    ('{ en = "Round {m}", ja = "{n}巡目" }', "rounds.name.en"),
    ('{ en = "Round", ja = "{n}巡目{n}" }', "rounds.name.ja"),
    ('"Round {"', "rounds.name"),
])
def test_a_name_with_another_placeholder_names_the_file_line_and_key(name: str,
                                                                     key: str) -> None:
    with pytest.raises(ProfileError, match=rf"ring\.toml:10: key '{re.escape(key)}': "
                       r"expected a name with at most one \{n\}"):
        parse_profile(HEAD.replace("NAME", name), "ring.toml")


def first_turn() -> Play:
    """Altay, the shipped game with a phase played in turns: the first step of a turn."""
    play = first_round("altay")
    assert any(p.each_player for p in play.profile.phases)
    while not any(i.role == "footer" and "turn" in i.text
                  for i in layout_play(screen(play, 0.0), Panel(), "en")):
        play, _ = step(play, NEXT, 99.0)
        assert play.spot.state is State.ROUND, "no turn in round 1"
    return play


def test_a_players_turn_is_said_once_on_the_screen() -> None:
    """The footer says whose turn it is ("1/3 red's turn"); a phase played in turns names
    what is done in it, not "Turn" again (Altay's phase label was "Turn", "手番")."""
    play = first_turn()
    for language, word in (("en", "turn"), ("ja", "手番")):
        for height in (64, 32):
            texts = [i.text for i in layout_play(screen(play, 0.0), Panel(height=height),
                                                 language) if hasattr(i, "text")]
            said = sum(t.lower().count(word) for t in texts)  # 128x32: once, or on a page
            assert said == 1 if height == 64 else said <= 1, (language, height, texts)


@pytest.mark.parametrize("language, title", [("en", "Actions, discard, draw"),
                                             ("ja", "行動・捨て札・補充")])
def test_a_phase_name_too_long_beside_whose_turn_gets_a_page_of_its_own(language: str,
                                                                         title: str) -> None:
    """128x32's hint row: "1/3 red's turn" and the phase's name do not fit one row in
    English; each is said whole on a page, never "Actions,‥"."""
    compact = Panel(height=32)
    shown = screen(first_turn(), 0.0)
    footers = [next(i.text for i in layout_play(shown, compact, language, Marks(turn=k))
                    if i.role == "footer") for k in range(turning(shown, compact, language))]
    assert not any("‥" in f for f in footers), footers
    assert any(title in f for f in footers), footers
    assert any(("red's turn" if language == "en" else "赤の手番") in f for f in footers)

"""What a new user of a game profile met, checked where the user sees it: the `erabox
simulate --game` transcript (a `restart` is a power cut), the screen drawn by the renderer,
and the loop's wake-ups.

- A special round after the last round with more steps than the last phase: a cut during
  the scoring comes back at the scoring (the save is usable).
- A special round without steps of its own shows its label once, not as title and step.
- "New game?" draws the start player of a "random" profile again (`--seed`: the draws follow
  one another from the seed).
- The setup screen says who was drawn to start (both languages, both panels).
- A countdown on the screen moves every second: the loop wakes once a second while one
  shows, and not at all without one.
- The final ranking: hold ERA asks "New game?", as Time of Empires' final ranking does, and
  its hint says so (the same words).
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from erabox.core.config import Config
from erabox.core.model import Button, Event, Gesture, Input, Tick
from erabox.core.play import PlayScreen, screen
from erabox.core.profile import Profile, parse_profile
from erabox.core.script import ScriptLine
from erabox.run.simulate import Simulation
from erabox.ui.game_words import word as profile_word
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play
from erabox.ui.strings import say
from erabox.ui.text import line_image

PLAYERS = ("red", "blue", "green")
N_PRESS, N_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
BOTH = Input(Button.BOTH, Gesture.HOLD)

# Two rounds of one one-step phase; after the last round a census of three steps (more than
# the phase has), then one number each.
TINY = """
[game]
id = "tiny"
name = { en = "Tiny", ja = "小さな" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Round", ja = "ラウンド" }
count = 2

[start_player]
rule = "random"

[[phase]]
id = "play"
label = { en = "Play", ja = "プレイ" }

[[special]]
id = "census"
label = { en = "Census", ja = "国勢調査" }
after = [2]
steps = ["One", "Two", "Three"]

[[special]]
id = "feast"
label = { en = "Feast", ja = "宴" }
after = [1]

[[scoring.category]]
id = "vp"
label = { en = "VP", ja = "勝利点" }
"""


def tiny(text: str = TINY) -> Profile:
    return parse_profile(text, "tiny.toml", default_id="tiny")


def play_script(gestures: str, profile: Profile | None = None, seed: int = 0,
                ) -> tuple[Simulation, list[dict[str, Any]]]:
    """Gestures one a second: "n" NEXT press, "N" NEXT hold, "e" ERA press, "E" ERA hold,
    "b" NEXT+ERA held, "r" a power cut (the script's `restart`)."""
    events: list[dict[str, Any]] = []
    sim = Simulation(Config(players=PLAYERS), events.append, profile=profile or tiny(),
                     seed=seed)
    names = {"n": N_PRESS, "N": N_HOLD, "e": E_PRESS, "E": E_HOLD, "b": BOTH}
    for t, g in enumerate(gestures, start=1):
        if g == "r":
            sim.advance(float(t))
            sim.restart()
        else:
            sim.perform(ScriptLine(float(t), names[g], t))
    return sim, events


# --- 1. a cut in the scoring after a long special round -------------------------------------


@pytest.mark.parametrize(("end", "state", "entry"), [("e", "scoring", 1),
                                                     ("eee", "game_over", 2)])
def test_a_cut_in_the_scoring_after_a_long_special_round_comes_back_there(
        caplog: pytest.LogCaptureFixture, end: str, state: str, entry: int) -> None:
    # start (round 1), the feast, round 2, the census's three steps, the scoring: 4 for red
    # (and 0 for the others: the final ranking)
    with caplog.at_level(logging.WARNING, logger="erabox"):
        sim, events = play_script("e" + "n" + "n" + "nnn" + "n" + "nnnn" + end + "r")
    assert "unusable" not in caplog.text
    after_cut = events[[e.get("prompt") for e in events].index("resumed"):]
    assert not any(e["type"] == "setup" for e in after_cut)  # no fresh game
    spot = sim.game.spot
    assert (spot.state.value, spot.entry, spot.sheet[0][0]) == (state, entry, (4,))


# --- 5. a special round without steps --------------------------------------------------------


def drawn_lines(sim: Simulation, panel: Panel, language: str) -> list[bytes]:
    """Every text line the screen draws now, as pixels (a line's mask)."""
    return [item.mask.tobytes() for item in layout_play(screen(sim.game, sim.now), panel,
                                                         language)]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("panel", [Panel(), Panel(height=32)], ids=["128x64", "128x32"])
def test_a_special_round_without_steps_shows_its_label_once(panel: Panel,
                                                            language: str) -> None:
    sim, _ = play_script("en")  # start, then round 1 is over: the feast (no steps)
    assert sim.game.spot.state.value == "special"
    label = line_image("Feast" if language == "en" else "宴").tobytes()
    lines = drawn_lines(sim, panel, language)
    assert lines.count(label) == 1
    if panel.compact:  # not again beside the step's count in the footer
        assert line_image("1/1").tobytes() in lines
    # a special round with steps still shows its label and its step
    sim, _ = play_script("ennn")
    assert sim.game.spot.state.value == "special"
    census = "Census" if language == "en" else "国勢調査"
    if panel.compact:  # the step on its line, the label in the footer with 1/3
        assert line_image(f"1/3 {census}").tobytes() in drawn_lines(sim, panel, language)
    else:
        assert drawn_lines(sim, panel, language).count(line_image(census).tobytes()) == 1
    assert line_image("One").tobytes() in drawn_lines(sim, panel, language)


# --- 6. the final ranking's hold ERA -----------------------------------------------------------

TO_RANKING = "e" + "n" + "n" + "nnn" + "n" + "nnnn" + "eee"  # as above: red 4, the others 0


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("panel", [Panel(), Panel(height=32)], ids=["128x64", "128x32"])
def test_the_final_rankings_hint_says_new_game_as_time_of_empires_does(
        panel: Panel, language: str) -> None:
    sim, _ = play_script(TO_RANKING)
    assert sim.game.spot.state.value == "game_over"
    hint = say(language, "hint_new_game")  # Time of Empires' final ranking's own hint
    # ... or, where the ranking has more pages than the panel shows (the ties explained),
    # with "NEXT: more" before it
    more = profile_word(language, "hint_over_more")
    assert hint.split(": ")[-1].replace("ERA長押し:", "") in more
    drawn = drawn_lines(sim, panel, language)
    assert line_image(hint).tobytes() in drawn or line_image(more).tobytes() in drawn


def test_hold_era_at_the_final_ranking_asks_for_a_new_game() -> None:
    sim, events = play_script(TO_RANKING + "E")
    assert sim.game.spot.state.value == "game_over"  # not back at the last number
    assert screen(sim.game, sim.now).kind == "confirm"
    sim, events = play_script(TO_RANKING + "En")  # NEXT: no, the ranking stays
    assert screen(sim.game, sim.now).kind == "game_over"
    sim, events = play_script(TO_RANKING + "Ee")  # ERA: yes, a fresh game at its setup
    assert sim.game.spot.state.value == "setup" and sim.game.history == ()
    assert {k: v for k, v in events[-1].items() if k != "t"} == {"type": "state",
                                                                 "state": "setup"}


# --- 4. a countdown moves every second --------------------------------------------------------


def test_a_countdown_on_the_screen_moves_every_second_and_wakes_the_loop_only_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    timed = tiny(TINY.replace('label = { en = "Play", ja = "プレイ" }\n',
                              'label = { en = "Play", ja = "プレイ" }\ntimer_s = 120\n'))
    shown: list[tuple[float, int | None]] = []

    def on_screen(model: PlayScreen, t: float) -> None:
        shown.append((t, model.timer_left))

    sim = Simulation(Config(players=PLAYERS), lambda event: None, on_screen, profile=timed)
    wakes: list[float] = []
    stepped = sim.driver.step

    def counting(event: Event, now: float, due: float | None = None) -> None:
        if isinstance(event, Tick):
            wakes.append(now)
        stepped(event, now, due)

    monkeypatch.setattr(sim.driver, "step", counting)
    sim.perform(ScriptLine(10.0, E_PRESS, 1))  # round 1: two minutes from 10 s
    sim.advance(20.5)
    assert shown[-11:] == [(10.0 + s, 120 - s) for s in range(11)]  # 2:00, 1:59 ... 1:50
    assert wakes == [11.0 + s for s in range(10)]  # one a second, no more
    sim.advance(140.0)
    assert shown[-1] == (130.0, None) and screen(sim.game, 140.0).timer_done  # Time!
    # each second to the gong, and once to write the gong's record ahead of it by the card's
    # lead (docs/power-cuts.md), then none
    assert len(wakes) == 121 and wakes[-2] == pytest.approx(129.9)
    sim.perform(ScriptLine(141.0, N_PRESS, 2))  # the feast: no countdown
    assert sim.driver.next_deadline(141.0) is None


# --- 2. a new game draws its start player again -----------------------------------------------


def round_starts(events: list[dict[str, Any]]) -> list[str]:
    return [e["start_player"] for e in events if e["type"] == "round" and e["round"] == 1]


@pytest.mark.parametrize("seed", [1, 3, 5])
def test_a_new_game_draws_its_start_player_again(seed: int) -> None:
    draws = random.Random(seed)  # what `--seed` draws from: one draw a game, in turn
    expected = [PLAYERS[draws.randrange(len(PLAYERS))] for _ in range(3)]
    assert len(set(expected[:2])) == 2  # a seed whose second game has another start player
    # a game, "New game?" ERA (yes), a second game, and a third
    _, events = play_script("e" + "be" + "e" + "be" + "e", seed=seed)
    assert round_starts(events) == expected
    # the drawn start player is kept across a cut (the save holds it)
    _, events = play_script("e" + "be" + "r" + "e", seed=seed)
    assert round_starts(events) == expected[:2]


# --- 3. the drawn start player at setup ---------------------------------------------------------

STARTS = {"en": "{n} players  {colour} starts", "ja": "{n}人  スタート: {colour}"}
COLOUR = {"en": {"red": "red", "blue": "blue", "green": "green"},
          "ja": {"red": "赤", "blue": "青", "green": "緑"}}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("panel", [Panel(), Panel(height=32)], ids=["128x64", "128x32"])
def test_the_setup_screen_says_who_was_drawn_to_start(panel: Panel, language: str) -> None:
    for seed, gestures in ((5, ""), (5, "be"), (1, ""), (1, "be")):
        draws = random.Random(seed)
        seats = [draws.randrange(len(PLAYERS)) for _ in range(2)]
        sim, _ = play_script(gestures, seed=seed)  # the first game, or the next one
        assert sim.game.spot.state.value == "setup"
        drawn = PLAYERS[seats[len(gestures) // 2]]
        line = STARTS[language].format(n=3, colour=COLOUR[language][drawn])
        assert line_image(line).tobytes() in drawn_lines(sim, panel, language), (seed, line)


def test_a_long_variant_keeps_the_drawn_start_player_on_its_line() -> None:
    text = TINY.replace("count = 2\n", "").replace("[start_player]", """
[[variant]]
id = "long"
label = "Long: 12 rounds"
rounds = 2

[[variant]]
id = "short"
label = "Short: 9 rounds"
rounds = 2

[start_player]""")
    sim, _ = play_script("", profile=tiny(text), seed=5)  # green drawn
    for panel in (Panel(), Panel(height=32)):
        lines = drawn_lines(sim, panel, "en")
        assert line_image("Long: 12 rounds  green starts").tobytes() in lines

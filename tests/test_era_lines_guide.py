"""The `guide` lines of Time of Empires' golden scripts played by the round file in Time of
Empires' words (`[game] lines = "eras"`, core/era_lines_guide.py): each scenario's `guide`
lines as the era engine recorded them (the scenario's `output`), byte for byte.

A `guide` line is written whenever the guide walked at a setup (`[rounds] guide_at_setup`)
shows another step: its era, its part ("game": the game's setup, a special round before round
1; "era": the era's preparation), its place in the part, its name (the step's `say` key
without its part's prefix, docs/profiles.md) and the number its text shows (its first
`{name}`). The round file's game setup opens on the players step, as the era engine's: 11
steps with four players.
"""

from __future__ import annotations

import io
import json
from typing import Any

from erabox.core.era_lines_guide import guide_fields
from erabox.core.guide import guided
from erabox.core.machine import step
from erabox.core.play import new_play
from erabox.core.profile import parse_profile
from test_golden import SCENARIOS
from test_profile_guide_at_setup import NEXT, WALKED

DEAL = 'steps = ["Deal the cards"]'
assert DEAL in WALKED

def guide_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["type"] == "guide"]


def test_the_goldens_guide_lines_are_all_played() -> None:
    """44 `guide` lines in 29 of the 84 scenarios (the guide off or never shown in the rest)."""
    counts = [len(guide_lines([json.loads(line) for line in io.StringIO(json.loads(
        path.read_text(encoding="utf-8"))["output"])])) for path in SCENARIOS]
    assert (sum(counts), sum(1 for n in counts if n)) == (44, 29)


def test_a_guide_line_without_what_or_number_says_none() -> None:
    """A game of no eras, its steps without `say`: era, what and n None; a special round
    before round 1 the game's part, round 1's phase the era's; off the guide, no line."""
    play = new_play(guided(parse_profile(WALKED, "sprint.toml"), True), ("red", "blue"))
    assert guide_fields(play) == {"era": None, "part": "game", "step": 1, "steps": 1,
                                  "what": None, "n": None}
    play, _ = step(play, NEXT, 0.0)
    assert guide_fields(play) == {"era": None, "part": "era", "step": 1, "steps": 1,
                                  "what": None, "n": None}
    play, _ = step(play, NEXT, 0.0)  # the race's own step of the guide: the era's too
    assert guide_fields(play) == {"era": None, "part": "era", "step": 1, "steps": 1,
                                  "what": None, "n": None}
    play, _ = step(play, NEXT, 0.0)  # past the last step: the setup itself
    assert guide_fields(play) is None


def test_say_names_the_step_and_its_text_its_number() -> None:
    named = WALKED.replace(DEAL, 'steps = [{ en = "Deal {players} cards each", ja = '
                           '"{players}枚ずつ配る", say = "prep_tech_decks" }]')
    play = new_play(guided(parse_profile(named, "sprint.toml"), True), ("red", "blue", "green"))
    play, _ = step(play, NEXT, 0.0)
    assert guide_fields(play) == {"era": None, "part": "era", "step": 1, "steps": 1,
                                  "what": "tech_decks", "n": 3}

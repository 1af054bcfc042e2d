"""The rulebook's numbers and the box's defaults, for the pure core.

The game's own numbers are in its profile, `games/time-of-empires.toml`, which the box reads
at start (`erabox.core.own_game`); these are the same numbers, the defaults of the config's
dataclasses when no profile is at hand (tests/test_golden.py and tests/test_own_game_profile.py
keep the two equal).

Everything else takes them from this module (the config's dataclasses, the parser, the screen
model, the renderer, the sample screens, the snapshot checks), so changing a default is a
change of one line here. `erabox.example.toml` is checked against them by the tests
(tests/test_config.py): it must parse to exactly the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

ERAS = 3  # Eras I, II and III
MAX_ERAS = 9  # a game profile's eras at most (its [[era]] tables; Era IX's numeral is the last)
MIN_PLAYERS = 2  # the game is for 2 to 4 players
MAX_PLAYERS = 4
# The box seats more for a game profile that allows it (its `[players]`): from 1 (a solo game)
# to 8 players, each a seat colour (`SEAT_COLOURS`) or a name of the table's own.
MIN_SEATS = 1
MAX_SEATS = 8
# The seats' colours, in the order the settings menu gives them to new seats: the game's four
# first, then four more with short names in both languages (ui/strings.py).
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "white", "black")
SCORING_STEPS = 6  # the scoring checklist at the end of each era (docs/game.md)

# A real-time era (the default mode): the action phase and its scholar cues, running seconds.
ERA_LENGTH_S = 540.0  # 9:00 from start gong to end gong
SCHOLAR_CUES_S = (180.0, 360.0)  # the baby cries at 3:00 and 6:00
LEAD_IN_S = 5  # countdown ticks before the start gong
FINAL_TICKS_S = 10  # a tick each second before the end gong
SCHOLAR_PROMPT_S = 15.0  # how long "Appoint scholars!" stays over the clock

# An introductory era: counted in rounds, with scholar calls after some of them.
INTRO_ROUNDS = 15
SCHOLAR_AFTER_ROUNDS = (5, 10)

# The scoring checklist's steps that give victory points (docs/game.md): leader cards (3) give a
# card, city sieges (6) a city; the box shows those and asks nothing.
SCORING_GIVES_POINTS = (True, True, False, True, True, False)
# Destruction (step 1) gives 3 VP per building in the destroyed buildings area: the box asks the
# buildings and shows the VP.
DESTRUCTION_STEP = 0
DESTRUCTION_VP = 3
# Each step's number counts so many times (the profile's `multiply`): destruction's x3.
SCORING_MULTIPLY = tuple(DESTRUCTION_VP if n == DESTRUCTION_STEP else 1
                         for n in range(SCORING_STEPS))

# The preparation phase (docs/game.md): each era adds one random wonder card, so the wonder board
# holds 1/2/3 of them; each era's construction bonus token is worth 1/2/3 VP per building.
WONDERS_ON_BOARD = (1, 2, 3)
BONUS_TOKEN_VP = (1, 2, 3)
EXTRA_LEADER_PLAYERS = 4  # a 4-player game adds a leader in the extra (rightmost) space


# The preparation guide (docs/game.md), as the profile's `[[setup.step]]` and
# `[[preparation.step]]` rows say it: one screen each, in the rulebook's order.
@dataclass(frozen=True)
class GuideRow:
    """One step of the guide: `say` names the box's text for it (ui/strings.py); `n` the
    number it shows ("players", "wonders", "bonus_token_vp", or "" for none); it is shown
    with at least `players_at_least` players, from era `from_era` on, only in era `era` (0:
    every era), only in `mode` ("realtime" or "intro"; "": both)."""

    say: str
    n: str = ""
    players_at_least: int = 0
    from_era: int = 1
    era: int = 0
    mode: str = ""


GUIDE_NUMBERS = ("players", "wonders", "bonus_token_vp")
SETUP_STEPS = (
    GuideRow("setup_players", n="players"),
    GuideRow("setup_wonders"),
    GuideRow("setup_terrain", n="players"),
    GuideRow("setup_technology"),
    GuideRow("setup_leader_decks"),
    GuideRow("setup_effect_tiles"),
    GuideRow("setup_extra_effect", players_at_least=EXTRA_LEADER_PLAYERS),
    GuideRow("setup_player_board"),
    GuideRow("setup_player_cards"),
    GuideRow("setup_resources"),
    GuideRow("setup_birth"),
)
PREP_STEPS = (
    GuideRow("prep_remove_cards", from_era=2),
    GuideRow("prep_tech_decks"),
    GuideRow("prep_wonder", n="wonders"),
    GuideRow("prep_remove_leaders", from_era=2),
    GuideRow("prep_leaders"),
    GuideRow("prep_extra_leader", players_at_least=EXTRA_LEADER_PLAYERS),
    GuideRow("prep_hourglasses_intro", mode="intro"),
    GuideRow("prep_oldest_holds_box", era=1, mode="intro"),
    GuideRow("prep_hourglasses", mode="realtime"),
    GuideRow("prep_scholars"),
    GuideRow("prep_bonus_token", n="bonus_token_vp"),
)
# The texts a guide step may say: the box has them in English and Japanese.
GUIDE_TEXTS = tuple(row.say for row in SETUP_STEPS + PREP_STEPS)

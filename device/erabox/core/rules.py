"""The rulebook's numbers and the box's defaults: each written once, here.

Everything else takes them from this module (the config's dataclasses, the parser, the screen
model, the renderer, the sample screens, the snapshot checks), so changing a default is a
change of one line here. `erabox.example.toml` is checked against them by the tests
(tests/test_config.py): it must parse to exactly the defaults.
"""

from __future__ import annotations

ERAS = 3  # Eras I, II and III
MIN_PLAYERS = 2  # the game is for 2 to 4 players
MAX_PLAYERS = 4
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

# The preparation phase (docs/game.md): each era adds one random wonder card, so the wonder board
# holds 1/2/3 of them; each era's construction bonus token is worth 1/2/3 VP per building.
WONDERS_ON_BOARD = (1, 2, 3)
BONUS_TOKEN_VP = (1, 2, 3)
EXTRA_LEADER_PLAYERS = 4  # a 4-player game adds a leader in the extra (rightmost) space

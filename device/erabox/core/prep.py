"""The preparation guide: the game's setup (before Era I) and each era's preparation.

Pure: `steps(era, players, mode, first, numbers)` lists what the table does before that era's
action phase, one short screen each (docs/game.md). The steps are data: the game's profile's
`[[setup.step]]` and `[[preparation.step]]` rows (`numbers`, from games/time-of-empires.toml;
by default the rulebook's, `rules.SETUP_STEPS` and `rules.PREP_STEPS`), each shown by player
count, era and mode. The rulebook's, in short:

- The game's setup (`first`: a new game, before Era I's preparation): the players chosen, the
  wonder and technology decks, the central board's terrain tiles for 2/3/4 players, the leader
  decks and leader effect tiles (a 4-player game also fills the rightmost column), each
  player's own pieces, and the birth of the empire (each player's first clan on their capital).
- An era's preparation: Era I skips removing the previous era's cards and leaders; the wonder
  board holds 1/2/3 wonders; a 4-player game places an extra leader; the construction bonus
  token is worth the era's 1/2/3 VP. An introductory era has its own hourglass step (the
  hourglasses only mark actions) and, in Era I, the oldest player takes the box as start
  player.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .config import PrepNumbers
from .model import Mode
from .rules import GuideRow

RULEBOOK = PrepNumbers()  # the rulebook's numbers, when no profile's are given


class Part(StrEnum):
    GAME = "game"  # the game's one-off setup, before Era I
    ERA = "era"  # the era's preparation phase


@dataclass(frozen=True)
class PrepStep:
    """One screen of the guide: `key` names its text; `n` is the number it shows (wonders on
    the board, the bonus token's VP, the players), or None; `part` says which part of the
    guide it belongs to."""

    key: str
    n: int | None = None
    part: Part = Part.ERA


def _shown(row: GuideRow, era: int, players: int, mode: Mode) -> bool:
    return (players >= row.players_at_least and era >= row.from_era
            and row.era in (0, era) and row.mode in ("", mode.value))


def _number(row: GuideRow, era: int, players: int, numbers: PrepNumbers) -> int | None:
    if row.n == "players":
        return players
    if row.n == "wonders":
        return numbers.wonders[era - 1]
    if row.n == "bonus_token_vp":
        return numbers.bonus_token_vp[era - 1]
    return None


def game_setup(players: int, numbers: PrepNumbers = RULEBOOK) -> tuple[PrepStep, ...]:
    """The one-off setup of a new game for `players` (2..4), in the rulebook's order;
    `numbers`: the game's profile's steps and numbers."""
    return tuple(PrepStep(row.say, _number(row, 1, players, numbers), Part.GAME)
                 for row in numbers.setup if _shown(row, 1, players, Mode.REALTIME))


def era_steps(era: int, players: int, mode: Mode = Mode.REALTIME,
              numbers: PrepNumbers = RULEBOOK) -> tuple[PrepStep, ...]:
    """The preparation steps of `era` (1..the game's eras) for `players` (2..4) in `mode`, in
    the rulebook's order, as the game's profile's `numbers` list them (one wonder count per
    era)."""
    era = min(max(era, 1), len(numbers.wonders))
    return tuple(PrepStep(row.say, _number(row, era, players, numbers))
                 for row in numbers.steps if _shown(row, era, players, mode))


def steps(era: int, players: int, mode: Mode = Mode.REALTIME, first: bool = False,
          numbers: PrepNumbers = RULEBOOK) -> tuple[PrepStep, ...]:
    """The whole guide shown over `era`'s setup: with `first` (a new game's Era I), the game's
    setup, then the era's preparation."""
    setup = game_setup(players, numbers) if first and era == 1 else ()
    return setup + era_steps(era, players, mode, numbers)


def position(guide: tuple[PrepStep, ...], index: int) -> tuple[int, int]:
    """(n, count) of step `index` within its part of `guide` ("Game setup 2/9")."""
    part = guide[index].part
    same = [i for i, step in enumerate(guide) if step.part is part]
    return same.index(index) + 1, len(same)


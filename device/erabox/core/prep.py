"""The preparation guide: the game's setup (before Era I) and each era's preparation.

Pure: `steps(era, players, mode, first)` lists what the table does before that era's action
phase, one short screen each (docs/game.md).

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

from .model import Mode
from .rules import BONUS_TOKEN_VP, ERAS, EXTRA_LEADER_PLAYERS, WONDERS_ON_BOARD


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


def game_setup(players: int) -> tuple[PrepStep, ...]:
    """The one-off setup of a new game for `players` (2..4), in the rulebook's order."""
    out = [PrepStep("setup_players", players, Part.GAME),
           PrepStep("setup_wonders", None, Part.GAME),
           PrepStep("setup_terrain", players, Part.GAME),
           PrepStep("setup_technology", None, Part.GAME),
           PrepStep("setup_leader_decks", None, Part.GAME),
           PrepStep("setup_effect_tiles", None, Part.GAME)]
    if players >= EXTRA_LEADER_PLAYERS:
        out.append(PrepStep("setup_extra_effect", None, Part.GAME))
    out += [PrepStep("setup_player_board", None, Part.GAME),
            PrepStep("setup_player_cards", None, Part.GAME),
            PrepStep("setup_resources", None, Part.GAME),
            PrepStep("setup_birth", None, Part.GAME)]
    return tuple(out)


def era_steps(era: int, players: int, mode: Mode = Mode.REALTIME) -> tuple[PrepStep, ...]:
    """The preparation steps of `era` (1..3) for `players` (2..4) in `mode`, in the
    rulebook's order."""
    era = min(max(era, 1), ERAS)
    out: list[PrepStep] = []
    if era > 1:
        out.append(PrepStep("prep_remove_cards"))
    out.append(PrepStep("prep_tech_decks"))
    out.append(PrepStep("prep_wonder", WONDERS_ON_BOARD[era - 1]))
    if era > 1:
        out.append(PrepStep("prep_remove_leaders"))
    out.append(PrepStep("prep_leaders"))
    if players >= EXTRA_LEADER_PLAYERS:
        out.append(PrepStep("prep_extra_leader"))
    if mode is Mode.INTRO:
        out.append(PrepStep("prep_hourglasses_intro"))
        if era == 1:
            out.append(PrepStep("prep_oldest_holds_box"))
    else:
        out.append(PrepStep("prep_hourglasses"))
    out.append(PrepStep("prep_scholars"))
    out.append(PrepStep("prep_bonus_token", BONUS_TOKEN_VP[era - 1]))
    return tuple(out)


def steps(era: int, players: int, mode: Mode = Mode.REALTIME,
          first: bool = False) -> tuple[PrepStep, ...]:
    """The whole guide shown over `era`'s setup: with `first` (a new game's Era I), the game's
    setup, then the era's preparation."""
    setup = game_setup(players) if first and era == 1 else ()
    return setup + era_steps(era, players, mode)


def position(guide: tuple[PrepStep, ...], index: int) -> tuple[int, int]:
    """(n, count) of step `index` within its part of `guide` ("Game setup 2/9")."""
    part = guide[index].part
    same = [i for i, step in enumerate(guide) if step.part is part]
    return same.index(index) + 1, len(same)


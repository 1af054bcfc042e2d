"""The preparation guide: the steps of the preparation checklist (docs/game.md) for one era.

Pure: `steps(era, players)` lists what the table does before that era's action phase, one
short screen each. Era I skips removing the previous era's cards and leaders; the wonder board
holds 1/2/3 wonders; a 4-player game places an extra leader; the construction bonus token is
worth the era's 1/2/3 VP.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import BONUS_TOKEN_VP, ERAS, EXTRA_LEADER_PLAYERS, WONDERS_ON_BOARD


@dataclass(frozen=True)
class PrepStep:
    """One screen of the guide: `key` names its text; `n` is the number it shows (wonders on
    the board, the bonus token's VP), or None."""

    key: str
    n: int | None = None


def steps(era: int, players: int) -> tuple[PrepStep, ...]:
    """The preparation steps of `era` (1..3) for `players` (2..4), in the rulebook's order."""
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
    out.append(PrepStep("prep_hourglasses"))
    out.append(PrepStep("prep_scholars"))
    out.append(PrepStep("prep_bonus_token", BONUS_TOKEN_VP[era - 1]))
    return tuple(out)

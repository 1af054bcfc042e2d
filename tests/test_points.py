"""The score sheet (core/points.py) as the reader of older state files and the standings use
it: places shared, totals the numbers kept, the sheet's record read back. The entry of points
by gestures is the round engine's: tests/test_rounds_entry.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from erabox.core import points as scores
from erabox.core.rules import ERAS, SCORING_GIVES_POINTS


def test_standings_share_places() -> None:
    assert [(p.place, p.player) for p in scores.standings((10, 20, 10))] == [
        (1, 1), (2, 0), (2, 2)]


@st.composite
def sheets(draw: st.DrawFn) -> scores.Sheet:
    players = draw(st.integers(2, 4))
    number = st.integers(0, 60)
    points = tuple(tuple(tuple(draw(number) if gives else 0 for _ in range(players))
                         for gives in (*SCORING_GIVES_POINTS, True))  # the era total last
                   for _ in range(ERAS))
    buildings = tuple(draw(st.none() | st.integers(0, 30)) for _ in range(players))
    return scores.Sheet(points, buildings)


@given(sheets())
def test_totals_are_the_numbers_kept_and_the_sheet_round_trips(sheet: scores.Sheet) -> None:
    flat = [v for era in sheet.points for row in era for v in row]
    assert sum(scores.totals(sheet)) == sum(flat)
    assert scores.sheet_from_dict(scores.sheet_to_dict(sheet), sheet.players) == sheet

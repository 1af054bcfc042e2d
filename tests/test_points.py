"""The score sheet (core/points.py) as the reader of older state files uses it: totals the
numbers kept, a tie for first named, the sheet's record read back. The entry of points by
gestures is the round engine's (tests/test_rounds_entry.py); its standings, places shared,
are tests/test_points_game.py's (a tie for first and a shared victory, through the buttons)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from erabox.core import points as scores
from erabox.core.rules import ERAS, SCORING_GIVES_POINTS


def test_a_tie_for_first_names_the_players_sharing_it() -> None:
    assert scores.tied_for_first((10, 20, 20)) == (1, 2)
    assert scores.tied_for_first((10, 20, 10)) == ()  # one leads
    assert scores.tied_for_first(()) == ()


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
def test_totals_are_the_numbers_kept_and_an_older_record_reads_back(sheet: scores.Sheet
                                                                    ) -> None:
    flat = [v for era in sheet.points for row in era for v in row]
    assert sum(scores.totals(sheet)) == sum(flat)
    record = {"points": [[list(row) for row in era] for era in sheet.points],
              "buildings": list(sheet.buildings)}  # as an older box wrote it
    assert scores.sheet_from_dict(record, sheet.players) == sheet
    assert scores.sheet_from_dict(record, None) == sheet  # its players counted from it

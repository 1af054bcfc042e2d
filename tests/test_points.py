"""Entering victory points: the pure step function of device/erabox/core/points.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from erabox.core import points as scores
from erabox.core.model import Button, Gesture, Input
from erabox.core.points import Entry, Outcome, Stage, entry_step
from erabox.core.rules import ERAS, SCORING_GIVES_POINTS

N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD


def gestures_for(n: int) -> list[Input]:
    """The fewest gestures entering `n` and confirming it: holds (+5) then presses (+1)."""
    return ([Input(N, H)] * (n // scores.HOLD_ADDS) + [Input(N, P)] * (n % scores.HOLD_ADDS)
            + [Input(E, P)])


def test_fifteen_points_take_four_gestures() -> None:
    sheet = scores.blank(3)
    entry = Entry(era=1, by_step=False)
    gestures = gestures_for(15)
    for g in gestures:
        entry, sheet, _ = entry_step(entry, sheet, g)
    assert len(gestures) <= 4
    assert sheet.points[0][scores.ERA_TOTAL] == (15, 0, 0)
    assert scores.where(entry, 3) == (scores.ERA_TOTAL, 1)  # on to the next player


def play_era(entry: Entry, sheet: scores.Sheet, numbers: list[int]
             ) -> tuple[Entry, scores.Sheet, Outcome]:
    """Enter `numbers` at every asked position; ERA on shown steps and standings."""
    outcome = Outcome.NONE
    it = iter(numbers)
    for _ in range(200):
        here = scores.stage(entry, sheet.players)
        if here in (Stage.POINTS, Stage.BUILDINGS):
            for g in gestures_for(next(it)):
                entry, sheet, outcome = entry_step(entry, sheet, g)
        else:
            entry, sheet, outcome = entry_step(entry, sheet, Input(E, P))
        if outcome in (Outcome.NEXT_ERA, Outcome.GAME_OVER):
            return entry, sheet, outcome
    raise AssertionError("the entry never finished")


def test_steps_without_points_are_shown_not_asked() -> None:
    sheet = scores.blank(2)
    entry = Entry(era=1)
    seen = []
    for _ in range(40):
        step, player = scores.where(entry, 2)
        if step is None:
            break
        seen.append((step, player, scores.stage(entry, 2)))
        entry, sheet, _ = entry_step(entry, sheet, Input(E, P))
    asked = {s for s, p, st_ in seen if st_ is Stage.POINTS}
    shown = {s for s, p, st_ in seen if st_ is Stage.SHOWN}
    assert asked == {i for i, g in enumerate(SCORING_GIVES_POINTS) if g}
    assert shown == {2, 5}  # leader cards, city sieges
    assert scores.stage(entry, 2) is Stage.STANDINGS


def test_undo_clears_then_goes_back_to_correct_the_previous_number() -> None:
    sheet = scores.blank(2)
    entry = Entry(era=1, by_step=False)
    for g in gestures_for(7):
        entry, sheet, _ = entry_step(entry, sheet, g)
    entry, sheet, _ = entry_step(entry, sheet, Input(N, P))
    entry, sheet, out = entry_step(entry, sheet, Input(E, H))  # clears the number
    assert (entry.value, out) == (0, Outcome.UNDONE)
    entry, sheet, out = entry_step(entry, sheet, Input(E, H))  # back to player 0's 7
    assert scores.where(entry, 2) == (scores.ERA_TOTAL, 0) and entry.value == 7
    assert scores.totals(sheet) == (0, 0)  # being corrected: not counted twice
    entry, sheet, _ = entry_step(entry, sheet, Input(N, P))
    entry, sheet, _ = entry_step(entry, sheet, Input(E, P))
    assert sheet.points[0][scores.ERA_TOTAL] == (8, 0)


def test_dial_counts_both_ways_never_below_zero() -> None:
    sheet = scores.blank(2)
    entry = Entry(era=1)
    for b in (Button.DIAL_UP, Button.DIAL_UP, Button.DIAL_DOWN, Button.DIAL_DOWN,
              Button.DIAL_DOWN):
        entry, sheet, _ = entry_step(entry, sheet, Input(b, P))
    assert entry.value == 0


def test_standings_share_places() -> None:
    assert [(p.place, p.player) for p in scores.standings((10, 20, 10))] == [
        (1, 1), (2, 0), (2, 2)]


def test_a_tie_for_first_is_settled_by_buildings_asked_of_the_tied_only() -> None:
    sheet = scores.blank(3)
    outcome = Outcome.NONE
    for era in range(1, ERAS + 1):
        # players 0 and 2 end level (20 each), player 1 behind
        numbers = [5, 1, 5] if era < 3 else [10, 1, 10, 12, 14]
        _, sheet, outcome = play_era(Entry(era=era, by_step=False), sheet, numbers)
    assert outcome is Outcome.GAME_OVER
    assert scores.totals(sheet) == (20, 3, 20)
    assert sheet.buildings == (12, None, 14)  # player 1 was never asked
    ranking = scores.final_ranking(sheet)
    assert [(p.place, p.player) for p in ranking] == [(1, 2), (2, 0), (3, 1)]
    assert scores.winners(sheet) == (2,)


def test_equal_buildings_is_a_shared_victory() -> None:
    sheet = scores.blank(3)
    for era in range(1, ERAS + 1):
        numbers = [4, 4, 1] + [0] * 9 + ([9, 9] if era == 3 else [])
        _, sheet, outcome = play_era(Entry(era=era), sheet, numbers)
    assert outcome is Outcome.GAME_OVER
    assert scores.winners(sheet) == (0, 1)
    assert [p.place for p in scores.final_ranking(sheet)] == [1, 1, 3]


def test_no_tie_asks_no_buildings() -> None:
    sheet = scores.blank(2)
    for era in range(1, ERAS + 1):
        _, sheet, outcome = play_era(Entry(era=era), sheet, [3, 2] + [0] * 6)
    assert outcome is Outcome.GAME_OVER and sheet.buildings == (None, None)


@given(st.lists(st.sampled_from([Input(N, P), Input(N, H), Input(E, P), Input(E, H),
                                 Input(Button.DIAL_DOWN, P)]), max_size=80),
       st.integers(2, 4))
def test_totals_are_the_confirmed_numbers_and_the_sheet_round_trips(
        gestures: list[Input], players: int) -> None:
    sheet = scores.blank(players)
    entry = Entry(era=2)
    for g in gestures:
        entry, sheet, outcome = entry_step(entry, sheet, g)
        if outcome is Outcome.NEXT_ERA:
            break
        assert entry.value >= 0
    flat = [v for era in sheet.points for row in era for v in row]
    assert sum(scores.totals(sheet)) == sum(flat)
    assert scores.sheet_from_dict(scores.sheet_to_dict(sheet), players) == sheet

"""The points entry of Time of Empires' round file (core/entry.py, played through
`ProfileEngine` as the box plays it): what each gesture adds to the number asked, the hold's
ramp, the minus chord, the dial, undo, the categories shown but not asked, and the tie for
first settled by the buildings (docs/game.md). Ported from the era engine's entry tests
(test_points.py, test_points_fast.py) when that engine was removed."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from erabox.core import play as scores
from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, Screen, Tick
from erabox.core.play import Play, State
from erabox.core.rules import SCORING_GIVES_POINTS
from erabox.files.games import own_rounds

N, E, BOTH = Button.NEXT, Button.ERA, Button.BOTH
P, H, R = Gesture.PRESS, Gesture.HOLD, Gesture.RELEASE
GAP = 0.5  # between two gestures
PLAYERS = ("red", "blue", "green")


def engine_for(players: tuple[str, ...] = PLAYERS, points_entry: str = "totals"
               ) -> ProfileEngine:
    """Time of Empires' round file as the driver sets it up (guide off)."""
    config = Config(players=players, guide=False, points_entry=points_entry)
    return ProfileEngine(configured(guided(own_rounds(), False), config), config)


@dataclass
class Scoring:
    """A table at an era's scoring: the engine, the play, the clock."""

    engine: ProfileEngine
    play: Play
    now: float

    def do(self, button: Button, gesture: Gesture = P, after: float = GAP) -> None:
        self.now += after
        self.play, _ = self.engine.step(self.play, Input(button, gesture), self.now)

    def hold(self, held_s: float) -> None:
        """NEXT held, let go `held_s` after its hold fired."""
        self.do(N, H)
        self.do(N, R, after=held_s)

    def shown(self, at: float | None = None) -> Screen:
        screen = self.engine.screen(self.play, self.now if at is None else at)
        assert isinstance(screen, Screen)
        return screen

    def to_next_scoring(self) -> None:
        """From an era's standings or setup, through the next era to its scoring."""
        while self.play.spot.state is not State.SCORING:
            if self.play.spot.state in (State.STANDINGS, State.ERA_SETUP, State.SETUP):
                self.do(E)
                continue
            due = self.engine.next_deadline(self.play, self.now)
            assert due is not None
            self.now = max(self.now, due)
            self.play, _ = self.engine.step(self.play, Tick(), self.now)


@functools.cache
def _era_one(players: tuple[str, ...], points_entry: str) -> Scoring:
    engine = engine_for(players, points_entry)
    play, _ = engine.fresh(0.0, 0)
    table = Scoring(engine, play, 0.0)
    table.to_next_scoring()
    return table


def scoring(players: tuple[str, ...] = PLAYERS, points_entry: str = "totals") -> Scoring:
    """Era I played in real time to its scoring (the play is a value: each table its own)."""
    played = _era_one(players, points_entry)
    return Scoring(played.engine, played.play, played.now)


def fewest(n: int) -> list[tuple[Button, Gesture, float]]:
    """The fewest gestures entering `n` and confirming it: one hold ramped to the multiple of
    5 nearest above or below (held on past its threshold), then +1 presses or -1 short chords,
    then ERA."""
    k = n % 5
    target = n - k if k <= 2 else n + 5 - k
    out: list[tuple[Button, Gesture, float]] = []
    while target > 0:
        take = min(target, scores.RAMP_MAX)
        out.append((N, H, (take // scores.HOLD_ADDS - 1) * scores.RAMP_S + 0.1))
        target -= take
    out += [(N, P, 0.0)] * k if k <= 2 else [(BOTH, P, 0.0)] * (5 - k)
    return [*out, (E, P, 0.0)]


def enter(table: Scoring, n: int) -> None:
    for button, gesture, held in fewest(n):
        if gesture is H:
            table.hold(held)
        else:
            table.do(button, gesture)


def era_total(table: Scoring, seat: int) -> int | None:
    """The era total confirmed for `seat` (the last category: Time of Empires' era total)."""
    value = table.play.spot.sheet[-1][seat]
    return None if value is None else sum(value)


@given(st.integers(0, scores.RAMP_MAX + 2))
def test_any_number_up_to_the_ramp_takes_at_most_four_gestures(n: int) -> None:
    table = scoring()
    enter(table, n)
    assert era_total(table, 0) == n
    assert table.shown().player == PLAYERS[1]  # on to the next player
    assert len(fewest(n)) <= 4 and len(fewest(15)) == 2


def test_the_ramp_is_chosen_on_release_and_shown_while_held() -> None:
    table = scoring()
    table.do(N, H)
    held_at = table.now
    assert table.shown().value == scores.HOLD_ADDS
    assert table.shown(held_at + 0.6).value == 10 and table.shown(held_at + 1.1).value == 15
    assert table.shown(held_at + 99.0).value == scores.RAMP_MAX  # a forgotten finger stops
    table.do(N, R, after=1.1)
    assert table.shown().value == 15 and table.shown(table.now + 5.0).value == 15
    table.do(N, R)  # a release that follows anything but a hold adds nothing
    assert table.shown().value == 15
    table.do(E, R)  # a release of another button neither confirms nor adds
    assert table.shown().value == 15 and era_total(table, 0) is None
    for _ in range(20):  # a short chord is -1, never below 0
        table.do(BOTH, P)
    assert table.shown().value == 0 and table.shown().player == PLAYERS[0]


def test_the_dial_counts_both_ways_never_below_zero() -> None:
    table = scoring()
    for button in (Button.DIAL_UP, Button.DIAL_UP, Button.DIAL_DOWN):
        table.do(button)
    assert table.shown().value == 1
    for _ in range(3):
        table.do(Button.DIAL_DOWN)
    assert table.shown().value == 0


def test_undo_clears_then_goes_back_to_correct_the_previous_number() -> None:
    table = scoring()
    enter(table, 7)
    table.do(N)
    assert (table.shown().player, table.shown().value) == (PLAYERS[1], 1)
    table.do(E, H)  # clears the number
    assert (table.shown().player, table.shown().value) == (PLAYERS[1], 0)
    table.do(E, H)  # back to the first player's 7, being corrected
    assert (table.shown().player, table.shown().value) == (PLAYERS[0], 7)
    table.do(N)
    table.do(E)
    assert era_total(table, 0) == 8


def test_per_step_the_steps_without_points_are_shown_not_asked() -> None:
    """Leader cards and city sieges give no points: shown in their place, asked of no one."""
    table = scoring(points_entry="steps")
    asked, shown = [], []
    for _ in range(60):
        if table.play.spot.state is not State.SCORING:
            break
        screen = table.shown()
        (asked if screen.player is not None else shown).append(screen.scoring_step)
        table.do(E)
    assert table.play.spot.state is State.STANDINGS
    gives = {i for i, g in enumerate(SCORING_GIVES_POINTS) if g}
    assert {s for s in asked if s is not None} == gives
    assert {s for s in shown if s is not None} == {2, 5}  # leader cards, city sieges


def play_game(numbers: list[list[int]], buildings: list[int]) -> Scoring:
    """Three eras, their totals `numbers` (one list per era, a number per player), then the
    buildings asked at the end."""
    table = scoring()
    for era, totals in enumerate(numbers):
        if era:
            table.to_next_scoring()
        for n in totals:
            enter(table, n)
        table.do(E)  # the standings
    for n in buildings:
        enter(table, n)
    return table


def test_a_tie_for_first_is_settled_by_buildings_asked_of_the_tied_only() -> None:
    table = play_game([[5, 1, 5], [5, 1, 5], [10, 1, 10]], [12, 14])  # red and green level
    # (place, player, total, buildings): blue, behind, was never asked
    assert table.shown().places == ((1, "green", 20, 14), (2, "red", 20, 12), (3, "blue", 3,
                                                                               None))


def test_equal_buildings_is_a_shared_victory() -> None:
    table = play_game([[4, 4, 1], [0, 0, 0], [0, 0, 0]], [9, 9])
    assert [place[0] for place in table.shown().places] == [1, 1, 3]

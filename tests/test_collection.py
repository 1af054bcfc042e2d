"""The loop runs Python's older garbage collections itself, only when a pass fits.

The policy (`erabox.core.collection`) is pure; `LoopCollector` is checked on the real `gc`
module, with CPython's own behaviour as the control: garbage that outlived a young collection
is freed by CPython's automatic middle collection, and while the loop owns those, by nothing
but the loop. Then the real `Box` loop on a virtual clock (it gives the collector exactly the
time it is about to wait), and `erabox run` itself (it owns the collections while it runs).
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from tests.test_output_lead import HeardAudio, VirtualClock, VirtualInbox

from erabox.adapters.collector import INCREMENTAL, OUT_OF_REACH, LoopCollector
from erabox.core.collection import FIRST_GUESS_S, MARGIN, MIN_SLACK_S, due_generation, fits
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input
from erabox.ports import Stop
from erabox.run.app import Box
from erabox.run.driver import MemoryState

generational = pytest.mark.skipif(INCREMENTAL, reason="Python 3.14+ collects incrementally")

# --- the policy ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("counts", "due"), [
    ((500, 0, 0), None),
    ((0, 10, 9), None),  # CPython collects once a count is *over* its threshold
    ((0, 11, 0), 1),
    ((0, 11, 9), 1),
    ((0, 11, 10), 2),  # the eleventh middle pass would be a full one
    ((0, 400, 3), 1),  # long deferred: still only what is due
])
def test_the_due_generation_follows_cpythons_thresholds(counts: tuple[int, int, int],
                                                        due: int | None) -> None:
    assert due_generation(counts, (700, 10, 10)) == due


def test_a_pass_must_fit_before_the_next_wake_up_with_room_to_spare() -> None:
    assert fits(None, 5.0)  # nothing due at all: any pass fits
    assert not fits(MIN_SLACK_S * 0.99, 0.0)  # never right before a wake-up
    assert fits(MIN_SLACK_S, 0.0)
    cost = 0.04
    assert not fits(MARGIN * cost * 0.99, cost)
    assert fits(MARGIN * cost, cost)
    assert not fits(0.2, FIRST_GUESS_S[2])  # an untimed full pass waits for a quiet moment


# --- on the real gc module ------------------------------------------------------------------


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def aged_garbage() -> weakref.ref[Node]:
    """A cycle that outlived a young collection (so it sits in the middle generation), now
    unreachable: only a middle or full pass frees it."""
    node = Node()
    gc.collect(0)
    return weakref.ref(node)


def young_collections(runs: int) -> None:
    """Allocate until the automatic young collection has run at least `runs` more times."""
    before = gc.get_stats()[0]["collections"]
    kept: list[list[int]] = []
    while gc.get_stats()[0]["collections"] - before < runs:
        kept.append([])  # a tracked object that stays alive: the young count only grows
    kept.clear()


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generation of every pass the collector starts, automatic or asked for."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


@generational
def test_control_cpython_frees_aged_garbage_on_its_own(passes: list[int]) -> None:
    gone = aged_garbage()
    young_collections(12)  # more than the middle threshold (10): CPython runs a middle pass
    assert any(generation >= 1 for generation in passes)
    assert gone() is None


@generational
def test_while_the_loop_owns_them_no_allocation_starts_an_older_pass(
        passes: list[int]) -> None:
    defaults = gc.get_threshold()
    collector = LoopCollector()
    with collector:
        assert gc.get_threshold() == (defaults[0], OUT_OF_REACH, OUT_OF_REACH)
        gc.collect()  # counts from zero, whatever ran before
        gone = aged_garbage()
        passes.clear()
        young_collections(40)
        assert passes and set(passes) == {0}  # young passes only
        assert gone() is not None  # nobody freed it
        assert collector.idle(slack_s=MIN_SLACK_S / 2) is None  # too close to a wake-up
        assert gone() is not None
        assert collector.idle(slack_s=None) == 1  # a quiet moment: the middle pass
        assert passes[-1] == 1 and gone() is None
        assert collector.cost_s[1] < FIRST_GUESS_S[1] * 100  # it was timed
        assert collector.idle(slack_s=None) is None  # nothing due any more
    assert gc.get_threshold() == defaults


@generational
def test_every_eleventh_pass_the_loop_runs_is_a_full_one(passes: list[int]) -> None:
    collector = LoopCollector()
    with collector:
        gc.collect()  # counts from zero, whatever ran before
        ran: list[int | None] = []
        while 2 not in ran:
            young_collections(11)
            ran.append(collector.idle(slack_s=None))
            assert len(ran) <= 12
        assert ran == [1] * 10 + [2]
        assert passes[-1] == 2 and gc.get_count()[1:] == (0, 0)


@generational
def test_a_second_loop_in_the_process_leaves_them_to_the_first() -> None:
    defaults = gc.get_threshold()
    first, second = LoopCollector(), LoopCollector()
    with first:
        with second:
            assert first.owned and not second.owned
        assert gc.get_threshold() == (defaults[0], OUT_OF_REACH, OUT_OF_REACH)
        second.__enter__()  # and the other way round: the first ends while the second runs
    assert gc.get_threshold() == defaults
    second.__exit__()
    assert gc.get_threshold() == defaults


def test_a_collector_that_does_not_own_the_collections_does_nothing(
        passes: list[int]) -> None:
    collector = LoopCollector()
    young_collections(12)
    passes.clear()
    assert collector.idle(slack_s=None) is None  # not entered: CPython is in charge
    assert 1 not in passes and 2 not in passes


# --- in the loop ------------------------------------------------------------------------------


class SlackLog(LoopCollector):
    """The real collector, noting the slack the loop gives it each time."""

    def __init__(self) -> None:
        super().__init__()
        self.slacks: list[float | None] = []

    def idle(self, slack_s: float | None) -> int | None:
        self.slacks.append(slack_s)
        return super().idle(slack_s)


class TimedInbox(VirtualInbox):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.waits: list[float | None] = []

    def empty(self) -> bool:
        return not (self.items and self.items[0][0] <= self.clock.t)

    def get(self, timeout: float | None = None) -> Any:
        self.waits.append(timeout)
        return super().get(timeout)


def test_the_loop_offers_exactly_the_time_it_is_about_to_wait() -> None:
    clock = VirtualClock(100.0)
    collector = SlackLog()
    era = Input(Button.ERA, Gesture.PRESS)
    box = Box(Config(), state_file=MemoryState(), audio=HeardAudio(clock), clock=clock,
              collector=collector)
    inbox = TimedInbox(clock, [(101.0, era), (115.0, Stop("test"))])
    box.inbox = inbox  # type: ignore[assignment]
    box.start_game()
    box.run_loop()
    # a wait with nothing in the inbox: the collector heard of it first, with the same time
    assert len(collector.slacks) == len(inbox.waits) > 10
    assert collector.slacks == inbox.waits
    offered = [s for s in collector.slacks if s is not None]
    assert offered and min(offered) >= 0.0


@generational
def test_erabox_run_owns_the_collections_while_it_runs(tmp_path: Any) -> None:
    from erabox.benchmarks.harness import Session, run_in_process

    defaults = gc.get_threshold()

    def scenario(session: Session) -> tuple[int, int, int]:
        session.pause_for(0.05)
        return gc.get_threshold()

    run = run_in_process("", scenario, tmp_path)
    assert run.result == (defaults[0], OUT_OF_REACH, OUT_OF_REACH)
    assert gc.get_threshold() == defaults

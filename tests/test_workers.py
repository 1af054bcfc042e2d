"""The shared worker helpers: the newest value wins, nothing is lost at close, a failing value
does not end the worker (and what a failure means follows the worker's `Again` policy);
unchanged values are skipped."""

from __future__ import annotations

import logging
import threading

import pytest

from erabox.adapters.workers import Again, ChangedOnly, NewestWorker


def test_a_busy_worker_handles_only_the_newest_value() -> None:
    started, release = threading.Event(), threading.Event()
    handled: list[int] = []

    def handle(value: int) -> None:
        handled.append(value)
        if value == 1:
            started.set()
            release.wait(10)

    worker = NewestWorker("test-newest", handle)
    worker.put(1)
    assert started.wait(10)
    for value in (2, 3, 4):  # while 1 is being handled: only 4 survives
        worker.put(value)
    assert not worker.flush(timeout=0)  # still busy with 1
    release.set()
    assert worker.flush(timeout=10)
    worker.close()
    assert handled == [1, 4]


def test_close_handles_what_is_pending_and_a_bad_value_is_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    gate = threading.Event()
    handled: list[int] = []

    def handle(value: int) -> None:
        gate.wait(10)
        if value < 0:
            raise ValueError("bad value")
        handled.append(value)

    worker = NewestWorker("test-close", handle)
    with caplog.at_level(logging.ERROR):
        worker.put(-1)
        gate.set()
        assert worker.flush(timeout=10)
        worker.put(7)
        worker.close(timeout=10)
    assert handled == [7]
    assert any("test-close" in r.getMessage() for r in caplog.records)


def test_changed_only_lets_through_what_differs() -> None:
    gate = ChangedOnly[bytes]()
    assert gate.last is None
    assert [gate.changed(v) for v in (b"a", b"a", b"b", b"a", b"a")] == [
        True, False, True, True, False]
    assert gate.last == b"a"
    assert gate.differs(b"c") and gate.last == b"a"  # asking remembers nothing
    gate.remember(b"c")
    assert not gate.differs(b"c")
    gate.forget()
    assert gate.changed(b"c")
    none_first = ChangedOnly[None]()
    assert none_first.changed(None) and not none_first.changed(None)


def test_a_failed_value_is_retried_until_a_newer_one_comes() -> None:
    calls: list[str] = []
    done = threading.Event()

    def handle(value: str) -> float | None:
        calls.append(value)
        if value == "flaky" and calls.count("flaky") < 3:
            return 0.0  # failed: again at once
        if value == "stuck":
            return 60.0  # failed: again in a minute (the test never waits for that)
        done.set()
        return None

    worker = NewestWorker("test-retry", handle)
    worker.put("flaky")
    assert done.wait(10) and calls == ["flaky"] * 3
    worker.put("stuck")
    assert worker.flush(timeout=10)  # a value waiting for its retry counts as done
    assert calls[-1] == "stuck"
    done.clear()
    worker.put("fresh")  # replaces the stuck one, handled at once
    assert done.wait(10) and worker.flush(timeout=10)
    worker.put("stuck")
    assert worker.flush(timeout=10)
    worker.close(timeout=10)  # one more try for the failed value, then the thread ends
    assert calls == ["flaky"] * 3 + ["stuck", "fresh", "stuck", "stuck"]


def test_a_failed_part_is_not_tried_again_before_its_retry_time_whatever_comes() -> None:
    """`Again.PART`: after a failure, newer values wait for the retry time too, `flush` does
    not call a failed value done, and `close` drops it rather than try once more."""
    calls: list[str] = []

    def handle(value: str) -> float | None:
        calls.append(value)
        return 60.0  # the part is down: again in a minute (the test never waits for that)

    worker = NewestWorker("test-part", handle, again=Again.PART)
    worker.put("first")
    assert not worker.flush(timeout=0.2)  # failed, waiting for its retry: not done
    assert calls == ["first"]
    for value in ("second", "third"):
        worker.put(value)  # not tried now: attempts stay a minute apart
    assert not worker.flush(timeout=0.2)
    assert worker.close(timeout=10)  # the thread ends at once, the waiting value dropped
    assert calls == ["first"]


def test_a_part_answering_again_gets_the_newest_value() -> None:
    calls: list[str] = []
    failed = threading.Event()

    def handle(value: str) -> float | None:
        calls.append(value)
        if value == "old":
            failed.set()
            return 0.05  # down for a moment
        return None

    worker = NewestWorker("test-part-back", handle, again=Again.PART)
    worker.put("old")
    assert failed.wait(10)
    worker.put("new")  # replaces the failed one: at the retry, the newest is tried
    assert worker.flush(timeout=10)
    worker.close(timeout=10)
    assert calls[-1] == "new" and calls.count("new") == 1
    assert set(calls[:-1]) == {"old"}  # "old" again only if its retry came before "new"


def test_close_says_when_the_thread_is_left_behind() -> None:
    started, release = threading.Event(), threading.Event()

    def handle(value: int) -> None:
        started.set()
        release.wait(10)  # a hung part

    worker = NewestWorker("test-hung", handle)
    worker.put(1)
    assert started.wait(10)
    assert worker.close(timeout=0.05) is False  # still inside `handle`: left behind
    release.set()
    assert worker.close(timeout=10) is True


def test_the_default_policy_retries_a_newer_value_at_once_and_once_more_at_close() -> None:
    calls: list[str] = []

    def handle(value: str) -> float | None:
        calls.append(value)
        return None if value == "good" else 60.0

    worker = NewestWorker("test-default", handle)
    worker.put("bad")
    assert worker.flush(timeout=10)  # waiting for its retry: done, as far as flush goes
    worker.put("good")  # handled at once, not after the minute
    assert worker.flush(timeout=10)
    worker.put("bad")
    assert worker.flush(timeout=10)
    assert worker.close(timeout=10)
    assert calls == ["bad", "good", "bad", "bad"]  # the last: one more try at close


def test_a_timer_wakes_at_its_deadline_or_at_a_put_and_close_does_not_fire_it() -> None:
    """`Again.TIMER` (the buttons' gesture thread): `handle` returns the seconds until its next
    deadline; a put wakes it at once; closing leaves a waiting deadline unfired."""
    calls: list[str] = []
    second = threading.Event()

    def handle(value: str) -> float | None:
        calls.append(value)
        if value == "soon" and calls.count("soon") == 1:
            return 0.05  # a deadline in 50 ms
        second.set()
        return 60.0 if value == "far" else None

    worker = NewestWorker("test-timer", handle, again=Again.TIMER)
    worker.put("soon")
    assert second.wait(10)  # called again when the deadline came, with nothing put
    assert calls == ["soon", "soon"]
    worker.put("far")  # its next deadline is a minute away
    assert worker.flush(timeout=10)
    worker.put("edge")  # an edge: handled at once, not at the deadline
    assert worker.flush(timeout=10) and calls[-1] == "edge"
    worker.put("far")
    assert worker.flush(timeout=10)
    assert worker.close(timeout=10)
    assert calls == ["soon", "soon", "far", "edge", "far"]  # the last deadline never fired

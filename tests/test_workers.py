"""The shared worker helpers: the newest value wins, nothing is lost at close, a failing value
does not end the worker; unchanged values are skipped."""

from __future__ import annotations

import logging
import threading

import pytest

from device.workers import ChangedOnly, NewestWorker


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

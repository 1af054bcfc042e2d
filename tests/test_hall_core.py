"""The hall's pure parts: commands and signatures, the ledger, the clock's sync, slewing, the
[hall] config, and the engine seam (`core/steer.py`) the hall's orders go through."""

from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from erabox.core.config import ConfigError, parse_config
from erabox.core.hall import (
    QUIET_S,
    SLEW_S,
    STEP_S,
    ClockSync,
    Command,
    HallState,
    Ledger,
    Rejected,
    Sample,
    correction,
    decode,
    encode,
    next_command,
)
from erabox.core.model import SteerAction

KEY = b"k"
HALL = "club"


def command(seq: int = 1, action: SteerAction = SteerAction.START, **kw: object) -> Command:
    return Command(id=f"c{seq}", seq=seq, hall=HALL, action=action, at=100.0, **kw)  # type: ignore[arg-type]


def test_a_signed_command_comes_back_as_sent() -> None:
    sent = command(running_s=3.5, era=2)
    assert decode(encode(sent, KEY), KEY, HALL) == sent


@pytest.mark.parametrize(("payload", "why"), [
    (b"not json", "not JSON"),
    (b"[1]", "no command body"),
    (json.dumps({"body": {"seq": 1}}).encode(), "unsigned"),
    (b"x" * 5000, "no command"),
])
def test_malformed_or_unsigned_is_rejected_saying_why(payload: bytes, why: str) -> None:
    with pytest.raises(Rejected, match=why):
        decode(payload, KEY, HALL)


def test_a_wrong_key_a_changed_body_or_another_hall_is_rejected() -> None:
    payload = encode(command(), KEY)
    with pytest.raises(Rejected, match="signature"):
        decode(payload, b"other", HALL)
    tampered = json.loads(payload)
    tampered["body"]["at"] = 99.0
    with pytest.raises(Rejected, match="signature"):
        decode(json.dumps(tampered).encode(), KEY, HALL)
    with pytest.raises(Rejected, match="hall"):
        decode(encode(replace(command(), hall="other"), KEY), KEY, HALL)


def test_a_signed_but_malformed_command_is_rejected() -> None:
    bad = encode(replace(command(), action=SteerAction.SLEW), KEY)
    with pytest.raises(Rejected, match="malformed"):
        decode(bad, KEY, HALL)


def test_the_ledger_obeys_each_command_once_and_never_an_older_one() -> None:
    ledger = Ledger()
    assert ledger.accept(command(2))
    assert not ledger.accept(command(2))  # a duplicate
    assert not ledger.accept(command(1))  # a late copy or a replay of an older one
    assert ledger.accept(command(3))


def test_the_directors_commands_follow_the_halls_state() -> None:
    idle = HallState()
    assert next_command(idle, SteerAction.PAUSE, 10.0, 1.0, 1, "a", HALL) is None
    start = next_command(idle, SteerAction.START, 10.0, 1.0, 1, "a", HALL)
    assert start is not None and (start.at, start.running_s) == (11.0, 0.0)
    running = HallState.of(start)
    pause = next_command(running, SteerAction.PAUSE, 20.0, 1.0, 2, "b", HALL)
    assert pause is not None and pause.running_s == pytest.approx(10.0)
    paused = HallState.of(pause)
    assert paused.running_at(50.0) == pytest.approx(10.0)
    assert next_command(paused, SteerAction.PAUSE, 30.0, 1.0, 3, "c", HALL) is None
    resume = next_command(paused, SteerAction.RESUME, 30.0, 1.0, 3, "c", HALL)
    assert resume is not None and resume.running_s == pytest.approx(10.0)
    assert HallState.of(resume).running_at(35.0) == pytest.approx(14.0)


@pytest.mark.parametrize("seed", range(5))
def test_the_clock_sync_finds_offset_and_rate_through_a_jittery_network(seed: int) -> None:
    rng = random.Random(seed)
    offset, rate = rng.uniform(-2, 2) + 1e6, rng.uniform(-200e-6, 200e-6)

    def hall(local: float) -> float:
        return offset + (1 + rate) * local

    sync = ClockSync()
    t = 0.0
    for _ in range(200):
        up, down = (0.02 + rng.uniform(-0.01, 0.01) + (0.2 if rng.random() < 0.01 else 0.0)
                    for _ in range(2))
        sync.add(Sample(t, hall(t + up), t + up + down))
        t += 1.0
    for local in (t, t + 30.0):  # now, and 30 s on (the broker gone since)
        assert abs(sync.hall_of(local) - hall(local)) < 0.004
        assert abs(sync.local_of(hall(local)) - local) < 0.004
    assert sync.settled and abs(sync.rate - rate) < 30e-6


def test_a_young_estimate_takes_no_rate_from_a_short_line() -> None:
    """Sixteen quick round trips: the offset from the best, no rate guessed from 1.6 s."""
    rng = random.Random(3)
    sync = ClockSync()
    for n in range(16):
        t = n * 0.1
        up, down = (0.02 + rng.uniform(-0.01, 0.01) for _ in range(2))
        sync.add(Sample(t, 500.0 + (1 + 150e-6) * (t + up), t + up + down))
    assert sync.rate == 0.0 and not sync.settled
    assert abs(sync.hall_of(1.6) - (500.0 + (1 + 150e-6) * 1.6)) < 0.006


def test_corrections_are_spread_out_unless_large() -> None:
    assert correction(10.0, 10.0 + QUIET_S / 2) is None
    assert correction(10.0, 10.010) == pytest.approx(10.0 + SLEW_S)
    assert correction(10.0, 9.990) == pytest.approx(10.0 - SLEW_S)
    assert correction(10.0, 10.0 + 2 * STEP_S) == 10.0 + 2 * STEP_S


def test_hall_config_reads_and_checks_its_keys() -> None:
    config = parse_config('[hall]\nbroker = "h:1884"\ntable = "t1"\nkey = "k"\n', "c.toml")
    assert config.hall is not None
    assert (config.hall.broker, config.hall.port, config.hall.pause_alone) == ("h", 1884, False)
    assert parse_config("", "c.toml").hall is None
    for text, key in [('broker = "h"\n', "key"), ('key = "k"\n', "broker"),
                      ('broker = "h:x"\nkey = "k"\n', "broker"),
                      ('broker = "h"\nkey = "k"\ntable = "a/b"\n', "table"),
                      ('broker = "h"\nkey = "k"\npause_alone = 1\n', "pause_alone"),
                      ('broker = "h"\nkey = "k"\nport = 0\n', "port"),
                      ('broker = "h"\nkey = "k"\nbrokr = 1\n', "brokr")]:
        with pytest.raises(ConfigError, match=f"hall.{key}"):
            parse_config("[hall]\n" + text, "c.toml")


def test_a_box_without_hall_imports_nothing_of_it() -> None:
    probe = ("import sys, erabox.cli, erabox.run.app\n"
             "print(sorted(m for m in sys.modules if 'paho' in m or m.endswith('hall')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# --- the engine seam: the hall's orders on a table's countdown (start ahead, late, pause,
# resume, slew, end; a table pausing alone) are proven on the round engine by
# tests/test_profile_steer.py and tests/test_hall_rounds.py.


@pytest.mark.parametrize(("code", "stops"), [(errno.EAFNOSUPPORT, True), (errno.EPERM, True),
                                             (errno.ECONNREFUSED, False),
                                             (errno.ENETUNREACH, False)])
def test_a_service_that_forbids_the_network_is_a_clear_error_a_dead_network_is_not(
        monkeypatch: pytest.MonkeyPatch, code: int, stops: bool) -> None:
    from erabox.adapters import hall as link
    from erabox.core.config import HallConfig

    def refuse(*_args: object, **_kw: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(link.socket, "create_connection", refuse)
    config = HallConfig(broker="192.0.2.1", key="k")
    if stops:
        with pytest.raises(link.HallError, match="forbids the network"):
            link._network_allowed(config)
    else:
        link._network_allowed(config)  # the box plays on alone and keeps trying

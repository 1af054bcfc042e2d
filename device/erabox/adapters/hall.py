"""A box's link to its hall over MQTT (paho-mqtt; docs/hall.md). Only imported with `[hall]`.

Topics, under `erabox/<hall>/`:

    command              the director's signed commands (QoS 1, retained: the newest)
    table/<table>/status this table's status (QoS 0, retained; the broker's last will says
                         "offline" when the box drops off)
    table/<table>/sync   this table's round trips to the director's clock (QoS 0)
    reply/<table>        ... and the director's answers (QoS 0)

What the link does, on one thread of its own (paho's network thread only hands messages over):
it keeps the box's estimate of the hall's clock (`core.hall.ClockSync`), turns each new
command into a `Steer` for the box's loop at the command's instant on the box's clock (a start
is handed over at once: the lead-in lays itself out to land on it), every `SLEW_EVERY_S` moves
a running era's anchor (or a round game's `hall = true` countdown's) toward the hall's running
time, and brings a box whose era (or countdown) does not match the hall back in line (a box
back from a power cut resumes on the hall's running time): `core.hall.keep_in_step`, on what
`core.hall_view` reads of the game. With the broker gone the box plays on alone on its last
estimate; the round trips and the corrections take up again when it returns.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erabox.core.config import ConfigError, HallConfig
from erabox.core.hall import (
    SLEW_EVERY_S,
    STATUS_EVERY_S,
    SYNC_EVERY_S,
    SYNC_FAST_S,
    ClockSync,
    Command,
    HallState,
    Ledger,
    Rejected,
    Rejoin,
    Sample,
    decode,
    keep_in_step,
)
from erabox.core.hall_view import status_of, table_of
from erabox.core.model import Steer, SteerAction
from erabox.core.play import Play

log = logging.getLogger("erabox.hall")

CONNECT_WAIT_S = 2.0  # at start: how long the broker may take to answer (then: play alone)
AUTH_FAILURES = ("Bad user name or password", "Not authorized")


class HallError(ConfigError):
    """The hall cannot be joined as configured (a wrong password, an unreadable key file)."""


def read_secret(value: str, path: str, what: str) -> str:
    """A secret given in the config, or read from its file (the file wins)."""
    if not path:
        return value
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise HallError(f"[hall] {what}: cannot read {path}: {exc.strerror}") from None


def topics(hall: str, table: str = "+") -> dict[str, str]:
    base = f"erabox/{hall}"
    return {"command": f"{base}/command", "status": f"{base}/table/{table}/status",
            "sync": f"{base}/table/{table}/sync", "reply": f"{base}/reply/{table}"}


def make_client(hall: HallConfig, client_id: str, user: str) -> Any:
    """A paho client with the hall's credentials and TLS (not connected yet)."""
    try:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion
    except ImportError:
        raise HallError("[hall] needs paho-mqtt, which is not installed: install the hall "
                        "extra (pip install 'erabox[hall]', or on a box installed with make "
                        "install: /opt/erabox/.venv/bin/pip install 'paho-mqtt>=2.0')"
                        ) from None

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv311)
    password = read_secret(hall.password, hall.password_file, "password_file")
    if user:
        client.username_pw_set(user, password or None)
    if hall.tls_ca:
        client.tls_set(ca_certs=hall.tls_ca, certfile=hall.tls_cert or None,
                       keyfile=hall.tls_key or None)
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    return client


def connect(client: Any, hall: HallConfig, who: str, on_connected: Callable[[], None]) -> None:
    """Connect in the background and wait for the broker's first answer: a refused password
    is a `HallError` now (not a silent box); no answer at all (the broker down) is only a
    warning: the box plays on alone and keeps trying."""
    answered = threading.Event()
    refused: list[str] = []

    def on_connect(_c: Any, _u: Any, _f: Any, reason: Any, _p: Any = None) -> None:
        if reason.is_failure:
            refused.append(str(reason))
            answered.set()
            return
        log.info("hall: %s connected to %s:%d", who, hall.broker, hall.port)
        on_connected()
        answered.set()

    client.on_connect = on_connect
    _network_allowed(hall)
    client.connect_async(hall.broker, hall.port, keepalive=5)
    client.loop_start()
    if not answered.wait(CONNECT_WAIT_S):
        log.warning("hall: no answer from the broker at %s:%d; playing on alone until it "
                    "answers", hall.broker, hall.port)
    elif refused:
        client.loop_stop()
        why = refused[0]
        hint = " (check [hall] user and password)" if why in AUTH_FAILURES else ""
        raise HallError(f"[hall] the broker at {hall.broker}:{hall.port} refused {who}: "
                        f"{why}{hint}")


def _network_allowed(hall: HallConfig) -> None:
    """A box whose service may open no network socket at all (the installed unit's default:
    docs/hall.md says how to allow it) is a `HallError`, not a box that waits in silence; a
    network that is only down is not (the box plays on alone)."""
    try:
        with socket.create_connection((hall.broker, hall.port), timeout=1.0):
            return
    except OSError as exc:
        if exc.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES):
            raise HallError(f"[hall] this box may not open a network connection ({exc.strerror}"
                            "): its service forbids the network; allow it with the drop-in "
                            "in docs/hall.md") from None


class HallLink:
    """One table's link (see the module's text). `game` returns the game the box plays now:
    its `Play` (the countdown of its `hall = true` phase kept in step,
    core/steer.py); `post` hands a `Steer` to
    the box's loop; `clock` is the box's clock (the one its game runs on)."""

    def __init__(self, hall: HallConfig, *, clock: Callable[[], float],
                 post: Callable[[Steer], None], game: Callable[[], Play],
                 client: Any = None) -> None:
        self.config = hall
        self.clock = clock
        self.post = post
        self.game = game
        self.key = read_secret(hall.key, hall.key_file, "key_file").encode()
        self.topics = topics(hall.hall, hall.table)
        self.sync = ClockSync()
        self.ledger = Ledger()
        self.state = HallState()
        self.pending: Command | None = None  # the newest command, until handed over
        self.detached = False  # the table paused alone (pause_alone): no corrections
        self.sent_rejoin: Rejoin | None = None
        self.held: tuple[int, ...] | None = None  # the clock seen held with the hall's pause
        self.quiet_until = 0.0  # an order was just handed over: the loop takes it first
        self._lock = threading.Condition()
        self._closed = False
        self._status_now = False
        user = hall.user or hall.table
        self.client = client if client is not None else make_client(
            hall, f"erabox-{hall.hall}-{hall.table}-{uuid.uuid4().hex[:6]}", user)
        self.client.will_set(self.topics["status"], json.dumps(
            {"table": hall.table, "online": False}), qos=1, retain=True)
        self.client.on_message = self._message
        self._thread = threading.Thread(target=self._run, name="erabox-hall", daemon=True)

    def start(self) -> None:
        connect(self.client, self.config, f"table {self.config.table!r}", self._subscribe)
        self._thread.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.client.loop_stop()
        self.client.disconnect()

    # --- paho's thread --------------------------------------------------------------------

    def _subscribe(self) -> None:
        self.client.subscribe([(self.topics["command"], 1), (self.topics["reply"], 0)])

    def _message(self, _client: Any, _userdata: Any, message: Any) -> None:
        if message.topic == self.topics["reply"]:
            self._reply(message.payload)
            return
        try:
            command = decode(message.payload, self.key, self.config.hall)
        except Rejected as exc:
            log.warning("hall: ignored %s on %s", exc, message.topic)
            return
        with self._lock:
            if not self.ledger.accept(command):
                return  # a duplicate, a late copy or a replay: obeyed already
            log.info("hall: command %d: %s at %.3f (running %.3f s)", command.seq,
                     command.action.value, command.at, command.running_s)
            self.pending = command
            self._status_now = True
            self._lock.notify_all()

    def _reply(self, payload: bytes) -> None:
        t3 = self.clock()
        try:
            answer = json.loads(payload)
            sample = Sample(float(answer["t1"]), float(answer["t2"]), t3)
        except (ValueError, KeyError, TypeError):
            log.warning("hall: ignored a malformed clock reply")
            return
        with self._lock:
            self.sync.add(sample)
            self._lock.notify_all()

    # --- the link's own thread ------------------------------------------------------------

    def _run(self) -> None:
        next_sync = next_status = next_slew = self.clock()
        while True:
            with self._lock:
                if self._closed:
                    return
                now = self.clock()
                due = min(next_sync, next_status, next_slew)
                order = self._order_due(now)
                if order is None and due > now and not self._status_now:
                    wait = due - now
                    if self.pending is not None and self.sync.ready:
                        wait = min(wait, self.sync.local_of(self.pending.at) - now)
                    self._lock.wait(max(0.0, wait))
                    continue
                status_now, self._status_now = self._status_now, False
            if order is not None:
                self.post(order)
                self.quiet_until = self.clock() + 1.0
            now = self.clock()
            if now >= next_sync:
                self._send_sync(now)
                next_sync = now + (SYNC_FAST_S if self.sync.count < 16 else SYNC_EVERY_S)
            if now >= next_slew:
                self._keep_in_step(now)
                next_slew = now + SLEW_EVERY_S
            if now >= next_status or status_now or order is not None:
                self._send_status(now)
                next_status = now + STATUS_EVERY_S

    def _order_due(self, now: float) -> Steer | None:
        """The pending command as the box's `Steer`, once its instant has come (a start at
        once: the lead-in lands it). Called under the lock."""
        command = self.pending
        if command is None or not self.sync.ready:
            return None
        at = self.sync.local_of(command.at)
        if command.action is not SteerAction.START and at > now:
            return None
        self.pending = None
        self.state = HallState.of(command)
        self.detached = False
        self.sent_rejoin = None
        self.held = None
        return Steer(command.action, at, command.running_s)

    def _keep_in_step(self, now: float) -> None:
        """Correct a running clock's anchor toward the hall's running time; bring a table
        whose clock is not where the hall's is back in line (`core.hall.keep_in_step`, on Time
        of Empires' era or on a round game's `hall = true` countdown)."""
        game = self.game()
        with self._lock:
            state, ready = self.state, self.sync.ready
            hall_now = self.sync.hall_of(now) if ready else 0.0
            hall_running = state.running_at(hall_now) if ready else None
        if hall_running is None or self.pending is not None or now < self.quiet_until:
            return
        table = table_of(game, now)
        kept = keep_in_step(table, state, hall_running, hall_now, now, self.config.pause_alone,
                            self.detached, self.sent_rejoin, self.held)
        self.detached, self.sent_rejoin, self.held = kept.detached, kept.sent_rejoin, kept.held
        order = kept.order
        if order is None:
            return
        if order.action is not SteerAction.SLEW:
            log.info("hall: the table is %s, the hall %s: %s on the hall's running time",
                     table.phase.value if table.phase else "elsewhere",
                     state.action.value if state.action else "idle", order.action.value)
        self.post(order)

    def _send_sync(self, now: float) -> None:
        self.client.publish(self.topics["sync"], json.dumps({"t1": now}), qos=0)

    def _send_status(self, now: float) -> None:
        self.client.publish(self.topics["status"], json.dumps(self.status(now)), qos=0,
                            retain=True)

    def status(self, now: float) -> dict[str, Any]:
        """What the director shows of this table."""
        game = self.game()
        with self._lock:
            sync, seq = self.sync, self.ledger.last_seq
            fields: dict[str, Any] = {
                "table": self.config.table, "online": True, "seq": seq,
                "synced": sync.ready, "settled": sync.settled,
                "rate_ppm": round(sync.rate * 1e6, 1),
                "rtt_ms": None if sync.best_rtt is None else round(sync.best_rtt * 1e3, 1),
                "hall_t": round(sync.hall_of(now), 4) if sync.ready else None,
                "detached": self.detached}
        return fields | status_of(game, now)

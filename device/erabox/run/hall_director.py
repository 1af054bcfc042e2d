"""`erabox hall`: the hall's director (docs/hall.md).

One program on a laptop or any box, with the same `[hall]` section as the tables (its own
broker user, the hall key). It is the hall's clock: it answers every table's round trips with
its wall clock (`time.time`), and it names each command's instant on that clock, `--lead`
seconds ahead (longer than any delay the network showed: at least twice the slowest answer a
table gave). Commands are retained on the broker, so a table that joins or comes back later
learns where the hall is.

    erabox hall [watch]              every table live; keys s/p/r/e start, pause, resume, end
                                     the era at every table, q quits (answers round trips)
    erabox hall serve                the same without a screen (answers round trips; for a
                                     service or a script)
    erabox hall status               each table's last status, one JSON line each, and exit
    erabox hall start|pause|resume|end   send one command and exit (`--wait S`: until every
                                     table known has obeyed it, printing its round trip)
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from erabox.adapters.hall import HallError, connect, make_client, read_secret, topics
from erabox.core.config import ConfigError, HallConfig
from erabox.core.hall import Command, HallState, Rejected, decode, encode, next_command
from erabox.core.model import SteerAction
from erabox.files.config import load_config

log = logging.getLogger("erabox.hall")

RETAINED_WAIT_S = 1.0  # what the broker keeps (the last command, statuses) arrives by then


class Director:
    """The director's link: tables' statuses, the hall's state, round trips answered."""

    def __init__(self, hall: HallConfig, clock: Callable[[], float] = time.time,
                 client: Any = None) -> None:
        self.config = hall
        self.clock = clock
        self.key = read_secret(hall.key, hall.key_file, "key_file").encode()
        self.topics = topics(hall.hall)
        self.tables: dict[str, dict[str, Any]] = {}
        self.state = HallState()
        self.last_seq = -1
        self.sent: dict[int, float] = {}  # seq -> when it was published (the hall's clock)
        self.published: bytes | None = None  # the newest command this director sent
        self.acked: dict[int, dict[str, float]] = {}  # seq -> table -> round trip (s)
        self.changed = threading.Condition()
        self.client = client if client is not None else make_client(
            hall, f"erabox-{hall.hall}-director-{uuid.uuid4().hex[:6]}", hall.user or "director")
        self.client.on_message = self._message

    def start(self) -> None:
        connect(self.client, self.config, "the director", self._subscribe)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def _subscribe(self) -> None:
        self.client.subscribe([(self.topics["command"], 1), (self.topics["status"], 0),
                               (self.topics["sync"], 0)])
        if self.published is not None:  # a broker that restarted forgot it: retained again
            self.client.publish(self.topics["command"], self.published, qos=1, retain=True)

    def _message(self, _client: Any, _userdata: Any, message: Any) -> None:
        parts = message.topic.split("/")
        if message.topic.endswith("/sync") and len(parts) == 5:
            self._answer(parts[3], message.payload)
            return
        if message.topic == self.topics["command"]:
            try:
                command = decode(message.payload, self.key, self.config.hall)
            except Rejected as exc:
                log.warning("hall: ignored %s", exc)
                return
            with self.changed:
                if command.seq >= self.last_seq:
                    self.last_seq, self.state = command.seq, HallState.of(command)
                self.changed.notify_all()
            return
        if message.topic.endswith("/status") and len(parts) == 5:
            try:
                status = json.loads(message.payload)
                assert isinstance(status, dict)
            except (ValueError, AssertionError):
                log.warning("hall: ignored a malformed status from %s", parts[3])
                return
            now = self.clock()
            with self.changed:
                self.tables[parts[3]] = status | {"seen": now}
                seq = status.get("seq")
                if isinstance(seq, int) and seq in self.sent:
                    self.acked.setdefault(seq, {}).setdefault(parts[3], now - self.sent[seq])
                self.changed.notify_all()

    def _answer(self, table: str, payload: bytes) -> None:
        t2 = self.clock()
        try:
            t1 = float(json.loads(payload)["t1"])
        except (ValueError, KeyError, TypeError):
            return
        self.client.publish(f"erabox/{self.config.hall}/reply/{table}",
                            json.dumps({"t1": t1, "t2": t2}), qos=0)

    def command(self, action: SteerAction, lead_s: float) -> Command | None:
        """Send `action` to every table, `lead_s` ahead (None: it makes no sense now)."""
        with self.changed:
            slowest = max((t for acks in self.acked.values() for t in acks.values()),
                          default=0.0)
            lead = max(lead_s, 2 * slowest)
            now = self.clock()
            era = max((t.get("era") or 0 for t in self.tables.values()), default=0)
            seq = max(self.last_seq + 1, int(now * 1000))
            command = next_command(self.state, action, now, lead, seq, uuid.uuid4().hex,
                                   self.config.hall, era)
            if command is None:
                return None
            self.sent[seq] = now
            self.last_seq, self.state = seq, HallState.of(command)
        self.published = encode(command, self.key)
        try:
            self.client.publish(self.topics["command"], self.published, qos=1,
                                retain=True).wait_for_publish(5)
        except (RuntimeError, ValueError) as exc:  # no broker now: sent again on reconnecting
            log.warning("hall: the command waits for the broker (%s)", exc)
        return command

    def wait_acks(self, seq: int, timeout: float) -> dict[str, float]:
        """Each table's round trip for command `seq`, waiting until every table known that is
        online has obeyed it (or `timeout`)."""
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                acks = dict(self.acked.get(seq, {}))
                online = {n for n, t in self.tables.items() if t.get("online")}
                left = end - time.monotonic()
                if online <= set(acks) or left <= 0:
                    return acks
                self.changed.wait(left)


def _line(name: str, table: dict[str, Any], now: float) -> str:
    if not table.get("online"):
        return f"{name:<12} offline"
    running = table.get("running_s")
    clock = "--:--" if running is None else f"{int(running) // 60}:{int(running) % 60:02d}"
    standings = " ".join(f"{p}:{v}" for p, v in table.get("standings") or [])
    # a round game's table: its round and phase too (the hall steers one phase's countdown)
    where = "" if "phase" not in table else f"round {table.get('round')} {table['phase']} "
    return (f"{name:<12} {table.get('game', '?'):<16} era {table.get('era', '?')} {where}"
            f"{table.get('state', '?'):<9} {clock:>6} {'paused' if table.get('paused') else '':6}"
            f" rtt {table.get('rtt_ms')} ms{'' if table.get('settled') else ' (settling)'}"
            f"  {standings}  ({now - table['seen']:.0f} s ago)")


def watch(director: Director, lead_s: float, out: Any = sys.stdout) -> None:
    """The live view; keys when the terminal has them."""
    keys = {"s": SteerAction.START, "p": SteerAction.PAUSE, "r": SteerAction.RESUME,
            "e": SteerAction.END}
    said = ""
    stop = threading.Event()
    if sys.stdin.isatty():
        import termios
        import tty

        saved = termios.tcgetattr(sys.stdin)
        tty.setcbreak(sys.stdin)

        def read_keys() -> None:
            nonlocal said
            while not stop.is_set():
                key = sys.stdin.read(1).lower()
                if key == "q":
                    stop.set()
                elif key in keys:
                    sent = director.command(keys[key], lead_s)
                    said = (f"sent {keys[key].value} at +{lead_s:.1f} s" if sent else
                            f"{keys[key].value}: not now (the hall is "
                            f"{director.state.action or 'idle'})")

        threading.Thread(target=read_keys, daemon=True).start()
    try:
        while not stop.wait(0.5):
            now = director.clock()
            with director.changed:
                lines = [_line(n, t, now) for n, t in sorted(director.tables.items())]
                state = director.state.action
            out.write("\x1b[H\x1b[2J" if out.isatty() else "\n")
            out.write(f"hall {director.config.hall}: {state or 'idle'}   "
                      f"[s]tart [p]ause [r]esume [e]nd [q]uit   {said}\n")
            out.write("\n".join(lines) + "\n")
            out.flush()
    finally:
        if sys.stdin.isatty():
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level="INFO", format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    config = load_config(args.config)
    if config.hall is None:
        raise ConfigError(f"{config.source}: no [hall] section: the director needs the "
                          "broker, its user and the hall key (docs/hall.md)")
    director = Director(config.hall)
    director.start()
    try:
        time.sleep(RETAINED_WAIT_S)  # the broker's retained command and statuses come in
        if args.action in ("watch", "serve"):
            if args.action == "watch":
                watch(director, args.lead)
            else:
                threading.Event().wait()
            return 0
        if args.action == "status":
            for name, table in sorted(director.tables.items()):
                print(json.dumps({"table": name} | table))
            return 0
        command = director.command(SteerAction(args.action), args.lead)
        if command is None:
            raise HallError(f"{args.action}: not now (the hall is "
                            f"{director.state.action or 'idle'})")
        acks = director.wait_acks(command.seq, args.wait) if args.wait else {}
        print(json.dumps({"seq": command.seq, "action": command.action.value,
                          "at": command.at, "running_s": command.running_s,
                          "round_trip_s": acks}))
        online = {n for n, t in director.tables.items() if t.get("online")}
        return 0 if not args.wait or online <= set(acks) else 1
    finally:
        director.close()

"""`make hall-bench`: how closely the boxes of a hall keep together (docs/hall.md).

Part 1, real boxes: a real Mosquitto broker on 127.0.0.1, four real `erabox run` processes
(headless, no sound card: the cue is timed when the loop hands it over) whose clocks are off by
up to 2 s and 200 ppm (ERABOX_TEST_CLOCK), each behind a proxy delaying every MQTT packet
20 ms +- 10 ms each way (1 % by 200 ms more), and the director in this process. One era of
`--era` seconds with a call every 10 s: a start, a pause and a resume, the broker killed for
10 s, a box killed and restarted, and the era's own end. Every box writes its events with the
host's monotonic time (`host`), so each cue's spread across the boxes is measured on one clock.

Part 2, load: `--load` simulated boxes (the same hall link as a box, without a game) on the
same broker through the delaying proxy; the director starts an era and waits for every table's
answer: the director's round trip, and the spread of the instants the boxes place the start at
(on the host's clock).

Prints the figures and writes them to bench-results/hall.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from erabox.adapters.hall import HallLink  # noqa: E402
from erabox.core.config import HallConfig  # noqa: E402
from erabox.core.model import Steer, SteerAction  # noqa: E402
from erabox.run.hall_director import Director  # noqa: E402
from hall_net import HALL, KEY, Broker, box_config, spawn_proxy, stop  # noqa: E402

ERABOX = str(Path(sys.executable).parent / "erabox")
CLOCKS = [(1.8, 190.0), (-1.9, -170.0), (0.6, 120.0), (-0.7, -200.0)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def run_box(folder: Path, config: Path, clock: tuple[float, float], name: str
            ) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ERABOX_TEST_CLOCK=f"{clock[0]},{clock[1]}", SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([ERABOX, "run", "--config", str(config), "--display", "none",
                             "--audio", "none", "--events", str(folder / f"{name}.jsonl")],
                            env=env, stdout=subprocess.DEVNULL,
                            stderr=(folder / f"{name}.log").open("w"))


def until(director: Director, test: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    with director.changed:
        while not test(director.tables):
            left = end - time.monotonic()
            if left <= 0:
                raise SystemExit(f"hall-bench: the hall never got there: {director.tables}")
            director.changed.wait(left)


def running(tables: dict[str, dict[str, Any]], at_least: float) -> bool:
    return all((t.get("running_s") or 0) >= at_least for t in tables.values())


def real_boxes(folder: Path, era_s: float) -> dict[str, Any]:
    names = [f"t{n}" for n in range(1, len(CLOCKS) + 1)]
    broker = Broker(folder, names)
    broker.start()
    proxies = [spawn_proxy(broker.port, seed=n) for n in range(len(names))]
    configs = {name: box_config(folder / name, name, proxies[n][1], broker.passwords[name],
                                length_s=era_s, cues=[float(c) for c in range(10, int(era_s),
                                                                                10)],
                                lead_in_s=3)
               for n, name in enumerate(names)}
    boxes = {name: run_box(folder / name, configs[name], CLOCKS[n], "events")
             for n, name in enumerate(names)}
    director = Director(HallConfig(broker="127.0.0.1", port=broker.port, hall=HALL,
                                   user="director", password=broker.passwords["director"],
                                   key=KEY))
    director.start()
    marks: dict[str, float] = {}
    try:
        until(director, lambda t: len(t) == len(names) and all(
            s.get("settled") and s.get("state") == "setup" for s in t.values()), timeout=120)
        director.command(SteerAction.START, 4.0)
        until(director, lambda t: running(t, 25))
        marks["pause"] = time.monotonic()
        director.command(SteerAction.PAUSE, 1.0)
        time.sleep(5)
        marks["resume"] = time.monotonic()
        director.command(SteerAction.RESUME, 1.0)
        until(director, lambda t: running(t, 42))
        marks["broker_down"] = time.monotonic()
        broker.kill()
        time.sleep(10)
        broker.start()
        marks["broker_back"] = time.monotonic()
        until(director, lambda t: running(t, 81.5) and len(t) == len(names))
        marks["box_killed"] = time.monotonic()
        boxes["t4"].send_signal(signal.SIGKILL)
        boxes["t4"].wait()
        time.sleep(2)
        boxes["t4"] = run_box(folder / "t4", configs["t4"], CLOCKS[3], "events2")
        marks["box_restarted"] = time.monotonic()
        until(director, lambda t: all(s.get("state") == "scoring" for s in t.values()),
              timeout=era_s + 60)
    finally:
        director.close()
        for box in boxes.values():
            box.terminate()
        for box in boxes.values():
            box.wait(timeout=20)
        for proxy, _ in proxies:
            stop(proxy)
        broker.kill()
    return spreads(folder, names, marks)


def spreads(folder: Path, names: list[str], marks: dict[str, float]) -> dict[str, Any]:
    """Each cue's spread across the boxes (the n-th of each kind of sound, per box)."""
    heard: dict[tuple[str, int], dict[str, float]] = {}
    for name in names:
        counts: dict[str, int] = {}
        for events in sorted((folder / name).glob("events*.jsonl")):
            for line in events.read_text().splitlines():
                event = json.loads(line)
                if event["type"] != "sound" or event["sound"] == "music_stop":
                    continue
                kind = event["sound"]
                if kind == "music_resume" and events.name != "events.jsonl" and \
                        counts.get(kind, 0) >= 1:
                    continue  # the restarted box resuming on the hall's time: its own cue
                counts[kind] = counts.get(kind, 0) + 1
                heard.setdefault((kind, counts[kind]), {})[name] = event["host"]
    rows = []
    for (kind, n), at in sorted(heard.items(), key=lambda kv: min(kv[1].values())):
        first = min(at.values())
        rows.append({"cue": f"{kind} {n}", "boxes": len(at), "host": first,
                     "spread_ms": round((max(at.values()) - first) * 1e3, 2)})
    together = [r["spread_ms"] for r in rows if r["boxes"] == len(names)]
    back = marks["broker_back"]
    after = [r for r in rows if r["boxes"] == len(names) and back <= r["host"] <= back + 30]
    rejoin = None
    again = folder / names[-1] / "events2.jsonl"
    if again.exists():
        resumed = [json.loads(line)["host"] for line in again.read_text().splitlines()
                   if '"music_resume"' in line]
        rejoin = round(resumed[0] - marks["box_restarted"], 2) if resumed else None
    first_after = next((r for r in rows if r["host"] > marks["box_restarted"]
                        and r["boxes"] == len(names)), None)
    return {"cues": rows, "all_boxes": len(together),
            "box_back_in_step_s": rejoin,
            "first_cue_after_restart": first_after,
            "p50_ms": statistics.median(together), "p99_ms": pct(together, 99),
            "max_ms": max(together),
            "after_broker_back_ms": [(round(r["host"] - back, 1), r["spread_ms"])
                                     for r in after],
            "missing": [r["cue"] for r in rows if r["boxes"] != len(names)]}


class SkewedClock:
    def __init__(self, offset_s: float, rate_ppm: float) -> None:
        self.base = time.monotonic()
        self.offset, self.rate = offset_s, 1 + rate_ppm * 1e-6

    def __call__(self) -> float:
        return self.base + self.offset + (time.monotonic() - self.base) * self.rate

    def host(self, local: float) -> float:
        return self.base + (local - self.base - self.offset) / self.rate


WORKERS = 4  # processes the simulated boxes are spread over (one GIL each)


def worker(port: int, tables: list[str], seed: int) -> None:
    """`--worker`: simulated boxes (hall links without a game) in this process; prints "ready"
    once all are linked, then on a line of standard input prints where each placed the start,
    on the host's clock, and ends."""
    rng = random.Random(seed)
    starts: dict[str, float] = {}
    lock = threading.Lock()
    links = []
    for table in tables:
        name, password = table.split(":")
        clock = SkewedClock(rng.uniform(-2, 2), rng.uniform(-200, 200))

        def post(order: Steer, name: str = name, clock: SkewedClock = clock) -> None:
            if order.action is SteerAction.START:
                with lock:
                    starts[name] = clock.host(order.at)

        link = HallLink(HallConfig(broker="127.0.0.1", port=port, hall=HALL, table=name,
                                   password=password, key=KEY),
                        clock=clock, post=post, game=lambda: None)
        link.start()
        links.append(link)
    print("ready", flush=True)
    sys.stdin.readline()
    for link in links:
        link.close()
    print(json.dumps(starts), flush=True)


def load(folder: Path, count: int) -> dict[str, Any]:
    names = [f"s{n:03d}" for n in range(count)]
    broker = Broker(folder, names)
    broker.start()
    proxy, port = spawn_proxy(broker.port, seed=99)
    workers = []
    for w in range(WORKERS):
        tables = [f"{n}:{broker.passwords[n]}" for n in names[w::WORKERS]]
        workers.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", str(port), str(w), *tables],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    director = Director(HallConfig(broker="127.0.0.1", port=broker.port, hall=HALL,
                                   user="director", password=broker.passwords["director"],
                                   key=KEY))
    director.start()
    starts: dict[str, float] = {}
    try:
        for process in workers:
            assert process.stdout is not None
            process.stdout.readline()
        until(director, lambda t: len(t) == count and all(s.get("settled")
                                                          for s in t.values()), timeout=180)
        command = director.command(SteerAction.START, 2.0)
        assert command is not None
        acks = director.wait_acks(command.seq, 30)
        time.sleep(1)
    finally:
        director.close()
        for process in workers:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("stop\n")
            process.stdin.flush()
            starts |= json.loads(process.stdout.readline() or "{}")
            process.wait(timeout=30)
        stop(proxy)
        broker.kill()
    trips = [t * 1e3 for t in acks.values()]
    placed = list(starts.values())
    return {"boxes": count, "answered": len(acks), "placed": len(placed),
            "round_trip_ms": {"p50": round(statistics.median(trips), 1),
                              "p99": round(pct(trips, 99), 1), "max": round(max(trips), 1)},
            "start_spread_ms": round((max(placed) - min(placed)) * 1e3, 2),
            "start_p99_from_median_ms": round(pct(
                [abs(p - statistics.median(placed)) * 1e3 for p in placed], 99), 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--era", type=float, default=150.0, help="era length, s (default 150)")
    parser.add_argument("--load", type=int, default=100, help="simulated boxes (default 100)")
    parser.add_argument("--out", default="bench-results/hall.json")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(int(args.worker[0]), args.worker[2:], int(args.worker[1]))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "real").mkdir()
        (folder / "load").mkdir()
        real = real_boxes(folder / "real", args.era)
        for row in real["cues"]:
            print(f"  {row['cue']:<16} boxes {row['boxes']}  spread {row['spread_ms']:7.2f} ms")
        print(f"four boxes: {real['all_boxes']} cues heard by all: spread p50 "
              f"{real['p50_ms']:.2f} ms, p99 {real['p99_ms']:.2f} ms, max {real['max_ms']:.2f} ms")
        print("after the broker came back (s after, spread ms):", real["after_broker_back_ms"])
        print("cues not heard by every box:", real["missing"] or "none")
        print(f"box killed and restarted: back on the hall's running time "
              f"{real['box_back_in_step_s']} s after its process started; the next cue "
              f"{real['first_cue_after_restart']}")
        loaded = load(folder / "load", args.load) if args.load else None
        if loaded:
            print(f"load: {loaded['boxes']} simulated boxes, {loaded['answered']} answered the "
                  f"start: director round trip p50 {loaded['round_trip_ms']['p50']} ms, p99 "
                  f"{loaded['round_trip_ms']['p99']} ms, max {loaded['round_trip_ms']['max']} "
                  f"ms; start placed with spread {loaded['start_spread_ms']} ms (p99 from the "
                  f"median {loaded['start_p99_from_median_ms']} ms)")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"real": real, "load": loaded,
                               "loadavg": os.getloadavg()[0]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`erabox bench` (`make bench`) and `erabox bench --soak` (`make soak`).

The bench measures the real daemon on this machine and prints one table (target, measured,
PASS/MISS per line) and writes every figure as JSON (`--out`, default
`bench-results/bench.json`):

1. cue lateness and the end-of-era error after pauses (`benchmarks.cues`), side by side with
   a naive `time.sleep(1)` countdown doing the same eras (`benchmarks.naive`);
2. input latency from the mock pin's release edge to the new state, the mixer call and the
   frame handed to the display (`benchmarks.latency`);
3. footprint: CPU while an era runs, frames per minute, peak RSS, start-up time, shutdown
   time, render time (`benchmarks.footprint`).

`--soak` instead runs hours of virtual play through the core and minutes of real play through
the daemon with random gestures (`benchmarks.soak`). `--quick` is a short smoke run.

Exit code 0 when everything ran and every correctness check held (timing targets are
reported, not enforced), 1 when a measurement failed or a correctness check did not hold.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from erabox import __version__
from erabox.benchmarks.report import Line, below, equals, info, table

log = logging.getLogger("erabox.bench")

DEFAULT_OUT = "bench-results/bench.json"  # the `--out` default of `erabox bench`
DEFAULT_SOAK_OUT = "bench-results/soak.json"


@dataclass(frozen=True)
class Plan:
    """How much of each measurement to do."""

    eras: int = 3  # compressed real-time eras for cue timing
    era_length_s: int = 30
    pauses_per_era: int = 10
    pause_s: float = 0.5  # mean pause length
    gestures: int = 200  # taps for input latency
    cpu_window_s: float = 60.0  # running-era window for CPU and frames per minute
    starts: int = 5  # `erabox run` spawns for start-up time (the last also gives peak RSS)
    rss_era_s: float = 10.0  # how long the last spawn runs an era before its memory is read
    render_samples: int = 300
    save_samples: int = 300  # saves of a round game with a full undo history
    output_runs: int = 3  # runs of the output-onset and whole-game measurements (median)
    onset_era_s: float = 80.0  # era length for output onsets (a cry every onset_spacing_s)
    onset_spacing_s: float = 0.2
    game_era_s: float = 30.0  # each era of the whole game read for peak RSS and wakeups
    fair_era_s: int = 180  # the naive-timer comparison on a realistic era ...
    fair_pauses_s: tuple[float, ...] = (12.0, 28.0)  # ... with pauses as a table takes them
    wakeup_window_s: float = 20.0
    seed: int = 2026


FULL = Plan()
QUICK = Plan(eras=1, era_length_s=5, pauses_per_era=2, pause_s=0.3, gestures=40,
             cpu_window_s=10.0, starts=1, rss_era_s=2.0, render_samples=60, save_samples=60,
             output_runs=1, onset_era_s=15.0, game_era_s=8.0, wakeup_window_s=5.0,
             fair_era_s=20, fair_pauses_s=(1.2, 2.8))


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    with contextlib.suppress(OSError):  # only a Raspberry Pi (or another board) has this
        model = Path("/proc/device-tree/model").read_text().strip("\x00\n")
    return {
        "erabox": __version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "model": model,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "sdl_audio_driver": os.environ.get("SDL_AUDIODRIVER", "dummy"),
    }


def _section(results: dict[str, Any], name: str, what: str,
             measure: Callable[[], dict[str, Any]]) -> None:
    """Run one measurement; a failure is recorded (and printed) and the bench goes on."""
    print(f"erabox bench: {what} ...", file=sys.stderr, flush=True)
    began = time.monotonic()
    try:
        results[name] = measure()
    except Exception as exc:
        results.setdefault("errors", {})[name] = f"{type(exc).__name__}: {exc}"
        print(f"erabox bench: {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        log.debug("%s failed", name, exc_info=True)
        results.setdefault("error_tracebacks", {})[name] = traceback.format_exc(limit=8)
    results.setdefault("section_seconds", {})[name] = round(time.monotonic() - began, 1)


def run_bench(plan: Plan, workdir: Path, only: str | None = None) -> dict[str, Any]:
    """Every measurement of `make bench`; returns the results (see `bench_lines`)."""
    from erabox.benchmarks import cues, footprint, latency, naive, output

    rng = random.Random(plan.seed)
    results: dict[str, Any] = {"plan": asdict(plan)}
    if only in (None, "output"):
        _section(results, "output", "cue onsets at the output (SDL disk driver) and a whole "
                 f"game's memory and wakeups, {plan.output_runs} run(s)",
                 lambda: output.measure_output(plan.output_runs, plan.onset_era_s,
                                               plan.onset_spacing_s, plan.game_era_s,
                                               plan.wakeup_window_s, workdir / "output"))
    if only == "output":
        return results
    _section(results, "fair", f"a realistic era on erabox and on a sleep(1) countdown side by "
             f"side: {plan.fair_era_s} s, pauses of {plan.fair_pauses_s} s (real time)",
             lambda: fair_naive(plan, workdir / "fair"))
    if only == "fair":
        return results
    _section(results, "render", "render time",
             lambda: footprint.measure_render(plan.render_samples))
    _section(results, "save", "a round game's save, its undo history full",
             lambda: footprint.measure_save(plan.save_samples))
    _section(results, "process", f"start-up ({plan.starts}x), peak RSS, shutdown",
             lambda: footprint.measure_process(plan.starts, plan.rss_era_s, workdir / "proc"))

    era_plans = cues.plan_eras(plan.eras, plan.era_length_s, plan.pauses_per_era,
                               plan.pause_s, rng)

    def cue_timing() -> dict[str, Any]:
        # The naive timer runs the same eras at the same time, in a process of its own.
        naive_proc = naive.start_naive(era_plans)
        try:
            measured = cues.measure_cues(era_plans, workdir / "cues")
            budget = plan.eras * (plan.era_length_s + plan.pauses_per_era * 2 * plan.pause_s)
            measured["naive"] = naive.finish_naive(naive_proc, timeout=budget + 60)
        finally:
            if naive_proc.poll() is None:
                naive_proc.kill()
                naive_proc.wait()
        return measured

    minutes = plan.eras * (plan.era_length_s + plan.pauses_per_era * plan.pause_s) / 60
    _section(results, "cues", f"cue timing, {plan.eras} era(s) of {plan.era_length_s} s with "
             f"{plan.pauses_per_era} pauses each (~{minutes:.1f} min)", cue_timing)
    _section(results, "latency", f"input latency, {plan.gestures} taps",
             lambda: latency.measure_latency(plan.gestures, workdir / "latency", rng))
    _section(results, "cpu", f"CPU while an era runs ({plan.cpu_window_s:g} s)",
             lambda: footprint.measure_cpu(plan.cpu_window_s, workdir / "cpu"))
    return results


def fair_plan(plan: Plan) -> Any:
    """One era as a table plays it: cries at a third and two thirds, two pauses (12 s and
    28 s by default) at running times a hand would choose, not on whole seconds."""
    from erabox.benchmarks.cues import EraPlan, PausePlan

    length = plan.fair_era_s
    at = (round(length * 0.27 + 0.37, 3), round(length * 0.58 + 0.81, 3))
    pauses = tuple(PausePlan(a, s) for a, s in zip(at, plan.fair_pauses_s, strict=False))
    return EraPlan(length, (round(length / 3), round(2 * length / 3)), pauses)


def fair_naive(plan: Plan, workdir: Path) -> dict[str, Any]:
    """erabox and the naive countdown on the same realistic era, at the same time."""
    from erabox.benchmarks import cues, naive

    era = fair_plan(plan)
    naive_proc = naive.start_naive([era])
    try:
        ours = cues.measure_cues([era], workdir)
        theirs = naive.finish_naive(naive_proc, timeout=era.length_s + 120)
    finally:
        if naive_proc.poll() is None:
            naive_proc.kill()
            naive_proc.wait()
    return {
        "length_s": era.length_s,
        "pauses": [{"at": p.at, "seconds": p.seconds} for p in era.pauses],
        "erabox_end_error_ms": ours["end_error_max_abs_ms"],
        "erabox_cue_lateness": ours["lateness"],
        "naive_end_error_ms": theirs["end_error_max_abs_ms"],
        "naive_cue_error": theirs["eras"][0]["cue_error"],
        "cue_count_problems": ours["cue_count_problems"],
    }


def _get(results: dict[str, Any], *path: str) -> Any:
    value: Any = results
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def bench_lines(results: dict[str, Any]) -> list[Line]:
    """The table of `make bench`."""
    lines: list[Line] = []
    out = _get(results, "output", "median") or {}
    runs = _get(results, "output", "runs")
    lines += [
        below("output", f"cue onset error at the output, early or late, p99 ({out.get('cues')} "
              f"cues, median of {runs} runs)", out.get("onset_p99_ms"), 15, "ms", 1),
        below("output", "cue onset error at the output, early or late, max",
              out.get("onset_max_ms"), 25, "ms", 1),
        below("output", "first gong, era started 1 s after its setup, worst (early or late)",
              out.get("first_gong_worst_ms"), 25, "ms", 1),
        info("output", "onset error p50 (signed) / handed to the mixer early by / at the loop "
             "p99", f"{out.get('onset_p50_ms')} / {out.get('lead_ms')} / "
             f"{out.get('loop_dispatch_p99_ms')} ms"),
        info("output", "the audio path alone: onset after the loop's dispatch p99 / max",
             f"{out.get('after_dispatch_p99_ms')} / {out.get('after_dispatch_max_ms')} ms"),
        equals("output", "scheduled cues not found at the output", out.get("cues_missing"), 0),
        below("output", "peak RSS, a whole 3-era game (as the Pi service: no numpy)",
              out.get("game_peak_rss_mb"), 72, "MB", 1),
        below("output", "wakeups per second, era running (all threads)",
              out.get("wakeups_per_s"), 145, "/s", 1),
    ]
    fair = results.get("fair")
    if fair:
        lines += [
            info("naive", f"realistic era ({fair.get('length_s')} s, pauses "
                 f"{'/'.join(str(p['seconds']) for p in fair.get('pauses', []))} s): "
                 "end-of-era error erabox / sleep(1)",
                 f"{fair.get('erabox_end_error_ms')} / {fair.get('naive_end_error_ms')} ms"),
            info("naive", "realistic era: cue error erabox max / sleep(1) max",
                 f"{_get(fair, 'erabox_cue_lateness', 'max_ms')} / "
                 f"{_get(fair, 'naive_cue_error', 'max_ms')} ms"),
        ]
    if results.get("cues") is None:
        return lines
    cue = results.get("cues", {})
    pauses = _get(cue, "config", "pauses_per_era")
    lines += [
        info("cues", f"lateness p50 ({_get(cue, 'lateness', 'n')} cues)",
             f"{_get(cue, 'lateness', 'p50_ms')} ms"),
        below("cues", "lateness p99", _get(cue, "lateness", "p99_ms"), 2, "ms", 3),
        below("cues", "lateness max", _get(cue, "lateness", "max_ms"), 10, "ms", 3),
        info("cues", "lateness at the mixer p99 / max",
             f"{_get(cue, 'lateness_at_mixer', 'p99_ms')} / "
             f"{_get(cue, 'lateness_at_mixer', 'max_ms')} ms"),
        below("cues", f"end-of-era error, worst era ({pauses} pauses each)",
              _get(cue, "end_error_max_abs_ms"), 5, "ms", 3),
        equals("cues", "eras with a wrong cue count",
               None if not cue else len(cue.get("cue_count_problems", [])), 0),
    ]
    naive_error = _get(cue, "naive", "end_error_max_abs_ms")
    ours = _get(cue, "end_error_max_abs_ms")
    lines.append(info("naive", "sleep(1) timer: end-of-era error, worst era",
                      f"{naive_error} ms"))
    if naive_error is not None and ours:
        lines.append(info("naive", "naive error / erabox error", f"x{naive_error / ours:,.0f}"))
    lines.append(info("naive", "sleep(1) timer: cue error p50 / max (early or late)",
                      _naive_cues(cue)))

    lat = results.get("latency", {})
    after = lat.get("after_debounce", {})
    raw = lat.get("raw", {})
    n = lat.get("gestures")
    lines += [
        below("input", f"to state p99, after debounce ({n} taps)",
              _get(after, "state", "p99_ms"), 5, "ms", 3),
        below("input", "to frame p99, after debounce", _get(after, "frame", "p99_ms"), 20, "ms",
              3),
        info("input", "to mixer p99, after debounce", f"{_get(after, 'mixer', 'p99_ms')} ms"),
        info("input", "to state / frame p50, after debounce",
             f"{_get(after, 'state', 'p50_ms')} / {_get(after, 'frame', 'p50_ms')} ms"),
        info("input", f"to state / frame p99, raw (incl. {lat.get('bounce_ms')} ms debounce)",
             f"{_get(raw, 'state', 'p99_ms')} / {_get(raw, 'frame', 'p99_ms')} ms"),
        info("input", "to state / frame max, raw",
             f"{_get(raw, 'state', 'max_ms')} / {_get(raw, 'frame', 'max_ms')} ms"),
    ]

    cpu = results.get("cpu", {})
    proc = results.get("process", {})
    render = results.get("render", {})
    lines += [
        below("footprint", f"CPU while an era runs ({cpu.get('window_s')} s window)",
              cpu.get("cpu_percent_of_core"), 1, "% of a core", 3),
        info("footprint", "CPU seconds per minute of running era",
             f"{cpu.get('cpu_s_per_min')} s"),
        info("footprint", "frames handed to the display per minute, running",
             f"{cpu.get('frames_per_min')}"),
        below("footprint", "peak RSS, era playing (dev venv: numpy present)",
              proc.get("peak_rss_mb"), 80, "MB", 1),
        below("footprint", "peak RSS, era playing (as the Pi service: no numpy)",
              _get(proc, "without_numpy", "peak_rss_mb"), 80, "MB", 1),
        info("footprint", "RSS at ready / with the era's music loaded",
             f"{proc.get('rss_at_ready_mb')} / {proc.get('rss_at_end_mb')} MB"),
        below("footprint", f"start-up to ready, median of {proc.get('starts')}",
              proc.get("ready_median_s"), 1.5, "s", 3),
        info("footprint", "start-up to ready, slowest", f"{proc.get('ready_max_s')} s"),
        below("footprint", "exit after SIGTERM, slowest",
              max(proc["shutdown_after_sigterm_s"]) if proc.get("shutdown_after_sigterm_s")
              else None, 2, "s", 3),
        info("footprint", "render a frame p50 / p99",
             f"{render.get('p50_ms')} / {render.get('p99_ms')} ms"),
    ]
    save = results.get("save", {})
    lines += [
        info("footprint", f"a round game's save ({save.get('undo_steps')} undo steps): its "
             "record p50 / p99, its JSON text p50",
             f"{_get(save, 'record', 'p50_ms')} / {_get(save, 'record', 'p99_ms')} / "
             f"{_get(save, 'text', 'p50_ms')} ms"),
        info("footprint", "the same, the first save after a restore (every undo step's "
             "record built) p50", f"{_get(save, 'first_record', 'p50_ms')} ms"),
    ]
    return lines


def _naive_cues(cue: dict[str, Any]) -> str:
    eras = _get(cue, "naive", "eras") or []
    p50 = [e["cue_error"]["p50_ms"] for e in eras if e["cue_error"]["n"]]
    worst = [e["cue_error"]["max_ms"] for e in eras if e["cue_error"]["n"]]
    if not p50:
        return "not measured"
    return f"{max(p50):.0f} / {max(worst):.0f} ms"


def run_soak(hours: float, minutes: float, workdir: Path, seed: int) -> dict[str, Any]:
    """Every part of `make soak`."""
    from erabox.benchmarks import soak

    rng = random.Random(seed)
    results: dict[str, Any] = {"plan": {"virtual_hours": hours, "real_minutes": minutes,
                                        "seed": seed}}
    _section(results, "virtual", f"soak: {hours:g} h of virtual play through the core",
             lambda: soak.virtual_soak(hours, rng))
    _section(results, "real", f"soak: {minutes:g} min of real play through the daemon",
             lambda: soak.real_soak(minutes, workdir / "soak", rng))
    return results


def soak_lines(results: dict[str, Any]) -> list[Line]:
    """The table of `make soak`."""
    virtual = results.get("virtual", {})
    real = results.get("real", {})
    vcheck = virtual.get("cue_check", {})
    rcheck = real.get("cue_check", {})
    lost = None
    if real:
        lost = real["gestures_performed"] - real["inputs_received"]
    return [
        equals("soak virtual", f"exceptions ({virtual.get('virtual_hours')} h, "
               f"{virtual.get('gestures')} gestures)", virtual.get("exceptions"), 0),
        equals("soak virtual", "eras with wrong cues", vcheck.get("problem_count"), 0),
        info("soak virtual", "real-time eras checked: completed / cut short",
             f"{vcheck.get('realtime_eras_completed')} / {vcheck.get('realtime_eras_cut_short')}"
             f" ({vcheck.get('cues_checked')} cues)"),
        equals("soak real", f"exceptions ({real.get('minutes')} min, "
               f"{real.get('gestures_performed')} gestures)", real.get("exceptions"), 0),
        equals("soak real", "gestures lost (performed - received)", lost, 0),
        equals("soak real", "eras with wrong cues", rcheck.get("problem_count"), 0),
        info("soak real", "real-time eras checked: completed / cut short",
             f"{rcheck.get('realtime_eras_completed')} / {rcheck.get('realtime_eras_cut_short')}"
             f" ({rcheck.get('cues_checked')} cues, worst timing "
             f"{rcheck.get('max_cue_timing_error_ms')} ms)"),
        below("soak real", "RSS growth, start to end", real.get("rss_growth_mb"), 2, "MB", 2),
        below("soak real", "RSS growth, second half", real.get("rss_growth_second_half_mb"), 2,
              "MB", 2),
        info("soak real", "RSS start / half-way / end",
             f"{real.get('rss_start_mb')} / {real.get('rss_half_way_mb')} / "
             f"{real.get('rss_end_mb')} MB"),
    ]


def correctness_failures(results: dict[str, Any]) -> list[str]:
    """Checks that must hold (not timing targets): counts, exceptions, lost gestures."""
    failures = [f"{name} did not run: {error}"
                for name, error in results.get("errors", {}).items()]
    failures += results.get("cues", {}).get("cue_count_problems", [])
    failures += (results.get("fair") or {}).get("cue_count_problems", [])
    for part in ("virtual", "real"):
        section = results.get(part)
        if section is None:
            continue
        if section.get("exceptions"):
            failures.append(f"soak {part}: {section['exceptions']} exceptions")
        if section["cue_check"]["problem_count"]:
            failures.append(f"soak {part}: {section['cue_check']['problems'][0]}")
    real = results.get("real")
    if real and real["gestures_performed"] != real["inputs_received"]:
        failures.append("soak real: gestures were lost")
    return failures


def main(args: argparse.Namespace) -> int:
    """`erabox bench [--out FILE] [--quick] [--soak] [--soak-minutes MIN] [--virtual-hours H]`."""
    # The in-process daemon logs through the same root logger: keep its INFO lines out of the
    # table, but let warnings and errors through.
    logging.basicConfig(level=os.environ.get("ERABOX_LOG", "WARNING").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    out = Path(args.out)
    if args.soak and args.out == DEFAULT_OUT:  # `make soak` must not overwrite `make bench`
        out = Path(DEFAULT_SOAK_OUT)
    began = time.monotonic()
    report: dict[str, Any] = {"kind": "soak" if args.soak else "bench", "quick": args.quick,
                              "machine": machine(),
                              "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    with tempfile.TemporaryDirectory(prefix="erabox-bench-") as tmp:
        if args.soak:
            # --quick: at most half an hour of virtual play and half a minute of real play.
            hours = min(args.virtual_hours, 0.5) if args.quick else args.virtual_hours
            minutes = min(args.soak_minutes, 0.5) if args.quick else args.soak_minutes
            results = run_soak(hours, minutes, Path(tmp), FULL.seed)
            lines = soak_lines(results)
        else:
            results = run_bench(QUICK if args.quick else FULL, Path(tmp),
                                only=getattr(args, "only", None))
            lines = bench_lines(results)
    report.update(results)
    report["total_seconds"] = round(time.monotonic() - began, 1)
    report["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    report["table"] = [line.as_dict() for line in lines]
    failures = correctness_failures(results)
    report["correctness_failures"] = failures
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    print(table(lines))
    print(f"\n{report['machine']['platform']}, {report['machine']['cpus']} CPUs, "
          f"Python {report['machine']['python']}, SDL audio "
          f"{report['machine']['sdl_audio_driver']}; {report['total_seconds']} s; "
          f"JSON: {out}")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0

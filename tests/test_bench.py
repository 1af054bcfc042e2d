"""`erabox bench`: a fast smoke run of the real measurements with tiny numbers (the JSON has
every figure, with sane types; no timing is asserted), and the pure helpers the figures rest
on: the schedule a cue is measured against, the cue check of the soak, the percentiles."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import pytest

from erabox.benchmarks import bench, footprint
from erabox.benchmarks import output as output_module
from erabox.benchmarks.cues import scheduled_time
from erabox.benchmarks.soak import check_cues
from erabox.benchmarks.stats import percentile
from erabox.core.config import Config, parse_config
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import HISTORY
from erabox.core.script import ScriptLine
from erabox.run.simulate import simulate

TINY = bench.Plan(eras=1, era_length_s=2, pauses_per_era=1, pause_s=0.2, gestures=6,
                  cpu_window_s=1.0, starts=1, rss_era_s=0.5, render_samples=10, save_samples=4,
                  output_runs=1, onset_era_s=13.5, game_era_s=3.0, wakeup_window_s=0.5,
                  fair_era_s=12, fair_pauses_s=(0.6, 1.4))


def bench_args(out: Path, **overrides: Any) -> argparse.Namespace:
    values = {"out": str(out), "quick": True, "soak": False, "soak_minutes": 10.0,
              "virtual_hours": 8.0, **overrides}
    return argparse.Namespace(**values)


def is_ms(value: Any) -> bool:
    return isinstance(value, float | int) and value >= 0


def era_cues(config: Config) -> int:
    """The cues of a real-time era as configured: its cries, its final ticks (those after the
    era's start), the end gong."""
    era = config.realtime
    ticks = [k for k in range(era.final_ticks_s, 0, -1) if era.length_s - k > 0]
    return len(era.scholar_cues_s) + len(ticks) + 1


def test_quick_bench_writes_every_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "QUICK", TINY)
    out = tmp_path / "results" / "bench.json"
    assert bench.main(bench_args(out)) == 0
    report = json.loads(out.read_text())
    assert "errors" not in report

    cues = report["cues"]
    config = parse_config(cues["config"]["toml"], "<bench>")  # the config it ran
    assert cues["lateness"]["n"] == era_cues(config)  # every cue of the era was timed
    assert all(is_ms(cues["lateness"][k]) for k in ("p50_ms", "p99_ms", "max_ms"))
    assert cues["cue_count_problems"] == []
    assert isinstance(cues["end_error_max_abs_ms"], float)
    assert [e["pauses"] for e in cues["eras"]] == [1]
    assert len(cues["naive"]["eras"]) == 1
    assert isinstance(cues["naive"]["end_error_max_abs_ms"], float)

    latency = report["latency"]
    assert latency["gestures"] == 6
    for stage in ("input", "state", "frame"):
        assert latency["raw"][stage]["n"] == 6
    assert latency["raw"]["mixer"]["n"] == 3  # VOL+/VOL- taps only
    # Every stage comes after the release edge that caused it.
    assert all(latency["raw"][s]["min_ms"] > 0 for s in ("input", "state", "frame", "mixer"))

    process = report["process"]
    assert len(process["ready_s"]) == 1 and process["ready_s"][0] > 0
    assert process["peak_rss_mb"] > 10
    assert process["exit_code"] == 0 and process["log_problems"] == []
    assert process["without_numpy"]["peak_rss_mb"] > 10
    assert process["without_numpy"]["log_problems"] == []
    assert report["cpu"]["cpu_s"] >= 0 and report["cpu"]["still_running"] is True
    assert report["render"]["n"] == 10
    assert report["save"]["record"]["n"] == TINY.save_samples

    output = report["output"]
    onsets = output["onsets"][0]
    # every era: the lead-in ticks after the first (that one is the ERA press's), the start
    # gong and the era's timeline; three eras
    played = parse_config(output_module.onset_config(
        {name: Path(name) for name in ("gong", "cry", "tick")}, TINY.onset_era_s,
        TINY.onset_spacing_s), "<bench>")
    assert onsets["cues_scheduled"] == 3 * (played.realtime.lead_in_s + era_cues(played))
    assert onsets["cues_found"] + onsets["cues_missing"] == onsets["cues_scheduled"]
    assert onsets["cues_found"] > 0 and len(onsets["first_gong_1s_after_setup_ms"]) <= 3
    game = output["games"][0]
    assert game["peak_rss_mb"] > 10 and game["wakeups_per_s"] > 0
    assert game["log_problems"] == []

    fair = report["fair"]
    assert fair["length_s"] == 12 and [p["seconds"] for p in fair["pauses"]] == [0.6, 1.4]
    assert isinstance(fair["erabox_end_error_ms"], float)
    assert isinstance(fair["naive_end_error_ms"], float)
    assert fair["cue_count_problems"] == []

    verdicts = {line["verdict"].split()[0] for line in report["table"]}
    assert verdicts <= {"PASS", "MISS", "info"}
    printed = capsys.readouterr().out
    assert all(line["figure"] in printed for line in report["table"])


def test_quick_soak_checks_cues_and_counts_no_exceptions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "soak.json"
    code = bench.main(bench_args(out, soak=True, soak_minutes=0.1, virtual_hours=0.5))
    report = json.loads(out.read_text())
    assert code == 0, report.get("correctness_failures")
    virtual, real = report["virtual"], report["real"]
    assert virtual["exceptions"] == 0 and virtual["gestures"] > 10
    assert virtual["cue_check"]["problem_count"] == 0
    assert real["exceptions"] == 0 and real["exit_code"] == 0
    assert real["gestures_performed"] == real["inputs_received"]
    assert all(isinstance(kb, int) and kb > 0 for _, kb in real["rss_samples_kb"])


def test_the_save_figure_times_a_round_game_s_save_with_its_undo_history_full() -> None:
    save = footprint.measure_save(3)
    assert save["undo_steps"] == HISTORY
    for part in ("record", "text", "first_record"):
        assert save[part]["n"] == 3 and is_ms(save[part]["p50_ms"])
    shown = "\n".join(str(line.as_dict()) for line in bench.bench_lines({"cues": {}, "save": save}))
    assert f"a round game's save ({HISTORY} undo steps)" in shown
    assert f"{save['record']['p50_ms']} / {save['record']['p99_ms']} /" in shown


def test_scheduled_time_moves_later_cues_by_each_pause_before_them() -> None:
    start = 100.0
    pauses = [(110.0, 115.0), (130.0, 131.0)]  # running time 10 for 5 s, running 25 for 1 s
    assert scheduled_time(start, pauses, 5.0) == 105.0
    assert scheduled_time(start, pauses, 20.0) == 125.0
    assert scheduled_time(start, pauses, 30.0) == 136.0


def test_cue_check_accepts_a_paused_era_and_catches_a_missing_or_late_cry() -> None:
    config = parse_config("[realtime]\nlength_s = 60\nscholar_cues_s = [20, 40]\n", "<t>")
    script = [ScriptLine(1.0, Input(Button.ERA, Gesture.PRESS), 1),
              ScriptLine(30.0, Input(Button.NEXT, Gesture.HOLD), 2),
              ScriptLine(47.5, Input(Button.NEXT, Gesture.PRESS), 3)]
    events: list[dict[str, Any]] = []
    simulate(config, script, 200.0, events.append)  # the real core on a virtual clock
    good = check_cues(events, config, tolerance_s=0.003)
    assert (good.completed, good.problems) == (1, [])
    assert good.cues_checked == era_cues(config)

    cries = [i for i, e in enumerate(events) if e.get("sound") == "cry"]
    broken = events[:cries[1]] + events[cries[1] + 1:]
    assert check_cues(broken, config, tolerance_s=0.003).problems

    late = [dict(e, t=e["t"] + 0.5) if i == cries[0] else e for i, e in enumerate(events)]
    assert check_cues(late, config, tolerance_s=0.003).problems


def test_percentile_is_a_sample_that_happened() -> None:
    samples = [random.Random(4).random() for _ in range(37)]
    assert percentile(samples, 50) in samples
    assert percentile(samples, 99) == max(samples)
    assert percentile(list(range(1, 201)), 99) == 198

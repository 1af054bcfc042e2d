"""The system test's figures: the load during the eras and the aarch64-to-amd64 ratios
(tools/systemtest/analyse.py --load and --compare)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ANALYSE = Path(__file__).resolve().parents[1] / "tools" / "systemtest" / "analyse.py"
_spec = importlib.util.spec_from_file_location("systemtest_analyse", ANALYSE)
assert _spec and _spec.loader
analyse = importlib.util.module_from_spec(_spec)
sys.modules["systemtest_analyse"] = analyse
_spec.loader.exec_module(analyse)

ARM = """\
FIGURE kernel: 6.1.0-41-arm64, systemd 252
FIGURE install_s: 300 (the README's steps)
FIGURE boot_to_ready_s: 45.5 (kernel start to the box's 'ready', QEMU TCG)
FIGURE era_cpu_percent: 80.0 (the unit's CPU time)
CHECK era_1_on_time: PASS 12.0 ms
FIGURE worst_cue_error_ms: 9.0
FIGURE security: 2.1 OK
"""
AMD = """\
# amd64, commit abc
FIGURE install_s: 60
FIGURE boot_to_ready_s: 15.0 (kernel start)
FIGURE era_cpu_percent: 20
FIGURE worst_cue_error_ms: 0
FIGURE worst_cue_error_ms: 3.0
"""


def test_figures_are_the_leading_numbers_of_figure_lines() -> None:
    figures = analyse.parse_figures(ARM)
    assert figures == {"install_s": 300.0, "boot_to_ready_s": 45.5, "era_cpu_percent": 80.0,
                       "worst_cue_error_ms": 9.0, "security": 2.1}
    assert analyse.parse_figures(AMD)["worst_cue_error_ms"] == 3.0  # the last one wins


def test_ratios_are_this_run_over_amd64_and_missing_ones_said() -> None:
    lines = analyse.compare(analyse.parse_figures(ARM), analyse.parse_figures(AMD))
    by_name = {line.split(":")[0].removeprefix("FIGURE "): line for line in lines}
    assert by_name["install_s_vs_amd64"] == (
        "FIGURE install_s_vs_amd64: 5.00 (300 here, 60 on amd64)")
    assert by_name["boot_to_ready_s_vs_amd64"].startswith("FIGURE boot_to_ready_s_vs_amd64: 3.03 ")
    assert by_name["era_cpu_percent_vs_amd64"].startswith("FIGURE era_cpu_percent_vs_amd64: 4.00 ")
    assert by_name["worst_cue_error_ms_vs_amd64"].startswith(
        "FIGURE worst_cue_error_ms_vs_amd64: 3.00 ")
    assert by_name["era_peak_rss_mib_vs_amd64"].endswith("n/a (not in both runs)")
    assert len(lines) == len(analyse.COMPARED)


def test_a_zero_amd64_figure_gives_no_ratio() -> None:
    lines = analyse.compare({"install_s": 5.0}, {"install_s": 0.0})
    assert lines[0] == "FIGURE install_s_vs_amd64: n/a (amd64 figure is 0) (5 here, 0 on amd64)"


SAMPLES = """\
10.00 -1 900000
11.00 1000000 800000
12.00 1500000 700000
13.00 2000000 300000
14.00 2500000 600000
16.00 3500000 650000
ready 11.50
vmhwm_kB 61440
cgroup_peak_B 104857600
memtotal_kB 1048576
"""


def test_era_load_counts_from_the_first_era_press() -> None:
    lines = analyse.era_load(SAMPLES)
    # from 12.5 s (ready + 1 s) on: 12..16 s are 13, 14, 16: 1.5 s of CPU in 3 s
    assert lines[0].startswith("FIGURE era_cpu_percent: 50.0 (the unit's CPU time over 3 s")
    # the lowest MemAvailable from then on: 300000 kB (the 700000 at 12 s is before)
    assert lines[1].startswith("FIGURE era_min_available_mib: 293 (")
    assert lines[1].endswith("of 1024 MiB)")
    assert lines[2] == "FIGURE era_peak_rss_mib: 60.0 (the box's VmHWM)"
    assert lines[3].startswith("FIGURE era_cgroup_peak_mib: 100.0 ")


def test_era_load_skips_unreadable_rows_and_says_when_there_is_nothing() -> None:
    assert analyse.era_load("ready 5\n6.0 -1 100\n7.0 -1 100\n") == [
        "FIGURE era_cpu_percent: n/a (fewer than 2 samples after 'ready')"]
    lines = analyse.era_load("1.0 -1 100\n2.0 1000000 900\n4.0 2000000 -1\n5.0 4000000 800\n")
    assert lines[0].startswith("FIGURE era_cpu_percent: 100.0 ")  # 2.0 to 5.0 s: 3 s of CPU
    assert lines[1].startswith("FIGURE era_min_available_mib: 1 (")  # 800 kB, not the -1


def test_a_cue_is_on_time_within_the_emulated_cards_bounds_and_the_loops_15_ms() -> None:
    ms = 1e-3
    # CI's runs with nothing beside them: a gong at -15.0 ms, cries at +15.8 and +16.6 ms
    for error in (-17.4, -15.0, 0.0, 15.8, 16.6, 23.2):
        assert analyse.on_time(error * ms, 0.9, 0.0)
    # a starved VM's stalls (+31, +69 ms), a box that holds a cue back (550 ms), too early
    for error in (23.4, 31.1, 69.3, 550.0, -17.6):
        assert not analyse.on_time(error * ms, 0.9, 0.0)
    assert not analyse.on_time(0.0, 0.3, 0.0)  # not found in the recording
    assert not analyse.on_time(0.0, 0.9, 16 * ms)  # the loop late
    assert not analyse.on_time(0.0, 0.9, None)  # the loop never logged it

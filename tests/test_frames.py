"""`erabox simulate --frames DIR`: one PNG per distinct screen of a whole scripted game."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from erabox.adapters.display import frame_bytes
from erabox.core.config import Config
from erabox.core.model import Phase, Screen
from erabox.core.script import parse_script
from erabox.run.simulate import simulate
from erabox.ui.render import render, turning

# Era I real-time (a pause and a NEXT hint in it) entering points (red 6, the rest 0) and the
# standings; Era II introductory after two steps of the preparation guide (15 rounds with two
# scholar calls and an undo); Era III real-time; the final ranking, new game.
ERA_PRESSES = 4 + 1  # four players: their era totals (the default entry), the standings
GAME = "\n".join([
    "0 era press",
    "100 next press",
    "200 next hold",
    "250 next press",
    "600 next hold",
    "600.5 next press",
    *[f"{601 + k / 10:g} era press" for k in range(ERA_PRESSES)],
    "605 next press",
    "606 next hold",
    "607 next press",
    "608 era press",
    *[f"{609 + k} next press" for k in range(17)],
    "630 next hold",
    "631 next press",
    *[f"{640 + k / 10:g} era press" for k in range(ERA_PRESSES)],
    "643 era press",
    *[f"{1300 + k / 10:g} era press" for k in range(ERA_PRESSES)],
    "1305 era hold",
    "1310 both hold",
    "1311 era press",
])


def test_frames_are_one_png_per_distinct_screen_of_a_whole_game(tmp_path: Path) -> None:
    (tmp_path / "game.script").write_text(GAME + "\n")
    frames = tmp_path / "frames"
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--script", str(tmp_path / "game.script"),
         "--until", "1320", "--frames", str(frames)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    files = sorted(frames.iterdir())
    names = [f.name for f in files]
    assert all(re.fullmatch(r"\d{4}-\d+\.\d{3}\.png", n) for n in names), names[:5]
    assert [int(n[:4]) for n in names] == list(range(len(names)))
    times = [float(n[5:-4]) for n in names]
    assert times == sorted(times) and times[-1] <= 1320

    # The same game through the core, keeping the screen models it showed.
    shown: list[tuple[Screen, float]] = []
    simulate(Config(), parse_script(GAME), 1320.0, lambda event: None,
             lambda screen, t: shown.append((screen, t)))
    expected: list[tuple[bytes, float]] = []
    for screen, t in shown:
        pixels = frame_bytes(render(screen))
        if not expected or expected[-1][0] != pixels:
            expected.append((pixels, t))
    assert len(files) == len(expected)
    for file, (pixels, t) in zip(files, expected, strict=True):
        with Image.open(file) as image:
            assert image.size == (128, 64) and image.mode == "1"
            assert frame_bytes(image) == pixels, file.name
        assert float(file.name[5:-4]) == round(t, 3)
    kinds = {screen.kind for screen, _ in shown}
    assert {Phase.PREPARE, Phase.SETUP, Phase.LEAD_IN, Phase.RUNNING, Phase.PAUSED,
            Phase.INTRO_ROUND, Phase.SCHOLARS, Phase.SCORING, Phase.GAME_OVER,
            Phase.CONFIRM} <= kinds
    assert {screen.entry for screen, _ in shown} >= {"points", "standings", "ranking"}
    # A running clock changes every second: the nine minutes of a real-time era alone give
    # hundreds of distinct frames.
    assert len(files) > 1000


def test_frames_of_a_128x32_panel_are_its_layouts(tmp_path: Path) -> None:
    """`simulate --frames` with `[display] height = 32` writes the 128x32 layouts."""
    from erabox.files.config import load_config
    from erabox.ui.panel import Panel

    config_file = tmp_path / "erabox.toml"
    config_file.write_text("[display]\nheight = 32\n")
    (tmp_path / "game.script").write_text("0 era press\n1 era press\n2 era press\n")
    frames = tmp_path / "frames"
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--config", str(config_file), "--script",
         str(tmp_path / "game.script"), "--until", "30", "--frames", str(frames)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    config = load_config(str(config_file))
    shown: list[Screen] = []
    simulate(config, parse_script("0 era press\n1 era press\n2 era press\n"), 30.0,
             lambda event: None, lambda screen, t: shown.append(screen))
    expected: list[bytes] = []
    for screen in shown:  # each page of a screen that turns on its own (the guide's steps)
        for turn in range(turning(screen, Panel(height=32), "en")):
            pixels = frame_bytes(render(screen, panel=Panel(height=32), turn=turn))
            if not expected or expected[-1] != pixels:
                expected.append(pixels)
    files = sorted(frames.iterdir())
    assert len(files) == len(expected) >= 2
    for file, pixels in zip(files, expected, strict=True):
        with Image.open(file) as image:
            assert image.size == (128, 32)
            assert frame_bytes(image) == pixels, file.name

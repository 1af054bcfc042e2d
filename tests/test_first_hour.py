"""Issue #10, item 8: a new user's first hour. libasound's spam silenced, a `--display` typo
caught before any part starts, `run --events` elapsed right on resume, the terminal display
fitting an 80x24 terminal, missing sound files named at start. (Ctrl-C and SIGTERM in the
desktop window: `test_signals.py`.)"""

from __future__ import annotations

import ctypes.util
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from erabox.adapters.display import TerminalDisplay, frame_bytes
from erabox.core.config import Config
from erabox.ui.render import render
from erabox.ui.samples import sample_screens
from saved_game import saved_position
from test_run import daemon_env, read_events

ROOT = Path(__file__).resolve().parent.parent
HAS_ALSA = ctypes.util.find_library("asound") is not None

ALSA_PROBE = """
import ctypes, ctypes.util, sys
if sys.argv[1] == "quiet":
    from erabox.adapters import alsa_quiet
    assert alsa_quiet.silence()
library = ctypes.CDLL(ctypes.util.find_library("asound"))
pcm = ctypes.c_void_p()
print(library.snd_pcm_open(ctypes.byref(pcm), b"no_such_pcm_erabox", 0, 0))
"""


@pytest.mark.skipif(not HAS_ALSA, reason="no libasound here")
@pytest.mark.parametrize("how", ["loud", "quiet"])
def test_libasound_says_nothing_once_silenced(how: str) -> None:
    result = subprocess.run([sys.executable, "-c", ALSA_PROBE, how], capture_output=True,
                            text=True, timeout=60, cwd=ROOT)
    assert int(result.stdout) < 0  # the PCM does not exist either way
    # Without the handler libasound prints its line (so this test can fail); with it, none.
    assert ("ALSA lib" in result.stderr) == (how == "loud"), result.stderr


@pytest.mark.skipif(not HAS_ALSA, reason="no libasound here")
def test_opening_the_mixer_without_a_sound_card_prints_no_alsa_lines(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_AUDIODRIVER="alsa", ALSA_CONFIG_PATH=str(tmp_path / "none.conf"))
    code = ("from erabox.core.config import AudioConfig\n"
            "from erabox.adapters.mixer import open_mixer\n"
            "try:\n    open_mixer(AudioConfig())\nexcept Exception as exc:\n"
            "    print('refused', exc)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, cwd=ROOT, env=env)
    assert "ALSA lib" not in result.stderr, result.stderr


@pytest.mark.parametrize(("typo", "hint"), [("windows", "window"), ("termnal", "terminal"),
                                            ("oled", None), ("png:", None)])
def test_a_display_typo_exits_2_before_any_part_starts(tmp_path: Path, typo: str,
                                                       hint: str | None) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--display", typo],
        env=daemon_env(tmp_path), capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2
    assert f"--display {typo}" in result.stderr
    if hint:
        assert f"did you mean --display {hint}?" in result.stderr
    assert "Traceback" not in result.stderr
    assert "buttons:" not in result.stderr and "sound" not in result.stderr  # nothing started
    assert not (tmp_path / "state.json").exists()


def test_run_events_give_the_running_time_on_resume(tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text(
        '{"schema": 1, "phase": "paused", "era": 1, "mode": "realtime", "elapsed": 25.0, '
        '"era_start_player": 0, "volume": 0.8, "scoring_step": 0, "cues_done": 0}\n',
        encoding="utf-8")
    (tmp_path / "s.script").write_text("0.3 next press\n3 end\n", encoding="utf-8")
    events = tmp_path / "events.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--display", "none", "--audio", "none",
         "--script", str(tmp_path / "s.script"), "--events", str(events)],
        env=daemon_env(tmp_path), capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    states = [e for e in read_events(events) if e["type"] == "state"]
    assert (states[0]["state"], states[0]["elapsed"]) == ("paused", 25.0)
    running = next(e for e in states if e["state"] == "running")
    assert running["elapsed"] == pytest.approx(25.0, abs=0.2)  # as simulate says: 25.0
    saved = saved_position((tmp_path / "state.json").read_text(), Config().realtime.length_s)
    assert (saved[1] or 0.0) >= 25.0  # either engine's record


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def decode_braille(lines: list[str]) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            bits = ord(char) - 0x2800
            for dx, dy, bit in BRAILLE_BITS:
                if bits & bit:
                    image.putpixel((column * 2 + dx, row * 4 + dy), 1)
    return image


def frames_written(text: str) -> list[list[str]]:
    frames = [f for f in text.replace("\x1b[?25l", "").replace("\x1b[2J", "").split("\x1b[H")
              if f]
    return [f.rstrip("\n").split("\n") for f in frames]


def test_the_terminal_display_fits_80x24_with_every_pixel() -> None:
    stream = FakeTty()
    display = TerminalDisplay(stream, size=lambda: (80, 24))
    images = [render(screen) for screen in [s for _, s in sample_screens()[:5]]]
    for image in images:
        display.show(image)
    frames = frames_written(stream.getvalue())
    assert len(frames) == len({frame_bytes(i) for i in images})
    for lines, image in zip(frames, images, strict=False):
        assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
        assert frame_bytes(decode_braille(lines)) == frame_bytes(image)


def test_a_terminal_too_small_for_any_screen_says_so_once(
        caplog: pytest.LogCaptureFixture) -> None:
    stream = FakeTty()
    display = TerminalDisplay(stream, size=lambda: (40, 10))
    with caplog.at_level(logging.WARNING):
        for screen in [s for _, s in sample_screens()[:3]]:
            display.show(render(screen))
    frames = frames_written(stream.getvalue())
    assert all(len(line) < 40 for lines in frames for line in lines)
    # The size that reads well, and the least that shows anything.
    assert "erabox needs 128x33 (64x17 at least)" in stream.getvalue()
    (warning,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "128x33" in warning.getMessage() and "64x17" in warning.getMessage()


def test_a_braille_terminal_says_once_what_size_reads_better(
        caplog: pytest.LogCaptureFixture) -> None:
    display = TerminalDisplay(FakeTty(), size=lambda: (127, 40))
    with caplog.at_level(logging.INFO):
        for screen in [s for _, s in sample_screens()[:3]]:
            display.show(render(screen))
    said = [r.getMessage() for r in caplog.records if "braille" in r.getMessage()]
    assert len(said) == 1 and "127x40" in said[0] and "128x33 or larger" in said[0], said


def test_a_missing_sound_file_is_named_at_start(tmp_path: Path) -> None:
    (tmp_path / "erabox.toml").write_text(
        '[audio]\ncry = "no-such-cry.ogg"\n[era2]\nmusic = "missing/era2.ogg"\n',
        encoding="utf-8")
    (tmp_path / "s.script").write_text("0.1 end\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
         "--display", "none", "--audio", "none", "--script", str(tmp_path / "s.script")],
        env=daemon_env(tmp_path), capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert any("audio.cry" in w and "no-such-cry.ogg" in w for w in warnings), warnings
    assert any("era2.music" in w and "era2.ogg" in w for w in warnings), warnings


def test_a_missing_sound_file_is_marked_on_the_screen(tmp_path: Path) -> None:
    from erabox.adapters.state_file import StateFile
    from erabox.core.config import Config
    from erabox.run.app import Box
    from erabox.ui.layout import layout

    marks: list[dict[str, object]] = []

    class Worker:
        def show(self, screen: object, no_sound: bool, t: float, look: object = None,
                 contrast: int = 255, **more: object) -> None:
            marks.append(more)

    state = StateFile(tmp_path / "state.json")
    try:
        box = Box(Config(), state_file=state, screen_worker=Worker())  # type: ignore[arg-type]
        box.start_game()
        assert marks[-1] == {}
        box.missing_files = ["/no/such/cry.ogg"]
        box.start_game()
        assert marks[-1] == {"no_file": True}
    finally:
        state.close()
    # Drawn in the status row, beside the other marks, without overlapping anything.
    screen = sample_screens()[0][1]
    items = layout(screen, no_sound=True, no_save=True, no_file=True).items
    assert [i for i in items if getattr(i, "role", None) == "no_file"]
    boxes = [i.box for i in items]
    assert not any(a.overlaps(b) for n, a in enumerate(boxes) for b in boxes[n + 1:])
    assert frame_bytes(render(screen, no_file=True)) != frame_bytes(render(screen))

"""SDL's audio thread never waits for the GIL when a cue ends (erabox.adapters.channel_ends).

pygame's "channel finished" callback runs in SDL's audio thread and takes the GIL to forget the
sound the channel played: pygame's `Channel.get_sound()` turns to None when it has run. With the
callback released, the channel still names its last sound after the sound ended: nothing in
Python ran. The real mixer on SDL's dummy driver (which mixes in real time) shows both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from erabox.adapters import channel_ends

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, os, sys, time
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
from erabox.adapters import channel_ends, mixer
from erabox.core.config import AudioConfig
if sys.argv[1] == "erabox":
    mixer.open_mixer(AudioConfig())  # as the box opens it
else:
    import pygame
    pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
import pygame
short = pygame.mixer.Sound(buffer=bytes(4 * 441))  # 10 ms of silence
first, second = pygame.mixer.Channel(0), pygame.mixer.Channel(1)

def until_quiet(channel):
    end = time.monotonic() + 20
    while channel.get_busy():
        if time.monotonic() > end:
            sys.exit("the mixer did not play the sound out")
        time.sleep(0.005)

first.play(short)
until_quiet(first)
second.play(short)  # mixing has gone on past the end of the first sound
until_quiet(second)
print(json.dumps({"still_named": first.get_sound() is short}))
"""


def ended(how: str) -> bool:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, how], capture_output=True, text=True,
                          env=env, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return bool(json.loads(done.stdout.strip().splitlines()[-1])["still_named"])


@pytest.mark.skipif(channel_ends.loaded_library("libc") is None, reason="no /proc/self/maps")
def test_the_box_mixer_runs_no_python_when_a_cue_ends() -> None:
    assert ended("erabox") is True


def test_pygame_alone_runs_its_callback_when_a_cue_ends() -> None:
    # the control: the same steps without the release show the callback at work
    assert ended("pygame") is False


def test_the_loaded_library_is_found_by_its_file_name(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.write_text(
        "7f00-7f01 r--p 00000000 08:01 123 /usr/lib/libc.so.6\n"
        "7f02-7f03 r-xp 00000000 08:01 456 /venv/pygame.libs/libSDL2_mixer-2-6a.so.0.600.3\n"
        "7f04-7f05 rw-p 00000000 00:00 0 \n"
        "7f06-7f07 rw-p 00000000 00:00 0 [heap]\n")
    assert channel_ends.loaded_library("libSDL2_mixer", maps) == \
        "/venv/pygame.libs/libSDL2_mixer-2-6a.so.0.600.3"
    assert channel_ends.loaded_library("libSDL2_ttf", maps) is None
    assert channel_ends.loaded_library("libSDL2_mixer", tmp_path / "absent") is None

"""Notes in seconds -> a Standard MIDI File -> FluidSynth -> float audio.

The scores (`tools/soundtrack/scores.py`) are lists of `Note`s and controller changes placed in
seconds, so a piece's tempo changes live in the composition and the file's length is exact.
This module writes them as a type-0 Standard MIDI File at one fixed tempo (960 ticks per
second, ~1 ms) and renders that file offline with the `fluidsynth` program and a General MIDI
SoundFont. FluidSynth's fast file renderer with 32-bit float output (no dither) is
deterministic: the same file, SoundFont and FluidSynth version give the same samples.

No third-party MIDI library: the file format needs about forty lines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

SR = 44100
TICKS_PER_SECOND = 960
PPQ = 480  # ticks per quarter note; with a 500000 us quarter, 960 ticks per second
# MuseScore_General_HQ (Debian `musescore-general-soundfont-lossless`, MIT, parts CC0/PD): a
# General MIDI set rebuilt from mono samples (VSCO chamber strings, a sampled grand, ...).
SOUNDFONT = Path("/usr/share/sounds/sf2/MuseScore_General_Full.sf2")
SOUNDFONT_PACKAGE = "musescore-general-soundfont-lossless"
APT_PACKAGES = ("fluidsynth", SOUNDFONT_PACKAGE)
# The synth's own stereo effects, pinned. Chorus off: FluidSynth's chorus (which some presets
# switch on themselves, whatever the send) puts the channels out of phase, and a one-driver
# box playing (L + R) / 2 loses the lead. A narrow reverb keeps the room without the width.
SYNTH_SETTINGS = ("synth.cpu-cores=1", "synth.polyphony=256", "synth.chorus.active=0",
                  "synth.reverb.active=1", "synth.reverb.room-size=0.55",
                  "synth.reverb.damp=0.4", "synth.reverb.width=0.25", "synth.reverb.level=0.7",
                  "player.reset-synth=0")
DRUMS = 9  # General MIDI's percussion channel (0-based)


@dataclass(frozen=True)
class Note:
    start: float  # seconds
    length: float  # seconds
    channel: int  # 0..15; 9 = percussion
    pitch: int
    velocity: int


@dataclass(frozen=True)
class Control:
    time: float
    channel: int
    controller: int  # 7 volume, 10 pan, 11 expression, 91 reverb send, 93 chorus send
    value: int


@dataclass(frozen=True)
class Program:
    time: float
    channel: int
    program: int  # General MIDI program, 0-based


def _varlen(value: int) -> bytes:
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(out))


def _tick(seconds: float) -> int:
    return max(0, round(seconds * TICKS_PER_SECOND))


def midi_file(notes: Iterable[Note], controls: Iterable[Control], programs: Iterable[Program],
              end_s: float) -> bytes:
    """A type-0 Standard MIDI File holding everything, ending (an end-of-track) at `end_s`."""
    events: list[tuple[int, int, bytes]] = []  # (tick, order, bytes); order sorts same-tick ones
    for p in programs:
        events.append((_tick(p.time), 0, bytes((0xC0 | p.channel, p.program))))
    for c in controls:
        events.append((_tick(c.time), 1, bytes((0xB0 | c.channel, c.controller,
                                                max(0, min(127, c.value))))))
    # A key struck again on a channel while it still sounds: end the old note at the new
    # strike (a note-off after it would silence the new note, all voices of a key stop).
    ordered = sorted(notes, key=lambda n: (n.start, n.channel, n.pitch, n.length, n.velocity))
    next_on: dict[int, int] = {}
    ends: list[int] = [0] * len(ordered)
    for i in range(len(ordered) - 1, -1, -1):
        n = ordered[i]
        key = n.channel * 128 + n.pitch
        end = _tick(n.start + n.length)
        if key in next_on:
            end = min(end, next_on[key])
        ends[i] = end
        next_on[key] = _tick(n.start)
    for n, end in zip(ordered, ends, strict=True):
        on = _tick(n.start)
        if end <= on:
            continue  # the same key struck twice at once: one strike
        off = end
        vel = max(1, min(127, n.velocity))
        pitch = max(0, min(127, n.pitch))
        events.append((on, 3, bytes((0x90 | n.channel, pitch, vel))))
        events.append((off, 2, bytes((0x80 | n.channel, pitch, 0))))  # offs before ons
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    track = bytearray()
    # Tempo: 500000 us per quarter = 120 bpm; with PPQ 480 one tick is 1/960 s.
    track += b"\x00\xff\x51\x03" + (500000).to_bytes(3, "big")
    now = 0
    for tick, _, data in events:
        track += _varlen(tick - now) + data
        now = tick
    track += _varlen(max(0, _tick(end_s) - now)) + b"\xff\x2f\x00"
    header = b"MThd" + (6).to_bytes(4, "big") + (0).to_bytes(2, "big") + (1).to_bytes(2, "big")
    header += PPQ.to_bytes(2, "big")
    return header + b"MTrk" + len(track).to_bytes(4, "big") + bytes(track)


def ensure_fluidsynth() -> str:
    """The fluidsynth program and the SoundFont, installed with apt when root and missing.

    Returns FluidSynth's version line. Raises RuntimeError with what to do when they cannot
    be had (not root, no apt).
    """
    if shutil.which("fluidsynth") is None or not SOUNDFONT.exists():
        if os.geteuid() == 0 and shutil.which("apt-get"):
            print(f"installing {' '.join(APT_PACKAGES)} (apt)", flush=True)
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", *APT_PACKAGES], check=True,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        else:
            raise RuntimeError(
                "rendering the era scores needs FluidSynth and the MuseScore General SoundFont: "
                f"sudo apt-get install {' '.join(APT_PACKAGES)}")
    out = subprocess.run(["fluidsynth", "--version"], capture_output=True, text=True,
                         check=True).stdout
    return out.splitlines()[0].strip()


def package_version(name: str) -> str:
    """The installed Debian package version of `name` ('?' when dpkg cannot tell)."""
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True,
                              text=True, check=True).stdout.strip() or "?"
    except (OSError, subprocess.CalledProcessError):
        return "?"


def render(midi: bytes, seconds: float, gain: float = 0.4) -> npt.NDArray[np.float64]:
    """Render a MIDI file with FluidSynth to stereo float audio, exactly `seconds` long.

    Settings are pinned (rate, one CPU core, `SYNTH_SETTINGS`: chorus off, a narrow reverb,
    256 voices) rather than left to a user's fluidsynth configuration.
    """
    with tempfile.TemporaryDirectory(prefix="erabox-score-") as tmp:
        mid = Path(tmp) / "score.mid"
        raw = Path(tmp) / "score.raw"
        mid.write_bytes(midi)
        subprocess.run(
            ["fluidsynth", "-n", "-i", "-q", "-f", os.devnull,
             *(arg for setting in SYNTH_SETTINGS for arg in ("-o", setting)),
             "-r", str(SR), "-g", str(gain), "-O", "float", "-T", "raw", "-E", "little",
             "-F", str(raw), str(SOUNDFONT), str(mid)],
            check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        )
        audio = np.fromfile(raw, dtype="<f4").astype(np.float64).reshape(-1, 2)
    n = round(seconds * SR)
    if len(audio) < n:
        audio = np.concatenate([audio, np.zeros((n - len(audio), 2))])
    return audio[:n]

"""Three versions of each era's score, and the breath every version gets.

`scores.py` composes an era's piece for a `variant` (1, 2, 3): its random choices (which
accompaniment layers play, the arpeggio and drum patterns, the free bars) come from the
variant's own seed, and its form meets the same themes in another order. This module then
finishes the piece:

- **key**: each era sits in its own region of keys (Era I four semitones up: F# dorian, C#
  phrygian, F# minor; Era II as written: G mixolydian, D dorian; Era III four down: F minor,
  Bb minor), so the eras' pitch-class profiles differ, not only their instruments;
- **orchestration**: a variant swaps some instruments for others of the same role (pan flute
  for shakuhachi or flute, lute for harp, electric piano for a grand...);
- **breath**: every sustaining channel's expression (CC11) is the composed arc times a breath
  of its own: each long note swells in and eases off, and a slow sway (7-13 s) runs under it,
  so no held note is a flat, machine-steady tone;
- **rubato**: the whole piece's time is bent by a few tens of milliseconds (slow sine waves
  that are zero at 0:00, 3:00, 6:00 and 9:00, so the calls and the end stay exact), so no
  bar is timed exactly like another.

Deterministic: every choice comes from a generator seeded by era and variant.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .midi import DRUMS, Control, Note
from .scores import SECTIONS_S, Piece, rng_for

VARIANTS = (1, 2, 3)
# Semitones each era is moved by (Era II as composed); some bass channels an octave back up
# so a key moved down does not sink below what a small speaker plays.
ERA_SHIFT = {1: 4, 2: 0, 3: -4}
OCTAVE_UP = {3: frozenset({3})}
# Orchestration per era and variant: channel -> General MIDI program (0-based), replacing the
# composed one. Variant 1 keeps the composed instruments.
ORCHESTRATION: dict[tuple[int, int], dict[int, int]] = {
    # Era I: 0 choir drone, 1 harp, 2 pan flute, 3 aulos, 4 pizzicato, 5 strings, 6 chant,
    # 7 horns, 8 timpani, 10 taiko, 11 flute.
    (1, 2): {0: 53, 1: 107, 2: 77, 3: 69, 7: 57, 11: 72},
    (1, 3): {1: 24, 2: 73, 3: 71, 5: 49, 7: 61, 11: 75},
    # Era II: 0 lute, 1 recorder, 2 cello, 3 choir, 4 organ, 5 bells, 6 bagpipe, 7 shawm,
    # 8 fiddle, 10 dulcimer, 11 bassoon.
    (2, 2): {0: 46, 1: 73, 2: 70, 3: 53, 4: 20, 5: 9, 7: 69, 8: 40, 10: 46, 11: 42},
    (2, 3): {0: 25, 1: 75, 2: 43, 4: 48, 7: 71, 8: 41, 10: 107, 6: 111},
    # Era III: 0 electric piano, 1 strings, 2 vibraphone, 3 bass, 4 synth bass, 5 polysynth,
    # 6 square lead, 7 saw lead, 8 brass, 10 piano, 11 pad, 12 choir.
    (3, 2): {0: 5, 1: 49, 2: 12, 3: 34, 4: 39, 5: 88, 6: 81, 7: 80, 8: 62, 10: 1, 11: 88,
             12: 53},
    (3, 3): {0: 0, 1: 50, 2: 8, 3: 35, 5: 94, 6: 87, 7: 62, 8: 56, 10: 2, 11: 95, 12: 54},
}
GRID_S = 0.1  # the breath is written at most this often per channel
SWELL_MIN_S = 1.2  # notes at least this long swell and ease off
RUBATO = ((5, 0.07), (13, 0.035), (29, 0.018))  # (half-waves per section, seconds)


def finish(piece: Piece, era: int, variant: int) -> Piece:
    """The finished piece of one era's variant: key, orchestration, breath, rubato."""
    shift, up = ERA_SHIFT[era], OCTAVE_UP.get(era, frozenset())
    notes = [n if n.channel == DRUMS else
             replace(n, pitch=n.pitch + shift + (12 if n.channel in up else 0))
             for n in piece.notes]
    swaps = ORCHESTRATION.get((era, variant), {})
    programs = [replace(p, program=swaps.get(p.channel, p.program)) for p in piece.programs]
    controls = breathe(notes, piece.controls, rng_for(f"breath era{era} v{variant}"))
    warp = rubato(rng_for(f"rubato era{era} v{variant}"))
    notes = [replace(n, start=warp(n.start), length=max(0.03, warp(n.start + n.length)
                                                        - warp(n.start))) for n in notes]
    controls = [replace(c, time=warp(c.time)) for c in controls]
    return Piece(piece.name, notes, controls, programs, piece.dynamics)


def rubato(rng: np.random.Generator):  # type: ignore[no-untyped-def]
    """A time map t -> t + a few tens of ms, zero at every section edge (sines with whole
    numbers of half-waves per 180 s section), monotonic (its slope stays near 1)."""
    terms = [(k, amp * float(rng.uniform(0.7, 1.0)) * (1 if rng.random() < 0.5 else -1))
             for k, amp in RUBATO]
    section = SECTIONS_S[1] - SECTIONS_S[0]

    def warp(t: float) -> float:
        return t + sum(a * float(np.sin(np.pi * k * t / section)) for k, a in terms)
    return warp


def breathe(notes: list[Note], controls: list[Control], rng: np.random.Generator
            ) -> list[Control]:
    """Expression (CC11) of every channel that plays notes: the composed value times a breath
    (long notes swell to the middle of their length and ease off, a slow sway under all)."""
    others = [c for c in controls if c.controller != 11]
    out = list(others)
    end = max(n.start + n.length for n in notes) + 1.0
    channels = sorted({n.channel for n in notes} - {DRUMS})
    for ch in channels:
        composed = sorted((c for c in controls if c.controller == 11 and c.channel == ch),
                          key=lambda c: c.time)
        times = np.union1d(np.arange(0.0, end, GRID_S), [c.time for c in composed])
        base = np.full(len(times), 127.0)
        if composed:
            at = np.array([c.time for c in composed])
            k = np.searchsorted(at, times, side="right") - 1
            values = np.array([c.value for c in composed], dtype=np.float64)
            base = np.where(k >= 0, values[np.maximum(k, 0)], 127.0)
        period = float(rng.uniform(7.0, 13.0))
        sway = 1.0 - 0.06 * (1.0 + np.sin(2 * np.pi * times / period
                                           + float(rng.uniform(0, 2 * np.pi))))
        swell = np.ones(len(times))
        longs = sorted((n for n in notes if n.channel == ch and n.length >= SWELL_MIN_S),
                       key=lambda n: n.start)
        depth = float(rng.uniform(0.14, 0.22))
        for n in longs:  # a later note's shape takes over from an earlier one's
            inside = (times >= n.start) & (times < n.start + n.length)
            u = (times[inside] - n.start) / n.length
            peak = 0.35
            shape = np.where(u < peak, u / peak, 1.0 - 0.8 * (u - peak) / (1.0 - peak))
            swell[inside] = 1.0 - depth * (1.0 - shape)
        value = np.clip(np.round(base * sway * swell), 0, 127).astype(int)
        last = -1
        for t, v in zip(times, value, strict=True):
            if v != last:
                out.append(Control(float(t), ch, 11, int(v)))
                last = int(v)
    return out

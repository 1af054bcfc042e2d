"""The three era scores: through-composed, 540 s each, as notes placed in seconds.

Each era is three sections split at 3:00 and 6:00 (the scholar calls), each with its own key
or mode, tempo, metre and instruments, so the table hears which third it is in; the last
minute of the third section speeds up, thickens and gets louder towards the end gong.

The music is built from hand-written themes (8 bars, with their chords), a few per era: each
section's melody and harmony is a form of statements and variations (ornamented, sequenced,
inverted, fragmented, extended or cut, other closes, out-of-mode colour) with free bars
between, and themes return in later sections. Accompaniment patterns are picked per bar or
phrase from a few variants; which layers play changes every 16-28 s; a dynamic curve gives
every section its own loudness arc; every note gets a few milliseconds and velocity steps of
human unevenness. All randomness comes from generators seeded by name, so a score is the same
on every run.

    Era I, ancient:   D dorian dawn (harp, pan flute, choir drone), A phrygian dance
                      (aulos-like oboe, pizzicato, hand drums), D minor procession
                      (choir chant, horns, taiko and timpani).
    Era II, medieval: G mixolydian lute and recorder in 6/8, D dorian chant (choir organum,
                      organ, bells), G mixolydian estampie (bagpipe, shawm, fiddle, dulcimer,
                      tabor).
    Era III, modern:  A minor electric piano and vibraphone, D minor synth groove (bass,
                      stabs, arpeggios, drum kit; a stalled last bar), A minor anthem
                      landing with the whole band (saw lead, strings, brass, piano, choir,
                      full kit).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .midi import DRUMS, Control, Note, Program

LENGTH_S = 540.0
SECTIONS_S = (0.0, 180.0, 360.0, 540.0)
RISE_S = 480.0  # the last minute
FINAL = 0.82  # the closing chord's velocity share: a resolution, not a louder peak than the rise

DORIAN = (0, 2, 3, 5, 7, 9, 10)
PHRYGIAN = (0, 1, 3, 5, 7, 8, 10)
MIXOLYDIAN = (0, 2, 4, 5, 7, 9, 10)
AEOLIAN = (0, 2, 3, 5, 7, 8, 10)


def rng_for(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


@dataclass(frozen=True)
class Scale:
    tonic: int  # MIDI note of degree 0
    steps: tuple[int, ...]

    def pitch(self, degree: int) -> int:
        octave, index = divmod(degree, 7)
        return self.tonic + 12 * octave + self.steps[index]


@dataclass(frozen=True)
class Bar:
    start: float
    length: float
    beats: int  # counting units in the bar (quarters in 4/4 and 3/4, eighths in 6/8)

    def at(self, beat: float) -> float:
        return self.start + beat * self.length / self.beats

    @property
    def beat_s(self) -> float:
        return self.length / self.beats


def bars_between(start: float, end: float, beats: int, beat_bpm: float,
                 end_bpm: float | None = None) -> list[Bar]:
    """Whole bars filling [start, end) exactly; the tempo may ramp from beat_bpm to end_bpm.

    The number of bars is the nearest whole number at the nominal tempo; every bar is then
    stretched by the same factor (well under 2 %) so the last one ends exactly at `end`.
    """
    end_bpm = beat_bpm if end_bpm is None else end_bpm
    mean = (beat_bpm + end_bpm) / 2
    count = max(1, round((end - start) / (beats * 60.0 / mean)))
    bpms = np.linspace(beat_bpm, end_bpm, count)
    lengths = beats * 60.0 / bpms
    lengths *= (end - start) / lengths.sum()
    starts = start + np.concatenate(([0.0], np.cumsum(lengths)[:-1]))
    return [Bar(float(s), float(n), beats) for s, n in zip(starts, lengths, strict=True)]


@dataclass
class Piece:
    """Notes, controller changes and programs being written; humanised from a seeded rng."""

    name: str
    notes: list[Note] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    programs: list[Program] = field(default_factory=list)

    dynamics: tuple[tuple[float, float], ...] = ((0.0, 1.0),)  # (time s, velocity factor)

    def __post_init__(self) -> None:
        self.rng = rng_for(f"score {self.name} humanise")

    def level(self, time: float) -> float:
        """The piece's dynamic curve at `time`: every note's velocity is scaled by it, so the
        sections have their own loudness arcs (and the samples their louder, brighter layers)."""
        points = np.array(self.dynamics)
        return float(np.interp(time, points[:, 0], points[:, 1]))

    def instrument(self, time: float, channel: int, program: int, volume: int, pan: int,
                   reverb: int, chorus: int = 0) -> None:
        if channel != DRUMS:
            self.programs.append(Program(time, channel, program))
        for controller, value in ((7, volume), (10, pan), (91, reverb), (93, chorus),
                                  (11, 127)):
            self.controls.append(Control(time, channel, controller, value))

    def note(self, time: float, length: float, channel: int, pitch: int, velocity: float,
             jitter: float = 0.008) -> None:
        dt = float(self.rng.normal(0.0, jitter)) if jitter else 0.0
        dv = float(self.rng.normal(0.0, 4.0))
        velocity *= self.level(time)
        self.notes.append(Note(max(0.0, time + dt), max(0.03, length), channel, pitch,
                               round(min(127.0, max(1.0, velocity + dv)))))

    def hit(self, time: float, key: int, velocity: float, jitter: float = 0.004) -> None:
        self.note(time, 0.2, DRUMS, key, velocity, jitter)

    def swell(self, channel: int, t0: float, t1: float, v0: int, v1: int, steps: int = 16,
              controller: int = 11) -> None:
        for i in range(steps + 1):
            u = i / steps
            self.controls.append(Control(t0 + u * (t1 - t0), channel, controller,
                                         round(v0 + (v1 - v0) * u)))


# --- harmony ------------------------------------------------------------------------------------

# Chord roots are scale degrees (0 = tonic); a chord is the root, third and fifth in the mode.
# `Moves`: from each root, the roots that may follow it (the free bars between themes).
Moves = dict[int, tuple[int, ...]]


def chord(scale: Scale, root: int, base: int) -> list[int]:
    """The triad on `root` (degrees) voiced upwards from degree `base`'s octave."""
    return [scale.pitch(root + base + k) for k in (0, 2, 4)]


# --- melody -------------------------------------------------------------------------------------

Rhythm = tuple[float, ...]  # note lengths in beats; a negative length is a rest


@dataclass(frozen=True)
class Voice:
    channel: int
    low: int  # lowest and highest scale degree
    high: int
    velocity: float
    legato: float = 0.92


def melody(piece: Piece, rng: np.random.Generator, bars: Sequence[Bar], roots: Sequence[int],
           scale: Scale, voice: Voice, rhythms: Sequence[Rhythm], cadences: Sequence[Rhythm],
           phrase: int = 4, motif_odds: float = 0.45, play: Callable[[int], bool] | None = None,
           shadow: Sequence[tuple[Voice, int]] = (), accent: float = 1.0) -> None:
    """A melody over `bars`: a seeded walk on the scale, chord tones on strong beats.

    Phrases of `phrase` bars close on a long chord tone (a rhythm from `cadences`). The first
    bar's shape is the motif; later phrases restate it on their own chord now and then.
    `play(bar_index)` false = rest that bar. `shadow` voices double the line a fixed number
    of degrees away (organum, octaves, thirds).
    """
    degree = (voice.low + voice.high) // 2
    motif: tuple[Rhythm, list[int]] | None = None
    steps = (-2, -1, -1, -1, 0, 1, 1, 1, 2, 3, -3)
    for index, (bar, root) in enumerate(zip(bars, roots, strict=True)):
        if play is not None and not play(index):
            continue
        place = index % phrase
        closing = place == phrase - 1
        tones = [root + k for k in (0, 2, 4)]
        use_motif = motif is not None and place == 0 and rng.random() < motif_odds
        if use_motif and motif is not None:
            rhythm, shape = motif
        else:
            options = cadences if closing else rhythms
            rhythm = options[int(rng.integers(len(options)))]
            shape = []
        beat = 0.0
        start_degree = degree
        i = -1
        for length in rhythm:
            if length < 0:
                beat -= length
                continue
            i += 1
            strong = abs(beat - round(beat)) < 1e-6 and round(beat) % 2 == 0
            if use_motif and shape:
                degree = start_degree + shape[i]
            else:
                degree += int(rng.choice(steps))
            if strong or (closing and beat + length >= bar.beats - 1e-6):
                degree = min((d for t in tones for d in range(t - 14, t + 15, 7)),
                             key=lambda d: (abs(d - degree), d))
            while degree > voice.high:
                degree -= 2 if degree - 7 < voice.low else 7
            while degree < voice.low:
                degree += 2 if degree + 7 > voice.high else 7
            if not use_motif:
                shape.append(degree - start_degree)
            velocity = voice.velocity * (accent if strong else 0.88)
            start, dur = bar.at(beat), length * bar.beat_s * voice.legato
            piece.note(start, dur, voice.channel, scale.pitch(degree), velocity)
            for other, offset in shadow:
                piece.note(start, dur, other.channel, scale.pitch(degree + offset),
                           other.velocity * (accent if strong else 0.88))
            beat += length
        if motif is None and not use_motif and len(shape) >= 3:
            motif = (rhythm, shape)


# --- themes -------------------------------------------------------------------------------------
#
# A theme is a phrase written out by hand: notes per bar as scale degrees with lengths in the
# bar's counting units, and one chord root per bar. A section's melody and harmony are a *form*
# built from its themes: statements, then variations (ornamented, sequenced up, inverted,
# fragmented and extended, cadences changed), with short free interludes between, so phrase
# lengths and cadences vary and the tunes come back recognisably but never the same.

ThemeNote = tuple[float, int | None, int]  # (length in beats, degree or None = rest, semitones)


@dataclass(frozen=True)
class Theme:
    bars: tuple[tuple[ThemeNote, ...], ...]
    roots: tuple[int, ...]


def theme(notes: str, roots: str) -> Theme:
    """A theme from text: bars split by '|', notes 'degree:beats' ('r' a rest; a '#' or 'b'
    after the degree raises or lowers it a semitone: out-of-mode colour); roots one a bar."""
    bars = []
    for text in notes.split("|"):
        bar: list[ThemeNote] = []
        for token in text.split():
            degree, length = token.split(":")
            alter = degree.count("#") - degree.count("b")
            degree = degree.rstrip("#b")
            bar.append((float(length), None if degree == "r" else int(degree), alter))
        bars.append(tuple(bar))
    chords = tuple(int(r) for r in roots.split())
    if len(chords) != len(bars):
        raise ValueError(f"{len(bars)} bars but {len(chords)} roots")
    return Theme(tuple(bars), chords)


def _map(t: Theme, f: Callable[[int, ThemeNote], list[ThemeNote]]) -> Theme:
    return Theme(tuple(tuple(n for note in bar for n in f(i, note)) for i, bar in
                       enumerate(t.bars)), t.roots)


def vary(t: Theme, kind: str) -> Theme:
    """One variation of a theme.

    plain; orn (long notes get a neighbour, quick notes a passing turn); up2 / up3 / down2 (a
    sequence: tune and harmony shifted by degrees); inv (the tune mirrored about its first
    note, strong beats later snapped to the chord); frag (the first half, again a step up,
    then the close: a longer phrase); trunc (bar 6 dropped: a 7-bar phrase); ext (the
    penultimate bar twice); half / deceptive (the close lands on V or VI instead of I);
    lead (the leading tone raised before the close: harmonic-minor colour).
    """
    n = len(t.bars)
    if kind == "plain":
        return t
    if kind == "orn":
        def ornament(_: int, note: ThemeNote) -> list[ThemeNote]:
            length, degree, alter = note
            if degree is None or length < 1.0:
                return [note]
            if length >= 2.0:
                return [(length - 0.5, degree, alter), (0.5, degree + 1, 0)]
            return [(0.5, degree, alter), (0.25, degree + 1, 0), (0.25, degree, alter)]
        return _map(t, ornament)
    if kind.startswith(("up", "down")):
        k = int(kind[-1]) * (1 if kind.startswith("up") else -1)
        shifted = _map(t, lambda _, m: [(m[0], None if m[1] is None else m[1] + k, 0)])
        return Theme(shifted.bars, tuple(r + k for r in t.roots[:-2]) + t.roots[-2:])
    if kind == "inv":
        first = next(m[1] for bar in t.bars for m in bar if m[1] is not None)
        return _map(t, lambda i, m: [m] if m[1] is None or i >= n - 2
                    else [(m[0], 2 * first - m[1], 0)])
    if kind == "frag":
        half = n // 2
        head = t.bars[:half]
        up = tuple(tuple((m[0], None if m[1] is None else m[1] + 1, 0) for m in bar)
                   for bar in head)
        return Theme(head + up + t.bars[-2:],
                     t.roots[:half] + tuple(r + 1 for r in t.roots[:half]) + t.roots[-2:])
    if kind == "trunc" and n >= 7:
        keep = [i for i in range(n) if i != n - 3]
        return Theme(tuple(t.bars[i] for i in keep), tuple(t.roots[i] for i in keep))
    if kind == "ext":
        return Theme(t.bars[:-1] + t.bars[-2:], t.roots[:-1] + t.roots[-2:])
    if kind in ("half", "deceptive"):
        land = 4 if kind == "half" else 5
        last = tuple((m[0], None if m[1] is None else land + (m[1] - t.roots[-1]), 0)
                     for m in t.bars[-1])
        return Theme(t.bars[:-1] + (last,), t.roots[:-1] + (land,))
    if kind == "lead":
        return Theme(t.bars[:-2] + (tuple((m[0], m[1], 1 if m[1] is not None and m[1] % 7 == 6
                                           else m[2]) for m in t.bars[-2]),) + t.bars[-1:],
                     t.roots)
    return t


@dataclass
class Plan:
    """A section's chord roots (one a bar) and its tune (per bar: notes, or None = no tune)."""

    roots: list[int]
    line: list[tuple[ThemeNote, ...] | None]
    arch: list[float]  # per bar, the phrase's dynamic arch: 0 at its edges, 1 at its middle


def plan(rng: np.random.Generator, variant: int, count: int,
         form: Sequence[tuple[Theme, str] | int], moves: Moves) -> Plan:
    """Fill `count` bars with `form`: (theme, variations '+'-joined) or a number of free bars
    (harmony walking `moves`, no tune). The form repeats from its third entry if it runs out;
    the last phrase is cut to fit.

    `variant` (1, 2, 3) tells the score's versions apart: after the opening statement the form
    is turned round by a third per variant (the same themes and variations, met in another
    order) and the free stretches between them grow or shrink by a bar."""
    form = reform(rng, variant, form)
    out = Plan([], [], [])
    seen: dict[int, set[int]] = {}  # each theme's degrees met so far (mod 7)
    index = 0
    while len(out.roots) < count:
        entry = form[index] if index < len(form) else form[2 + (index - 2) % (len(form) - 2)]
        index += 1
        if isinstance(entry, int):
            root = out.roots[-1] if out.roots else 0
            for _ in range(entry):
                root = int(rng.choice(moves[root]))
                out.roots.append(root)
                out.line.append(None)
                out.arch.append(0.3)
            continue
        t, kinds = entry
        given = sum(int(k[-1]) * (1 if k.startswith("up") else -1) for k in kinds.split("+")
                    if k.startswith(("up", "down")))
        used = seen.setdefault(id(t), set())
        order = DEGREES[2 * (variant - 1) :] + DEGREES[: 2 * (variant - 1)]
        if variant == 1 and given % 7 not in used:
            net = given
        else:
            net = next((d for d in order if d % 7 not in used), order[0])
        used.add(net % 7)
        moved = net - given
        kinds += f"+up{moved}" if moved > 0 else f"+down{-moved}" if moved < 0 else ""
        for kind in kinds.split("+"):
            t = vary(t, kind)
        n = len(t.bars)
        out.roots.extend(t.roots)
        out.line.extend(t.bars)
        out.arch.extend(float(np.sin(np.pi * (i + 0.5) / n)) for i in range(n))
    del out.roots[count:], out.line[count:], out.arch[count:]
    return out


def reform(rng: np.random.Generator, variant: int, form: Sequence[tuple[Theme, str] | int]
           ) -> list[tuple[Theme, str] | int]:
    """One variant's order of a form: turned round by a third of its length per variant (the
    same themes and variations, met in another order, from another opening), free stretches
    a bar longer or shorter."""
    entries = list(form)
    if variant <= 1 or len(entries) < 2:
        return entries
    turn = (variant - 1) * len(entries) // 3 or 1
    entries = entries[turn:] + entries[:turn]
    return [max(1, e + int(rng.integers(-1, 2))) if isinstance(e, int) else e for e in entries]


# Where a theme is met (scale degrees up, the final cadence kept). Within a section no
# statement of a theme repeats the chords of an earlier one: each takes the first of these
# shifts not yet used for it (the composer's own sequence first, in variant 1); variants 2
# and 3 start two and four places along, so at any minute of the piece the three variants
# play the same tunes over other chords.
DEGREES = (0, 2, 5, 3, 4)


def sing(piece: Piece, bars: Sequence[Bar], p: Plan, scale: Scale, voice: Voice,
         octave: int = 0, play: Callable[[int], bool] | None = None,
         shadow: Sequence[tuple[Voice, int]] = (), gain: Callable[[int], float] | None = None
         ) -> None:
    """Play a plan's tune with `voice`, `octave` scale octaves up; strong beats land on a chord
    tone; the phrase arch shapes the velocity (+-12 %). `shadow` voices double it (organum,
    octaves, thirds) a fixed number of degrees away."""
    for index, (bar, notes) in enumerate(zip(bars, p.line, strict=True)):
        if notes is None or (play is not None and not play(index)):
            continue
        tones = [p.roots[index] + k for k in (0, 2, 4)]
        beat = 0.0
        for length, degree, alter in notes:
            if degree is None:
                beat += length
                continue
            strong = abs(beat - round(beat)) < 1e-6 and round(beat) % 2 == 0
            if strong and alter == 0 and all((degree - t) % 7 for t in tones):
                degree = min((d for t in tones for d in range(t - 14, t + 15, 7)),
                             key=lambda d: (abs(d - degree), d))
            d = degree + 7 * octave
            while d > voice.high + 2:
                d -= 7
            while d < voice.low - 2:
                d += 7
            level = voice.velocity * (0.88 + 0.24 * p.arch[index]) * (1.06 if strong else 0.94)
            level *= gain(index) if gain is not None else 1.0
            start, dur = bar.at(beat), length * bar.beat_s * voice.legato
            piece.note(start, dur, voice.channel, scale.pitch(d) + alter, level)
            for other, offset in shadow:
                piece.note(start, dur, other.channel, scale.pitch(d + offset) + alter,
                           other.velocity * level / voice.velocity)
            beat += length


def section_arc(piece: Piece, channels: Sequence[int], start: float, end: float,
                shape: Sequence[float], steps: int = 48) -> None:
    """A loudness arc over a section: expression (CC11) through the points of `shape`
    (0..1 of full expression), spread evenly over [start, end)."""
    xs = np.linspace(0.0, 1.0, len(shape))
    for i in range(steps + 1):
        u = i / steps
        value = round(127 * float(np.interp(u, xs, shape)))
        for ch in channels:
            piece.controls.append(Control(start + u * (end - start - 0.05), ch, 11, value))


def layers(rng: np.random.Generator, bars: Sequence[Bar], count: int, low_s: float = 16.0,
           high_s: float = 28.0) -> Callable[[int, int], bool]:
    """Which of `count` layers play in each bar: every 16-28 s one layer (a seeded choice)
    comes in or drops out, so the texture keeps changing but never all at once (the section
    starts stay the big changes); at least half the layers stay on."""
    blocks: list[tuple[float, frozenset[int]]] = []
    t = bars[0].start
    chosen = frozenset(range(count))
    end = bars[-1].start + bars[-1].length
    while t < end:
        blocks.append((t, chosen))
        while True:
            flip = int(rng.integers(count))
            toggled = chosen ^ {flip}
            if len(toggled) >= (count + 1) // 2:
                break
        chosen = frozenset(toggled)
        t += float(rng.uniform(low_s, high_s))
    starts = [b[0] for b in blocks]

    def on(layer: int, index: int) -> bool:
        k = int(np.searchsorted(starts, bars[index].start, side="right")) - 1
        return layer in blocks[max(0, k)][1]
    return on


def arpeggio(piece: Piece, rng: np.random.Generator, bars: Sequence[Bar], roots: Sequence[int],
             scale: Scale, channel: int, base: int, patterns: Sequence[Sequence[tuple[float, int]]],
             velocity: float, ring: float = 1.5, change_every: int = 2,
             accent: float = 1.15, play: Callable[[int], bool] | None = None) -> None:
    """Broken chords: a pattern of (beat, chord step) per bar, re-picked every few bars.

    Chord step k is the k-th chord tone upwards (0 root, 1 third, 2 fifth, 3 octave...).
    `play(bar_index)` false = rest that bar.
    """
    pattern = patterns[0]
    for index, (bar, root) in enumerate(zip(bars, roots, strict=True)):
        if index % change_every == 0:
            pattern = patterns[int(rng.integers(len(patterns)))]
        if play is not None and not play(index):
            continue
        # A player, not a sequencer: now and then a note left out or taken up an octave, and
        # the bar's weight leans to another beat, so no two bars of a pattern are the same.
        lean = float(rng.uniform(0.9, 1.1))
        for beat, step in pattern:
            if beat and rng.random() < 0.12:
                continue
            octave, k = divmod(step, 3)
            octave += 1 if beat and rng.random() < 0.08 else 0
            pitch = scale.pitch(root + base + 2 * k) + 12 * octave
            vel = velocity * (accent if beat == 0 else lean if beat >= 2 else 1.0)
            piece.note(bar.at(beat), ring * bar.beat_s, channel, pitch, vel)


def held(piece: Piece, bars: Sequence[Bar], roots: Sequence[int], scale: Scale, channel: int,
         base: int, velocity: float, degrees: Sequence[int] = (0, 2, 4), every: int = 1) -> None:
    """Sustained chords (pads, choirs, organ), re-voiced every `every` bars."""
    for index in range(0, len(bars), every):
        group = bars[index : index + every]
        end = group[-1].start + group[-1].length
        for d in degrees:
            piece.note(group[0].start, end - group[0].start + 0.05, channel,
                       scale.pitch(roots[index] + base + d), velocity, jitter=0.0)


def drone(piece: Piece, start: float, end: float, channel: int, pitches: Sequence[int],
          velocity: float, breath: float) -> None:
    """Long notes re-struck every `breath` seconds with a little overlap (a player breathing)."""
    t = start
    while t < end - 0.5:
        length = min(breath, end - t)
        for p in pitches:
            piece.note(t, length + 0.15, channel, p, velocity, jitter=0.0)
        t += length


Kit = dict[str, tuple[int, float]]  # pattern letter -> (GM drum key, velocity)


def drums(piece: Piece, rng: np.random.Generator, bars: Sequence[Bar], kit: Kit,
          grooves: Sequence[Sequence[str]], fills: Sequence[Sequence[str]], phrase: int = 4,
          steps: int = 8, gain: float = 1.0, change_every: int = 4,
          skip: Callable[[int], bool] | None = None) -> None:
    """Percussion from pattern rows: one string per instrument line, one character a step.

    Each row is `steps` characters (a step = bar/steps); a letter from `kit` plays, '.' rests;
    upper case is an accent. A groove is picked every `change_every` bars; the last bar of a
    phrase plays a fill.
    """
    groove = grooves[0]
    for index, bar in enumerate(bars):
        if skip is not None and skip(index):
            continue
        if index % change_every == 0:
            groove = grooves[int(rng.integers(len(grooves)))]
        rows = fills[int(rng.integers(len(fills)))] if index % phrase == phrase - 1 else groove
        # A drummer, not a loop: off-beat strokes sometimes left out, a ghost stroke now and
        # then where the row rests, and the bar's accents drift.
        push = float(rng.uniform(0.88, 1.12))
        for row in rows:
            sound = next((c.lower() for c in row if c != "."), None)
            for step, char in enumerate(row):
                if char == ".":
                    if sound is not None and step % 2 and rng.random() < 0.05:
                        key, vel = kit[sound]
                        piece.hit(bar.at(step * bar.beats / steps), key, 0.45 * vel * gain)
                    continue
                if step and not char.isupper() and rng.random() < 0.1:
                    continue
                key, vel = kit[char.lower()]
                vel *= 1.2 if char.isupper() else push if step % 2 else 1.0
                piece.hit(bar.at(step * bar.beats / steps), key, vel * gain)


def folded(pitch: int, low: int) -> int:
    """`pitch` moved by octaves into [low, low + 12): a bass line that keeps its register."""
    return low + (pitch - low) % 12


def late(bars: Sequence[Bar], index: int) -> bool:
    """Whether bar `index` starts in the last minute."""
    return bars[index].start >= RISE_S


def rising(bars: Sequence[Bar], low: float, high: float) -> Callable[[int], float]:
    """A factor growing from `low` to `high` over the bars that start in the last minute."""
    def factor(index: int) -> float:
        t = bars[index].start
        return low if t < RISE_S else low + (high - low) * (t - RISE_S) / (LENGTH_S - RISE_S)
    return factor


# --- Era I: ancient -----------------------------------------------------------------------------


# Era I's themes. Dawn: a rising-falling call over the dorian drone (IV major, VII), and its
# answer; Dance: quick aulos turns around the phrygian flat second; Procession: a hymn in
# fourths and fifths. The dawn call comes back in the procession, broadened, at the end.
DAWN = theme("4:3 3:0.5 2:0.5 | 0:2 2:1 4:1 | 5:1.5 4:0.5 3:1 2:1 | 4:4 | "
             "8:2 6:1 4:1 | 5:1 4:1 3:2 | 3:1 2:1 1:1 -1:1 | 0:4", "0 0 3 0 6 3 6 0")
DAWN_ANSWER = theme("r:1 2:1 4:1 5:1 | 6:3 5:1 | 4:2 2:2 | 3:3 r:1 | r:1 4:1 5:1 6:1 | "
                    "7:2 6:1 4:1 | 5:2 1:2 | 0:4", "0 6 0 3 0 6 4 0")
DANCE = theme("0:0.5 1:0.5 0:1 -1:0.5 0:0.5 2:1 | 3:1 2:0.5 1:0.5 0:2 | "
              "4:0.5 3:0.5 4:1 5:1 4:1 | 2:3 r:1 | 4:1 5:0.5 4:0.5 3:1 2:1 | "
              "1:1 0:0.5 1:0.5 2:2 | 3:0.5 2:0.5 1:1 0:1 -1:1 | 0:3 r:1", "0 5 3 0 3 6 1 0")
DANCE_TURN = theme("4:1 4:0.5 5:0.5 4:1 2:1 | 3:0.5 2:0.5 1:1 0:2 | 2:1 3:1 4:0.5 5:0.5 6:1 | "
                   "7:4 | 6:1 5:1 4:0.5 3:0.5 2:1 | 3:2 1:2 | 0:0.5 1:0.5 2:1 1:1 -1:1 | 0:4",
                   "3 1 5 0 6 3 1 0")
PROCESSION = theme("0:1 4:1 7:2 | 6:1 4:1 5:2 | 4:1.5 3:0.5 2:1 0:1 | 1:4 | "
                   "2:1 4:1 7:1 9:1 | 8:2 7:1 6:1 | 5:1 4:1 3:1 1:1 | 0:4", "0 0 5 4 2 5 3 0")


# The procession's taiko, per variant: (the last minute, with the third layer, without).
TAIKO = {1: ((0, 1, 2, 3), (0, 2), (0,)),
         2: ((0, 1, 1.5, 2, 3), (0, 1.5, 2.5), (0, 2.5)),
         3: ((0, 0.5, 2, 3, 3.5), (0, 3), (0, 1.5))}


def era1(variant: int = 1) -> Piece:
    piece = Piece(f"era1 v{variant}",
                  dynamics=((0.0, 0.62), (50.0, 0.8), (120.0, 0.95), (160.0, 0.8),
                                    (180.0, 0.74), (250.0, 0.92), (320.0, 1.0), (360.0, 0.96),
                                    (375.0, 0.98), (430.0, 1.02), (480.0, 1.05),
                                    (536.0, 1.22)))
    rng, v = rng_for(f"score era1 v{variant}"), variant
    # Channels: 0 choir drone, 1 harp, 2 pan flute, 3 oboe (aulos), 4 pizzicato, 5 strings,
    # 6 choir chant, 7 horns, 8 timpani, 10 taiko, 11 flute counterline, 9 hand percussion.
    piece.instrument(0.0, 0, 52, 80, 54, 70)
    piece.instrument(0.0, 1, 46, 96, 76, 60)
    piece.instrument(0.0, 2, 75, 92, 50, 70)
    piece.instrument(0.0, DRUMS, 0, 92, 64, 45)

    # I. Dawn (0:00-3:00): D dorian, 64 bpm 4/4; drone, harp, pan flute, a triangle.
    d = Scale(62, DORIAN)
    bars = bars_between(0.0, 180.0, 4, 64.0)
    moves: Moves = {0: (3, 6, 4, 2), 1: (4, 0), 2: (3, 6), 3: (0, 6, 4), 4: (0, 3),
                    5: (3, 4), 6: (0, 3, 2)}
    dawn = plan(rng, v, len(bars), [1, (DAWN, "plain"), 2, (DAWN_ANSWER, "plain"),
                                 (DAWN, "orn+half"), 3, (DAWN_ANSWER, "up2"), (DAWN, "frag+lead"),
                                 2, (DAWN_ANSWER, "inv+ext"), (DAWN, "orn+deceptive"), 1],
                moves)
    roots = dawn.roots
    on = layers(rng, bars, 3)
    piece.swell(0, 0.0, 2.0, 70, 110)
    drone(piece, 0.0, 180.0, 0, (38, 45, 50), 58, bars[0].length * 4)
    arpeggio(piece, rng, bars, roots, d, 1, -7,
             [[(0, 0), (1, 1), (2, 2), (3, 3)],
              [(0, 0), (0.5, 2), (1, 3), (2, 4), (3, 2)],
              [(0, 0), (1.5, 2), (2, 4), (3, 3), (3.5, 2)],
              [(0, 0), (1, 2), (1.5, 3), (2.5, 4), (3, 5)]],
             74, ring=2.5, play=lambda i: i < 4 or on(0, i))
    flute = Voice(2, 0, 11, 80)
    sing(piece, bars, dawn, d, flute)
    for i, bar in enumerate(bars):
        if i % 4 == 0 and on(1, i):
            piece.hit(bar.start, 81, 50)
        if i >= 8 and on(2, i):
            piece.hit(bar.start, 64, 52 if i % 2 else 64)
            piece.hit(bar.at(2.5), 63, 38)

    # II. Dance (3:00-6:00): A phrygian, 84 bpm; oboe as the aulos, pizzicato, hand drums.
    a = Scale(57, PHRYGIAN)
    piece.instrument(179.5, 3, 68, 88, 70, 55)
    piece.instrument(179.5, 4, 45, 96, 40, 40)
    piece.instrument(179.5, 5, 48, 70, 64, 70)
    piece.swell(0, 176.5, 180.0, 110, 0)
    bars = bars_between(180.0, 360.0, 4, 84.0)
    moves = {0: (1, 6, 3), 1: (0, 6), 2: (1, 3), 3: (1, 0, 6), 4: (3, 1), 5: (6, 1),
             6: (0, 1, 5)}
    dance = plan(rng, v, len(bars), [2, (DANCE, "plain"), (DANCE, "orn"), 2, (DANCE_TURN, "plain"),
                                  (DANCE, "up3+half"), 2, (DAWN, "frag"), (DANCE_TURN, "ext"),
                                  (DANCE, "inv"), 2, (DANCE, "orn+lead")], moves)
    roots = dance.roots
    on = layers(rng, bars, 4)
    drone(piece, 180.0, 360.0, 5, (45, 52), 52, bars[0].length * 4)
    arpeggio(piece, rng, bars, roots, a, 4, -7,
             [[(0, 0), (1, 2), (1.5, 0), (2, 3), (3, 2)],
              [(0, 0), (0.5, 0), (1, 2), (2, 0), (2.5, 1), (3, 2)],
              [(0, 0), (1, 1), (1.5, 2), (2.5, 1), (3, 0)]],
             78, ring=0.6, play=lambda i: on(0, i) or on(1, i))
    arpeggio(piece, rng, bars, roots, a, 1, 0,
             [[(0, 0), (0.5, 1), (1, 2), (1.5, 3), (2, 2), (2.5, 1), (3, 2), (3.5, 3)],
              [(0.5, 1), (1, 2), (2.5, 1), (3, 2)],
              [(0, 3), (1, 2), (2, 1), (3, 0)]],
             46, ring=1.2, play=lambda i: on(2, i))
    aulos = Voice(3, 2, 12, 86)
    sing(piece, bars, dance, a, aulos, octave=1)
    doumbek: Kit = {"d": (64, 82), "t": (62, 64), "k": (63, 48), "s": (54, 40),
                    "b": (60, 55)}
    drums(piece, rng, bars, doumbek,
          grooves=[["d..td.t.", "s.s.s.s."], ["d.ktd.kt", "..s...s."],
                   ["d..tdkt.", "s...s..."], ["d.t.d.tk", "....s.s."]],
          fills=[["d.tktktk", "s.s.s.ss"], ["dbdbtktk", "........"]],
          skip=lambda i: not on(3, i) and i % 8 == 3 and i < len(bars) - 12)

    # III. Procession (6:00-9:00): D minor, 88 bpm, quickening to 104 in the last minute;
    # choir chant, horn calls, taiko and timpani, harp and flute running underneath.
    m = Scale(62, AEOLIAN)
    piece.instrument(359.5, 6, 52, 100, 64, 75)
    piece.instrument(359.5, 7, 60, 84, 44, 65)
    piece.instrument(359.5, 8, 47, 90, 84, 60)
    piece.instrument(359.5, 10, 116, 100, 64, 50)
    piece.instrument(359.5, 11, 73, 80, 90, 65)
    piece.swell(3, 356.5, 360.0, 127, 40)
    piece.swell(5, 356.5, 360.0, 127, 40)
    bars = bars_between(360.0, RISE_S, 4, 88.0) + bars_between(RISE_S, 536.0, 4, 94.0, 108.0)
    moves = {0: (5, 3, 6), 1: (4, 6), 2: (5, 6), 3: (0, 4, 6), 4: (0, 5), 5: (6, 3, 2),
             6: (2, 0, 5)}
    last = next(i for i, b in enumerate(bars) if b.start >= RISE_S)
    procession = plan(rng, v, last, [2, (PROCESSION, "plain"), (PROCESSION, "orn+half"), 2,
                                  (DAWN, "plain"), (PROCESSION, "up2+lead"), 3,
                                  (DANCE_TURN, "frag"), (PROCESSION, "inv"), 2,
                                  (PROCESSION, "orn")], moves)
    climax = plan(rng, v, len(bars) - last, [(DAWN, "plain"), (PROCESSION, "ext"),
                                          (DAWN, "orn+lead"), (PROCESSION, "plain")], moves)
    roots = procession.roots + climax.roots
    whole = Plan(roots, procession.line + climax.line, procession.arch + climax.arch)
    on = layers(rng, bars, 3)
    rise = rising(bars, 1.0, 1.3)
    # The procession lands on 6:00 with voices, horns, drums and the strings at once (their
    # expression back up just after the dance's string drone has faded to 40 at 6:00).
    piece.controls.append(Control(bars[0].start + 0.01, 5, 11, 110))
    held(piece, bars, roots, m, 5, -7, 56, every=1)
    piece.swell(5, RISE_S, 536.0, 70, 127, steps=30)
    arpeggio(piece, rng, bars, roots, m, 1, 0,
             [[(i * 0.5, s) for i, s in enumerate((0, 1, 2, 3, 2, 1, 2, 3))],
              [(i * 0.5, s) for i, s in enumerate((0, 2, 3, 4, 3, 2, 1, 2))]],
             50, ring=1.0, play=lambda i: bars[i].start >= 420.0)
    chant = Voice(6, 0, 9, 78, legato=0.98)
    sing(piece, bars, whole, m, chant, shadow=[(Voice(6, 0, 9, 60), -7)],
         play=lambda i: on(0, i) or late(bars, i))
    horn = Voice(7, -3, 6, 80)
    sing(piece, bars, whole, m, horn, octave=-1, shadow=[(Voice(7, -3, 6, 70), -2)],
         play=lambda i: not on(0, i) or late(bars, i))
    counter = Voice(11, 5, 14, 62)
    melody(piece, rng, bars, roots, m, counter,
           rhythms=[(1, 0.5, 0.5, 1, 1), (0.5, 0.5, 0.5, 0.5, 2)], cadences=[(2, 2)],
           play=lambda i: on(1, i) and not late(bars, i))
    for i, bar in enumerate(bars):
        g = rise(i)
        in_rise = bar.start >= RISE_S
        full, some, least = TAIKO[variant]
        beats = full if bar.start >= RISE_S + 12.0 else some if on(2, i) else least
        for beat in beats:
            piece.note(bar.at(beat), 0.4, 10, 36 if beat % 2 == 0 else 43, 88 * g)
        if in_rise or (i % 2 == 1 and on(1, i)):
            piece.note(bar.at(3.5 - 0.5 * (variant == 3)), 0.3, 10, 48, 62 * g)
        if i % 4 == 0 or in_rise:
            piece.note(bar.at(0), 1.0, 8, m.pitch(roots[i] - 7), 92 * g)
        if i % 4 == 3:
            for k in range(8):  # a timpani roll into the next phrase
                piece.note(bar.at(2 + k * 0.25), 0.25, 8, m.pitch(-7 + 4), 50 + 6 * k)
        if in_rise and i % 2 == 0:
            piece.hit(bar.start, 52, 70 * g)
    end = bars[-1].start + bars[-1].length
    for p in (38, 50, 57, 62, 65, 69):  # the final chord, ringing into the gong
        piece.note(end, 3.6, 5, p, round(96 * FINAL), jitter=0.0)
    piece.note(end, 3.6, 6, 62, round(100 * FINAL), jitter=0.0)
    piece.note(end, 3.6, 6, 74, round(96 * FINAL), jitter=0.0)
    piece.note(end, 2.0, 8, 38, round(118 * FINAL), jitter=0.0)
    piece.note(end, 2.0, 10, 36, round(120 * FINAL), jitter=0.0)
    piece.hit(end, 49, round(100 * FINAL))
    return piece


# --- Era II: medieval ---------------------------------------------------------------------------


# Era II's themes (6/8 counted in eighths, the chant in 4/4). A lute song in G mixolydian with
# its flat-seventh cadence (F to G); a chant moving by step in D dorian, sung in organum; an
# estampie tune, running and leaping. The song comes back inside the estampie.
SONG = theme("4:2 5:1 4:2 2:1 | 3:3 2:2 1:1 | 2:2 3:1 4:2 5:1 | 4:6 | 7:2 6:1 5:2 4:1 | "
             "3:2 2:1 1:3 | 2:1 3:1 4:1 3:2 1:1 | 0:6", "0 3 0 4 3 6 6 0")
CHANT = theme("0:2 1:1 2:1 | 3:2 2:2 | 4:1 3:1 2:1 3:1 | 2:4 | 4:2 5:1 4:1 | 3:1 2:1 1:2 | "
              "2:1 1:1 0:1 -1:1 | 0:4", "0 0 3 3 6 6 4 0")
CHANT_VERSE = theme("4:3 5:1 | 6:2 5:1 4:1 | 3:2 4:2 | 5:4 | 4:1 3:1 2:2 | 1:1 2:1 3:2 | "
                    "1:2 -1:2 | 0:4", "0 3 6 3 0 4 6 0")
ESTAMPIE = theme("0:1 2:1 4:1 5:1 4:1 2:1 | 3:2 4:1 2:3 | 0:1 2:1 4:1 7:2 6:1 | 5:3 4:3 | "
                 "4:1 5:1 6:1 7:1 6:1 5:1 | 4:2 3:1 2:3 | 1:1 2:1 3:1 1:2 -1:1 | 0:6",
                 "0 3 0 4 6 3 6 0")


def era2(variant: int = 1) -> Piece:
    piece = Piece(f"era2 v{variant}",
                  dynamics=((0.0, 0.66), (60.0, 0.84), (130.0, 0.98), (165.0, 0.84),
                                    (180.0, 0.72), (240.0, 0.86), (310.0, 1.0), (345.0, 0.9),
                                    (360.0, 0.94), (420.0, 0.98), (480.0, 1.04),
                                    (537.0, 1.2)))
    rng, v = rng_for(f"score era2 v{variant}"), variant
    # Channels: 0 lute, 1 recorder, 2 cello, 3 choir, 4 organ, 5 bells, 6 bagpipe, 7 shawm,
    # 8 fiddle, 10 dulcimer, 11 bassoon drone, 9 percussion.
    piece.instrument(0.0, 0, 24, 100, 50, 55)
    piece.instrument(0.0, 1, 74, 90, 78, 60)
    piece.instrument(0.0, 2, 42, 70, 40, 60)
    piece.instrument(0.0, DRUMS, 0, 84, 70, 40)

    # I. Lute and recorder (0:00-3:00): G mixolydian, 6/8 at 58 dotted quarters a minute.
    g = Scale(67, MIXOLYDIAN)
    bars = bars_between(0.0, 180.0, 6, 58.0 * 3)
    moves: Moves = {0: (6, 3, 4, 5), 1: (4, 0), 2: (5, 3), 3: (0, 6, 4), 4: (0, 5),
                    5: (3, 1, 6), 6: (0, 3)}
    song = plan(rng, v, len(bars), [2, (SONG, "plain"), 2, (SONG, "orn"), (SONG, "up2+half"), 3,
                                 (SONG, "frag"), (SONG, "inv+ext"), 2, (SONG, "orn+deceptive"),
                                 (SONG, "trunc")], moves)
    roots = song.roots
    on = layers(rng, bars, 3)
    arpeggio(piece, rng, bars, roots, g, 0, -7,
             [[(0, 0), (1, 1), (2, 2), (3, 3), (4, 2), (5, 1)],
              [(0, 0), (2, 2), (3, 3), (5, 4)],
              [(0, 0), (1, 2), (2, 3), (3, 1), (4, 2), (5, 3)],
              [(0, 0), (1.5, 1), (3, 2), (4, 3), (5, 2)]],
             62, ring=2.0)
    recorder = Voice(1, 1, 11, 78)
    sing(piece, bars, song, g, recorder)
    for i, bar in enumerate(bars):
        if i % 2 == 0 and i >= 4 and on(0, i):
            piece.note(bar.start, bar.length * 1.9, 2, g.pitch(roots[i] - 7), 54)
        if i >= 12 and on(1, i):  # the hand drum walks in over 8 bars, the jingles later
            grow = min(1.0, 0.45 + 0.07 * (i - 12))
            piece.hit(bar.start, 61, 50 * grow)
            piece.hit(bar.at(3), 60, 36 * grow)
            if i >= 24:
                piece.hit(bar.at(5), 54, 30)

    # II. Chant (3:00-6:00): D dorian, slow 4/4 at 56; choir in organum, organ, bells.
    dd = Scale(62, DORIAN)
    piece.instrument(179.5, 3, 52, 104, 64, 90)
    piece.instrument(179.5, 4, 19, 76, 64, 80)
    piece.instrument(179.5, 5, 14, 70, 80, 90)
    piece.swell(0, 176.5, 180.0, 127, 40)
    piece.swell(1, 176.5, 180.0, 127, 40)
    bars = bars_between(180.0, 360.0, 4, 56.0)
    moves = {0: (6, 3, 2), 1: (0, 6), 2: (3, 0), 3: (0, 2, 6), 4: (3, 0), 5: (3, 6),
             6: (0, 3)}
    chant = plan(rng, v, len(bars), [1, (CHANT, "plain"), (CHANT_VERSE, "plain"), 2,
                                  (CHANT, "up2+half"), (CHANT_VERSE, "orn"), 1, (CHANT, "orn+ext"),
                                  (SONG, "frag"), 2, (CHANT_VERSE, "lead")], moves)
    roots = chant.roots
    on = layers(rng, bars, 2)
    for start in range(0, len(bars), 4):
        group = bars[start : start + 4]
        end = group[-1].start + group[-1].length
        for p in (50, 57):
            piece.note(group[0].start, end - group[0].start + 0.1, 4, p, 64, jitter=0.0)
    held(piece, bars, roots, dd, 2, -7, 50, degrees=(0, 4), every=1)
    cantor = Voice(3, -1, 7, 82, legato=1.0)
    sing(piece, bars, chant, dd, cantor, shadow=[(Voice(3, -1, 7, 64), -4)])
    for i, bar in enumerate(bars):  # a bell on the phrase starts, when the bells are in
        if chant.line[i] is not None and chant.arch[i] < 0.25 and on(0, i):
            piece.note(bar.start, 4.0, 5, dd.pitch(roots[i] + 7), 56)
        if i >= len(bars) // 3 and on(1, i):  # a frame drum walks in as the chant grows
            piece.hit(bar.start, 64, 58)
            piece.hit(bar.at(2), 63, 44)
            if i % 2:
                piece.hit(bar.at(3), 63, 36)

    # The lute comes back under the chant's last verses: the section grows to its call.
    piece.controls.append(Control(288.0, 0, 11, 104))
    arpeggio(piece, rng, bars, roots, dd, 0, -7,
             [[(0, 0), (1, 1), (2, 2), (3, 3)], [(0, 0), (0.5, 2), (1.5, 1), (2, 3), (3, 2)],
              [(0, 3), (1, 2), (1.5, 1), (2.5, 0), (3, 1)]],
             54, ring=1.6, play=lambda i: bars[i].start >= 290.0)

    # III. Estampie (6:00-9:00): G mixolydian, 6/8 at 76, quickening to 92 at the end;
    # bagpipe and shawm, fiddle, dulcimer, tabor and tambourine.
    piece.instrument(359.5, 6, 109, 72, 40, 50)
    piece.instrument(359.5, 7, 68, 84, 84, 50)
    piece.instrument(359.5, 8, 110, 80, 96, 55)
    piece.instrument(359.5, 10, 15, 88, 30, 50)
    piece.instrument(359.5, 11, 70, 72, 64, 50)
    piece.swell(3, 356.5, 360.0, 127, 40)
    piece.swell(4, 356.5, 360.0, 127, 40)
    bars = bars_between(360.0, RISE_S, 6, 76.0 * 3) + bars_between(RISE_S, 537.0, 6, 80.0 * 3,
                                                                   94.0 * 3)
    moves = {0: (6, 3, 4), 1: (4, 0), 2: (3, 6), 3: (0, 6, 4), 4: (0, 3), 5: (3, 6),
             6: (0, 3, 4)}
    last = next(i for i, b in enumerate(bars) if b.start >= RISE_S)
    dance = plan(rng, v, last, [2, (ESTAMPIE, "plain"), (ESTAMPIE, "orn"), 2, (SONG, "plain"),
                             (ESTAMPIE, "up2+half"), 3, (ESTAMPIE, "frag"), (SONG, "orn+ext"),
                             (ESTAMPIE, "inv"), 2], moves)
    finale = plan(rng, v, len(bars) - last, [(ESTAMPIE, "plain"), (SONG, "plain"),
                                          (ESTAMPIE, "orn"), (SONG, "up2"), (ESTAMPIE, "ext")],
                  moves)
    roots = dance.roots + finale.roots
    tune = Plan(roots, dance.line + finale.line, dance.arch + finale.arch)
    on = layers(rng, bars, 3)
    drone(piece, 360.0, 537.0, 11, (43, 50), 58, bars[0].length * 4)
    arpeggio(piece, rng, bars, roots, g, 10, -7,
             [[(i, s) for i, s in enumerate((0, 1, 2, 3, 2, 1))],
              [(i, s) for i, s in enumerate((0, 2, 1, 3, 2, 4))]],
             58, ring=1.0)
    shawm = Voice(7, 0, 10, 82)
    sing(piece, bars, tune, g, shawm, play=lambda i: on(0, i) or late(bars, i),
         shadow=[(Voice(6, 0, 10, 70), 0)])
    fiddle = Voice(8, 2, 12, 78)
    sing(piece, bars, tune, g, fiddle, octave=1, play=lambda i: not on(0, i) or late(bars, i))
    tabor: Kit = {"x": (38, 52), "o": (45, 70), "s": (54, 42), "h": (61, 46)}
    late_start = next(i for i, b in enumerate(bars) if b.start >= RISE_S)
    drums(piece, rng, bars[:late_start], tabor,
          grooves=[["O..o..", "..x..x", "s..s.."], ["O.xo.x", "s.ss.s"], ["O..O..", ".x.xx."]],
          fills=[["O.xxxx", "ssssss"], ["OxxOxx", "......"]], steps=6)
    drums(piece, rng, bars[late_start:], tabor,
          grooves=[["O.oO.o", ".xx.xx", "ssssss"], ["OxoOxo", "ssssss", "h..h.."]],
          fills=[["OxxxXX", "ssssss"]], steps=6, gain=1.2)
    end = bars[-1].start + bars[-1].length
    for p in (43, 50, 55, 59, 62, 67):
        piece.note(end, 2.9, 11 if p < 50 else 10, p, round(100 * FINAL), jitter=0.0)
    for ch in (6, 7, 8):
        piece.note(end, 2.9, ch, 79 if ch == 8 else 67, round(96 * FINAL), jitter=0.0)
    piece.hit(end, 45, round(110 * FINAL))
    piece.hit(end, 54, round(100 * FINAL))
    return piece


# --- Era III: modern ----------------------------------------------------------------------------


# Era III's themes: a syncopated workshop tune in A minor (i-VI-III-VII, film and pop
# harmony), a riff hook for the engine in D minor, and an anthem with wide leaps. The workshop
# tune returns inside the anthem, and the anthem ends the piece.
WORKSHOP = theme("r:0.5 4:0.5 4:0.5 5:0.5 4:1 2:1 | 3:1.5 2:0.5 0:2 | "
                 "r:0.5 2:0.5 2:0.5 3:0.5 4:1 7:1 | 6:3 r:1 | r:0.5 4:0.5 4:0.5 5:0.5 6:1 5:1 | "
                 "4:1.5 2:0.5 3:2 | 2:1 1:1 -1:1 1:1 | 0:4", "0 5 2 6 0 5 4 0")
HOOK = theme("0:0.5 0:0.5 r:0.5 2:0.5 r:0.5 3:0.5 4:1 | 3:0.5 2:0.5 0:1 r:2 | "
             "0:0.5 0:0.5 r:0.5 2:0.5 r:0.5 3:0.5 5:1 | 4:2 r:2 | "
             "7:0.5 7:0.5 r:0.5 6:0.5 r:0.5 4:0.5 5:1 | 4:0.5 2:0.5 3:1 r:2 | "
             "2:0.5 2:0.5 r:0.5 1:0.5 r:0.5 -1:0.5 1:1 | 0:2 r:2", "0 0 5 5 2 2 6 0")
ANTHEM = theme("4:1 4:0.5 5:0.5 7:2 | 6:1 5:1 4:2 | 2:1 2:0.5 4:0.5 5:1 4:1 | 3:4 | "
               "4:1 4:0.5 5:0.5 7:1.5 8:0.5 | 9:2 7:2 | 6:1 5:1 4:1 6#:1 | 7:4",
               "0 5 2 6 3 0 4 0")


def era3(variant: int = 1) -> Piece:
    piece = Piece(f"era3 v{variant}",
                  dynamics=((0.0, 0.64), (60.0, 0.8), (125.0, 0.96), (165.0, 0.82),
                                    (180.0, 0.78), (240.0, 0.88), (315.0, 1.0), (350.0, 0.92),
                                    (360.0, 0.92), (420.0, 0.96), (480.0, 1.02),
                                    (537.0, 1.18)))
    rng, v = rng_for(f"score era3 v{variant}"), variant
    # Channels: 0 e-piano, 1 strings, 2 vibraphone, 3 bass, 4 synth bass, 5 poly stabs,
    # 6 square arpeggio, 7 saw lead, 8 brass, 10 piano, 11 warm pad, 9 drum kit.
    piece.instrument(0.0, 0, 4, 110, 50, 50, 40)
    piece.instrument(0.0, 1, 48, 84, 74, 70)
    piece.instrument(0.0, 2, 11, 110, 84, 60)
    piece.instrument(0.0, 3, 33, 104, 64, 20)
    piece.instrument(0.0, DRUMS, 0, 88, 64, 35)

    # I. Workshop (0:00-3:00): A minor, 92 bpm; electric piano, strings, vibraphone, bass.
    am = Scale(57, AEOLIAN)
    bars = bars_between(0.0, 180.0, 4, 92.0)
    moves: Moves = {0: (5, 3, 6, 2), 1: (4,), 2: (5, 3), 3: (4, 6, 0), 4: (0, 5), 5: (6, 2, 3),
                    6: (2, 0)}
    workshop = plan(rng, v, len(bars), [2, (WORKSHOP, "plain"), 2, (WORKSHOP, "orn+down2"),
                                     (WORKSHOP, "up2+half"), 2, (WORKSHOP, "frag+lead"),
                                     (WORKSHOP, "inv+deceptive"), 2, (WORKSHOP, "trunc"), 2,
                                     (WORKSHOP, "inv+orn+half"), (WORKSHOP, "ext")], moves)
    roots = workshop.roots
    on = layers(rng, bars, 3)
    held(piece, bars, roots, am, 1, -7, 44, degrees=(0, 2, 4, 7), every=1)
    arpeggio(piece, rng, bars, roots, am, 0, -7,
             [[(0, 0), (0, 1), (0, 2), (1.5, 1), (1.5, 2), (2.5, 0), (2.5, 3)],
              [(0, 1), (0, 2), (0, 3), (2, 1), (2, 2), (3.5, 3)],
              [(0, 0), (1, 1), (1, 2), (2, 3), (3, 1), (3, 2)],
              [(k * 0.5, s) for k, s in enumerate((0, 2, 1, 3, 2, 1, 3, 2))],
              [(0, 0), (0.5, 2), (1.5, 1), (2, 3), (2.5, 2), (3.5, 1)]],
             56, ring=1.4, accent=1.0, play=lambda i: i >= 8)
    held(piece, bars[:8], roots[:8], am, 0, -7, 52, degrees=(0, 2, 4))  # the opening: chords
    vibes = Voice(2, 2, 12, 82)
    sing(piece, bars, workshop, am, vibes)
    for i, bar in enumerate(bars):
        root = folded(am.pitch(roots[i] - 7), 40)  # E2..D#3: one steady floor under the tune
        piece.note(bar.start, bar.beat_s * (1.8 if i >= 8 else 3.6), 3, root, 76)
        if on(0, i) and i >= 8:  # the second note: on beat 3, or pushed to its off-beat
            piece.note(bar.at(2.5 if on(2, i) else 2), bar.beat_s * 1.2, 3,
                       root + (7 if i % 2 else 12), 66)
        if on(1, i) and i >= 8 and i + 1 < len(bars):  # a chromatic step into the next root
            after = folded(am.pitch(roots[i + 1] - 7), 40)
            if after != root:
                piece.note(bar.at(3.5), bar.beat_s * 0.45, 3, after + (-1 if after > root else 1),
                           62)
    light: Kit = {"h": (42, 40), "o": (46, 38), "r": (37, 44), "k": (36, 56), "s": (70, 34),
                  "c": (75, 38)}
    # A soft kick on every downbeat in every groove: the grooves change their colour, not the
    # floor. The last bar before 3:00 drops the kit: the chords hang into the engine.
    drums(piece, rng, bars, light,
          grooves=[["h.h.h.h.", "..r...r.", "k......."], ["hhh.hhh.", "..r...r.", "k......."],
                   ["h.hhh.hh", "..r..r.r", "k......."], ["..h...h.", "..r...r.", "k...k..."],
                   ["s.ss.ss.", "c..c..c.", "..r...r.", "k......."],
                   ["h.o.h.o.", "k..k..r."]],
          fills=[["h.h.hhhh", "..r.rrrr", "k......."], ["s.s.ssss", "c..c.c.c", "k......."]],
          phrase=8, change_every=6, skip=lambda i: i == len(bars) - 1)

    # II. Engine (3:00-6:00): D minor, 112 bpm; synth bass, stabs, arpeggio, drum kit.
    dm = Scale(62, AEOLIAN)
    piece.instrument(179.5, 4, 38, 92, 64, 20)
    piece.instrument(179.5, 5, 90, 76, 44, 50, 60)
    piece.instrument(179.5, 6, 80, 64, 90, 45)
    piece.swell(0, 176.5, 180.0, 127, 40)
    piece.swell(2, 176.5, 180.0, 127, 40)
    piece.swell(3, 176.5, 180.0, 127, 40)
    piece.swell(1, 176.5, 180.0, 127, 40)
    bars = bars_between(180.0, 360.0, 4, 112.0)
    moves = {0: (5, 6, 3), 1: (4,), 2: (5, 6), 3: (0, 4, 6), 4: (0, 5), 5: (6, 3, 2),
             6: (0, 2, 5)}
    engine = plan(rng, v, len(bars), [4, (HOOK, "plain"), (HOOK, "up2"), 4, (WORKSHOP, "frag"),
                                   (HOOK, "orn+half"), 2, (HOOK, "inv"), (HOOK, "down2+ext"), 4,
                                   (WORKSHOP, "orn"), (HOOK, "frag+lead"), 2, (HOOK, "orn")],
                  moves)
    roots = engine.roots
    on = layers(rng, bars, 4)
    hook = Voice(6, 0, 12, 84)
    # The synth bass changes its figure with the layers (four figures: straight eighths with
    # octave leaps, a syncopated line, a held root with pickups, sixteenth bursts).
    figures = (tuple((k * 0.5, 12 if k in (3, 6) else 0) for k in range(8)),
               ((0, 0), (0.75, 0), (1.5, 12), (2, 0), (2.75, 0), (3.5, 7)),
               ((0, 0), (2, 0), (2.5, 12), (3.5, 0)),
               ((0, 0), (0.25, 0), (0.5, 12), (1.5, 0), (2, 0), (2.25, 0), (2.5, 7), (3.5, 0)))
    # The engine stalls before 6:00: its last bar drops the synth bass and the kit's groove;
    # stabs on every eighth, the arpeggio and a snare roll build alone into the anthem.
    stall = len(bars) - 1
    piece.swell(5, bars[stall].start, 360.0, 104, 127, steps=12)
    piece.swell(6, bars[stall].start, 360.0, 104, 127, steps=12)
    for k in range(16):
        piece.hit(bars[stall].at(k * 0.25), 38, 40 + 3 * k)
    for i, bar in enumerate(bars):
        root = dm.pitch(roots[i] - 7)
        figure = figures[2 * on(2, i) + on(3, i)] if i < stall else ()
        for k, (beat, up) in enumerate(figure):
            length = (figure[k + 1][0] if k + 1 < len(figure) else 4.0) - beat
            piece.note(bar.at(beat), bar.beat_s * min(0.9 * length, 1.5), 4, root + up,
                       92 if k % 2 else 100)
        stabs = (1.5, 3.5) if i % 2 else (0.5, 2.5, 3.5)
        if i >= stall:
            stabs = tuple(k * 0.5 for k in range(8))
        for beat in stabs if on(0, i) or i >= stall else ():
            for p in chord(dm, roots[i], 0):
                piece.note(bar.at(beat), bar.beat_s * 0.3, 5, p,
                           64 + (3 * beat if i >= stall else 0))
    arpeggio(piece, rng, bars, roots, dm, 6, 7,
             [[(k * 0.25, s) for k, s in enumerate((0, 1, 2, 3) * 4)],
              [(k * 0.25, s) for k, s in enumerate((0, 2, 1, 3, 2, 4, 3, 1) * 2)],
              [(k * 0.25, s) for k, s in enumerate((3, 2, 1, 0) * 4)]],
             48, ring=0.22, change_every=4, accent=1.3,
             play=lambda i: (engine.line[i] is None and on(1, i)) or i >= stall)
    sing(piece, bars, engine, dm, hook, octave=1)
    kit: Kit = {"k": (36, 96), "s": (38, 84), "h": (42, 58), "o": (46, 60), "c": (39, 64),
                "r": (37, 60), "t": (45, 74), "m": (48, 74)}
    drums(piece, rng, bars, kit,
          grooves=[["K...k...K...k...", "....S.......S...", "h.h.h.h.h.h.h.ho"],
                   ["K.....k.K.......", "....S.......S..r", "hhh.hhh.hhh.hhh."],
                   ["K...k.k.K...k...", "....S..c....S...", "h.h.h.h.h.h.h.h."],
                   ["K..k..k...K.....", "....S.......S...", "..h...h...h...h."],
                   ["K.......K.k.....", "....c..c....c...", "hhhhhhhhhhhhhhhh"]],
          fills=[["K...k...K.......", "....S.....ssSsss", "h.h.h.h........."],
                 ["K...k...K...k...", "....S...tt..mmss", "h.h.h.h........."]],
          steps=16, change_every=6,
          skip=lambda i: i >= stall)  # the kit runs through: its grooves are the changes

    # III. Anthem (6:00-9:00): A minor, 124 bpm, quickening to 142 at the end; saw lead,
    # strings, brass, piano, pad, a choir and the full kit on a four-to-the-floor groove with
    # claps and open hats: the whole band lands at once on 6:00.
    piece.instrument(359.5, 7, 81, 76, 64, 55, 30)
    piece.instrument(359.5, 12, 52, 84, 64, 70)
    piece.instrument(359.5, 8, 61, 80, 40, 60)
    piece.instrument(359.5, 10, 0, 84, 80, 50)
    piece.instrument(359.5, 11, 89, 70, 64, 70)
    piece.controls.append(Control(360.0, 1, 11, 110))
    piece.controls.append(Control(360.0, 3, 11, 127))
    bars = bars_between(360.0, RISE_S, 4, 124.0) + bars_between(RISE_S, 537.0, 4, 128.0, 144.0)
    moves = {0: (5, 2, 6), 1: (4,), 2: (6, 5), 3: (0, 4), 4: (0, 5), 5: (2, 6, 3),
             6: (2, 0)}
    last = next(i for i, b in enumerate(bars) if b.start >= RISE_S)
    anthem = plan(rng, v, last, [2, (ANTHEM, "plain"), (ANTHEM, "orn+half"), 2, (WORKSHOP, "plain"),
                              (ANTHEM, "up2"), 4, (HOOK, "frag"), (ANTHEM, "inv+ext"), 2,
                              (WORKSHOP, "orn+lead")], moves)
    peak = plan(rng, v, len(bars) - last, [(ANTHEM, "plain"), (WORKSHOP, "up2"), (ANTHEM, "orn"),
                                        (ANTHEM, "ext")], moves)
    roots = anthem.roots + peak.roots
    tune = Plan(roots, anthem.line + peak.line, anthem.arch + peak.arch)
    on = layers(rng, bars, 3)
    rise = rising(bars, 1.0, 1.25)
    held(piece, bars, roots, am, 11, -7, 50, degrees=(0, 2, 4), every=1)
    held(piece, bars, roots, am, 1, 0, 48, degrees=(0, 4), every=1)
    held(piece, bars, roots, am, 12, 0, 60, degrees=(0, 2, 4), every=2)  # the choir
    piece.swell(1, RISE_S, 537.0, 110, 127, steps=30)
    piece.swell(11, RISE_S, 537.0, 100, 127, steps=30)
    arpeggio(piece, rng, bars, roots, am, 10, 0,
             [[(k * 0.5, s) for k, s in enumerate((0, 1, 2, 3, 4, 3, 2, 1))],
              [(k * 0.5, s) for k, s in enumerate((0, 2, 4, 3, 1, 3, 2, 4))]],
             56, ring=0.6, change_every=4)
    lead = Voice(7, 4, 13, 84)
    sing(piece, bars, tune, am, lead, octave=1, play=lambda i: on(0, i) or late(bars, i))
    sing(piece, bars, tune, am, Voice(1, 4, 13, 70), octave=1,
         play=lambda i: not on(0, i) and not late(bars, i))
    brass = Voice(8, -3, 5, 80)
    for i, bar in enumerate(bars):
        g = rise(i)
        in_rise = bar.start >= RISE_S
        root = am.pitch(roots[i] - 7)
        for k in range(8):
            piece.note(bar.at(k * 0.5), bar.beat_s * 0.4, 3, root + (12 if k % 4 == 3 else 0),
                       90 * g)
        if i % 2 == 0 or in_rise:
            for p in chord(am, roots[i], -3):
                piece.note(bar.start, bar.beat_s * (0.9 if in_rise else 1.6), 8, p,
                           brass.velocity * g)
    late_start = next(i for i, b in enumerate(bars) if b.start >= RISE_S)
    drums(piece, rng, bars[:late_start], kit,
          grooves=[["K...K...K...K...", "....C.......C...", "..o...o...o...o.", "h...h...h...h..."],
                   ["K...K...K...K.k.", "....S.......S...", "..o...o...o...o."],
                   ["K...K...K...K...", "....C..c....C...", "h.o.h.o.h.o.h.o."]],
          fills=[["K...K...K...K...", "....S...ssSsSSSS", "h.h.h.h........."],
                 ["K...K...K...K...", "....S...ttmmssSS", "h.h.h.h........."]],
          steps=16, change_every=8)
    drums(piece, rng, bars[late_start:], kit,
          grooves=[["K...K...K...K...", "....S.......S.s.", "hhhhhhhhhhhhhhhh", "c.c.c.c.c.c.c.c."],
                   ["K...K...K.k.K...", "....S..s....S...", "hohohohohohohoho"]],
          fills=[["K...K...K...K...", "....S...sssSSSSS", "hhhhhhhh........"]],
          steps=16, change_every=4, gain=1.15)
    for i, bar in enumerate(bars):
        if i % 8 == 0 or (bar.start >= RISE_S and i % 4 == 0):
            piece.hit(bar.start, 49, 96)
    end = bars[-1].start + bars[-1].length
    for p in (45, 57, 60, 64, 69):
        piece.note(end, 2.9, 1, p, round(110 * FINAL), jitter=0.0)
        piece.note(end, 2.9, 8, p, round(104 * FINAL), jitter=0.0)
    piece.note(end, 2.9, 4, 33, round(110 * FINAL), jitter=0.0)
    piece.hit(end, 36, round(120 * FINAL))
    piece.hit(end, 49, round(112 * FINAL))
    piece.hit(end, 57, round(104 * FINAL))
    return piece


COMPOSERS: dict[int, Callable[[int], Piece]] = {1: era1, 2: era2, 3: era3}

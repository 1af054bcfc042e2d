"""A round phase's publisher's track (docs/profiles.md, "The publisher's track").

`[[phase]] track = "file.ogg"`: instead of music under the box's cues, the phase plays a
soundtrack that holds its own gongs and calls, as Time of Empires' `music_kind = "track"`
(`[eraN] music_kind`, `track_offset_s`, `audio_plan.installed_music`). It plays on the
countdown's running time (`music_from = "gong"`), `track_offset_s` into the file at the
running time 0 (where the track's start gong is). The countdown's own cues (lead-in ticks,
start gong, calls, final ticks, end gong) keep their records, prompts, LED flashes and event
lines, but their `PlaySound` names the track (`PlaySound.track`): the sound plan plays none
of them while the track can be read (`audio_plan.AudioPlan._cue`), and each of them when it
cannot, as Time of Empires falls back on the box's cues.

Which track a phase plays in an era (its own, or the era's `[[era]] track`):
`music.track_of`. Pure: the keys read and checked here, the effects marked here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import PurePath
from typing import Any

from .model import PlaySound, Sound
from .profile_reader import MAX_PATH, _Reader
from .toml_lines import Path

MAX_TRACK_OFFSET_S = 24 * 3600.0


@dataclass(frozen=True)
class PhaseTrack:
    """A publisher's soundtrack played in place of the box's cues: `path`, and `offset_s`,
    where in the file the countdown's running time 0 falls. `key`: "file:line: key ..." of
    `track`, for the warning when it cannot be read."""

    path: str
    offset_s: float = 0.0
    key: str = field(default="", compare=False)


def parse_track(r: _Reader, table: dict[str, Any], at: Path, timed: bool = True
                ) -> PhaseTrack | None:
    """A phase's (or an era's) `track` and `track_offset_s` (`timed`: the phase has a
    countdown)."""
    if "track" not in table:
        if "track_offset_s" in table:
            raise r.error((*at, "track_offset_s"), "track_offset_s needs a track file (track)")
        return None
    if not timed:
        raise r.error((*at, "track"), "track needs a timer (timer_s): it plays on the "
                      "countdown's running time")
    if "music" in table:
        raise r.error((*at, "track"), "its music or its track, not both (the track is the "
                      "music)")
    name = table["track"]
    if (not isinstance(name, str) or not name.strip() or len(name) > MAX_PATH
            or not name.isprintable()):
        raise r.expected((*at, "track"), "the name of a sound file (.ogg, .wav, .flac, .mp3)",
                         name)
    path = PurePath(name.strip())
    if not path.is_absolute() and r.base_dir is not None:
        path = PurePath(r.base_dir) / path
    offset = table.get("track_offset_s", 0.0)
    if (isinstance(offset, bool) or not isinstance(offset, int | float)
            or not 0 <= offset <= MAX_TRACK_OFFSET_S):
        raise r.expected((*at, "track_offset_s"), "seconds into the track file, from 0 to "
                         f"{MAX_TRACK_OFFSET_S:g}", offset)
    return PhaseTrack(str(path), float(offset), r.where((*at, "track")))


def held(track: PhaseTrack | None, effects: tuple[Any, ...]) -> tuple[Any, ...]:
    """`effects` with each `PlaySound` marked as held by `track` (None: unchanged)."""
    if track is None:
        return effects
    return tuple(replace(e, track=track.path) if isinstance(e, PlaySound) else e
                 for e in effects)


def held_gong(track: PhaseTrack | None, effects: tuple[Any, ...]) -> tuple[Any, ...]:
    """`effects` with their first gong marked as held by `track`: the scoring's gong that
    stands for the countdown's end gong (the other sounds, a special round's, are not)."""
    if track is None:
        return effects
    out, done = [], False
    for effect in effects:
        if not done and isinstance(effect, PlaySound) and effect.sound is Sound.GONG:
            effect, done = replace(effect, track=track.path), True
        out.append(effect)
    return tuple(out)

"""A round phase's music keys, read (docs/profiles.md, "Phase music"): `music` (a file beside
the profile), `music_loop`, `music_from`, and `box_music` (the box's own era music: Time of
Empires').

`box_music = true` in place of `music = "file.ogg"`: the phase plays the box's own music of
the era played, exactly as Time of Empires' era engine plays it (`audio_plan.AudioPlan.choose`:
the config's `[eraN] music` (a loop or a publisher's track), the era music of the box's own
game profile, the mastered score in real time (`music_style = "score"`, each game's take) and
the box's loop, a later era borrowing one of the three). The music effects then name the era
and its mode instead of a file (`music.phase_music`): "realtime" on the countdown's
running time (`music_from = "gong"`), else "intro" (`music_from = "era"` loops it through an
introductory era). An `[[era]] music` does not stand in for it (an `[[era]] track` does, as
the config's track does). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from .profile_reader import MAX_PATH, _Reader
from .toml_lines import Path

MUSIC_FROM = ("phase", "gong", "era")  # from the phase's start, its countdown's, its era's


@dataclass(frozen=True)
class PhaseMusic:
    """A sound file that plays while its phase is played, looped or once. `key` says where it
    was named ("file:line: key 'phase[2].music'"), for the warning when it cannot be read.
    `path` "": the box's own era music (`box_music = true`), no file of the profile's."""

    path: str
    loop: bool = True
    key: str = field(default="", compare=False)

    @property
    def box(self) -> bool:
        """The box's own era music (`box_music`), chosen by the sound as Time of Empires'."""
        return not self.path


def parse_music(r: _Reader, table: dict[str, Any], at: Path) -> PhaseMusic | None:
    """A phase's `music` file (relative to the profile's folder) and `music_loop`, or
    `box_music`."""
    if r.flag(table.get("box_music", False), (*at, "box_music")):
        for key in ("music", "music_loop", "track"):
            if key in table:
                raise r.error((*at, key), f"{key} or box_music, not both (box_music plays "
                              "the box's own era music)")
        return PhaseMusic("", True, r.where((*at, "box_music")))
    if "music" not in table:
        if "music_loop" in table:
            raise r.error((*at, "music_loop"), "music_loop needs a music file (music)")
        return None
    name = table["music"]
    if (not isinstance(name, str) or not name.strip() or len(name) > MAX_PATH
            or not name.isprintable()):
        raise r.expected((*at, "music"), "the name of a sound file (.ogg, .wav, .flac, .mp3)",
                         name)
    path = PurePath(name.strip())
    if not path.is_absolute() and r.base_dir is not None:
        path = PurePath(r.base_dir) / path
    return PhaseMusic(str(path), r.flag(table.get("music_loop", True), (*at, "music_loop")),
                      r.where((*at, "music")))


def parse_music_from(r: _Reader, table: dict[str, Any], at: Path) -> str:
    """`music_from`: "phase" (its music from the phase's start), "gong" (from the
    countdown's start gong, on its running time: a phase with a countdown), or "era" (from
    the era's start, on through its rounds: `opening.py`); only with music."""
    start = r.choice(table.get("music_from", "phase"), (*at, "music_from"), MUSIC_FROM)
    if "music_from" in table and "music" not in table and table.get("box_music") is not True:
        raise r.error((*at, "music_from"), "music_from needs a music file (music)")
    if start == "gong" and "timer_s" not in table:
        raise r.error((*at, "music_from"), "music_from needs a timer (timer_s)")
    return start

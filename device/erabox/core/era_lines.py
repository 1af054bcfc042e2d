"""A round profile's event lines in Time of Empires' own words (`[game] lines = "eras"`).

Time of Empires' event lines (docs/simulate.md) are a contract older than the round engine:
a `state` line whenever the state, era, mode, round or start player changes (with the era's
running time), a `guide` line per preparation step, `prompt` lines for the calls, `points`,
`buildings`, `entry`, `standings` and `ranking` lines for the scoring. `EraLines` writes them
from the round engine's play, so a profile that asks for them (Time of Empires' own) prints
what `erabox simulate` has always printed. `events.PlayRecorder` hands it the play.

Byte for byte on all 84 golden scripts (`tests/test_era_lines.py`; `python
tools/one_engine_lines.py --words eras` lists any difference).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import Any

from .audio_plan import music_era, profile_music
from .config import AudioConfig, ButtonsConfig
from .era_lines_guide import GuideLines
from .era_lines_scores import EntryCount, score_line
from .era_lines_state import StateLines
from .model import Input, Music, PlaySound, ShowPrompt
from .play import Called, Play, PlayEffect, era_number

Emit = Callable[[dict[str, Any]], None]
Pending = Sequence[tuple[tuple[PlayEffect, ...], float]]


class EraLines:
    """Builds Time of Empires' event dicts from a round profile's play."""

    def __init__(self, emit: Emit, hold_s: float = ButtonsConfig.hold_s,
                 audio: AudioConfig | None = None) -> None:
        self._emit = emit
        self._audio = audio  # the box's own era music: whose music a music line names
        self._states = StateLines()  # the `state` lines (core/era_lines_state.py)
        self._guide = GuideLines()  # `guide` lines (era_lines_guide)
        self._entry = EntryCount(hold_s)  # an era's scoring's gestures (era_lines_scores)

    def input(self, event: Input, t: float) -> None:
        self._line(t, "input", button=event.button.value, gesture=event.gesture.value)
        self._entry.input(event, t)

    def step(self, pending: Pending, play: Play, t: float, now: float) -> None:
        """One step's lines: its effects' (each at its own stamp), then the position's."""
        era = era_number(play) if play.profile.eras else None
        for effects, at in pending:
            for effect in effects:
                self._effect(effect, at, era)
                scored = score_line(effect, play)  # the scoring's lines (era_lines_scores)
                if scored is not None:
                    self._line(at, scored[0], **scored[1])
        entry = self._entry.seen(play)  # an era's scoring ends: its gestures
        if entry is not None:
            self._line(t, "entry", **entry)
        self._states.step(pending, play, t, now, self._line)
        if (guide := self._guide.due(play)) is not None:  # after the state, as the era engine
            self._line(t, "guide", **guide)

    def _effect(self, effect: PlayEffect, t: float, era: int | None) -> None:
        if isinstance(effect, PlaySound):
            file = {"file": PurePath(effect.file).name} if effect.file else {}
            self._line(t, "sound", sound=effect.sound.value, era=era, **file)
        elif isinstance(effect, Music):  # the box's own era music: named as the era engine's
            named = (music_of(self._audio, effect) if self._audio is not None and not
                     effect.path and effect.era else {})
            self._line(t, "sound", sound=effect.action.value, era=era, **named)
        elif isinstance(effect, ShowPrompt):
            self._line(t, "prompt", prompt=effect.prompt.value,
                       **({} if effect.text is None else {"text": effect.text}))
        elif isinstance(effect, Called) and effect.prompt:  # a call's prompt: a prompt line
            self._line(t, "prompt", prompt=effect.prompt,
                       **({} if effect.text is None else {"text": effect.text}))

    def _line(self, t: float, line_type: str, /, **fields: Any) -> None:
        self._emit({"t": round(t, 3), "type": line_type, **fields})


def music_of(audio: AudioConfig, effect: Music) -> dict[str, Any]:
    """What an era's music line adds when the era does not play its own music of the
    box's: the game profile's own file ("music", its name), or the era of the box's
    soundtrack whose music it borrows ("music_of", `audio_plan.music_era`)."""
    own = profile_music(audio, effect.era, effect.mode)
    if own:
        return {"music": PurePath(own[0].path).name}
    borrowed = music_era(effect.era)
    return {"music_of": borrowed} if effect.era > borrowed else {}

"""The JSON-lines event stream of `erabox simulate` and `erabox run --events` (docs/simulate.md).

`EventRecorder` turns what happened (inputs, effects, the game after each step) into event
dicts in time order; the caller decides where they go (stdout, a file, a list in a test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import Any

from .audio_plan import music_era, profile_music
from .config import AudioConfig, ButtonsConfig
from .machine import Game, describe, guide_steps, in_guide
from .model import Effect, Gesture, Input, Music, PlaySound, Scored, ShowPrompt, Standings
from .prep import position

Emit = Callable[[dict[str, Any]], None]
TAP_S = 0.25  # a press, counted as button time in `entry` lines (docs/simulate.md)


class EventRecorder:
    """Builds event dicts. A `state` event is emitted when any field but `elapsed` changes."""

    def __init__(self, emit: Emit, hold_s: float = ButtonsConfig.hold_s,
                 audio: AudioConfig | None = None) -> None:
        """`audio`: the config's, whose eras' music the music lines name (`_music_of`)."""
        self._emit = emit
        self._audio = audio if audio is not None else AudioConfig()
        self._last_state: dict[str, Any] | None = None
        self._last_guide: tuple[int, int] | None = None
        # an era's scoring: its era, gestures and seconds of button time so far (None: not
        # scoring), and when the NEXT hold being timed fired
        self._hold_s = hold_s
        self._scoring: tuple[int, int, float] | None = None
        self._held_at: float | None = None

    @property
    def emit(self) -> Emit:
        """Where the lines go."""
        return self._emit

    @property
    def hold_s(self) -> float:
        """The hold threshold an `entry` line's button time counts by."""
        return self._hold_s

    def input(self, event: Input, t: float) -> None:
        self._emit({"t": _t(t), "type": "input", "button": event.button.value,
                    "gesture": event.gesture.value})
        if self._scoring is None:
            return
        era, gestures, seconds = self._scoring
        gestures, seconds, self._held_at = counted(event, t, gestures, seconds, self._held_at,
                                                   self._hold_s)
        self._scoring = (era, gestures, seconds)

    def effects(self, effects: Iterable[object], t: float) -> None:
        """A line for each sound, prompt, number and ranking (other effects are not lines)."""
        for effect in effects:
            if isinstance(effect, PlaySound):
                cue = {"t": _t(t), "type": "sound", "sound": effect.sound.value,
                       "era": effect.era}  # a call's own file: its name too
                self._emit({**cue, "file": PurePath(effect.file).name} if effect.file else cue)
            elif isinstance(effect, Music):
                self._emit({"t": _t(t), "type": "sound", "sound": effect.action.value,
                            "era": effect.era, **self._music_of(effect)})
            elif isinstance(effect, ShowPrompt):
                said = {"t": _t(t), "type": "prompt", "prompt": effect.prompt.value}
                self._emit(said if effect.text is None else {**said, "text": effect.text})
            elif isinstance(effect, Scored) and effect.buildings:
                self._emit({"t": _t(t), "type": "buildings", "era": effect.era,
                            "player": effect.player, "buildings": effect.value})
            elif isinstance(effect, Scored):
                self._emit({"t": _t(t), "type": "points", "era": effect.era,
                            "step": effect.step, "player": effect.player,
                            "points": effect.value, "total": effect.total})
            elif isinstance(effect, Standings):
                places = [{"place": place, "player": colour, "total": total}
                          | ({} if built is None else {"buildings": built})
                          for place, colour, total, built in effect.places]
                line: dict[str, Any] = {"t": _t(t), "type": "ranking" if effect.final
                                        else "standings", "era": effect.era, "places": places}
                if effect.final:
                    line["winners"] = [p["player"] for p in places if p["place"] == 1]
                self._emit(line)

    def _music_of(self, effect: Music) -> dict[str, Any]:
        """What an era's music line adds when the era does not play its own music of the
        box's: the game profile's own file ("music", its name), or the era of the box's
        soundtrack whose music it borrows ("music_of", `audio_plan.music_era`)."""
        own = profile_music(self._audio, effect.era, effect.mode)
        if own:
            return {"music": PurePath(own[0].path).name}
        borrowed = music_era(effect.era)
        return {"music_of": borrowed} if effect.era > borrowed else {}

    def state(self, game: Game, t: float, now: float | None = None) -> None:
        """A `state` line stamped `t`. `now` is the game's clock when it differs from the
        stamp (the daemon stamps seconds since it was ready; the game runs on the monotonic
        clock), so `elapsed` is the era's running time, not the stamp's."""
        fields = describe(game, t if now is None else now)
        key = {k: v for k, v in fields.items() if k != "elapsed"}
        if key != self._last_state:
            self._scored(fields, t, game.config.keep_score)
            self._last_state = key
            self._emit({"t": _t(t), "type": "state", **fields})
        self.guide(game, t)

    def seen(self, game: Game, t: float, now: float) -> None:
        """The game after a step (`state`): the driver's call to either game's stream."""
        self.state(game, t, now)

    def _scored(self, fields: dict[str, Any], t: float, kept: bool) -> None:
        """An `entry` line when an era's scoring ends: the gestures and button time it took
        (none when the score is kept on paper)."""
        scoring = fields["state"] == "scoring"
        if scoring and self._scoring is None and kept:
            self._scoring = (fields["era"], 0, 0.0)
        elif not scoring and self._scoring is not None and fields["state"] != "confirm":
            era, gestures, seconds = self._scoring
            self._scoring = self._held_at = None
            self._emit({"t": _t(t), "type": "entry", "era": era, "gestures": gestures,
                        "button_s": round(seconds, 2)})

    def guide(self, game: Game, t: float) -> None:
        """A `guide` line whenever the preparation guide shows another step."""
        shown = (game.era, game.guide) if in_guide(game) and game.guide is not None else None
        if shown == self._last_guide:
            return
        self._last_guide = shown
        if shown is None or game.guide is None:
            return
        steps = guide_steps(game)
        index = min(game.guide, len(steps) - 1)
        step, count = position(steps, index)
        self._emit({"t": _t(t), "type": "guide", "era": game.era, "part": steps[index].part.value,
                    "step": step, "steps": count,
                    "what": steps[index].key.removeprefix("prep_").removeprefix("setup_"),
                    "n": steps[index].n})

    def step(self, effects: Iterable[Effect], game: Game, t: float) -> None:
        """Everything one step produced: its sounds and prompts, then the state if changed."""
        self.effects(effects, t)
        self.state(game, t)


def counted(event: Input, t: float, gestures: int, seconds: float, held_at: float | None,
            hold_s: float) -> tuple[int, float, float | None]:
    """An era's scoring's gestures and button time with `event` counted (`entry` lines): a
    press `TAP_S`, a hold its threshold and, on release, the time held on past it (`held_at`:
    when the hold being timed fired)."""
    if event.gesture is Gesture.RELEASE:
        return gestures, seconds + (t - held_at if held_at is not None else 0.0), None
    if event.gesture is Gesture.HOLD:
        return gestures + 1, seconds + hold_s, t
    return gestures + 1, seconds + TAP_S, held_at


def _t(t: float) -> float:
    return round(t, 3)

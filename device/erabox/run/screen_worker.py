"""The screen worker of `erabox run`: renders the newest screen model on its own thread and
hands it to the display, so a slow screen never delays a cue (`app.py`'s loop only puts the
newest screen here). Time of Empires' screens are drawn by `ui/render.py`, a game profile's
(`PlayFrame`) by `ui/screens.py`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from erabox.adapters.workers import ChangedOnly, NewestWorker
from erabox.core.care import Look
from erabox.core.model import Screen
from erabox.core.play import PlayScreen
from erabox.ports import BoxObserver, DisplayPort
from erabox.ui.panel import Panel

log = logging.getLogger("erabox")


@dataclass(frozen=True)
class PlayFrame:
    """A game profile's screen and the language it is drawn in (the settings may change it:
    a profile's screen model leaves the language to the renderer); `hold_progress`: how far
    NEXT+ERA are held toward "New game?" (0..1), None when they are not; `turn`: the page the
    screen has turned to on its own (`page_turns.py`)."""

    screen: PlayScreen
    language: str
    hold_progress: float | None = None
    turn: int = 0


class ScreenWorker:
    """Renders the newest screen model on its own thread and hands it to the display.

    Only the newest screen matters: if two arrive while one is being drawn, the older is
    skipped. Identical screens (with identical status marks) are not redrawn.
    """

    def __init__(self, display: DisplayPort, language: str,
                 observer: BoxObserver | None = None, panel: Panel | None = None) -> None:
        from erabox.ui.look import apply_look
        from erabox.ui.render import draw

        self._render = draw
        self._panel = panel or Panel()  # the panel's size and layouts (from the config)
        self._apply_look = apply_look
        self._display = display
        self._language = language
        self._observer = observer
        self._drawn = ChangedOnly[tuple[Screen | PlayFrame, bool, Look, bool, bool]]()
        self._contrast: int | None = None
        self.frames = 0
        self._worker = NewestWorker[
            tuple[Screen | PlayFrame, bool, float, Look, int, bool, bool]](
            "erabox-screen", self._draw)

    def show(self, screen_model: Screen | PlayFrame, no_sound: bool, t: float,
             look: Look | None = None,
             contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
        """Draw `screen_model` (soon, on the worker) as OLED care's `look` says, at panel
        `contrast` (0..255; displays without one ignore it); `no_sound` / `no_save` /
        `no_file` add the
        status marks."""
        self._worker.put((screen_model, no_sound, t, look or Look(), contrast, no_save,
                          no_file))

    @property
    def last(self) -> tuple[Screen | PlayFrame, bool, Look, bool, bool] | None:
        """(screen, no-sound mark, look, cannot-save mark, missing-file mark) of the last
        frame drawn."""
        return self._drawn.last

    def close(self) -> None:
        self._worker.close(timeout=2.0)

    def _draw(self, pending: tuple[Screen | PlayFrame, bool, float, Look, int, bool, bool]
              ) -> None:
        screen_model, no_sound, _step_t, look, contrast, no_save, no_file = pending
        try:
            if contrast != self._contrast and hasattr(self._display, "set_contrast"):
                self._display.set_contrast(contrast)
                self._contrast = contrast
        except Exception:
            log.exception("could not set the screen's contrast")
        if not self._drawn.changed((screen_model, no_sound, look, no_save, no_file)):
            return
        try:
            if isinstance(screen_model, PlayFrame):  # a game profile's, in its language
                image = self._render(screen_model.screen, self._panel, screen_model.language,
                                     no_sound=no_sound, no_save=no_save, no_file=no_file,
                                     hold_progress=screen_model.hold_progress,
                                     turn=screen_model.turn)
            else:  # Time of Empires' (its own language first: the settings may change it)
                image = self._render(screen_model, self._panel, self._language,
                                     no_sound=no_sound, no_save=no_save, no_file=no_file)
            self._display.show(self._apply_look(image, look))
            self.frames += 1
        except Exception:  # a drawing bug must not take the box down
            log.exception("could not draw the screen")
            return
        if self._observer is not None:
            # The hand-over time, not the step's `t`: input-to-frame latency ends here.
            self._observer.frame(time.monotonic())


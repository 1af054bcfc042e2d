"""Screen model -> 1-bit image for a 128x64 or 128x32 panel. Pure: no clock, no display, no
files beyond the font.

Three steps, each its own module so each can be read and tested on its own:

1. `erabox.ui.plans`: what a kind of screen shows (texts, big digits, the progress bar), and
   the prompts laid over it;
2. `erabox.ui.layout`: where each piece goes on the panel, fitted to its width (a `Layout`);
3. `erabox.ui.paint`: those placed items painted into a new image (`render(screen)` here).

The panel is a value (`erabox.ui.panel.Panel`, from the config), passed to all three.
Every `Screen` renders, even one the core should never produce (a missing round, an era 7):
the box keeps showing something sensible rather than stopping on a drawing error.
"""

from __future__ import annotations

from PIL import Image

from erabox.core.model import Screen
from erabox.core.play import PlayScreen

from .guide_pages import pages
from .layout import layout
from .paint import paint
from .panel import Panel


def render(screen: Screen, *, language: str = "en", no_sound: bool = False,
           no_save: bool = False, no_file: bool = False,
           panel: Panel | None = None, turn: int = 0) -> Image.Image:
    """Draw `screen` as a new mode "1" image (lit pixels = 1) the size of `panel` (default: the
    config's default panel, 128x64), in `language`.

    `no_sound` adds the no-sound mark to the status row (the box runs without audio);
    `no_save` the cannot-save mark (the state file cannot be written: the log says why);
    `no_file` the missing-sound-file mark (a configured sound file cannot be read); `turn`: the
    page it has turned to on its own (`guide_pages`).
    Raises `ValueError` for an unknown language; every screen model renders.
    """
    panel = panel or Panel()
    return paint(layout(screen, language=language, no_sound=no_sound, no_save=no_save,
                        no_file=no_file, panel=panel, turn=turn), panel)


def draw(screen: Screen | PlayScreen, panel: Panel, language: str, *, no_sound: bool = False,
         no_save: bool = False, no_file: bool = False,
         hold_progress: float | None = None, turn: int = 0) -> Image.Image:
    """Either game's screen as a new mode "1" image: Time of Empires' (`render`, in the
    game's own language first: the settings on the box may have changed it), or a game
    profile's (`screens.render_play`: a countdown or a question as Time of Empires' are), in
    `language`; `hold_progress`: how far NEXT+ERA are held toward "New game?"); `turn`: the
    page either has turned to on its own."""
    if isinstance(screen, Screen):
        return render(screen, language=screen.language or language, no_sound=no_sound,
                      no_save=no_save, no_file=no_file, panel=panel, turn=turn)
    from .screens import Marks, render_play

    return render_play(screen, panel, language, Marks(no_sound, no_save, no_file, hold_progress,
                                                        turn))


def turning(screen: Screen | PlayScreen, panel: Panel, language: str) -> int:
    """How many pages either game's screen turns through on its own on `panel` (1: none)."""
    if isinstance(screen, Screen):
        return pages(screen, panel, language)
    from .screens import turning as play_turning

    return play_turning(screen, panel, language)

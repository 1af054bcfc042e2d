"""Time of Empires' preparation guide on a 128x32 panel: a step's text two lines a page,
turning on its own (every `PAGE_S`, the pages of a game profile's long step), "→" ending each
page but the last. On 128x64 the text has four lines and stays whole.
"""

from __future__ import annotations

from erabox.core.model import Phase, Screen

from .panel import Panel
from .strings import STRINGS, say
from .text import drawable, text_width, wrap

LINES = 2  # lines of a step's text a 128x32 page shows (the status row above them)
MORE = "→"  # ends a page whose step goes on on the next (as a profile's long step)


def guide_text(screen: Screen, language: str) -> str:
    """The guide step's text: its own words, with its number ("4 players")."""
    key = screen.guide_step if screen.guide_step in STRINGS[language] else None
    if key is None:
        return say(language, "setup")
    return say(language, key, n=screen.guide_n if screen.guide_n is not None else "")


def guide_pages(text: str, panel: Panel) -> list[tuple[str, ...]]:
    """`text` in pages of `LINES` lines for `panel`'s width; one page where it fits."""
    lines = wrap(drawable(text), panel.inner)
    if len(lines) <= LINES:
        return [tuple(lines)]
    lines = wrap(drawable(text), panel.inner - text_width(MORE) - 1)
    pages = [lines[at:at + LINES] for at in range(0, len(lines), LINES)]
    return [tuple(page[:-1]) + (page[-1] + (MORE if n < len(pages) - 1 else ""),)
            for n, page in enumerate(pages)]


def pages(screen: Screen, panel: Panel, language: str) -> int:
    """How many pages Time of Empires' `screen` turns through on its own on `panel` (1: it
    stays as it is): a guide step too long for a 128x32 panel's two lines."""
    if not panel.compact or screen.kind is not Phase.PREPARE:
        return 1
    return len(guide_pages(guide_text(screen, screen.language or language), panel))

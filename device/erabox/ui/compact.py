"""What a game profile's screens put in the rows of a 128x32 panel that has no room for
all of it at once (`screens.py`), page by page: the hint row under a step, and a
points entry's category beside its big number. Pure; `turning` counts these pages.

- A step's hint row (its footer): the step's position, whose turn, and the event that ERA
  hold starts (else the phase's name); every other page the undo gesture. An event's hint
  too long to share the row with whose turn gets pages of its own ("hold ERA: Game end
  triggered", after the position where that fits too), whose turn the pages between
  ("1/3 green's turn Play"); so does a phase's name too long to share it ("1/3 Actions,
  discard, draw"): never cut to a word the table cannot read ("hold ERA: Gam‥", as the
  trial's screens of Altay showed).
- A category's name too long for the status row left of the number being entered (what it
  asks, and how the list of an `each` category ends: "Each wonder's points (at most 7), 0
  ends"): a line at a time, "→" ending each line but the last.
"""

from __future__ import annotations

from erabox.core.play import PlayScreen

from .game_words import word
from .glyphs import big_text_width
from .guide_pages import MORE as MORE  # ends a page of a text that goes on on the next
from .panel import MARGIN, Panel
from .screen_parts import GAP, _colour, _label
from .text import drawable, text_width, wrap

BIG_SCALE = (3, 4)  # the number being entered on 128x32: 28 px high, the full height


def timer_text(screen: PlayScreen, language: str) -> str:
    """The countdown of a step's footer ("4:12", "Start in 3 4:12", "Time's up"), or ""."""
    if screen.timer_left is not None:
        timer = f"{screen.timer_left // 60}:{screen.timer_left % 60:02d}"
        if screen.lead_in is not None:  # the seconds to the start gong, then the clock
            timer = f"{word(language, 'lead_in', n=screen.lead_in)} {timer}"
        return timer
    return word(language, "time_up") if screen.timer_done else ""


def footer_parts(screen: PlayScreen, language: str) -> list[str]:
    """The step's position ("2/3"), and whose turn it is or who starts next, where said."""
    parts = ["" if screen.position is None else f"{screen.position[0]}/{screen.position[1]}"]
    if screen.player is not None:
        parts.append(word(language, "last_turn" if screen.last_turns else "turn",
                          colour=_colour(screen.player, language)))
    elif screen.next_start_player is not None:
        parts.append(word(language, "next_starts",
                          colour=_colour(screen.next_start_player, language)))
    return parts


def step_footers(screen: PlayScreen, language: str, panel: Panel, title: str,
                 undo: str | None) -> list[str]:
    """128x32's hint row under a step, page by page (`undo`: the undo gesture's words, said
    every other page; `title`: the phase's name, "" where it is the step itself)."""
    footer = footer_parts(screen, language)
    room = panel.inner  # the countdown is in the status row

    def fits(parts: list[str]) -> bool:
        return text_width(drawable(_join(parts))) <= room

    def beside(extra: str) -> list[str]:
        """Whose turn and `extra` on one page where they fit, else whose turn, then `extra`
        on a page of its own (after the position where that fits): never a word cut."""
        if not extra or len(footer) < 2 or fits([*footer, extra]):
            return [_join([*footer, extra])]
        return [_join(footer),
                _join([footer[0], extra] if fits([footer[0], extra]) else [extra])]

    event = ("" if screen.event is None
             else word(language, "hint_event", event=screen.event.text(language)))
    mains = beside(event or title)  # an event takes the title's place, and where it needs
    if event and len(mains) > 1:  # a page of its own, goes first, the title after it
        mains = [mains[1], *beside(title)]
    if undo is None:
        return mains
    said = _join([*footer, undo] if fits([*footer, undo]) else [footer[0], undo])
    return [page for main in mains for page in (main, said)]


def _join(parts: list[str]) -> str:
    return " ".join(p for p in parts if p)


def scoring_title_lines(screen: PlayScreen, language: str, panel: Panel) -> list[str]:
    """A points entry's category on 128x32, a line a page left of the number being entered
    (one line where it fits; room left on each but the last for `MORE`)."""
    title = _label(screen.title, language)
    value = str(screen.value or 0)
    room = panel.width - MARGIN - big_text_width(value, BIG_SCALE[0]) - GAP - MARGIN
    if text_width(drawable(title)) <= room:
        return [title]
    return wrap(drawable(title), room - text_width(MORE) - GAP)

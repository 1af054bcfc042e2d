"""Every text on every gallery screen keeps a 2 px margin from the panel's edges, measured on
the drawn pixels: the ink of each text, digits or icon item (for text on a lit bar, the dark
pixels of the bar), in English and Japanese, on both panel sizes (128x64 and 128x32); and no
two items of a screen share a pixel."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageChops

from erabox.ui.gallery import PANELS
from erabox.ui.layout import DigitsItem, IconItem, TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.render import render
from erabox.ui.samples import sample_renders
from erabox.ui.strings import LANGUAGES

MARGIN = 2
PANEL_IDS = [f"{panel.width}x{panel.height}" for panel in PANELS]


def ink_box(image: Image.Image, item: TextItem | DigitsItem | IconItem
            ) -> tuple[int, int, int, int] | None:
    """The bounding box of the item's ink on the panel (right/bottom exclusive)."""
    box = item.box
    region = image.crop((box.x, box.y, box.right, box.bottom))
    if isinstance(item, TextItem) and item.inverted:
        region = ImageChops.invert(region.convert("L")).convert("1")  # text = dark pixels
    found = region.getbbox()
    if found is None:
        return None
    return (box.x + found[0], box.y + found[1], box.x + found[2], box.y + found[3])


def test_both_panel_sizes_are_measured() -> None:
    assert {panel.size for panel in PANELS} == {(128, 64), (128, 32)}


@pytest.mark.parametrize("panel", PANELS, ids=PANEL_IDS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "screen", "no_sound"), sample_renders())
def test_every_text_keeps_a_2px_margin(name: str, screen: object, no_sound: bool,
                                       language: str, panel: Panel) -> None:
    image = render(screen, language=language, no_sound=no_sound,  # type: ignore[arg-type]
                   panel=panel)
    assert image.size == panel.size
    measured = 0
    items = layout(screen, language=language, no_sound=no_sound,  # type: ignore[arg-type]
                   panel=panel).items
    for item in items:
        assert item.box.inside(panel), item
        if not isinstance(item, TextItem | DigitsItem | IconItem):
            continue
        ink = ink_box(image, item)
        assert ink is not None, f"{item.role} drew nothing"
        left, top, right, bottom = ink
        assert left >= MARGIN and right <= panel.width - MARGIN, (item.role, ink)
        assert top >= MARGIN and bottom <= panel.height - MARGIN, (item.role, ink)
        measured += 1
    assert measured >= 2  # a status and at least one more text on every screen
    for first, second in combinations(items, 2):
        assert not first.box.overlaps(second.box), (first.role, second.role)


def test_the_measure_catches_text_at_the_edge() -> None:
    from dataclasses import replace

    from erabox.core.model import Mode, Phase, Screen
    from erabox.ui.text import fit_text

    screen = Screen(Phase.SETUP, 1, Mode.REALTIME, new_game=True)
    image = render(screen)
    status = next(i for i in layout(screen).items if isinstance(i, TextItem)
                  and i.role == "status")
    moved = replace(status, box=replace(status.box, x=0, y=0),
                    block=fit_text(status.source, 124, ((1, 1),)))
    shifted = Image.new("1", (128, 64), 0)
    shifted.paste(image.crop((status.box.x, status.box.y, status.box.right,
                              status.box.bottom)), (0, 0))
    ink = ink_box(shifted, moved)
    assert ink is not None and ink[0] < MARGIN


@pytest.mark.parametrize("panel", PANELS, ids=PANEL_IDS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_selftest_pages_keep_the_margin_too(language: str, panel: Panel) -> None:
    from erabox.ui.gallery import selftest_frames

    pages = [(name, frame) for name, frame in selftest_frames(language, panel)
             if "pattern" not in name]  # the test patterns light the edges on purpose
    assert len(pages) == 5  # found, a sound, no sound, the buttons, done
    for name, frame in pages:
        assert frame.size == panel.size
        ink = frame.getbbox()
        assert ink is not None, name
        assert ink[0] >= MARGIN and ink[1] >= MARGIN, (name, ink)
        assert ink[2] <= panel.width - MARGIN and ink[3] <= panel.height - MARGIN, (name, ink)

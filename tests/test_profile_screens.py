"""Every screen of every shipped game profile drawn (ui/profile_screens.py): both panel sizes,
both languages. Each item keeps 2 px from the edges (measured on its ink), no two items
overlap, the font draws every character of the profiles' texts, and on 128x64 no title, step
or note of a shipped profile has to be abbreviated."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from erabox.core.profile_play import PlayScreen
from erabox.profile_file import available_games, load_game
from erabox.ui.panel import MARGIN, Panel
from erabox.ui.profile_samples import every_screen
from erabox.ui.profile_screens import layout_play, render_play
from erabox.ui.strings import LANGUAGES
from erabox.ui.text import unsupported_characters

PANELS = (Panel(), Panel(height=32))


PROFILES = {name: load_game(name, []) for name in available_games([])}


@cache
def cases() -> list[tuple[str, int, PlayScreen]]:
    """(profile, index, screen) of every screen of every shipped profile (built once)."""
    return [(name, index, shown) for name, profile in sorted(PROFILES.items())
            for index, shown in enumerate(every_screen(profile))]


def test_every_kind_of_screen_is_drawn() -> None:
    kinds = {shown.kind for _, _, shown in cases()}
    assert kinds == {"setup", "round", "special", "event", "scoring", "game_over", "confirm"}
    assert len(cases()) > 100


def test_the_font_draws_every_text_of_the_shipped_profiles() -> None:
    for name, profile in PROFILES.items():
        texts = [profile.name, profile.round_name, *profile.notes]
        for group in (profile.phases, profile.specials, profile.events):
            for item in group:
                texts += [item.label, *item.steps]
        texts += [c.label for c in profile.categories] + [v.label for v in profile.variants]
        texts += [r.label for r in profile.solo_ranks]
        for label in texts:
            for language in LANGUAGES:
                missing = unsupported_characters(label.text(language))
                assert not missing, (name, label.text(language), missing)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_keeps_its_margins_and_items_apart(panel: Panel, language: str) -> None:
    for name, index, shown in cases():
        image = render_play(shown, panel, language)
        assert image.size == panel.size and image.mode == "1"
        assert image.getbbox() is not None
        items = layout_play(shown, panel, language)
        assert {"hint", "footer", "places"} & {i.role for i in items} or shown.kind in (
            "setup", "scoring", "confirm"), (name, shown.kind)
        for item in items:
            ink = item.mask.getbbox()
            assert ink is not None, (name, index, item.role)
            left, top = item.x + ink[0], item.y + ink[1]
            right, bottom = item.x + ink[2], item.y + ink[3]
            assert left >= MARGIN and top >= MARGIN, (name, index, item.role, language)
            assert right <= panel.width - MARGIN, (name, index, item.role, language)
            assert bottom <= panel.height - MARGIN, (name, index, item.role, language)
            if not panel.compact and item.role in ("title", "step", "notes", "variant"):
                assert not item.abbreviated, (name, shown.kind, item.role, language)
        for a, b in combinations(items, 2):
            ax0, ay0, ax1, ay1 = a.box
            bx0, by0, bx1, by1 = b.box
            apart = ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
            assert apart, (name, index, a.role, b.role, language)

"""What the profile screens tell the players, read as text off the renderer's items
(`layout_play`): Lords of Xidit's Titans and undo hinted where they can be started, the setup
notes spoken to the table and paged, the questions the scoring leaves out, and what decided each
place of the final ranking. Both panels, both languages."""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, new_play, screen
from erabox.files.games import load_game
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

BIG, SMALL = Panel(), Panel(height=32)
N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
N_HOLD, E_HOLD = Input(Button.NEXT, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)


def xidit(players: tuple[str, ...] = ("red", "blue", "green")) -> Play:
    return new_play(load_game("lords-of-xidit", []), players)


def press(play: Play, *events: Input) -> Play:
    for event in events:
        play, _ = step(play, event, 0.0)
    return play


def shown(play: Play, panel: Panel, language: str = "en") -> list[str]:
    """The lines of text on the screen, top to bottom."""
    items = sorted(layout_play(screen(play, 0.0), panel, language), key=lambda i: (i.y, i.x))
    return [i.text for i in items if i.text]


@pytest.mark.parametrize(("language", "titans", "undo"), [
    ("en", "hold ERA: The Titans awaken", "hold NEXT: undo"),
    ("ja", "ERA長押し: タイタンの目覚め", "NEXT長押し: 戻す")])
def test_a_round_names_the_event_hold_era_starts_and_how_to_undo(
        language: str, titans: str, undo: str) -> None:
    play = press(xidit(), E_PRESS, N_PRESS)  # year 1, the first action
    big = " | ".join(shown(play, BIG, language))
    assert titans in big and undo in big
    assert titans in " | ".join(shown(play, SMALL, language))
    play = press(play, E_HOLD)  # the Titans: no event can be started now, nor after
    assert "ERA" not in " ".join(shown(play, BIG, language)).replace("NEXT", "")
    play = press(play, *[N_PRESS] * 5)
    assert titans not in " | ".join(shown(play, BIG, language))


def notes_read(play: Play, panel: Panel, language: str) -> tuple[str, list[list[str]]]:
    """Every page of the setup screen (NEXT hold turns them) until it comes round again:
    the notes' text read on them (spaces aside), and each page's lines."""
    pages: list[list[str]] = []
    read = ""
    for _ in range(20):
        lines = shown(play, panel, language)
        if pages and lines == pages[0]:
            break
        pages.append(lines)
        items = layout_play(screen(play, 0.0), panel, language)
        read += "".join(i.text for i in sorted(items, key=lambda i: i.y) if i.role == "notes")
        play = press(play, N_HOLD)
    return read.replace(" ", ""), pages


@pytest.mark.parametrize("panel", [BIG, SMALL], ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_setup_notes_are_read_whole_on_both_panels(panel: Panel, language: str) -> None:
    play = xidit()
    read, pages = notes_read(play, panel, language)
    for note in play.profile.notes:
        assert note.text(language).replace(" ", "") in read
    assert len(pages) > 1
    more = "hold NEXT" if language == "en" else "NEXT長押し"
    assert all(any(more in line for line in page) for page in pages)
    start = "ERA: start" if language == "en" else "ERA: 開始"
    assert all(any(start in line for line in page) for page in pages)
    # NEXT still chooses the variant, from any page
    turned = press(play, N_HOLD, N_PRESS)
    assert turned.spot.variant == 1


def test_the_shipped_notes_speak_to_the_table() -> None:
    for name in ("altay", "hadrians-wall", "lords-of-xidit"):
        for note in load_game(name, []).notes:
            for said in ("not given", "is given", "most named", "記載なし"):
                assert said not in note.en and said not in note.ja, (name, note)


def test_the_numbers_left_out_never_change_the_ranking() -> None:
    """Random Xidit scorings with many ties: asking only what `needed` wants, in the
    scoring's order, ranks exactly as the whole sheet does (and leaves some out)."""
    import random

    from erabox.core import scores
    profile = load_game("lords-of-xidit", [])
    rng = random.Random(31)
    skipped = 0
    for _ in range(400):
        players = rng.randint(3, 5)
        start = rng.randrange(players)
        full = tuple(tuple((rng.randint(0, 3),) for _ in range(players))
                     for _ in profile.categories)
        rows = [[None] * players for _ in profile.categories]
        for category in range(len(profile.categories)):
            for seat in range(players):
                sheet = tuple(tuple(row) for row in rows)
                if scores.needed(profile, sheet, start, category, seat):
                    rows[category][seat] = full[category][seat]
                else:
                    skipped += 1
        asked = tuple(tuple(row) for row in rows)
        assert scores.ranking(profile, asked, start) == scores.ranking(profile, full, start)
    assert skipped > 400


def scored(play: Play, values: list[int]) -> Play:
    """Played to the scoring (NEXT through every step), then `values` entered as asked."""
    from erabox.core.play import State
    play = press(play, E_PRESS)
    while play.spot.state is not State.SCORING:
        play = press(play, N_PRESS)
    for value in values:
        play = press(play, *[N_PRESS] * value, E_PRESS)
    assert play.spot.state is State.GAME_OVER
    return play


def pages_read(play: Play, panel: Panel, language: str) -> list[list[str]]:
    """The final ranking's pages (NEXT turns them), until it comes round again."""
    pages: list[list[str]] = []
    for _ in range(40):
        lines = shown(play, panel, language)
        if pages and lines == pages[0]:
            return pages
        pages.append(lines)
        play = press(play, N_PRESS)
    raise AssertionError("the pages never come round")


def ranking_text(play: Play, panel: Panel, language: str) -> str:
    """The places as read page after page (the verdict and the hint aside)."""
    return " ".join(" ".join(page[1:-1]) for page in pages_read(play, panel, language))


@pytest.mark.parametrize("panel", [BIG, SMALL], ids=["128x64", "128x32"])
def test_the_final_ranking_says_what_decided_each_place_and_tie(panel: Panel) -> None:
    # yellow and purple out after the 1st criterion; red and blue tie on the 2nd with equal
    # units: red sits further from the start player (blue), blue is out with green
    play = scored(xidit(("red", "blue", "green", "yellow", "purple")),
                  [5, 3, 8, 1, 2, 4, 4, 2, 7, 1, 2, 2])
    read = ranking_text(play, panel, "en")
    for said in ("1 red 7 on 3rd criterion (tile 3)",
                 "2 blue 4 on 2nd criterion (tile 2); out at stage 2; tie broken by the seat"
                 " furthest from the start player",
                 "3 green 2 on 2nd criterion (tile 2); out at stage 2",
                 "4 purple 2 on 1st criterion (tile 1); out at stage 1",
                 "5 yellow 1 on 1st criterion (tile 1); out at stage 1"):
        assert said in read, read
    assert "tie" not in read.split("3 green")[1]
    ja = ranking_text(play, panel, "ja").replace(" ", "")
    assert "2位青：第2の評価で4、2段階目で脱落、同点はスタートから遠い席で決着" in ja, ja
    if panel.compact:
        assert len(pages_read(play, panel, "en")) > 5  # NEXT still pages, a line a page


def test_a_tie_on_the_total_says_which_tie_break_settled_it() -> None:
    hadrian = new_play(load_game("hadrians-wall", []), ("red", "blue"))
    # honour, faith, valour, discipline, disdain, goals; both 10 points, red fewer disdain
    play = scored(hadrian, [3, 3, 2, 2, 2, 2, 2, 2, 1, 2, 2, 4])
    read = ranking_text(play, BIG, "en")
    assert "1 red 10; tie broken by fewer Disdain (count)" in read, read
    assert "2 blue 10; tie broken by fewer Disdain (count)" in read

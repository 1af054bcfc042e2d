"""The screen gallery: every sample screen in both languages, as PNG files plus an index.

`tools/gallery.py` (`make gallery`) writes one per panel size: 128x64 to `docs/screens/`,
128x32 to `docs/screens/128x32/`; a test regenerates them into a temporary directory and
compares, so the committed pictures always show what the box draws. Each has a `games/`
folder too: every screen of every shipped game profile (`ui/play_samples.py`), one
folder per game, with its own index.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image

from erabox.core.play import PlayScreen

from .panel import Panel
from .play_samples import CLOCK_GAME, clock_screens, gallery_screens, marked_screens
from .render import draw, render, turning
from .samples import sample_renders
from .screens import Marks
from .selftest_pages import (
    PATTERNS,
    buttons_page,
    done_page,
    found_page,
    page_image,
    pattern_image,
    sound_page,
)
from .strings import LANGUAGES

SCALE = 3  # 384x192: the OLED's pixels stay square and crisp (nearest neighbour)
INDEX = "README.md"
SMALL_DIR = "128x32"  # the 128x32 panel's gallery, inside the 128x64 one's directory
PANELS = (Panel(), Panel(height=32))  # every panel size with layouts, the default first
GAMES_DIR = "games"  # the shipped game profiles' screens, inside each panel's gallery
MARKS_DIR = "marks"  # ... and the box's marks over them, inside GAMES_DIR
MARKS_GAME = "lords-of-xidit"  # the profile the marks are shown over
CLOCK_DIR = "countdown"  # a countdown in any game (README's real-time example), in GAMES_DIR


@cache  # played through once: every panel's pictures and index draw the same screens
def profile_samples() -> tuple[tuple[str, str, tuple[tuple[str, PlayScreen], ...]], ...]:
    """(id, English name, its screens) of every shipped game profile, by id (read as
    `erabox.files.games` reads them: the package's `games/*.toml`)."""
    from importlib import resources

    from erabox.core.own_game import OWN_GAME
    from erabox.core.profile import parse_profile

    games = []
    shipped = resources.files("erabox") / "games"
    for item in sorted(shipped.iterdir(), key=lambda found: found.name):
        name = item.name.removesuffix(".toml")
        if item.name.endswith(".toml") and name != OWN_GAME:  # the box's own screens
            profile = parse_profile(item.read_text(encoding="utf-8"), item.name,
                                    default_id=name)
            games.append((name, profile.name.en, tuple(gallery_screens(profile))))
    return tuple(games)


@cache
def marked_samples() -> tuple[tuple[str, PlayScreen, Marks], ...]:
    """(name, screen, marks): the box's marks over MARKS_GAME's screens."""
    from importlib import resources

    from erabox.core.profile import parse_profile

    item = resources.files("erabox") / "games" / f"{MARKS_GAME}.toml"
    profile = parse_profile(item.read_text(encoding="utf-8"), item.name, default_id=MARKS_GAME)
    return tuple(marked_screens(profile))


@cache
def clock_samples() -> tuple[tuple[str, PlayScreen, Marks], ...]:
    """(name, screen, marks): README's real-time example's countdown (`CLOCK_GAME`)."""
    from importlib import resources

    from erabox.core.profile import parse_profile

    item = resources.files("erabox") / "examples" / f"{CLOCK_GAME}.toml"
    profile = parse_profile(item.read_text(encoding="utf-8"), item.name, default_id=CLOCK_GAME)
    return tuple(clock_screens(profile))


def profile_frames(panel: Panel) -> dict[str, tuple[str, Image.Image]]:
    """`games/<id>/<screen>_<language>.png` -> (language, frame), for every shipped profile;
    `games/marks/...` the box's marks over one of them."""
    frames: dict[str, tuple[str, Image.Image]] = {}
    for game, _, screens in profile_samples():
        for name, shown in screens:
            for page, turn in turned_pages(shown, panel):
                for language in LANGUAGES:  # the page the box shows after `turn` turns
                    frames[f"{GAMES_DIR}/{game}/{name}{page}_{language}.png"] = (
                        language, drawn(shown, panel, language, Marks(turn=turn)))
    for name, shown, marks in marked_samples():
        for language in LANGUAGES:
            frames[f"{GAMES_DIR}/{MARKS_DIR}/{name}_{language}.png"] = (
                language, drawn(shown, panel, language, marks))
    for name, shown, marks in clock_samples():
        for language in LANGUAGES:
            frames[f"{GAMES_DIR}/{CLOCK_DIR}/{name}_{language}.png"] = (
                language, drawn(shown, panel, language, marks))
    return frames


def drawn(shown: PlayScreen, panel: Panel, language: str, marks: Marks) -> Image.Image:
    """`shown` as the box draws it (`render.draw`: a countdown as the clock), with `marks`."""
    return draw(shown, panel, language, no_sound=marks.no_sound, no_save=marks.no_save,
                no_file=marks.no_file, hold_progress=marks.hold_progress, turn=marks.turn)


def turned_pages(shown: PlayScreen, panel: Panel) -> list[tuple[str, int]]:
    """(name suffix, turns) of each page `shown` turns to on its own on `panel` (the setup's
    hint row, a long step on 128x32): "" for the first, "_page2" ... (the language with the
    most pages counts; one with fewer shows what the box shows then: its pages again)."""
    count = max(turning(shown, panel, language) for language in LANGUAGES)
    return [("" if turn == 0 else f"_page{turn + 1}", turn) for turn in range(count)]


def profiles_index(panel: Panel) -> str:
    """The Markdown index of the game profiles' screens on `panel`."""
    lines = [
        f"# Game profiles' screens ({panel.width}x{panel.height})",
        "",
        "Every different screen of every shipped game profile (docs/profiles.md), played",
        "through with the most players (solo where the game allows it, and fewer players",
        "where they see other steps), generated by `make gallery` from",
        "`erabox.ui.play_samples`. Who plays, the numbers and the",
        "countdown differ from play to play; each step, category and ranking is shown once.",
        "A screen that turns pages on its own every few seconds (the setup's hint row and",
        "\"hold ERA: settings\"; on 128x32 a step too long for its line, and a step's hint",
        "row with \"hold NEXT: undo\" every other page) is shown page by page (`_page2` ...).",
    ]
    for game, title, screens in profile_samples():
        lines += ["", f"## {title} (`{game}`)", "", "| screen | English | Japanese |",
                  "|---|---|---|"]
        lines += _rows(game, [screen_name + page for screen_name, shown in screens
                              for page, _ in turned_pages(shown, panel)])
    lines += ["", "## The box's marks", "",
              "The no-sound, cannot-save and missing-sound-file marks, and the progress of a",
              "NEXT+ERA hold toward \"New game?\", over the screens of",
              f"`{MARKS_GAME}` (as on Time of Empires' screens); then its first setup",
              "saying which game plays and why (`setup_...`: given with `--game`, chosen in",
              "the settings menu, the config's `game`; a few seconds, or until a press).", "",
              "| screen | English | Japanese |", "|---|---|---|"]
    lines += _rows(MARKS_DIR, [name for name, _, _ in marked_samples()])
    lines += ["", "## A countdown, in any game", "",
              "A phase of one step on a running clock, as every game shows it: Time of",
              "Empires' clock (the seconds to the start gong, the seconds left over the",
              "progress bar with a mark at each call, a call's own words over it, paused).",
              f"README's real-time example, Camp Run (`erabox/examples/{CLOCK_GAME}.toml`):",
              "2 s after ERA, 1:00 into its clock, just after its first call, paused, and",
              "with the no-sound mark while NEXT and ERA are held.", "",
              "| screen | English | Japanese |", "|---|---|---|"]
    lines += _rows(CLOCK_DIR, [name for name, _, _ in clock_samples()])
    return "\n".join(lines) + "\n"


def _rows(folder: str, names: list[str]) -> list[str]:
    """The index's table rows of the pictures `names` in `folder`, one language a column."""
    return [f"| `{name}` | " + " | ".join(f"![{name} {language}]({folder}/{name}_{language}.png)"
                                          for language in LANGUAGES) + " |" for name in names]


def selftest_frames(language: str, panel: Panel | None = None) -> list[tuple[str, Image.Image]]:
    """(name, frame) of the self-test's screens (`erabox selftest`) in `language`."""
    panel = panel or Panel()
    buttons = [("NEXT", 17, False), ("ERA", 27, True), ("VOL+", 22, False), ("VOL-", 23, False)]
    pages = [
        ("selftest_found", page_image(found_page(language, "LGPIOFactory", 0x3C, True,
                                                 compact=panel.compact), panel)),
        *[(f"selftest_pattern_{name}", pattern_image(name, panel)) for name in PATTERNS],
        ("selftest_sound", page_image(sound_page(language, "gong", 80, True), panel)),
        # The longest cue name, with no sound device to play it on.
        ("selftest_no_sound", page_image(sound_page(language, "cry", 80, True, silent=True),
                                         panel)),
        ("selftest_buttons", page_image(buttons_page(language, buttons,
                                                     compact=panel.compact), panel)),
        ("selftest_done", page_image(done_page(language), panel)),
    ]
    return pages


def gallery_frames(panel: Panel | None = None) -> dict[str, tuple[str, Image.Image]]:
    """File name -> (language, frame), for every sample and self-test screen on `panel`."""
    panel = panel or Panel()
    frames: dict[str, tuple[str, Image.Image]] = {}
    for name, screen, no_sound in sample_renders():
        for language in LANGUAGES:
            frames[f"{name}_{language}.png"] = (
                language, render(screen, language=language, no_sound=no_sound, panel=panel))
    for language in LANGUAGES:
        for name, frame in selftest_frames(language, panel):
            frames[f"{name}_{language}.png"] = (language, frame)
    frames.update(profile_frames(panel))
    return frames


def gallery_images(panel: Panel | None = None) -> dict[str, Image.Image]:
    """File name -> scaled-up mode "1" image, for every screen in every language."""
    panel = panel or Panel()
    size = (panel.width * SCALE, panel.height * SCALE)
    return {file_name: frame.resize(size, Image.Resampling.NEAREST)
            for file_name, (_, frame) in gallery_frames(panel).items()}


def gallery_index(panel: Panel | None = None) -> str:
    """The Markdown index: one table row per sample, English and Japanese side by side."""
    panel = panel or Panel()
    if panel.compact:
        other = "The 128x64 panel's screens are in [the gallery above this one](../README.md)."
    else:
        other = (f"A 128x32 panel (`[display] height = 32`) has its own layouts: "
                 f"[{SMALL_DIR}/]({SMALL_DIR}/{INDEX}).")
    other += (f" The game profiles' screens: [{GAMES_DIR}/]({GAMES_DIR}/{INDEX}).")
    lines = [
        "# Screens" + (f" ({panel.width}x{panel.height})" if panel.compact else ""),
        "",
        "Every screen the box draws, generated by `make gallery` (`tools/gallery.py`) from",
        "`erabox.ui.samples`; `tests/test_gallery.py` fails when these files fall behind the",
        f"renderer. Shown {SCALE}x (the OLED is {panel.width}x{panel.height}, lit pixels white).",
        other,
        "",
        "| screen | English | Japanese |",
        "|---|---|---|",
    ]
    for name, _, no_sound in sample_renders():
        label = f"`{name}`" + (" (no sound)" if no_sound else "")
        cells = [f"![{name} {language}]({name}_{language}.png)" for language in LANGUAGES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for name, _ in selftest_frames(LANGUAGES[0], panel):
        cells = [f"![{name} {language}]({name}_{language}.png)" for language in LANGUAGES]
        lines.append(f"| `{name}` (erabox selftest) | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_galleries(directory: Path) -> list[Path]:
    """Write the gallery of every panel size: 128x64 into `directory`, 128x32 into its
    `128x32/`; return the paths written."""
    written = write_gallery(directory, PANELS[0])
    for panel in PANELS[1:]:
        written += write_gallery(directory / f"{panel.width}x{panel.height}", panel)
    return written


def write_gallery(directory: Path, panel: Panel | None = None) -> list[Path]:
    """Write every gallery PNG and the index of `panel` into `directory`; return the paths
    written.

    PNGs that no sample produces any more are removed, so the directory matches the index.
    """
    panel = panel or Panel()
    directory.mkdir(parents=True, exist_ok=True)
    images = gallery_images(panel)
    for stale in [*directory.glob("*.png"), *directory.glob(f"{GAMES_DIR}/*/*.png")]:
        if str(stale.relative_to(directory)) not in images:
            stale.unlink()
    written: list[Path] = []
    for file_name, image in images.items():
        path = directory / file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG")
        written.append(path)
    index = directory / INDEX
    index.write_text(gallery_index(panel), encoding="utf-8")
    games = directory / GAMES_DIR / INDEX
    games.write_text(profiles_index(panel), encoding="utf-8")
    written += [index, games]
    return written

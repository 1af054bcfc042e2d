"""The box's own big digits and status icons, drawn as pixel grids (original work, MIT).

The digits are a 5x7 pixel design with rounded corners, scaled by whole numbers: at 4x they
are 20x28 px with 4 px strokes, which reads across a table on a 0.96" OLED. Scaling x and y
separately lets a long number ("12/15") stay tall but narrower.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

# Rows top to bottom, "#" = lit. Digits are 5 wide; punctuation is narrower so "10:00" fits.
BIG_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": (".###.", "#...#", "....#", "..##.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    ":": (".", ".", "#", ".", "#", ".", "."),
    "/": ("..#", "..#", ".#.", ".#.", ".#.", "#..", "#.."),
    "-": ("...", "...", "...", "###", "...", "...", "..."),
    " ": ("..", "..", "..", "..", "..", "..", ".."),
}
BIG_ROWS = 7
UNKNOWN_BIG = "-"  # a character without a big glyph is drawn as a dash, visibly not a digit

# A speaker with a cross: the box was started without sound (or lost its sound card).
NO_SOUND_ICON: tuple[str, ...] = (
    "...#......",
    "..##.#...#",
    "####..#.#.",
    "####...#..",
    "####..#.#.",
    "..##.#...#",
    "...#......",
)

# "cannot save": a memory card with a cross (the game is not being saved; see the log).
NO_SAVE_ICON: tuple[str, ...] = (
    "#####.....",
    "#...##.#.#",
    "#....#..#.",
    "#....#.#.#",
    "#....#....",
    "#....#....",
    "######....",
)


# Muted or very quiet (10 % or less): a speaker with a minus, on every screen.
QUIET_ICON: tuple[str, ...] = (
    "...#.....",
    "..##.....",
    "####.....",
    "####.###.",
    "####.....",
    "..##.....",
    "...#.....",
)

# "a configured sound file is missing": a note with a question mark (the log names the file).
NO_FILE_ICON: tuple[str, ...] = (
    "..##..###.",
    "..#.#....#",
    "..#.#...#.",
    "..#....#..",
    "###.......",
    "###....#..",
    "..........",
)


def _grid_image(rows: tuple[str, ...]) -> Image.Image:
    """A pixel grid as a mode "1" image (lit = 1)."""
    image = Image.new("1", (len(rows[0]), len(rows)), 0)
    image.putdata([1 if cell == "#" else 0 for row in rows for cell in row])
    return image


def big_text_width(text: str, scale_x: int) -> int:
    """Width in pixels of `text` in big digits (one column of gap between glyphs)."""
    columns = sum(len(BIG_GLYPHS.get(char, BIG_GLYPHS[UNKNOWN_BIG])[0]) for char in text)
    return (columns + max(0, len(text) - 1)) * scale_x


@lru_cache(maxsize=256)
def big_text_image(text: str, scale_x: int, scale_y: int) -> Image.Image:
    """`text` ("9:00", "12/15", "5") in big digits, as a mode "1" mask scaled (x, y).

    Cached: a running clock has at most a few hundred distinct faces.
    """
    grids = [BIG_GLYPHS.get(char, BIG_GLYPHS[UNKNOWN_BIG]) for char in text]
    columns = sum(len(grid[0]) for grid in grids) + max(0, len(grids) - 1)
    image = Image.new("1", (max(1, columns), BIG_ROWS), 0)
    x = 0
    for grid in grids:
        image.paste(_grid_image(grid), (x, 0))
        x += len(grid[0]) + 1
    return image.resize((image.width * scale_x, BIG_ROWS * scale_y), Image.Resampling.NEAREST)


@lru_cache(maxsize=8)
def icon_image(rows: tuple[str, ...]) -> Image.Image:
    """An icon grid as a mode "1" mask."""
    return _grid_image(rows)

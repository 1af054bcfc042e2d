"""Small text in the Misaki 8x8 pixel font: measuring, wrapping, abbreviating, drawing.

Misaki is drawn at exactly 8 px, where its outlines land on whole pixels, with anti-aliasing
off: Latin letters come out 4 px wide, kana and kanji 8 px, all on an 8 px line. Larger text
is the same bitmap scaled up by whole numbers (nearest neighbour), which stays crisp.

Text never gets cut silently: `fit_text` wraps at spaces and between Japanese characters, and
when even the smallest allowed size needs more lines than there is room for, it shortens the
last line and ends it with "‥", and says so (`TextBlock.abbreviated`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

LINE_PX = 8  # Misaki's cell height: every text line is 8 px per scale step
FONT_FILE = "misaki_gothic.ttf"
ELLIPSIS = "‥"  # Misaki has no "…"; the two-dot leader is its JIS cousin
MISSING = "?"  # stands in for a character the font cannot draw
# A zero-width space in a catalogue string marks where a Japanese line may break best
# ("この時代を\u200bやり直す？"); it is never drawn.
BREAK_HINT = "\u200b"

# A line must not start with these (Japanese line-breaking rule, kinsoku): they stay with the
# character before them.
_NO_LINE_START = set("ー、。，．・：；？！）」』】〕！？%％:;,.)]}")


@cache
def misaki() -> ImageFont.FreeTypeFont:
    """The bundled Misaki Gothic font at its native 8 px (loaded once)."""
    with resources.as_file(resources.files(__package__) / "fonts" / FONT_FILE) as path:
        return ImageFont.truetype(str(path), LINE_PX)


@cache
def _notdef_mask() -> bytes:
    """The font's "no such glyph" box, from a private-use character no font defines."""
    return bytes(misaki().getmask("\ue000", mode="1"))


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True if Misaki draws `char` (spaces count as drawable)."""
    if char in (" ", "\u3000", "\u00a0", BREAK_HINT):
        return True
    # Control and format characters (str.isspace() counts even "\x1e" as space) would make
    # FreeType fail rather than draw the .notdef box: they are never drawable.
    if unicodedata.category(char)[0] in "CZ":
        return False
    return bytes(misaki().getmask(char, mode="1")) != _notdef_mask()


def unsupported_characters(text: str) -> set[str]:
    """The characters of `text` the font lacks; the screen shows "?" for each of them.

    Callers that take names from outside (a config's player colours) can warn about these once.
    """
    return {char for char in text if not has_glyph(char)}


def drawable(text: str) -> str:
    """`text` with every character the font lacks replaced by "?" (visible, not dropped)."""
    return "".join(char if has_glyph(char) else MISSING for char in text)


@lru_cache(maxsize=4096)
def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of one line of `text` at `scale`."""
    return int(misaki().getlength(text.replace(BREAK_HINT, ""))) * scale


@dataclass(frozen=True)
class TextBlock:
    """Text laid out in lines at one scale. `abbreviated` says the last line was shortened."""

    lines: tuple[str, ...]
    scale: int
    abbreviated: bool = False

    @property
    def width(self) -> int:
        """Width of the widest line in pixels."""
        return max((text_width(line, self.scale) for line in self.lines), default=0)

    @property
    def height(self) -> int:
        """Height of all lines in pixels."""
        return len(self.lines) * LINE_PX * self.scale


def _is_wide(char: str) -> bool:
    # Kana, kanji and full-width forms may break anywhere; Latin breaks only at spaces.
    return ord(char) >= 0x2E80 or 0x2160 <= ord(char) <= 0x2188


def _pieces(text: str, cjk_breaks: bool) -> list[str]:
    """Split `text` into the smallest pieces a line may break between (spaces kept at ends).

    With `cjk_breaks`, also between Japanese characters; without, only at spaces.
    """
    pieces: list[str] = []
    for char in text:
        if not pieces:
            pieces.append(char)
        elif char in _NO_LINE_START or char in " " + BREAK_HINT:
            pieces[-1] += char
        elif pieces[-1][-1] in " " + BREAK_HINT or (
            cjk_breaks and (_is_wide(char) or _is_wide(pieces[-1][-1]))
        ):
            pieces.append(char)
        else:
            pieces[-1] += char
    return pieces


def wrap(text: str, width: int, scale: int = 1) -> list[str]:
    """Break `text` into lines no wider than `width` px at `scale`.

    Breaks at spaces where that is enough ("ゲーム終了 -" / "最終得点計算" reads better than a
    break inside a word), else also between Japanese characters; a word too long for a line
    is split between letters rather than allowed to run off the screen.
    """
    lines, split_word = _wrap(text, width, scale, cjk_breaks=False)
    if split_word:
        lines, _ = _wrap(text, width, scale, cjk_breaks=True)
    return [line.replace(BREAK_HINT, "") for line in lines]


def _wrap(text: str, width: int, scale: int, cjk_breaks: bool) -> tuple[list[str], bool]:
    """Greedy line breaking; also says whether some piece had to be split inside."""
    lines: list[str] = []
    line = ""
    split_word = False
    for piece in _pieces(text, cjk_breaks):
        if text_width((line + piece).rstrip(), scale) <= width:
            line += piece
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = ""
        piece = piece.lstrip()  # a new line does not start with the space that broke it
        if text_width(piece.rstrip(), scale) <= width:
            line = piece
            continue
        split_word = True
        for char in piece:  # one word wider than the screen: split it between letters
            if line and text_width((line + char).rstrip(), scale) > width:
                lines.append(line.rstrip())
                line = ""
            line += char
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines, split_word


def _abbreviate(line: str, width: int, scale: int) -> str:
    """`line` shortened until it and the ellipsis fit `width`."""
    while line and text_width(line.rstrip() + ELLIPSIS, scale) > width:
        line = line[:-1]
    return line.rstrip() + ELLIPSIS


@lru_cache(maxsize=1024)
def fit_text(text: str, width: int, sizes: tuple[tuple[int, int], ...]) -> TextBlock:
    """Lay out `text` in `width` px at the first (scale, max_lines) of `sizes` it fits.

    If it fits none, it takes the last size and abbreviates its last line (visibly, "‥").
    """
    text = drawable(text)
    for scale, max_lines in sizes:
        lines = wrap(text, width, scale)
        if len(lines) <= max_lines:
            return TextBlock(tuple(lines), scale)
    scale, max_lines = sizes[-1]
    lines = wrap(text, width, scale)[:max_lines]
    lines[-1] = _abbreviate(lines[-1], width, scale)
    return TextBlock(tuple(lines), scale, abbreviated=True)


@lru_cache(maxsize=1024)
def line_image(line: str, scale: int = 1) -> Image.Image:
    """One line of text as a mode "1" mask (lit pixels = ink), scaled up by `scale`.

    Cached: a screen is redrawn every second but its strings rarely change.
    """
    width = max(1, text_width(line))
    image = Image.new("1", (width, LINE_PX), 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing: Misaki's pixels, exactly
    draw.text((0, 0), line, font=misaki(), fill=1)
    if scale != 1:
        image = image.resize((width * scale, LINE_PX * scale), Image.Resampling.NEAREST)
    return image

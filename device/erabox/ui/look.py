"""Apply OLED care's `Look` to a rendered frame: shift it by a pixel, or blank it.

Dimming is the panel's contrast, not the picture: the display adapter sets it.
"""

from __future__ import annotations

from PIL import Image

from erabox.core.care import Level, Look


def apply_look(image: Image.Image, look: Look) -> Image.Image:
    """`image` moved right by `look.dx` and down by `look.dy` (what leaves the panel is cut
    off; screens keep a 2 px margin, so nothing drawn is lost), or all dark when blank."""
    if look.level is Level.BLANK:
        return Image.new(image.mode, image.size, 0)
    if look.dx == 0 and look.dy == 0:
        return image
    moved = Image.new(image.mode, image.size, 0)
    moved.paste(image, (look.dx, look.dy))
    return moved

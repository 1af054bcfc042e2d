"""Pure rendering: screen model -> 128x64 1-bit image, strings in English and Japanese."""

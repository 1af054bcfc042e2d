"""Pure rendering: screen model -> 1-bit image for the panel (128x64 or 128x32), strings in
English and Japanese."""

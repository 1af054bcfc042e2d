"""The files the user writes, read at start: the config, a script, the game profiles, and the
system libraries the box needs (named in errors as install hints)."""

"""The pure game core: no clock, no I/O."""

"""The commands' running parts: `erabox run`'s loop (`app.Box`) and the one `Driver` of every
game, `erabox simulate`'s virtual clock and frames, which game plays, the screen worker, the
self-test and the hall's director."""

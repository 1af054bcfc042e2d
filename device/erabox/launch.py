"""The `erabox` command's first code: Ctrl-C at any moment, the start-up imports included,
exits 130 without a traceback.

Only the standard library's `signal` is imported before the guard is in place; the command
line itself (`erabox.cli`, and everything it imports) is imported inside it. Once the command
has returned, Ctrl-C ends the process at once, as the shell expects (130), not with a
traceback from the interpreter's shutdown.
"""

import signal


def main() -> int:
    """Entry point of the `erabox` console script and of `python -m erabox`."""
    try:
        from erabox.cli import main as command

        return command()
    except KeyboardInterrupt:
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)

# Only on the path while golden transcripts are recorded (tests/golden/record.py): a child
# `python -m erabox simulate` records its runs too.
import os
import sys

if os.environ.get("ERABOX_RECORD_GOLDEN"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import record

    record.install(os.environ["ERABOX_RECORD_GOLDEN"])

"""`erabox bench`: the measurements behind `make bench` and `make soak`.

One module per question the bench answers (cue timing, input latency, footprint, the naive
timer it is compared with, the soak), a harness that runs the real daemon in-process with its
trace hooks, and the report that turns results into a table with targets. `bench.py` ties
them together. Nothing here is imported by the box itself.
"""

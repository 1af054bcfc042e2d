# erabox: every target bootstraps its own virtual environment (.venv) first.
# Fresh machine: `make run` starts the box (installing only what the box needs to run),
# `make test` runs the whole test suite (adding the test tools to the same .venv).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUM    := $(shell cat pyproject.toml tools/bootstrap.sh | cksum | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(SUM)
STAMP  := $(VENV)/.installed-test-$(SUM)

.PHONY: broker hall-bench run test test-deep test-faults lint bench soak gallery sounds install \
	wheelhouse system-test clean

# The box's own packages only (the test tools are ten times its size)...
$(RUN_STAMP):
	@ERABOX_EXTRAS= sh tools/bootstrap.sh "$(PYTHON)" "$(VENV)"
	@rm -f $(VENV)/.installed-run-*
	@touch $@

# ... and with the test tools, which every other target uses.
$(STAMP):
	@ERABOX_EXTRAS=test sh tools/bootstrap.sh "$(PYTHON)" "$(VENV)"
	@rm -f $(VENV)/.installed-*
	@touch $@ $(RUN_STAMP)

## run: start the box (the real parts on a Pi; a desktop window or the terminal elsewhere);
## installs only what the box needs to run
run: $(RUN_STAMP)
	$(BIN)/erabox run $(ARGS)

## test: the whole test suite (adds the test tools to .venv; the hall's tests need Debian's
## mosquitto: installed here as root where missing), one pytest-xdist worker per core, each
## test file on one worker (its module fixtures computed once); TEST_JOBS=0 runs it in one
## process, TEST_JOBS=4 on four workers
TEST_JOBS ?= auto
test: $(STAMP) broker
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadfile $(ARGS)

broker:
	@command -v mosquitto >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get \
	    >/dev/null || (apt-get update -qq && apt-get install -y -qq mosquitto >/dev/null)

## hall-bench: boxes of a hall in step: the spread of every gong and call across four real
## boxes (clocks off by up to 2 s and 200 ppm, a delaying network), a broker outage, a box
## restarted, and 100 simulated boxes on one broker (docs/hall.md)
hall-bench: $(STAMP) broker
	$(BIN)/python tools/hall_bench.py $(ARGS)

## test-deep: the nightly-style run: the property tests with ten times the examples and a
## fresh random seed each run, and the random power-cut tests on 200 fresh seeds (a failure
## prints the seed that reproduces it; see docs/power-cuts.md)
test-deep: $(STAMP)
	ERABOX_TEST_DEEP=1 $(BIN)/python -m pytest -q $(DEEP_TESTS) $(ARGS)

DEEP_TESTS = $(shell grep -l -e "from hypothesis" -e "ERABOX_TEST_DEEP" tests/test_*.py)

## test-faults: the power-cut battery on the real daemon: `erabox run` killed (SIGKILL) around a
## cry on a card made slow by an LD_PRELOAD shim (fsync 0, 0.2, 0.5, 1.0 s longer; built with
## the machine's cc); prints trials / lost / doubled / worst running time lost (a few minutes;
## docs/power-cuts.md). ARGS="--delays 1.0 --offsets=-0.05" narrows it.
test-faults: $(STAMP)
	$(BIN)/python tests/faults/battery.py $(ARGS)

## lint: ruff on everything, mypy (strict) on all of device/erabox/ (the erabox package)
lint: $(STAMP)
	$(BIN)/ruff check device tests tools
	$(BIN)/mypy

## bench: timing, latency and footprint figures from the real daemon
bench: $(STAMP)
	$(BIN)/erabox bench $(ARGS)

## soak: hours of virtual play through the core plus real play through the daemon
soak: $(STAMP)
	$(BIN)/erabox bench --soak $(ARGS)

## gallery: regenerate docs/screens/ (every screen, both languages)
gallery: $(STAMP)
	$(BIN)/python tools/gallery.py

## sounds: regenerate sounds/ from tools/make_sounds.py (deterministic)
sounds: $(STAMP)
	$(BIN)/python tools/make_sounds.py

## install: on a Raspberry Pi, `sudo make install` sets up /opt/erabox, the user and the unit
## (offline when wheelhouse/<machine>/ exists: see `make wheelhouse`)
install:
	sh tools/install.sh

## wheelhouse: on any machine with internet, download the Pi's Python packages into wheelhouse/
## (aarch64 and armv7l, CPython 3.11) and the Debian packages install.sh needs (debs/, with
## their dependencies) for an offline `sudo make install`; checks they are wheels. Runs with
## .venv's pip (the box's own packages: `make run`'s .venv); ARGS="--dry-run" fetches nothing
wheelhouse: $(RUN_STAMP)
	$(BIN)/python tools/wheelhouse.py $(ARGS)

## system-test: boot a fresh Debian 12 VM, install from a clean clone as the README says with
## no network, play eras through the real systemd service and an ALSA loopback card, press the
## buttons through lgpio on a gpio-sim chip (needs root, QEMU); ARGS="--arch aarch64": the same
## on an emulated arm64 box with a Pi Zero 2 W's 4 cores and 512 MB (on demand, 20-25 min; 20 more to build its image once)
system-test: $(STAMP)
	sh tools/systemtest/run.sh $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

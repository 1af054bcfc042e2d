# erabox: every target bootstraps its own virtual environment (.venv) first.
# Fresh machine: `make run` starts the box, `make test` runs the whole test suite.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test test-deep lint bench soak gallery sounds install wheelhouse system-test clean

$(STAMP): pyproject.toml tools/bootstrap.sh
	@sh tools/bootstrap.sh "$(PYTHON)" "$(VENV)"
	@rm -f $(VENV)/.installed-*
	@touch $@

## run: start the box (the real parts on a Pi; a desktop window or the terminal elsewhere)
run: $(STAMP)
	$(BIN)/erabox run $(ARGS)

## test: the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest -q $(ARGS)

## test-deep: the nightly-style run: the property tests with ten times the examples and a
## fresh random seed each run, and the random power-cut tests on 200 fresh seeds (a failure
## prints the seed that reproduces it; see docs/power-cuts.md)
test-deep: $(STAMP)
	ERABOX_TEST_DEEP=1 $(BIN)/python -m pytest -q $(DEEP_TESTS) $(ARGS)

DEEP_TESTS = $(shell grep -l -e "from hypothesis" -e "ERABOX_TEST_DEEP" tests/test_*.py)

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
## their dependencies) for an offline `sudo make install`; checks they are wheels
wheelhouse:
	$(PYTHON) tools/wheelhouse.py $(ARGS)

## system-test: boot a fresh Debian 12 VM, install from a clean clone as the README says with
## no network, play eras through the real systemd service and an ALSA loopback card, press the
## buttons through lgpio on a gpio-sim chip (needs root, QEMU); ARGS="--arch aarch64": the same
## on an emulated arm64 box with a Pi Zero 2 W's 4 cores and 512 MB (on demand, 20-25 min; 20 more to build its image once)
system-test: $(STAMP)
	sh tools/systemtest/run.sh $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

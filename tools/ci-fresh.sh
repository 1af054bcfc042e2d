#!/bin/sh
# CI as a brand-new machine runs it: a fresh clone of HEAD (with ../shared beside it, as CI has),
# HOME and XDG_CACHE_HOME pointing at new empty folders, so no image, wheelhouse, venv or pip
# cache from an earlier run is found. Prints the time it took and everything the run left in
# HOME (the system test's cache and pip's are expected; anything else is a test writing where it
# should not). Needs root, like the system test.
#
# Usage: sh tools/ci-fresh.sh [--keep]     (--keep: leave the clone and HOME for a look)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
keep=no
[ "${1:-}" = --keep ] && keep=yes
work=$(mktemp -d /tmp/erabox-ci-fresh.XXXXXX)
cleanup() { [ "$keep" = yes ] || rm -rf "$work"; }
trap cleanup EXIT
git clone -q "$repo" "$work/main"
if [ -d "$repo/../shared" ]; then ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"; fi
mkdir "$work/home"
echo "== fresh clone of $(git -C "$repo" rev-parse --short HEAD) in $work/main; HOME=$work/home"
t0=$(date +%s)
set +e
(cd "$work/main" && env HOME="$work/home" XDG_CACHE_HOME="$work/home/.cache" \
    XDG_CONFIG_HOME="$work/home/.config" CI=true bash .ci/run)
rc=$?
set -e
t=$(( $(date +%s) - t0 ))
echo "== .ci/run exit $rc in $t s ($(( t / 60 )) min $(( t % 60 )) s)"
echo "== left in HOME (beyond the system test's cache and pip's):"
(cd "$work/home" && find . -mindepth 1 \
    -not -path './.cache' -not -path './.cache/erabox*' -not -path './.cache/pip*' | sort) || true
echo "== the clone's tree after the run (git status --porcelain; ignored folders not shown):"
git -C "$work/main" status --porcelain
exit "$rc"

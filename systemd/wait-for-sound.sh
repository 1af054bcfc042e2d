#!/bin/sh
# Give a late sound card a short head start before the box starts: wait until ALSA has a
# playback device (/dev/snd/pcmC<card>D<device>p), at most MAX_SECONDS, then exit 0 either way.
#
# Used as erabox.service's ExecStartPre. It never fails and never blocks for long: a box with
# no speaker must still come up and show its screen, and the app itself keeps retrying the
# mixer in the background, so this only makes the first gong after boot more likely to sound.
#
# Usage: wait-for-sound.sh [MAX_SECONDS]   (default 8)
# ERABOX_SND_DIR overrides /dev/snd (for tests).
max_seconds=${1:-8}
snd_dir=${ERABOX_SND_DIR:-/dev/snd}

case $max_seconds in
    ''|*[!0-9]*) echo "wait-for-sound: MAX_SECONDS must be a whole number, got '$max_seconds'" >&2
                 exit 0 ;;
esac

has_playback_device() {
    for node in "$snd_dir"/pcmC*D*p; do
        [ -e "$node" ] && return 0
    done
    return 1
}

# Four checks a second: cheap, and the card is picked up within 0.25 s of appearing.
checks_left=$((max_seconds * 4))
while ! has_playback_device; do
    if [ "$checks_left" -le 0 ]; then
        echo "no ALSA playback device after ${max_seconds}s; starting without sound for now" \
             "(the box keeps retrying)"
        exit 0
    fi
    checks_left=$((checks_left - 1))
    sleep 0.25
done
exit 0

#!/bin/bash
# The system test inside the VM (tools/systemtest/run.sh puts it in the shared folder; the
# image's erabox-systemtest.service runs it at every boot). A phase file on the share carries it
# across the reboots and hard resets:
#   install  boot 1, a fresh Bookworm: the README's Pi steps word for word (readme-steps.sh,
#            cut from the README by run.sh), no sound card yet; a card that appears late; a bad
#            config; then the test config, and a reboot
#   era      boot 2: enabled, started at boot, runs as erabox, security score, boot-to-ready;
#            three short real-time eras through the unit recorded from the ALSA loopback;
#            `systemctl kill -s KILL` mid-era; then the first hard reset
#   reset    boots 3..: resumed paused mid-era, state file intact; resume, hard reset again
#   done     power off
# Results: `FIGURE name: value` and `CHECK name: PASS|FAIL detail` lines in results.txt; the
# recording (raw S16 stereo 44100 Hz) and the box's events for run.sh's analysis on the host.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"  # the image starts it with sh
set -u
share=/mnt/share
results=$share/results.txt
resets_wanted=${ERABOX_RESETS:-10}
[ -f "$share/settings" ] && . "$share/settings"
phase=$(cat "$share/phase" 2>/dev/null || echo install)
dropin_dir=/etc/systemd/system/erabox.service.d
script=/etc/erabox/systemtest-script.txt

log() { printf '[vm %s] %s\n' "$(cut -d' ' -f1 /proc/uptime)" "$*" | tee -a "$share/vm.log" > /dev/console; }
figure() { echo "FIGURE $1: $2" >> "$results"; log "FIGURE $1: $2"; }
check() {  # check NAME OK(0/1) DETAIL
    if [ "$2" = 0 ]; then echo "CHECK $1: PASS $3" >> "$results"; log "PASS $1: $3"
    else echo "CHECK $1: FAIL $3" >> "$results"; log "FAIL $1: $3"; fi
}
set_phase() { echo "$1" > "$share/phase"; }
finish() { set_phase done; log "powering off"; sync; systemctl poweroff; exit 0; }

# wait_for SECONDS COMMAND...: run COMMAND four times a second until it succeeds (bounded)
wait_for() {
    local limit=$1; shift
    local end=$(( $(date +%s) + limit ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.25
    done
}
# wait_quietly SECONDS COMMAND...: the same, but it first sleeps SECONDS and then looks every
# 2 s (for at most 300 s more). While the eras are recorded nothing else may run: every new
# process (journalctl, grep, date) is code QEMU's TCG must translate, which stalled both
# emulated CPUs for 50-150 ms (a kernel trace showed SDL's audio thread woken that late) and
# the sound card ran dry under the cues.
wait_quietly() {
    local first=$1; shift
    sleep "$first"
    local tries=150
    until "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        [ "$tries" -le 0 ] && return 1
        sleep 2
    done
}
invocation() { systemctl show -p InvocationID --value erabox; }
# the box's JSON events and log lines of one run of the unit
box_output() { journalctl -q -o cat -u erabox _SYSTEMD_INVOCATION_ID="$1"; }
box_says() { box_output "$1" | grep -q -- "$2"; }
main_pid() { systemctl show -p MainPID --value erabox; }
is_active() { [ "$(systemctl is-active erabox)" = active ]; }
box_ready() { box_says "$(invocation)" ': ready$'; }
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))' "$@"; }

write_config() {  # write_config LENGTH_S "CUES" LEAD_IN_S
    cat > /etc/erabox/erabox.toml <<EOF
# erabox system test: short eras (the loopback card is AUDIODEV in the drop-in); two players,
# so that the points entry after an era takes 11 ERA presses (4 steps x 2 players, 2 steps
# without points, the standings)
players = ["red", "blue"]
[realtime]
length_s = $1
scholar_cues_s = [$2]
lead_in_s = $3
final_ticks_s = 0
EOF
}

case $phase in
install)
    : > "$results"
    log "boot 1: a fresh Debian 12, no network, no sound card"
    figure "kernel" "$(uname -r), systemd $(systemctl --version | head -1 | cut -d' ' -f2)"
    # The VM's stand-in for the package index: the wheelhouse `make wheelhouse` built on the host
    printf '[global]\nno-index = true\nfind-links = %s/wheelhouse\n' "$share" > /etc/pip.conf
    start=$(date +%s)
    log "README steps:"; sed 's/^/    /' "$share/readme-steps.sh" | tee -a "$share/vm.log"
    (cd /root && bash -ex "$share/readme-steps.sh") > "$share/install.log" 2>&1
    rc=$?
    check readme_steps "$rc" "README 'On a Raspberry Pi' step 3 exit $rc in $(( $(date +%s) - start )) s (install.log)"
    [ "$rc" = 0 ] || finish
    out=$(PYGAME_HIDE_SUPPORT_PROMPT=1 /opt/erabox/.venv/bin/python -c 'import pygame.mixer, PIL.Image, gpiozero; print("ok")' 2>&1)
    [ "$out" = ok ]; check mixer_imports $? "pygame.mixer imports in /opt/erabox/.venv: $out"
    wait_for 120 box_ready; check service_ready_after_install $? "$(systemctl is-active erabox)"
    inv=$(invocation)
    # No card yet: the box says so and keeps going; then the card appears (snd-aloop, late)
    wait_for 60 box_says "$inv" "no sound:"
    check silent_without_card $? "$(box_output "$inv" | grep -m1 'no sound:' | cut -c1-160)"
    box_output "$inv" | grep -q "mixer module not available"
    [ $? = 1 ]; check no_missing_library $? "no 'mixer module not available' in the journal"
    t0=$(date +%s.%N)
    modprobe snd-aloop
    wait_for 60 box_says "$inv" "sound is back"
    rc=$?
    t1=$(date +%s.%N)
    check late_card_picked_up "$rc" "$(box_output "$inv" | grep -m1 'sound is back' | cut -c1-160)"
    if [ "$rc" != 0 ]; then
        log "diagnosis: $(grep -E ' (alsa|sound)$' /proc/devices | tr '\n' ' '); $(ls /dev/snd | tr '\n' ' ')"
        log "diagnosis: $(systemctl show -p DeviceAllow erabox)"
    fi
    figure late_card_pickup_s "$(python3 -c "print(round($t1 - $t0, 2))")"

    # A bad config: exit 2, not restarted, the message in `systemctl status erabox`
    cp /etc/erabox/erabox.toml /root/erabox.toml.good
    printf '[realtime]\nlength_s = -5\n' > /etc/erabox/erabox.toml
    restarts=$(systemctl show -p NRestarts --value erabox)
    systemctl restart erabox
    stopped() { s=$(systemctl is-active erabox); [ "$s" = failed ] || [ "$s" = inactive ]; }
    wait_for 120 stopped
    status=$(systemctl show -p ExecMainStatus --value erabox)
    sleep 6  # RestartSec=2: a restart would have happened by now
    after=$(systemctl show -p NRestarts --value erabox)
    state=$(systemctl is-active erabox)
    message=$(systemctl status erabox --no-pager -n 20 2>&1 | grep -m1 "length_s")
    [ "$status" = 2 ] && [ "$after" = "$restarts" ] && [ "$state" != active ] && [ -n "$message" ]
    check bad_config "$?" "exit $status, state $state, restarts $restarts -> $after, status shows: ${message:-nothing}"
    cp /root/erabox.toml.good /etc/erabox/erabox.toml
    systemctl reset-failed erabox

    # The test setup for the next boots: the loopback card at boot, short eras, scripted presses
    echo snd-aloop > /etc/modules-load.d/erabox-systemtest.conf
    write_config 20 "7, 14" 3
    echo "# nothing until the era test" > "$script"
    mkdir -p "$dropin_dir"
    cat > "$dropin_dir/systemtest.conf" <<EOF
# erabox system test: the box's buttons are gpiozero mock pins driven by --script (the VM has
# no GPIO); events on stdout, so in the journal
[Service]
Environment=AUDIODEV=plughw:CARD=Loopback,DEV=0,SUBDEV=0
ExecStart=
ExecStart=/opt/erabox/.venv/bin/erabox run --config /etc/erabox/erabox.toml --script $script --events -
EOF
    systemctl daemon-reload
    set_phase era
    log "rebooting"
    systemctl reboot
    ;;

era)
    log "boot 2: does the box start at boot?"
    wait_for 180 box_ready
    rc=$?
    check starts_at_boot "$rc" "is-enabled $(systemctl is-enabled erabox), is-active $(systemctl is-active erabox)"
    user=$(ps -o user= -p "$(main_pid)")
    [ "$user" = erabox ]; check runs_as_erabox $? "main process user: $user"
    figure security "$(systemd-analyze security erabox --no-pager 2>&1 | grep -i 'overall exposure' | sed 's/^→ *//')"
    ready_line=$(journalctl -b -q -o short-monotonic -u erabox | grep -m1 ': ready$')
    figure boot_to_ready_s "$(echo "$ready_line" | sed 's/^\[ *\([0-9.]*\)\].*/\1/') (kernel start to the box's 'ready', QEMU TCG)"
    # SDL's audio thread at nice -20 (LimitNICE= in the unit), the box's own threads at -5
    pid=$(main_pid)
    sdl_nice=""
    for task in /proc/"$pid"/task/*; do
        case $(cat "$task/comm" 2>/dev/null) in
            SDLAudio*) sdl_nice="$sdl_nice $(awk '{print $19}' "$task/stat")" ;;
        esac
    done
    [ "$(echo $sdl_nice)" = -20 ]
    check audio_thread_priority $? "SDL audio thread nice:${sdl_nice:- none found}; main thread nice $(awk '{print $19}' /proc/"$pid"/stat)"
    figure boot_time "$(systemd-analyze time 2>&1 | head -1)"
    figure boot_slowest_units "$(systemd-analyze blame --no-pager 2>&1 | head -5 | tr -s ' ' | tr '\n' ';')"
    figure erabox_critical_chain "$(systemd-analyze critical-chain erabox.service --no-pager 2>&1 | tail -n +3 | tr -s ' ' | tr '\n' ';')"
    nosound=$(box_output "$(invocation)" | grep -m1 "no sound")
    [ -z "$nosound" ]; check sound_at_boot $? "the card loaded at boot: ${nosound:-no 'no sound' in the log}"

    # Three short real-time eras (20 s, cries at 7 and 14 s, 3 s lead-in), each started by ERA:
    # era I 1 s after the box came up (its setup screen), era II 1 s after its setup screen
    # opened, era III 10 s after. Between eras, 11 ERA presses 0.4 s apart confirm the points
    # entry (every number 0) and the standings; the era's preparation guide is skipped by the
    # ERA press that starts it. (`erabox simulate` with this config and script gives the same
    # states: setup 2 at 30 s, setup 3 at 60 s.)
    {
        echo "1 era press"
        for k in 0 1 2 3 4 5 6 7 8 9 10; do echo "$((26 + k * 4 / 10)).$((k * 4 % 10)) era press"; done
        echo "31 era press"
        for k in 0 1 2 3 4 5 6 7 8 9 10; do echo "$((56 + k * 4 / 10)).$((k * 4 % 10)) era press"; done
        echo "70 era press"
    } > "$script"
    figure script "$(tr '\n' ';' < "$script")"
    rm -f /root/rec.raw
    # A large capture buffer and a high priority: on a starved VM arecord must not lose samples
    # (an overrun would shift the card's clock under the cues); overruns are counted below.
    rec_t0=$(cut -d' ' -f1 /proc/uptime)
    nice -n -15 arecord -D hw:CARD=Loopback,DEV=1,SUBDEV=0 -f S16_LE -r 44100 -c 2 -t raw \
        --buffer-time=2000000 --period-time=50000 /root/rec.raw 2> /root/arecord.err &
    rec=$!
    sleep 1
    systemctl restart erabox
    inv=$(invocation)
    gongs3() { [ "$(box_output "$inv" | grep -c '"sound": "gong", "era": 3')" -ge 2 ]; }
    wait_quietly 115 gongs3  # the script ends 93 s after the box is ready (ERA at 70, 3 + 20 s)
    check eras_played $? "events: $(box_output "$inv" | grep -c '"sound": "gong"') gongs, $(box_output "$inv" | grep -c '"sound": "cry"') cries"
    sleep 3
    kill -INT "$rec"; wait "$rec"
    rec_t1=$(cut -d' ' -f1 /proc/uptime)
    overruns=$(grep -ci overrun /root/arecord.err)
    missing=$(python3 -c "print(round(($rec_t1 - $rec_t0) - $(stat -c %s /root/rec.raw) / 176400, 3))")
    [ "$overruns" = 0 ]
    check recording_complete $? "arecord overruns: $overruns; recorded $missing s less than it ran (start-up included) $(grep -i overrun /root/arecord.err | head -2 | tr '\n' ' ')"
    cp /root/rec.raw "$share/era.raw"
    box_output "$inv" > "$share/era-events.txt"
    figure era_recording_s "$(( $(stat -c %s /root/rec.raw) / 176400 ))"

    # SIGKILL mid-era: systemd restarts it, it comes back paused
    systemctl stop erabox
    rm -f /var/lib/erabox/state.json
    write_config 540 "180, 360" 3
    echo "1 era press" > "$script"
    systemctl start erabox
    inv=$(invocation)
    wait_for 180 box_says "$inv" '"state": "running"'
    sleep 5
    pid=$(main_pid)
    before=$(json_field /var/lib/erabox/state.json elapsed 2>/dev/null)
    t0=$(date +%s.%N)
    systemctl kill -s KILL erabox
    new_inv() { i=$(invocation); [ -n "$i" ] && [ "$i" != "$inv" ] && box_says "$i" '"state": "paused"'; }
    wait_for 180 new_inv
    rc=$?
    t1=$(date +%s.%N)
    inv2=$(invocation)
    paused=$(box_output "$inv2" | grep -m1 '"state": "paused"')
    [ "$rc" = 0 ] && [ "$(main_pid)" != "$pid" ] && box_says "$inv2" '"prompt": "resumed"'
    check kill_restarts_paused $? "restarts $(systemctl show -p NRestarts --value erabox); saved elapsed before kill $before; after: $paused"
    figure kill_to_paused_s "$(python3 -c "print(round($t1 - $t0, 1))") (SIGKILL to the box paused again, RestartSec=2 included)"

    # The hard resets: each boot resumes paused, then NEXT resumes the clock; reset at random
    echo "2 next press" > "$script"
    echo 0 > "$share/resets"
    : > "$share/resets.txt"
    systemctl restart erabox
    set_phase reset
    ;&

reset)
    n=$(cat "$share/resets")
    inv=$(invocation)
    if [ "$n" -gt 0 ]; then
        log "boot after hard reset $n"
        wait_for 180 box_says "$inv" '"prompt": "resumed"'
        rc=$?
        ok=1
        elapsed=$(json_field /var/lib/erabox/state.json elapsed 2>/dev/null)
        saved=$(cat "$share/reset-$n-saved" 2>/dev/null)
        paused=$(box_output "$inv" | grep -m1 '"state": "paused"')
        # resumed paused, from an intact state file, no earlier than the last save before the reset
        if [ "$rc" = 0 ] && [ -n "$paused" ] &&
            python3 -c 'import json,sys; json.load(open(sys.argv[1]))' /var/lib/erabox/state.json &&
            python3 -c 'import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]) > 0)' \
                "$elapsed" "$saved"; then
            ok=0
        fi
        check "hard_reset_$n" "$ok" "state file elapsed before reset $saved, after $elapsed; $paused"
        echo "$n saved=$saved after=$elapsed ok=$ok" >> "$share/resets.txt"
    fi
    if [ "$n" -ge "$resets_wanted" ]; then
        finish
    fi
    running() { box_output "$inv" | grep -q '"state": "running"'; }
    wait_for 180 running || log "the era did not resume after NEXT"
    # a random moment 0.5 .. 12.5 s after the era resumed: before, at or after a periodic save
    sleep "$(( RANDOM % 12 )).$(( RANDOM % 10 ))$(( RANDOM % 10 ))"
    n=$((n + 1))
    echo "$n" > "$share/resets"
    json_field /var/lib/erabox/state.json elapsed > "$share/reset-$n-saved" 2>/dev/null
    log "hard reset $n (sysrq b, no sync)"
    echo 1 > /proc/sys/kernel/sysrq
    echo b > /proc/sysrq-trigger
    ;;

done)
    finish
    ;;
esac

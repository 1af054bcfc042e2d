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
slow=1  # how much longer the waits for the box may take (4 on the emulated aarch64: run.sh)
era_wait=115  # seconds from the unit's start to the end of the eras, give or take (run.sh)
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

# wait_for SECONDS COMMAND...: run COMMAND four times a second until it succeeds (bounded; the
# bound times `slow`)
wait_for() {
    local limit=$(( $1 * slow )); shift
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
# era_sampler FILE: once a second, a line "uptime cpu_usage_usec mem_available_kB" (the unit's
# cgroup CPU time, the machine's MemAvailable), with shell builtins only: no new process while
# the eras play (see wait_quietly).
era_sampler() {
    local up rest key value cpu avail cg=/sys/fs/cgroup/system.slice/erabox.service
    exec 3<> /root/sampler.fifo
    while :; do
        read -r up rest < /proc/uptime
        cpu=-1 avail=-1
        while read -r key value; do
            [ "$key" = usage_usec ] && cpu=$value
        done < "$cg/cpu.stat"
        while read -r key value rest; do
            [ "$key" = MemAvailable: ] && avail=$value
        done < /proc/meminfo
        echo "$up $cpu $avail" >> "$1"
        read -r -t 1 -u 3 rest
    done
}
# The era's running time a state file holds (docs/state-file.md), from either record: the era
# engine's `elapsed`, or the round engine's seconds left of the era (`timer_left`) taken from
# the era's length, the config's `length_s` (None outside a running clock)
saved_elapsed() {  # saved_elapsed FILE
    python3 -c '
import json, re, sys
saved = json.load(open(sys.argv[1]))
if saved.get("kind") != "profile":
    print(saved.get("elapsed"))
    sys.exit()
length = float(re.search(r"^length_s = (\S+)", open(sys.argv[2]).read(), re.M).group(1))
left = saved.get("timer_left")
print(None if left is None else round(length - left, 3))' "$1" /etc/erabox/erabox.toml
}

# Before the README steps: the VM has no network, no apt cache and no package lists, so the
# Debian packages can only come from the wheelhouse's debs/. One with a dependency taken out
# must make install.sh stop before it changes anything, naming the package.
offline_really_offline() {
    local debs lists neg=/root/offline-neg wh=/root/offline-neg-wheelhouse rc before after left
    debs=$(find /var/cache/apt/archives -name '*.deb' | wc -l)
    lists=$(find /var/lib/apt/lists -name '*Packages*' | wc -l)
    [ "$debs" = 0 ] && [ "$lists" = 0 ]
    check no_apt_cache $? "$debs .deb files in apt's cache, $lists package lists; the wheelhouse has $(wc -l < "$share/wheelhouse/debs/packages.txt") Debian packages"
    git clone -q /mnt/share/erabox.git "$neg"
    mkdir -p "$wh/debs"
    ln -s "$share"/wheelhouse/debs/*.deb "$wh/debs/"
    rm -f "$wh"/debs/python3-pip-whl_*.deb
    grep -v '^python3-pip-whl ' "$share/wheelhouse/debs/packages.txt" > "$wh/debs/packages.txt"
    python3 -c 'import sys; print("\n\n".join(s for s in open(sys.argv[1]).read().split("\n\n")
                                          if not s.startswith("Package: python3-pip-whl\n")))' \
        "$share/wheelhouse/debs/Packages" > "$wh/debs/Packages"
    before=$(cat /var/lib/dpkg/status /etc/passwd /etc/group | md5sum)
    (cd "$neg" && ERABOX_WHEELHOUSE=$wh sh tools/install.sh) > "$share/offline-missing.log" 2>&1
    rc=$?
    after=$(cat /var/lib/dpkg/status /etc/passwd /etc/group | md5sum)
    left=$(ls -d /opt/erabox /etc/erabox /etc/systemd/system/erabox.service 2>/dev/null | tr '\n' ' ')
    [ "$rc" != 0 ] && [ "$before" = "$after" ] && [ -z "$left" ] &&
        grep -q 'python3-pip-whl' "$share/offline-missing.log"
    check offline_missing_package_stops $? "a wheelhouse without python3-pip-whl: install.sh exit $rc, dpkg status and users $([ "$before" = "$after" ] && echo unchanged || echo CHANGED), left behind: ${left:-nothing}; it says: $(grep -E 'python3-pip-whl|install.sh:' "$share/offline-missing.log" | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"
    rm -rf "$neg" "$wh"
}

# i2c_stub ADDRESS: (re)load the kernel's I2C stub with one chip at ADDRESS, give its
# /dev/i2c-N the i2c group as Raspberry Pi OS does, and point the config's display at it
i2c_bus=""
i2c_stub() {
    local d
    rmmod i2c-stub 2>/dev/null
    echo 'SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"' > /etc/udev/rules.d/60-i2c-group.rules
    udevadm control --reload
    modprobe i2c-stub chip_addr="$1"
    udevadm settle
    i2c_bus=""
    for d in /sys/class/i2c-dev/i2c-*; do
        grep -q "SMBus stub" "$d/name" 2>/dev/null && i2c_bus=$(basename "$d")
    done
    printf '[display]\ni2c_bus = %s\n' "${i2c_bus#i2c-}" >> /etc/erabox/erabox.toml
    log "i2c-stub: chip at $1 on /dev/$i2c_bus ($(stat -c '%U:%G %a' "/dev/$i2c_bus" 2>&1))"
}
# i2c_opened INVOCATION TEXT: the box has /dev/$i2c_bus open and logged TEXT (i2c_seen: what)
i2c_seen=""
i2c_opened() {
    local pid fd line
    wait_for 60 box_says "$1" "$2"
    pid=$(main_pid)
    fd=$(ls -l /proc/"$pid"/fd 2>/dev/null | grep -c "/dev/$i2c_bus")
    line=$(box_output "$1" | grep -m1 "$2" | sed 's/^.*WARNING //' | cut -c1-220)
    i2c_seen="the box (pid $pid) holds /dev/$i2c_bus open ($fd fd) and logged: ${line:-nothing}"
    [ "$fd" -ge 1 ] && [ -n "$line" ]
}

# The buttons as on a Pi: gpiozero on lgpio on a kernel GPIO chip, under the installed unit.
# A gpio-sim chip (the module is built with the image: build-gpio-sim.sh) whose lines 17, 27,
# 22, 23 stand for the Pi's GPIO of those numbers (NEXT, ERA, VOL+, VOL-) and line 24 for the
# cue LED; gpio_drive.py presses them through gpio-sim's `pull` attributes while the box runs
# with the unit's own GPIOZERO_PIN_FACTORY=lgpio, as the erabox user, in the unit's sandbox.
buttons_on_gpio_chip() {
    local t_gpio cfg dev chip chipdir inv bad saved=/root/systemtest.conf.mock
    t_gpio=$(date +%s)
    log "buttons on a kernel GPIO chip (gpio-sim) through lgpio"
    systemctl stop erabox
    # lgpio: the `pi` extra installs it on ARM only; the VM's wheelhouse has its x86_64 wheel
    /opt/erabox/.venv/bin/pip install -q --disable-pip-version-check lgpio \
        > "$share/lgpio-install.log" 2>&1
    check lgpio_installed $? "$(/opt/erabox/.venv/bin/pip list 2>/dev/null | grep -i '^lgpio ' | tr -s ' ')"
    modprobe gpio-sim
    check gpio_sim_module $? "vermagic $(modinfo -F vermagic gpio-sim 2>&1 | cut -d' ' -f1), loaded: $(lsmod | grep -E '^(gpio_sim|irq_sim)' | cut -d' ' -f1 | tr '\n' ' ')"
    # Raspberry Pi OS gives the gpio group the chips with a udev rule (raspberrypi-sys-mods);
    # Debian has none, so the VM gets the same rule.
    echo 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' \
        > /etc/udev/rules.d/60-gpio-group.rules
    udevadm control --reload
    cfg=/sys/kernel/config/gpio-sim/pi
    mkdir -p "$cfg/bank0"
    echo 28 > "$cfg/bank0/num_lines"
    echo pinctrl-bcm2835 > "$cfg/bank0/label"
    for line in 17:NEXT 27:ERA 22:VOLUP 23:VOLDOWN 24:LED; do
        mkdir -p "$cfg/bank0/line${line%%:*}"
        echo "GPIO${line%%:*}_${line#*:}" > "$cfg/bank0/line${line%%:*}/name"
    done
    echo 1 > "$cfg/live"
    udevadm settle
    dev=$(cat "$cfg/dev_name"); chip=$(cat "$cfg/bank0/chip_name")
    chipdir=/sys/devices/platform/$dev/$chip
    [ "$chip" = gpiochip0 ] && [ "$(stat -c %G "/dev/$chip")" = gpio ] && [ -d "$chipdir/sim_gpio17" ]
    check gpio_chip $? "$chip ($dev, $(cat "$cfg/bank0/num_lines") lines), /dev/$chip $(stat -c '%U:%G %a' "/dev/$chip")"
    # gpiozero asks the board's revision (/proc/device-tree, else /proc/cpuinfo) to map pins;
    # a PC has none, so the unit sees the VM's cpuinfo with a Pi Zero 2 W's revision line.
    { cat /proc/cpuinfo; printf 'Revision\t: 902120\nModel\t\t: Raspberry Pi Zero 2 W Rev 1.0\n'; } \
        > /etc/erabox/systemtest-cpuinfo
    cp "$dropin_dir/systemtest.conf" "$saved"
    cp /etc/erabox/erabox.toml /root/erabox.toml.era
    cat > "$dropin_dir/systemtest.conf" <<EOF
# erabox system test: the box's buttons on lgpio (the unit's own GPIOZERO_PIN_FACTORY) on the
# gpio-sim chip; a Pi's revision in cpuinfo for gpiozero's pin names; events in the journal
[Service]
Environment=AUDIODEV=plughw:CARD=Loopback,DEV=0,SUBDEV=0
BindReadOnlyPaths=/etc/erabox/systemtest-cpuinfo:/proc/cpuinfo
ExecStart=
ExecStart=/opt/erabox/.venv/bin/erabox run --config /etc/erabox/erabox.toml --events -
EOF
    systemctl daemon-reload
    # An I2C bus with a chip at the OLED's address 0x3C that cannot take its writes: i2c-stub
    # answers the probe (an SMBus quick write) but has no plain I2C transfer, so every write of
    # the SSD1306 driver fails (EOPNOTSUPP). The box must say so and keep playing.
    i2c_stub 0x3c
    rm -f /var/lib/erabox/state.json /var/lib/erabox/settings.json
    systemctl start erabox
    inv=$(invocation)
    wait_for 180 box_ready
    check gpio_box_ready $? "$(systemctl is-active erabox), as $(ps -o user= -p "$(main_pid)")"
    box_says "$inv" "pin factory LGPIOFactory"
    check buttons_on_lgpio $? "$(box_output "$inv" | grep -m1 -E 'pin factory|buttons' | sed 's/^.*INFO //' | cut -c1-200)"
    sleep 1
    python3 "$share/gpio_drive.py" drive "$chipdir" "$share/gpio.json" > "$share/gpio-drive.log" 2>&1
    check gpio_driver $? "$(tail -1 "$share/gpio-drive.log" | cut -c1-200)"
    sleep 1
    box_output "$inv" > "$share/gpio-events.txt"
    python3 "$share/gpio_drive.py" check "$share/gpio.json" "$share/gpio-events.txt" \
        > "$share/gpio-checks.txt" 2>&1 ||
        grep -q '^CHECK' "$share/gpio-checks.txt" ||
        echo "CHECK gpio_checks: FAIL $(tail -1 "$share/gpio-checks.txt")" >> "$share/gpio-checks.txt"
    cat "$share/gpio-checks.txt" >> "$results"
    while read -r line; do log "$line"; done < "$share/gpio-checks.txt"
    i2c_opened "$inv" "display: OLED at 0x3C on /dev/$i2c_bus failed"
    check i2c_unsupported_writes $? "$i2c_seen"
    bad=$(box_output "$inv" | grep -i -m1 -E 'Traceback|denied|EPERM|not permitted|lgpio.*error' | cut -c1-200)
    [ -z "$bad" ]; check gpio_no_errors $? "${bad:-no traceback, denial or lgpio error in the log of the box}"
    systemctl stop erabox
    cp "$saved" "$dropin_dir/systemtest.conf"
    cp /root/erabox.toml.era /etc/erabox/erabox.toml
    rmmod i2c-stub
    systemctl daemon-reload
    figure gpio_test_s "$(( $(date +%s) - t_gpio ))"
}

write_config() {  # write_config LENGTH_S "CUES" LEAD_IN_S
    cat > /etc/erabox/erabox.toml <<EOF
# erabox system test: short eras (the loopback card is AUDIODEV in the drop-in); two players,
# so that the points entry after an era takes 3 ERA presses (each player's era total, 0, and
# the standings)
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
    figure machine "$(uname -m), $(nproc) CPUs ($(grep -m1 -E '^(model name|CPU part)' /proc/cpuinfo | sed 's/.*: //')), $(awk '/^MemTotal/{print int($2/1024)}' /proc/meminfo) MiB"
    # The VM's stand-in for the package index: the wheelhouse `make wheelhouse` built on the host
    printf '[global]\nno-index = true\nfind-links = %s/wheelhouse\n' "$share" > /etc/pip.conf
    offline_really_offline
    start=$(date +%s)
    log "README steps:"; sed 's/^/    /' "$share/readme-steps.sh" | tee -a "$share/vm.log"
    (cd /root && bash -ex "$share/readme-steps.sh") > "$share/install.log" 2>&1
    rc=$?
    check readme_steps "$rc" "README 'On a Raspberry Pi' step 3 exit $rc in $(( $(date +%s) - start )) s (install.log)"
    figure install_s "$(( $(date +%s) - start )) (the README's steps, offline, from the clone to the unit started)"
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
Environment=GPIOZERO_PIN_FACTORY=mock
ExecStart=
ExecStart=/opt/erabox/.venv/bin/erabox run --config /etc/erabox/erabox.toml --script $script --events -
EOF
    systemctl daemon-reload
    if modinfo gpio-sim > /dev/null 2>&1; then
        buttons_on_gpio_chip
    else
        figure gpio_part "skipped: no gpio-sim module for kernel $(uname -r) (the amd64 run has it)"
    fi
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

    # Three short real-time eras (20 s, cries at 7 and 14 s, 3 s lead-in), each started by ERA,
    # from a new game (the GPIO chip's presses above left a game of their own: not this one's):
    # era I 1 s after the box came up (its setup screen), era II 1 s after its setup screen
    # opened, era III 10 s after. Between eras, 3 ERA presses 0.4 s apart confirm the points
    # entry (each player's era total, 0) and the standings; the first-game guide and the era's
    # preparation guide are skipped by the ERA press that starts the era. (`erabox simulate`
    # with this config and script gives the same states: setup 2 at 26.8 s, era II at 27.8 s,
    # setup 3 at 52.8 s, era III at 62.8 s.)
    systemctl stop erabox
    rm -f /var/lib/erabox/state.json /var/lib/erabox/settings.json
    {
        echo "1 era press"
        echo "26.0 era press"; echo "26.4 era press"; echo "26.8 era press"
        echo "27.8 era press"
        echo "52.0 era press"; echo "52.4 era press"; echo "52.8 era press"
        echo "62.8 era press"
    } > "$script"
    figure script "$(tr '\n' ';' < "$script")"
    rm -f /root/rec.raw /root/era-load.txt /root/sampler.fifo
    mkfifo /root/sampler.fifo
    # A large capture buffer and a high priority: on a starved VM arecord must not lose samples
    # (an overrun would shift the card's clock under the cues); overruns are counted below.
    rec_t0=$(cut -d' ' -f1 /proc/uptime)
    nice -n -15 arecord -D hw:CARD=Loopback,DEV=1,SUBDEV=0 -f S16_LE -r 44100 -c 2 -t raw \
        --buffer-time=2000000 --period-time=50000 /root/rec.raw 2> /root/arecord.err &
    rec=$!
    sleep 1
    systemctl start erabox
    inv=$(invocation)
    era_sampler /root/era-load.txt &
    sampler=$!
    gongs3() { [ "$(box_output "$inv" | grep -c '"sound": "gong", "era": 3')" -ge 2 ]; }
    # the last gong 86 s after the box is ready (ERA at 62.8, 3 + 20 s): era_wait (run.sh) adds
    # the box's start-up, longer on a slower machine
    wait_quietly "$era_wait" gongs3
    check eras_played $? "events: $(box_output "$inv" | grep -c '"sound": "gong"') gongs, $(box_output "$inv" | grep -c '"sound": "cry"') cries"
    sleep 3
    pid=$(main_pid)
    kill "$sampler"
    kill -INT "$rec"; wait "$rec"
    # the box's 'ready' (the load figures count from 1 s after it: the first ERA press)
    journalctl -q -o short-monotonic -u erabox _SYSTEMD_INVOCATION_ID="$inv" |
        grep -m1 ': ready$' | sed 's/^\[ *\([0-9.]*\)\].*/ready \1/' >> /root/era-load.txt
    # the box's peak resident memory (its own, and its cgroup's: page cache of the sounds too)
    echo "vmhwm_kB $(awk '/^VmHWM/{print $2}' /proc/"$pid"/status)" >> /root/era-load.txt
    echo "cgroup_peak_B $(cat /sys/fs/cgroup/system.slice/erabox.service/memory.peak 2>/dev/null || echo -1)" >> /root/era-load.txt
    echo "memtotal_kB $(awk '/^MemTotal/{print $2}' /proc/meminfo)" >> /root/era-load.txt
    cp /root/era-load.txt "$share/era-load.txt"
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
    # The I2C bus again, now with no chip at 0x3C or 0x3D: every probe is refused (NAK).
    # (Debian's arm64 kernel has no i2c-stub: there the box runs without a display bus.)
    stub=no
    modinfo i2c-stub > /dev/null 2>&1 && stub=yes && i2c_stub 0x50
    echo "1 era press" > "$script"
    systemctl start erabox
    inv=$(invocation)
    wait_for 180 box_says "$inv" '"state": "running"'
    if [ "$stub" = yes ]; then
        i2c_opened "$inv" "OLED not answering at 0x3C on /dev/$i2c_bus"
        check i2c_no_answer $? "$i2c_seen"
    else
        figure i2c_part "skipped: no i2c-stub module in kernel $(uname -r)"
    fi
    sleep 5
    pid=$(main_pid)
    before=$(saved_elapsed /var/lib/erabox/state.json 2>/dev/null)
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
        elapsed=$(saved_elapsed /var/lib/erabox/state.json 2>/dev/null)
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
    saved_elapsed /var/lib/erabox/state.json > "$share/reset-$n-saved" 2>/dev/null
    log "hard reset $n (sysrq b, no sync)"
    echo 1 > /proc/sys/kernel/sysrq
    echo b > /proc/sysrq-trigger
    ;;

done)
    finish
    ;;
esac

#!/usr/bin/env bash
# Whether saves of one month hold up reads of the others: a generated two-year store (24 month
# documents, RECORDS records a month) is mounted, and a reader opens and reads record files of ten
# other months in a loop, in rounds of SECONDS seconds: alone (idle), then while another process saves
# one record of records/2016/03 as fast as saves go, ROUNDS times each, alternating, after one
# discarded round; the medians are compared. Two modes:
#   - fsync and fdatasync of the mount slowed by DELAY_MS (100; an LD_PRELOAD shim, fsync-delay.c),
#     as on a busy, USB or network disk: a save then takes two delayed fsyncs (4-5 saves a second);
#   - no delay: saves as fast as this disk takes them.
# Prints, for each mode, the idle and the under-saves read rate, p99 and max latency, and whether the
# targets hold (delayed: no read of another month 60 ms or more, read rate at least 70% of idle;
# undelayed: p99 under saves within 3x of idle), and last the same reads and saves on plain files of
# the local disk (no mount): the floor this machine allows. Exits 0 whatever the verdict.
#
#   bench/saves-block-readers.sh [WORKDIR]     (default: /var/tmp/minutafs-saves-bench)
#
# Environment: MINUTAFS (the binary measured; default .build/debug/minutafs), MINUTAFS_BENCH (the
# generator; default .build/debug/minutafs-bench), RECORDS (300), SECONDS_PER_RUN (4),
# ROUNDS (3: idle and under-saves rounds alternate, medians compared), DELAY_MS (100).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-saves-bench}
bin=${MINUTAFS:-.build/debug/minutafs}
generator=${MINUTAFS_BENCH:-.build/debug/minutafs-bench}
records=${RECORDS:-300}
seconds=${SECONDS_PER_RUN:-4}
rounds=${ROUNDS:-3}
delay=${DELAY_MS:-100}
[ -x "$bin" ] && [ -x "$generator" ] || swift build
mkdir -p "$work"
store=$work/store-2-$records
copy=$work/run-store
mnt=$work/mnt
pid=
cleanup() {
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt" 2>/dev/null || true
    pid=
}
trap cleanup EXIT
cleanup
cc -O2 -shared -fPIC -o "$work/fsync-delay.so" bench/fsync-delay.c -ldl
cc -O2 -o "$work/read-under-saves" bench/read-under-saves.c
if [ ! -d "$store" ]; then
    echo "generating 2 years x 12 months x $records records in $store ..." >&2
    "$generator" store "$store" 2 "$records" >/dev/null
fi

# run DELAY_MS: mounts a fresh copy with fsync slowed by DELAY_MS, measures idle and under saves.
run() {
    local delay_ms=$1
    rm -rf "$copy" "$work/state" "$work/cache"
    cp -a "$store" "$copy"
    mkdir -p "$mnt"
    LD_PRELOAD=$work/fsync-delay.so FSYNC_DELAY_MS=$delay_ms XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache \
        "$bin" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/mount.log" &
    pid=$!
    until ls "$mnt/records" >/dev/null 2>&1 && grep -q " $mnt " /proc/self/mountinfo; do sleep 0.01; done
    : > "$work/list"
    for month in 2016/05 2016/07 2016/09 2016/11 2017/01 2017/03 2017/05 2017/07 2017/09 2017/11; do
        ls "$mnt/records/$month" | awk -v dir="$mnt/records/$month" '/\.json$/ && n++ < 20 { print dir "/" $0 }' >> "$work/list"
    done
    saved=$mnt/records/2016/03/$(ls "$mnt/records/2016/03" | awk '/\.json$/ && n++ < 1')
    xargs cat < "$work/list" > /dev/null  # every month loaded and rendered before the clock starts
    if [ "$delay_ms" -eq 0 ]; then
        # The same files as plain files on the local disk, for the floor: reads beside plain saves.
        rm -rf "$work/plain"
        mkdir -p "$work/plain"
        awk -v plain="$work/plain" '{ printf "%s\t%s/%d.json\n", $0, plain, NR }' "$work/list" > "$work/plain-map"
        while IFS="$(printf '\t')" read -r from to; do cp "$from" "$to"; done < "$work/plain-map"
        cut -f 2 "$work/plain-map" > "$work/plain-list"
        cp "$saved" "$work/plain/saved.json"
    fi
    # The read rate of one mount drifts by a third from one round of seconds to the next with no save
    # at all (23-37k reads a second here): idle and under-saves rounds alternate, ROUNDS of each, after
    # one discarded round, and the medians are compared.
    "$work/read-under-saves" read "$seconds" "$work/list" > /dev/null
    alternate "$work/list" "$saved"
    cleanup
    report "$delay_ms" "$idle" "$busy" "$saves"
}

# plain: the same reads and saves on plain files (no mount): what the machine itself allows.
plain() {
    alternate "$work/plain-list" "$work/plain/saved.json"
    report plain "$idle" "$busy" "$saves"
}

# alternate LIST SAVED: ROUNDS rounds of reading LIST alone, then while SAVED is saved as fast as it
# goes; sets idle, busy and saves to one line each: the median rate and p99, the largest max, and the
# median save rate over the rounds.
alternate() {
    local list=$1 saved=$2 round idle_lines="" busy_lines="" save_lines=""
    for round in $(seq "$rounds"); do
        idle_lines+="$("$work/read-under-saves" read "$seconds" "$list")"$'\n'
        "$work/read-under-saves" save "$((seconds + 1))" "$saved" 0 > "$work/saves" &
        local saver=$!
        sleep 0.5
        busy_lines+="$("$work/read-under-saves" read "$seconds" "$list")"$'\n'
        wait "$saver"
        save_lines+="$(cat "$work/saves")"$'\n'
    done
    idle=$(summary "$idle_lines"); busy=$(summary "$busy_lines")
    saves="rate $(median "$(values rate "$save_lines")")/s"
}

# values NAME LINES: the value after NAME on each line, one a line ("/s" dropped).
values() { awk -v name="$1" '{ for (i = 1; i < NF; i++) if ($i == name) { sub("/s", "", $(i + 1)); print $(i + 1) } }' <<< "$2"; }
median() { sort -g <<< "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# summary LINES: one reader line of the rounds: summed reads, median rate and p99, largest max.
summary() {
    echo "reads $(values reads "$1" | awk '{ s += $1 } END { print s }') rate $(median "$(values rate "$1")")/s p99 $(median "$(values p99 "$1")") max $(values max "$1" | sort -g | tail -n 1)"
}

# field NAME LINE: the value after NAME in a reader's line.
field() { awk -v name="$1" '{ for (i = 1; i < NF; i++) if ($i == name) { sub("/s", "", $(i + 1)); print $(i + 1) } }' <<< "$2"; }

report() {
    local delay_ms=$1 idle=$2 busy=$3 saves=$4
    local idle_reads idle_rate idle_p99 busy_reads busy_rate busy_p99 busy_max save_rate
    idle_reads=$(field reads "$idle"); idle_rate=$(field rate "$idle"); idle_p99=$(field p99 "$idle")
    busy_reads=$(field reads "$busy"); busy_rate=$(field rate "$busy"); busy_p99=$(field p99 "$busy"); busy_max=$(field max "$busy")
    save_rate=$(field rate "$saves")
    local label="fsync +$delay_ms ms"
    [ "$delay_ms" = plain ] && label="plain files, no mount"
    echo "$label, $save_rate saves/s: idle $idle_reads reads ($idle_rate/s, p99 $idle_p99 ms); under saves $busy_reads reads ($busy_rate/s, $(awk -v b="$busy_rate" -v i="$idle_rate" 'BEGIN { printf "%.0f", 100 * b / i }')% of idle), p99 $busy_p99 ms ($(awk -v b="$busy_p99" -v i="$idle_p99" 'BEGIN { printf "%.1f", b / i }')x idle), max $busy_max ms"
    if [ "$delay_ms" = plain ]; then
        return
    elif [ "$delay_ms" -gt 0 ]; then
        awk -v m="$busy_max" -v b="$busy_rate" -v i="$idle_rate" 'BEGIN {
            printf "  target (no read >= 60 ms, rate >= 70%% of idle): %s\n", (m < 60 && b >= 0.7 * i) ? "met" : "not met" }'
    else
        awk -v b="$busy_p99" -v i="$idle_p99" 'BEGIN {
            printf "  target (p99 under saves within 3x of idle): %s\n", (b <= 3 * i) ? "met" : "not met" }'
    fi
}

echo "saves of one month against reads of ten others: 2 years x $records records a month, medians of $rounds alternating rounds of ${seconds} s, $bin ($(date -u '+%F %H:%M UTC'), $(nproc) cores)"
run "$delay"
run 0
plain

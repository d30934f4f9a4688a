#!/usr/bin/env bash
# A save through the mount against the durable floor, and saves of two months in parallel with a slow
# fsync (issue 38). A generated two-year store (RECORDS records a month) is mounted from a fresh copy.
#   1. Save latency: N saves of one record file through the mount (open, write, close; close returns
#      once the save is durable), the record's comment alternating between two values, against N
#      durable plain-file saves of the same bytes on the same disk (temporary file, fsync, rename,
#      folder fsync), in rounds alternating plain and mount; prints p50 and p90 of each and the ratio
#      of the p50s (target: at most 1.5x). Beside them, in the same rounds, the same saves through
#      fuse-save-floor (fuse-save-floor.c): a FUSE server that only replies, except that each save
#      writes a document of the month document's size durably, as minutafs must (SPEC 5). That is the
#      fastest any FUSE save of this record can be here; what minutafs takes beyond it is its own work.
#      Then the CPU a save costs each: the plain saves' process, the FUSE floor's server, the mount.
#   2. A person's saves: PACED saves of each kind (plain, FUSE floor, mount), one at a time GAP seconds
#      apart, in turn, each from a new process (as `cp`, `sed -i` or a script saves): what one save costs
#      when the caches, the disk and the threads went idle since the last (the rounds above run saves
#      back to back). Prints p50 and p90 of each and the ratio of the p50s.
#   3. Parallel saves with fsync slowed by DELAY_MS (an LD_PRELOAD shim, fsync-delay.c): one process
#      saving a record of 2016/03 for SECONDS_PER_RUN seconds, then two processes saving records of
#      2016/03 and 2016/04 at once; prints the save counts and the speed-up of two months over one
#      (1.0x: one write lane for every month; 2.0x: a lane per month).
# Exits 0 whatever the numbers; exits 1 when a save fails.
#
#   bench/save-floor.sh [WORKDIR]     (default: /var/tmp/minutafs-save-floor)
#
# Environment: MINUTAFS (default .build/release/minutafs), MINUTAFS_BENCH (the store generator;
# default .build/release/minutafs-bench), RECORDS (300), SAVES (400 per round), ROUNDS (3),
# PACED (20 of each kind; 0 skips part 2), GAP (0.5), SECONDS_PER_RUN (6), DELAY_MS (100).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-save-floor}
bin=${MINUTAFS:-.build/release/minutafs}
generator=${MINUTAFS_BENCH:-.build/release/minutafs-bench}
records=${RECORDS:-300}
saves=${SAVES:-400}
rounds=${ROUNDS:-3}
paced=${PACED:-20}
gap=${GAP:-0.5}
seconds=${SECONDS_PER_RUN:-6}
delay=${DELAY_MS:-100}
if [ ! -x "$bin" ] || [ ! -x "$generator" ]; then
    swift build -c release --product minutafs
    swift build -c release --product minutafs-bench
fi
mkdir -p "$work"
store=$work/store-2-$records
copy=$work/run-store
mnt=$work/mnt
floor_mnt=$work/floor-mnt
pid=
floor_pid=
# shellcheck source=bench/stop-mount.sh
. bench/stop-mount.sh
cleanup() {
    stop_mount "$pid" "$mnt"
    pid=
    stop_mount "$floor_pid" "$floor_mnt"
    floor_pid=
}
trap cleanup EXIT
cleanup
cc -O2 -shared -fPIC -o "$work/fsync-delay.so" bench/fsync-delay.c -ldl
cc -O2 -o "$work/save-latency" bench/save-latency.c
cc -O2 -Wall $(pkg-config --cflags fuse3) -o "$work/fuse-save-floor" bench/fuse-save-floor.c $(pkg-config --libs fuse3)
if [ ! -d "$store" ]; then
    echo "generating 2 years x 12 months x $records records in $store ..." >&2
    "$generator" store "$store" 2 "$records" >/dev/null
fi

# mount DELAY_MS: a fresh copy of the store mounted with fsync slowed by DELAY_MS.
mount_copy() {
    rm -rf "$copy" "$work/state" "$work/cache"
    cp -a "$store" "$copy"
    mkdir -p "$mnt"
    LD_PRELOAD=$work/fsync-delay.so FSYNC_DELAY_MS=$1 XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache \
        "$bin" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/mount.log" &
    pid=$!
    until ls "$mnt/records" >/dev/null 2>&1 && grep -q " $mnt " /proc/self/mountinfo; do
        kill -0 "$pid" 2>/dev/null || { echo "the mount ended: $(cat "$work/mount.log")" >&2; exit 1; }
        sleep 0.01
    done
}

# variants MONTH NAME: prints the path of a record file of MONTH, and writes two versions of it
# (comments "save A" and "save B") to $work/NAME-a.json and $work/NAME-b.json.
variants() {
    local file
    file=$mnt/records/$1/$(ls "$mnt/records/$1" | awk '/\.json$/ && n++ < 1')
    jq '.comment = "save A"' "$file" > "$work/$2-a.json"
    jq '.comment = "save B"' "$file" > "$work/$2-b.json"
    echo "$file"
}

cpu_ticks() {  # cpu_ticks PID: the user and system CPU time of PID so far, in clock ticks
    sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12, $13 }'
}

percentile() {  # percentile P FILE: the P-th percentile of the numbers in FILE
    sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; printf "%.3f", v[i] }'
}

echo "save latency against the durable floor: 2 years x $records records a month, $rounds rounds of $saves saves, $bin ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
mount_copy 0
file=$(variants 2016/03 first)
mkdir -p "$work/plain"
plain=$work/plain/record.json
cp "$work/first-a.json" "$plain"
: > "$work/mount-ms"
: > "$work/plain-ms"
: > "$work/floor-ms"
# The FUSE floor: one file, each save writing a document the size of the month's.
document_bytes=$(stat -c %s "$copy/records/2016/03.automerge")
rm -rf "$work/floor-backing"
mkdir -p "$work/floor-backing" "$floor_mnt"
"$work/fuse-save-floor" "$work/floor-backing" "$document_bytes" "$floor_mnt" 2>"$work/floor.log" &
floor_pid=$!
until grep -q " $floor_mnt " /proc/self/mountinfo; do
    kill -0 "$floor_pid" 2>/dev/null || { echo "fuse-save-floor ended: $(cat "$work/floor.log")" >&2; exit 1; }
    sleep 0.01
done
floor_file=$floor_mnt/record.json
"$work/save-latency" mount "$file" "$work/first-a.json" "$work/first-b.json" 50 > /dev/null  # warm-up
"$work/save-latency" mount "$floor_file" "$work/first-a.json" "$work/first-b.json" 50 > /dev/null
# CPU the saves cost, in clock ticks: the plain saves' own process (bash's `time`), the FUSE floor's
# server and the mount (utime and stime of /proc/PID/stat, before and after their rounds).
plain_ticks=0
floor_ticks=0
mount_user=0
mount_system=0
ticks_per_second=$(getconf CLK_TCK)
TIMEFORMAT='%U %S'
for _ in $(seq "$rounds"); do
    { time "$work/save-latency" plain "$plain" "$work/first-a.json" "$work/first-b.json" "$saves" >> "$work/plain-ms"; } 2> "$work/plain-cpu"
    plain_ticks=$(awk -v t="$plain_ticks" -v hz="$ticks_per_second" '{ printf "%d", t + ($1 + $2) * hz }' "$work/plain-cpu")
    read -r floor_user floor_system < <(cpu_ticks "$floor_pid")
    "$work/save-latency" mount "$floor_file" "$work/first-a.json" "$work/first-b.json" "$saves" >> "$work/floor-ms"
    read -r user system < <(cpu_ticks "$floor_pid")
    floor_ticks=$((floor_ticks + user + system - floor_user - floor_system))
    read -r before_user before_system < <(cpu_ticks "$pid")
    "$work/save-latency" mount "$file" "$work/first-a.json" "$work/first-b.json" "$saves" >> "$work/mount-ms"
    read -r user system < <(cpu_ticks "$pid")
    mount_user=$((mount_user + user - before_user))
    mount_system=$((mount_system + system - before_system))
done

# A person's saves: one save of each kind in turn, GAP seconds apart, each by a new process; the contents
# alternate between the two versions from one turn to the next (a save of what the file holds already
# writes nothing through the mount).
: > "$work/paced-plain-ms"
: > "$work/paced-floor-ms"
: > "$work/paced-mount-ms"
# The first turn writes the version the record does not show now.
offset=0
if cmp -s "$file" "$work/first-b.json"; then offset=1; fi
for turn in $(seq "$paced"); do
    if [ $(((turn + offset) % 2)) = 0 ]; then this=$work/first-a.json; other=$work/first-b.json; else this=$work/first-b.json; other=$work/first-a.json; fi
    sleep "$gap"
    "$work/save-latency" plain "$plain" "$this" "$other" 1 >> "$work/paced-plain-ms"
    sleep "$gap"
    "$work/save-latency" mount "$floor_file" "$this" "$other" 1 >> "$work/paced-floor-ms"
    sleep "$gap"
    "$work/save-latency" mount "$file" "$this" "$other" 1 >> "$work/paced-mount-ms"
    cmp -s "$file" "$this" || { echo "the record does not show the save just made: $file" >&2; exit 1; }
done
cleanup
plain50=$(percentile 50 "$work/plain-ms")
floor50=$(percentile 50 "$work/floor-ms")
mount50=$(percentile 50 "$work/mount-ms")
echo "  durable plain-file save:  p50 $plain50 ms, p90 $(percentile 90 "$work/plain-ms") ms ($(wc -l < "$work/plain-ms") saves)"
echo "  FUSE floor ($document_bytes B document): p50 $floor50 ms, p90 $(percentile 90 "$work/floor-ms") ms ($(wc -l < "$work/floor-ms") saves)"
echo "  save through the mount:   p50 $mount50 ms, p90 $(percentile 90 "$work/mount-ms") ms ($(wc -l < "$work/mount-ms") saves)"
awk -v f="$floor50" -v p="$plain50" 'BEGIN { printf "  FUSE floor over plain: %.2fx (what any FUSE save writing this document takes here)\n", f / p }'
awk -v m="$mount50" -v f="$floor50" 'BEGIN { printf "  mount over FUSE floor: %.2fx (what minutafs adds)\n", m / f }'
awk -v m="$mount50" -v p="$plain50" 'BEGIN { r = m / p; printf "  ratio of the p50s: %.2fx (target: at most 1.5x): %s\n", r, (r <= 1.5 ? "met" : "not met") }'
awk -v n="$((saves * rounds))" -v hz="$ticks_per_second" -v p="$plain_ticks" -v f="$floor_ticks" -v u="$mount_user" -v s="$mount_system" 'BEGIN {
    us = 1e6 / hz / n
    printf "  CPU a save: plain %.0f us (its own process), FUSE floor server %.0f us, mount %.0f us (user %.0f, system %.0f)\n", p * us, f * us, (u + s) * us, u * us, s * us }'

if [ "$paced" -gt 0 ]; then
    paced_plain=$(percentile 50 "$work/paced-plain-ms")
    paced_floor=$(percentile 50 "$work/paced-floor-ms")
    paced_mount=$(percentile 50 "$work/paced-mount-ms")
    echo "a person's saves: $paced of each kind, one at a time, $gap s apart, each by a new process:"
    echo "  durable plain-file save:  p50 $paced_plain ms, p90 $(percentile 90 "$work/paced-plain-ms") ms"
    echo "  FUSE floor:               p50 $paced_floor ms, p90 $(percentile 90 "$work/paced-floor-ms") ms"
    echo "  save through the mount:   p50 $paced_mount ms, p90 $(percentile 90 "$work/paced-mount-ms") ms"
    awk -v m="$paced_mount" -v f="$paced_floor" -v p="$paced_plain" 'BEGIN {
        printf "  FUSE floor over plain: %.2fx; mount over FUSE floor: %.2fx; mount over plain: %.2fx\n", f / p, m / f, m / p }'
fi

echo "parallel saves with fsync slowed by $delay ms, $seconds s each:"
mount_copy "$delay"
first=$(variants 2016/03 first)
second=$(variants 2016/04 second)
one=$("$work/save-latency" loop "$first" "$work/first-a.json" "$work/first-b.json" "$seconds")
"$work/save-latency" loop "$first" "$work/first-a.json" "$work/first-b.json" "$seconds" > "$work/two-a" &
a=$!
"$work/save-latency" loop "$second" "$work/second-a.json" "$work/second-b.json" "$seconds" > "$work/two-b" &
b=$!
wait "$a"
wait "$b"
cleanup
two_a=$(cat "$work/two-a")
two_b=$(cat "$work/two-b")
echo "  one month alone: $one saves"
echo "  two months at once: $two_a + $two_b = $((two_a + two_b)) saves"
awk -v one="$one" -v two="$((two_a + two_b))" 'BEGIN { printf "  two months over one: %.2fx (a lane per month: about 2x)\n", two / one }'

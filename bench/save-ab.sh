#!/usr/bin/env bash
# Two builds of minutafs side by side: the save latency through the mount of each, in alternating runs,
# so that both see the same minutes of a noisy disk. Each run mounts a fresh copy of the generated
# two-year store (RECORDS records a month; the store bench/save-floor.sh uses), saves one record of
# 2016/03 WARM times to warm up, then SAVES times (open, write, close; close returns once the save is
# durable; the comment alternating between "save A" and "save B"), and prints the p50 and p90, and
# the mount's CPU time a save (user and system, from /proc/PID/stat), which moves less with the disk.
# Prints numbers, asserts nothing; exits 1 when a mount or a save fails.
#
#   bench/save-ab.sh BINARY_A BINARY_B [WORKDIR]   (default WORKDIR: /var/tmp/minutafs-save-floor)
#
# Environment: MINUTAFS_BENCH (the store generator; default .build/release/minutafs-bench),
# RECORDS (300), PAIRS (4), WARM (300), SAVES (1000).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: bench/save-ab.sh BINARY_A BINARY_B [WORKDIR]" >&2
    exit 2
fi
binaries=("$1" "$2")
work=${3:-/var/tmp/minutafs-save-floor}
generator=${MINUTAFS_BENCH:-.build/release/minutafs-bench}
records=${RECORDS:-300}
pairs=${PAIRS:-4}
warm=${WARM:-300}
saves=${SAVES:-1000}
for binary in "${binaries[@]}"; do
    [ -x "$binary" ] || { echo "not an executable: $binary" >&2; exit 2; }
done
[ -x "$generator" ] || swift build -c release --product minutafs-bench
mkdir -p "$work"
store=$work/store-2-$records
copy=$work/ab-store
mnt=$work/ab-mnt
pid=
# shellcheck source=bench/stop-mount.sh
. bench/stop-mount.sh
cleanup() { stop_mount "$pid" "$mnt"; pid=; }
trap cleanup EXIT
cleanup
cc -O2 -o "$work/save-latency" bench/save-latency.c
if [ ! -d "$store" ]; then
    echo "generating 2 years x $records records in $store ..." >&2
    "$generator" store "$store" 2 "$records" >/dev/null
fi

cpu_ticks() {  # cpu_ticks PID: the user and system CPU time of PID so far, in clock ticks
    sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12, $13 }'
}

percentile() {  # percentile P FILE: the P-th percentile of the numbers in FILE
    sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; printf "%.3f", v[i] }'
}

# run BINARY: one run of BINARY on a fresh copy; leaves "p50 X ms, p90 Y ms" in $result.
result=
run() {
    rm -rf "$copy" "$work/ab-state" "$work/ab-cache"
    cp -a "$store" "$copy"
    mkdir -p "$mnt"
    XDG_STATE_HOME=$work/ab-state XDG_CACHE_HOME=$work/ab-cache "$1" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/ab-mount.log" &
    pid=$!
    until ls "$mnt/records" >/dev/null 2>&1 && grep -q " $mnt " /proc/self/mountinfo; do
        kill -0 "$pid" 2>/dev/null || { echo "the mount ended: $(cat "$work/ab-mount.log")" >&2; exit 1; }
        sleep 0.01
    done
    local file
    file=$mnt/records/2016/03/$(ls "$mnt/records/2016/03" | awk '/\.json$/ && n++ < 1')
    jq '.comment = "save A"' "$file" > "$work/ab-a.json"
    jq '.comment = "save B"' "$file" > "$work/ab-b.json"
    "$work/save-latency" mount "$file" "$work/ab-a.json" "$work/ab-b.json" "$warm" > /dev/null
    local before after
    before=$(cpu_ticks "$pid")
    "$work/save-latency" mount "$file" "$work/ab-a.json" "$work/ab-b.json" "$saves" > "$work/ab-ms"
    after=$(cpu_ticks "$pid")
    cleanup
    result="p50 $(percentile 50 "$work/ab-ms") ms, p90 $(percentile 90 "$work/ab-ms") ms, CPU $(echo "$before $after" |
        awk -v n="$saves" -v hz="$(getconf CLK_TCK)" '{ us = 1e6 / hz / n; printf "user %.0f us, system %.0f us", ($3 - $1) * us, ($4 - $2) * us }')"
}

echo "two builds side by side: $pairs pairs of runs, $warm saves to warm up and $saves measured each ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores)"
echo "  A: ${binaries[0]}"
echo "  B: ${binaries[1]}"
for index in $(seq "$pairs"); do
    run "${binaries[0]}"
    first=$result
    run "${binaries[1]}"
    echo "  pair $index:"
    echo "    A: $first"
    echo "    B: $result"
done

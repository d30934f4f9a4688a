#!/usr/bin/env bash
# Whether first reads of different months hold each other up: a generated one-year store (RECORDS
# records a month) is mounted fresh, with an empty view cache, so each month's first listing loads and
# renders it. The first record of each of MONTHS months is read (`cat`, which looks the month up and
# renders its view) one month after the other, then, on another fresh mount, all at once (one `cat` a
# month, started together). Prints the two wall times and the speed-up of reading them at once: about
# 1.0x when renders of different months wait for each other (one lock around every render), up to the
# number of cores when they do not (each month rendered under its own lock). Give several binaries to
# compare them in one run, alternating (e.g. a release build of the commit before and of this one).
# Exits 0 whatever the numbers; exits 1 when a read fails.
#
#   bench/parallel-first-reads.sh BIN [BIN...]
#
# Environment: MINUTAFS_BENCH (the store generator; default .build/release/minutafs-bench), RECORDS
# (3000), MONTHS (2: this machine's cores), ROUNDS (3), WORKDIR (/var/tmp/minutafs-parallel-reads),
# SETTLE (seconds to wait after mounting before reading, 0: the mount's own start-up work, such as
# reading every month's record ids, then runs beside the reads).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 BIN [BIN...]" >&2; exit 2; }
generator=${MINUTAFS_BENCH:-.build/release/minutafs-bench}
records=${RECORDS:-3000}
months=${MONTHS:-2}
rounds=${ROUNDS:-3}
work=${WORKDIR:-/var/tmp/minutafs-parallel-reads}
settle=${SETTLE:-0}
store=$work/store-1-$records
mnt=$work/mnt
pid=
# shellcheck source=bench/stop-mount.sh
. bench/stop-mount.sh
cleanup() { stop_mount "$pid" "$mnt"; pid=; }
trap cleanup EXIT
mkdir -p "$work" "$mnt"
if [ ! -d "$store" ]; then
    echo "generating 1 year x 12 months x $records records in $store ..." >&2
    "$generator" store "$store" 1 "$records" >/dev/null
fi
mapfile -t folders < <(cd "$store" && ls -d records/*/*.automerge | sed "s/\.automerge$//" | awk -v n="$months" 'NR <= n')
[ "${#folders[@]}" -eq "$months" ] || { echo "the store has fewer than $months months" >&2; exit 1; }
# The first record file of each month, named as the mount shows it (a fresh mount, read once).
mount_fresh() {
    local bin=$1
    cleanup
    rm -rf "$work/copy" "$work/cache"
    cp -a "$store" "$work/copy"
    XDG_CACHE_HOME=$work/cache "$bin" mount -f --timezone UTC "$work/copy" "$mnt" 2>"$work/mount.log" & pid=$!
    until grep -q " $mnt " /proc/self/mountinfo && ls "$mnt/records" >/dev/null 2>&1; do
        kill -0 "$pid" 2>/dev/null || { echo "the mount ended: $(cat "$work/mount.log")" >&2; exit 1; }
        sleep 0.01
    done
    sleep "$settle"
}
mount_fresh "$1"
files=()
for folder in "${folders[@]}"; do
    first=$(ls "$mnt/$folder" | awk '/\.json$/ && !found { print; found = 1 }')
    [ -n "$first" ] || { echo "no record in $folder" >&2; exit 1; }
    files+=("$folder/$first")
done
cleanup
milliseconds() { echo $(( (${2/./} - ${1/./}) / 1000 )); }
printf 'first reads of %d months of %d records, one after the other and at once, %s UTC, %d cores\n' \
    "$months" "$records" "$(date -u '+%Y-%m-%d %H:%M')" "$(nproc)"
for round in $(seq "$rounds"); do
    for bin in "$@"; do
        mount_fresh "$bin"
        start=$EPOCHREALTIME
        for file in "${files[@]}"; do cat "$mnt/$file" >/dev/null; done
        serial=$(milliseconds "$start" "$EPOCHREALTIME")
        mount_fresh "$bin"
        start=$EPOCHREALTIME
        readers=()
        for file in "${files[@]}"; do cat "$mnt/$file" >/dev/null & readers+=($!); done
        for reader in "${readers[@]}"; do wait "$reader" || { echo "a read failed" >&2; exit 1; }; done
        together=$(milliseconds "$start" "$EPOCHREALTIME")
        cleanup
        awk -v r="$round" -v b="$bin" -v s="$serial" -v t="$together" \
            'BEGIN { printf "  round %d %s: one after the other %d ms, at once %d ms, speed-up %.2fx\n", r, b, s, t, s / t }'
    done
done

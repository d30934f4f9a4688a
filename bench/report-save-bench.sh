#!/usr/bin/env bash
# Save latency while reports are read (issue 26, SPEC section 9): one record of a big month saved
# over and over through the mount, first alone, then while another process reads the month's
# reports (MM.csv, MM-by-tag.csv, MM.svg) in a loop. Prints the save latency (median, p90, max) of
# both runs; asserts nothing. A report read may hold up a save only for as long as it takes to copy
# the month's view under the store's lock.
#
#   bench/report-save-bench.sh [WORKDIR]       (default: /var/tmp/minutafs-report-save)
#
# Environment: RECORDS (3000 a month), SAVES (300), MINUTAFS (default .build/release/minutafs),
# BENCH (default .build/release/minutafs-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-report-save}
records=${RECORDS:-3000}
saves=${SAVES:-300}
bin=${MINUTAFS:-.build/release/minutafs}
bench=${BENCH:-.build/release/minutafs-bench}
[ -x "$bin" ] && [ -x "$bench" ] || swift build -c release
mkdir -p "$work"
store=$work/store-$records
mnt=$work/mnt
copy=$work/copy
pid=
reader=
cleanup() {
    [ -n "$reader" ] && kill "$reader" 2>/dev/null || true
    fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt" 2>/dev/null || true
    [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
}
trap cleanup EXIT
cleanup
if [ ! -d "$store" ]; then
    echo "generating 1 year x 12 months x $records records in $store ..." >&2
    "$bench" store "$store" 1 "$records" >/dev/null
fi
rm -rf "$copy"
cp -a "$store" "$copy"
mkdir -p "$mnt"
"$bin" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/mount.log" &
pid=$!
until grep -q " $mnt " /proc/self/mountinfo && ls "$mnt/records" >/dev/null 2>&1; do sleep 0.01; done
months=("$mnt"/records/*/*/)
month=${months[0]%/}
year=$(basename "$(dirname "$month")")
name=$(basename "$month")
files=("$month"/*.json)
file=${files[0]}
echo "save latency, $records records in $year/$name, $saves saves of $(basename "$file") ($(date -u +%F), $(nproc) cores)"
save_run() {  # LABEL
    python3 - "$file" "$saves" "$1" <<'PY'
import json, statistics, sys, time
path, count, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
times = []
for index in range(count):
    record = json.load(open(path))
    record["comment"] = "save %d" % index
    data = json.dumps(record, indent=2).encode()
    start = time.perf_counter()
    with open(path, "wb") as handle:
        handle.write(data)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("%-28s median %6.1f ms   p90 %6.1f ms   max %6.1f ms" % (label, statistics.median(times), times[int(len(times) * 0.9)], times[-1]))
PY
}
ls "$month" >/dev/null
cat "$mnt/reports/$year/$name.csv" >/dev/null
save_run "saves alone"
( while true; do cat "$mnt/reports/$year/$name.csv" "$mnt/reports/$year/$name-by-tag.csv" "$mnt/reports/$year/$name.svg" >/dev/null 2>&1 || true; done ) &
reader=$!
sleep 0.5
save_run "saves while reports are read"
kill "$reader" 2>/dev/null || true
wait "$reader" 2>/dev/null || true
reader=

#!/usr/bin/env bash
# History benchmarks (issue 14, SPEC section 8) on the generated ten-year store of mount-bench.sh
# (120 month documents, 300 records a month), mounted by the release build. Prints figures; asserts
# nothing. Each figure that is compared with another is taken in the same run, in alternation.
#
#   bench/history-bench.sh [WORKDIR]        (default: /var/tmp/minutafs-bench)
#
# Environment: YEARS (10), RECORDS (300 a month), MINUTAFS (default .build/release/minutafs),
# MONTH (the month compared, default the store's sixth year, June), ROUNDS (3).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-bench}
years=${YEARS:-10}
records=${RECORDS:-300}
rounds=${ROUNDS:-3}
bin=${MINUTAFS:-.build/release/minutafs}
bench=.build/release/minutafs-bench
[ -x "$bin" ] && [ -x "$bench" ] || swift build -c release
mkdir -p "$work"
store=$work/store-$years-$records
mnt=$work/history-mnt
copy=$work/history-store
pid=
cleanup() {
    fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt" 2>/dev/null || true
    [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
}
trap cleanup EXIT
cleanup
if [ ! -d "$store" ]; then
    echo "generating $years years x 12 months x $records records in $store ..." >&2
    "$bench" store "$store" "$years" "$records" >/dev/null
fi
rm -rf "$copy"
cp -a "$store" "$copy"
mkdir -p "$mnt"
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
mount_fresh() {
    cleanup
    "$bin" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/history-mount.log" &
    pid=$!
    until grep -q " $mnt " /proc/self/mountinfo && ls "$mnt/records" >/dev/null 2>&1; do sleep 0.005; done
}
timed() {  # COMMAND...: milliseconds
    local start end
    start=$(now); "$@" >/dev/null 2>&1 || true; end=$(now)
    ms "$start" "$end"
}
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' /proc/$pid/status; }

years_list=("$copy"/records/*/)
year=$(basename "${years_list[$(( ${#years_list[@]} / 2 ))]}")
month=${MONTH:-$year/06}
echo "history benchmarks: $years years, $records records a month; month compared: $month ($(date -u +%F), $(nproc) cores)"

for round in $(seq "$rounds"); do
    mount_fresh
    cold=$(timed ls "$mnt/.minutafs/history")
    warm=$(timed ls "$mnt/.minutafs/history")
    days=$(ls "$mnt/.minutafs/history" | wc -l)
    echo "round $round: ls .minutafs/history: first $cold ms (every document's change times read), again $warm ms ($days days)"

    mount_fresh
    live=$(timed sh -c "cat '$mnt/records/$month'/*.json")
    mount_fresh
    past=$(timed sh -c "cat '$mnt/.minutafs/history/${month%/*}-${month#*/}-01T08:00Z/records/$month'/*.json")
    mount_fresh
    whole=$(timed sh -c "cat '$mnt/.minutafs/history/2999-01-01/records/$month'/*.json")
    partial=$(ls "$mnt/.minutafs/history/${month%/*}-${month#*/}-01T08:00Z/records/$month" | wc -l)
    echo "round $round: first read of $month: live $live ms; snapshot part-way (${month%/*}-${month#*/}-01T08:00Z, $partial files) $past ms; snapshot after every change $whole ms"
done

# Memory: the live figure (every record read), then 100 different snapshots opened (each day's month).
mount_fresh
find "$mnt/records" -name '*.json' -exec cat {} + >/dev/null
live_rss=$(rss)
mapfile -t days < <(ls "$mnt/.minutafs/history")
step=$(( ${#days[@]} / 100 )); [ "$step" -ge 1 ] || step=1
opened=0
start=$(now)
for (( i = 0; i < ${#days[@]} && opened < 100; i += step )); do
    day=${days[$i]}
    cat "$mnt/.minutafs/history/$day/records/${day:0:4}/${day:5:2}"/*.json >/dev/null 2>&1 || true
    opened=$((opened + 1))
done
end=$(now)
echo "resident size: after reading every live record $live_rss MB; after $opened different snapshots' months read $(rss) MB ($(ms "$start" "$end") ms for the $opened)"

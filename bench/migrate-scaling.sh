#!/usr/bin/env bash
# Migration against the size of a month: a legacy JSON month of N records (a generated month document
# exported with `minutafs export`), migrated with `minutafs migrate`; prints the wall time and peak
# memory for each N, and the time per record, so growth faster than N shows at once.
#
#   bash bench/migrate-scaling.sh [N ...]        default: 1000 10000 100000
#   MINUTAFS=.build/debug/minutafs MINUTAFS_BENCH=.build/debug/minutafs-bench bash bench/migrate-scaling.sh 1000
set -euo pipefail
cd "$(dirname "$0")/.."
minutafs=${MINUTAFS:-.build/release/minutafs}
bench=${MINUTAFS_BENCH:-.build/release/minutafs-bench}
for tool in "$minutafs" "$bench"; do
    [ -x "$tool" ] || { echo "migrate-scaling: $tool is not built (make build, or set MINUTAFS and MINUTAFS_BENCH)" >&2; exit 1; }
done
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-8s %10s %12s %14s\n' records seconds "peak MB" "µs per record"
for n in "${sizes[@]}"; do
    documents="$work/documents-$n"
    legacy="$work/legacy-$n"
    mkdir -p "$documents/records/2024"
    "$bench" generate "$n" "$documents/records/2024/03.automerge" > /dev/null
    "$minutafs" demo "$work/tags-$n" --now 2024-03-30T12:00:00Z --timezone UTC > /dev/null
    cp "$work/tags-$n/tags.automerge" "$documents/"
    "$minutafs" export "$documents" "$legacy" > /dev/null
    timing="$work/time-$n"
    /usr/bin/time -f '%e %M' -o "$timing" "$minutafs" migrate --timezone UTC "$legacy" > /dev/null 2>&1
    read -r seconds kilobytes < "$timing"
    migrated=$(find "$legacy/records" -name '*.json' | wc -l)
    awk -v n="$n" -v s="$seconds" -v k="$kilobytes" -v m="$migrated" \
        'BEGIN { printf "%-8d %10.2f %12.1f %14.1f   (%d record files)\n", n, s, k / 1024, s * 1e6 / n, m }'
    rm -rf "$documents" "$legacy" "$work/tags-$n"
done

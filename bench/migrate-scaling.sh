#!/usr/bin/env bash
# Migration against the size of a month: a legacy JSON store (seed 001's layout: tags.json and one
# records/2024/03/*.json file per record) with one month of N records, migrated with `minutafs migrate`;
# prints the wall time and peak memory for each N, and the time per record, so growth faster than N
# shows at once.
#
#   bash bench/migrate-scaling.sh [N ...]        default: 1000 10000 100000
#   MINUTAFS=.build/debug/minutafs bash bench/migrate-scaling.sh 1000
set -euo pipefail
cd "$(dirname "$0")/.."
minutafs=${MINUTAFS:-.build/release/minutafs}
[ -x "$minutafs" ] || { echo "migrate-scaling: $minutafs is not built (make build, or set MINUTAFS)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "migrate-scaling: needs python3 to write the legacy store" >&2; exit 1; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# N records of March 2024 (UTC), evenly spread, each 20 s long, with a tag and a comment.
write_legacy_month() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys, uuid
n, folder = int(sys.argv[1]), sys.argv[2]
tag = "737A74E5-F890-4FAF-AFCC-5252147FBC5B"
os.makedirs(folder + "/records/2024/03")
with open(folder + "/tags.json", "w") as f:
    json.dump({"tags": [{"id": tag, "name": "Work", "color": "#4A90D9", "createdAt": "2023-02-19T08:58:00Z",
                         "isArchived": False}]}, f, indent=2)
start, span = 1709251200, 31 * 86400 - 60  # 2024-03-01T00:00Z, the month less its last minute
for index in range(n):
    begin = start + index * span // n
    record = {"id": str(uuid.UUID(int=index + 1)).upper(), "startTime": f"{begin}", "endTime": f"{begin + 20}",
              "tagId": tag, "comment": f"record {index}", "images": []}
    for key in ("startTime", "endTime"):
        seconds = int(record[key])
        record[key] = __import__("datetime").datetime.fromtimestamp(seconds, __import__("datetime").timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    with open(f"{folder}/records/2024/03/{record['id']}.json", "w") as f:
        json.dump(record, f, indent=2)
PY
}

printf '%-8s %10s %12s %14s\n' records seconds "peak MB" "µs per record"
for n in "${sizes[@]}"; do
    legacy="$work/legacy-$n"
    write_legacy_month "$n" "$legacy"
    timing="$work/time-$n"
    /usr/bin/time -f '%e %M' -o "$timing" "$minutafs" migrate --timezone UTC "$legacy" > "$work/out-$n" 2>&1 \
        || { echo "migrate-scaling: minutafs migrate failed for $n records:" >&2; tail -5 "$work/out-$n" >&2; exit 1; }
    read -r seconds kilobytes < "$timing"
    [ -f "$legacy/records/2024/03.automerge" ] || { echo "migrate-scaling: no March document for $n records" >&2; exit 1; }
    awk -v n="$n" -v s="$seconds" -v k="$kilobytes" \
        'BEGIN { printf "%-8d %10.2f %12.1f %14.1f\n", n, s, k / 1024, s * 1e6 / n }'
    rm -rf "$legacy"
done

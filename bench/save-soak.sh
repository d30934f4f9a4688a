#!/usr/bin/env bash
# Save cost and memory of a long-running mount (issue 19): one record saved over and over through
# the mount with an ordinary open/write/close, the save latency and the mount's resident memory
# (VmRSS) printed at checkpoints, then the resident memory of a fresh mount of the same store after
# reading the same month. Then N records created in one month through the mount. Prints numbers;
# asserts nothing.
#
#   bench/save-soak.sh [WORKDIR]     (default: /var/tmp/minutafs-soak)
#
# Environment: SAVES (20000), CREATES (3000), MINUTAFS (default .build/release/minutafs),
# STORE (a store to copy; default: the demo store `minutafs demo` writes).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-soak}
saves=${SAVES:-20000}
creates=${CREATES:-3000}
bin=${MINUTAFS:-.build/release/minutafs}
[ -x "$bin" ] || swift build -c release --product minutafs
rm -rf "$work"
mkdir -p "$work/mnt"
if [ -n "${STORE:-}" ]; then cp -a "$STORE" "$work/store"; else "$bin" demo "$work/store" >/dev/null; fi
mnt=$work/mnt
cleanup() { fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt" 2>/dev/null || true; }
trap cleanup EXIT
export XDG_STATE_HOME=$work/state

mount_store() {
    "$bin" mount "$work/store" "$mnt" --timezone UTC >/dev/null
    pid=$(pgrep -n -f "minutafs mount .*$work/store")
}
rss() { awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$pid/status"; }

mount_store
month=$(ls -d "$mnt"/records/*/* | head -1)
file=$(ls "$month"/*.json | head -1)
echo "one record saved $saves times through the mount ($file)"
echo "saves     mean_ms_of_last_batch  mount_rss_mb  document_bytes"
python3 - "$file" "$saves" "$pid" "$work/store/records/$(basename "$(dirname "$month")")/$(basename "$month").automerge" <<'PY'
import json, sys, time, os
path, total, pid, document = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
record = json.load(open(path))
checkpoints = {100, 1000, 10000, 20000, 50000}
batch = []
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
for index in range(1, total + 1):
    record["comment"] = f"save {index}"
    started = time.perf_counter()
    with open(path, "w") as f:
        f.write(json.dumps(record, indent=2) + "\n")
    batch.append(time.perf_counter() - started)
    if len(batch) > 100: batch.pop(0)
    if index in checkpoints:
        print(f"{index:<9} {sum(batch) / len(batch) * 1000:<22.2f} {rss():<13} {os.path.getsize(document)}", flush=True)
PY
# The mount's periodic check (every 5 s) hands freed heap back to the system after saves.
sleep 6
live=$(rss)
cleanup
sleep 1
mount_store
cat "$month"/*.json > /dev/null
fresh=$(rss)
# The same fresh mount after one save of the record: the save path's code pages are resident too.
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["comment"] = "one more save"; open(sys.argv[1], "w").write(json.dumps(r, indent=2) + "\n")' "$file"
sleep 6
echo "resident memory: $live MB after $saves saves; a fresh mount after reading the same month: $fresh MB, and after one save: $(rss) MB"
cleanup
sleep 1

mount_store
mkdir -p "$mnt/records/2031/03"
echo "$creates records created in records/2031/03 through the mount"
python3 - "$mnt/records/2031/03" "$creates" <<'PY'
import json, sys, time
folder, total = sys.argv[1], int(sys.argv[2])
started = time.perf_counter()
batch_start = started
for index in range(total):
    start = 1930000000000 + index * 60000
    with open(f"{folder}/new-{index}.json", "w") as f:
        json.dump({"startTime": start, "endTime": start + 30000, "comment": f"record {index}", "images": []}, f)
    if (index + 1) % 500 == 0:
        now = time.perf_counter()
        print(f"creates {index - 498:>5}-{index + 1:>5}  mean_ms {(now - batch_start) / 500 * 1000:.2f}", flush=True)
        batch_start = now
print(f"{total} creates in {time.perf_counter() - started:.1f} s")
PY

#!/usr/bin/env bash
# `now` at file speed (issue 36, item 5): on a generated ten-year store (120 month documents, RECORDS
# records a month) with one running timer, the median wall time of
#   - `cat MNT/.minutafs/now.json` (the store mounted),
#   - `minutafs now` mounted (it reads .minutafs/now.txt) and unmounted (the running-timer index and the
#     months it names),
#   - `timew get dom.active.json` on a Timewarrior database given the same intervals,
# each run as a new process RUNS times, in one run of this script. Prints a table; asserts nothing but
# the exit status of every step.
#
#   bench/now-bench.sh [WORKDIR]        (default: /var/tmp/minutafs-now-bench)
#
# Environment: MINUTAFS (the binary; default the one `make install` installs: a release build with the
# Swift runtime linked in, .build/static/release/minutafs), MINUTAFS_BENCH (the store generator;
# default .build/release/minutafs-bench), RECORDS (300), RUNS (200), FUSEFLOOR (a built fusefloor, the
# minimal libfuse3 server that only replies: with it, a row times `cat` of now.json's bytes through
# it, in its open mode, the least any FUSE file that sees its opens can cost).
# Needs timewarrior (apt-get install -y timewarrior), python3 and fusermount3.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-now-bench}
records=${RECORDS:-300}
runs=${RUNS:-200}
bin=${MINUTAFS:-.build/static/release/minutafs}
bench=${MINUTAFS_BENCH:-.build/release/minutafs-bench}
if [ ! -x "$bin" ]; then swift build -c release --product minutafs --static-swift-stdlib --scratch-path .build/static; fi
if [ ! -x "$bench" ]; then swift build -c release --product minutafs-bench; fi
command -v timew >/dev/null || { echo "now-bench: timew not found (apt-get install -y timewarrior)" >&2; exit 1; }
mkdir -p "$work"
store=$work/store
mnt=$work/mnt
export XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache XDG_CONFIG_HOME=$work/config
export TIMEWARRIORDB=$work/timew
cleanup() { fusermount3 -u "$mnt" 2>/dev/null || true; }
trap cleanup EXIT
cleanup
if [ ! -d "$store" ]; then
    echo "generating 10 years x 12 months x $records records in $store ..." >&2
    "$bench" store "$store" 10 "$records" >/dev/null
    "$bin" start --comment "bench timer" --timezone UTC "$store" >/dev/null
fi
mkdir -p "$mnt"
"$bin" mount --timezone UTC "$store" "$mnt" >/dev/null

if [ ! -d "$TIMEWARRIORDB/data" ]; then
    echo "giving Timewarrior the same intervals ..." >&2
    mkdir -p "$TIMEWARRIORDB/data"
    : > "$TIMEWARRIORDB/timewarrior.cfg"
    # One line per record, in the data file of its start's month, as `timew track` writes them.
    python3 - "$mnt" "$TIMEWARRIORDB/data" <<'EOF'
import glob, json, os, sys
from datetime import datetime, timezone
mnt, data = sys.argv[1], sys.argv[2]
lines = {}
def stamp(text):
    moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
    return moment.strftime("%Y%m%dT%H%M%SZ"), moment.strftime("%Y-%m")
for path in glob.glob(mnt + "/records/*/*/*.json"):
    with open(path) as f:
        record = json.load(f)
    if "startTime" not in record:
        continue
    start, month = stamp(record["startTime"])
    tag = (record.get("tagId") or "untagged").replace('"', "")
    line = "inc " + start + ((" - " + stamp(record["endTime"])[0]) if record.get("endTime") else "") + ' # "' + tag + '"'
    lines.setdefault(month, []).append((start, line))
count = 0
for month, entries in lines.items():
    with open(os.path.join(data, month + ".data"), "w") as f:
        for _, line in sorted(entries):
            f.write(line + "\n")
            count += 1
print(count, "intervals", file=sys.stderr)
EOF
fi

# The same running timer on both sides.
timew get dom.active >/dev/null
[ "$(timew get dom.active)" = 1 ] || { echo "now-bench: timew sees no active interval" >&2; exit 1; }
[ -s "$mnt/.minutafs/now.json" ] || { echo "now-bench: now.json is empty" >&2; exit 1; }

floor=""
if [ -n "${FUSEFLOOR:-}" ]; then
    mkdir -p "$work/floor-source" "$work/floor"
    cp "$mnt/.minutafs/now.json" "$work/floor-source/now.json"
    fusermount3 -u "$work/floor" 2>/dev/null || true
    "$FUSEFLOOR" --mode open "$work/floor-source" "$work/floor" 2>"$work/floor.log" &
    floor_pid=$!
    trap 'cleanup; fusermount3 -u "$work/floor" 2>/dev/null || true; kill $floor_pid 2>/dev/null || true' EXIT
    for _ in $(seq 100); do mountpoint -q "$work/floor" && break; sleep 0.1; done
    mountpoint -q "$work/floor" || { cat "$work/floor.log" >&2; echo "now-bench: fusefloor did not mount" >&2; exit 1; }
    floor=$work/floor/now.json
fi

echo "minutafs: $bin ($(ldd "$bin" | grep -c libswift || true) libswift* libraries loaded: $(ldd "$bin" | grep -q libswiftCore && echo 'shared runtime' || echo 'runtime linked in'))"
echo "store: 10 years x 12 months x $records records, one timer running; median of $runs runs each, a new process every run"
python3 - "$runs" "$bin" "$mnt" "$store" "$floor" <<'EOF'
import statistics, subprocess, sys, time
runs, binary, mnt, store, floor = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
# Every command once per round, round after round: the machine's load falls on all of them alike.
def spawn(argv):
    begun = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit("now-bench: %s exited %d" % (" ".join(argv), done.returncode))
    return (time.perf_counter() - begun) * 1000
def read(path):
    begun = time.perf_counter()
    with open(path, "rb") as f:
        f.read()
    return (time.perf_counter() - begun) * 1000
def measure(rows):
    times = {name: [] for name, _ in rows}
    for _ in range(runs):
        for name, run in rows:
            times[name].append(run())
    return [(name, statistics.median(times[name])) for name, _ in rows]
timew = ("timew get dom.active.json", lambda: spawn(["timew", "get", "dom.active.json"]))
version = ("minutafs --version (process start)", lambda: spawn([binary, "--version"]))
mounted = measure([
    ("read of MNT/.minutafs/now.json (open, read, close; no new process)", lambda: read(mnt + "/.minutafs/now.json")),
    ("cat MNT/.minutafs/now.json", lambda: spawn(["cat", mnt + "/.minutafs/now.json"])),
    ("cat of a small file on the local disk (starting cat)", lambda: spawn(["cat", store + "/tags.automerge"])),
] + ([("cat of now.json's bytes through fusefloor --mode open (the floor)", lambda: spawn(["cat", floor]))] if floor else []) + [
    timew,
    ("minutafs now --json MNT (mounted)", lambda: spawn([binary, "now", "--json", mnt])),
    ("minutafs now MNT (mounted)", lambda: spawn([binary, "now", mnt])),
    version,
])
subprocess.run(["fusermount3", "-u", mnt], check=True)
unmounted = measure([
    timew,
    ("minutafs now STORE (unmounted)", lambda: spawn([binary, "now", "--timezone", "UTC", store])),
    ("minutafs now --json STORE (unmounted)", lambda: spawn([binary, "now", "--json", "--timezone", "UTC", store])),
    version,
])
for title, rows in (("store mounted", mounted), ("store not mounted", unmounted)):
    reference = dict(rows)["timew get dom.active.json"]
    print(title + ":")
    for name, ms in rows:
        print("  %-70s %8.2f ms  %5.1fx timew" % (name, ms, ms / reference))
EOF

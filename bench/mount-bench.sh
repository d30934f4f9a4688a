#!/usr/bin/env bash
# Mount benchmarks (issue 8): a generated ten-year store (120 month documents, 300 records a month,
# images), mounted by the release build; each command beside the same command over the same tree
# exported as plain files (`minutafs export`) on the local disk. Prints a table; asserts nothing.
#
#   bench/mount-bench.sh [WORKDIR]        (default: /var/tmp/minutafs-bench)
#
# Environment: YEARS (10), RECORDS (300 a month), EDITS (200 timed saves), MINUTAFS (the binary to
# measure; default .build/release/minutafs), RUNS (5 timed runs per warm figure of the floor table),
# FUSEFLOOR or FUSEFLOOR_SOURCE (optional; see below: a fusefloor binary or its C source, a minimal libfuse3 server that serves a folder
# from memory and does nothing per request but reply; the floor table then has it beside minutafs).
#
# The generated store is kept in WORKDIR; each run mounts a fresh copy of it, since the timed saves and
# the live merge change the store (a month edited 200 times more saves more slowly).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-bench}
years=${YEARS:-10}
records=${RECORDS:-300}
edits=${EDITS:-200}
bin=${MINUTAFS:-.build/release/minutafs}
bench=.build/release/minutafs-bench
[ -x "$bin" ] && [ -x "$bench" ] || swift build -c release
mkdir -p "$work"
store=$work/store-$years-$records
plain=$work/plain-$years-$records
mnt=$work/mnt
copy=$work/run-store
floor_mnt=$work/floor-mnt
floor_pid=
cleanup() {
    [ -n "$floor_pid" ] && kill -TERM "$floor_pid" 2>/dev/null && wait "$floor_pid" 2>/dev/null
    for m in "$mnt" "$floor_mnt"; do fusermount3 -u "$m" 2>/dev/null || fusermount3 -u -z "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
cleanup
if [ ! -d "$store" ]; then
    echo "generating $years years x 12 months x $records records in $store ..." >&2
    "$bench" store "$store" "$years" "$records" >/dev/null
fi
if [ ! -d "$plain" ]; then
    "$bin" export "$store" "$plain" --timezone UTC >/dev/null
fi
rm -rf "$copy"
cp -a "$store" "$copy"
mkdir -p "$mnt"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# time_cmd DIR COMMAND...: seconds a command takes in DIR
time_cmd() {
    local dir=$1; shift
    local start end
    start=$(now); (cd "$dir" && "$@") >/dev/null 2>&1 || true; end=$(now)
    seconds "$start" "$end"
}

files=$(find "$plain/records" -name '*.json' | wc -l)
echo "minutafs mount benchmarks: $years years, $records records a month, $files record files ($(date -u +%F), $(nproc) cores)"
# Every mount below starts with an empty view cache (a store never seen), except minutafs-cached.
rm -rf "$work/cache-main" "$work/cache-floor"
start=$(now)
XDG_CACHE_HOME=$work/cache-main "$bin" mount -f --timezone UTC "$copy" "$mnt" 2>"$work/mount.log" &
pid=$!
until ls "$mnt/records" >/dev/null 2>&1 && grep -q " $mnt " /proc/self/mountinfo; do sleep 0.005; done
first_ls=$(seconds "$start" "$(now)")
printf '%-34s %10s %10s %10s\n' "command" "mount (s)" "plain (s)" "ratio"
row() {
    local label=$1 m=$2 p=$3
    printf '%-34s %10s %10s %10s\n' "$label" "$m" "$p" "$(awk -v m="$m" -v p="$p" 'BEGIN { if (p > 0) printf "%.1fx", m / p; else print "-" }')"
}
row "mount until first ls" "$first_ls" "-"
cold_ls=$(time_cmd "$mnt" ls -R); plain_ls=$(time_cmd "$plain" ls -R)
row "ls -R (cold)" "$cold_ls" "$plain_ls"
cold_cat=$(time_cmd "$mnt" sh -c 'find records -name "*.json" -exec cat {} +'); plain_cat=$(time_cmd "$plain" sh -c 'find records -name "*.json" -exec cat {} +')
row "cat every record (cold)" "$cold_cat" "$plain_cat"
warm_cat=$(time_cmd "$mnt" sh -c 'find records -name "*.json" -exec cat {} +'); plain_cat2=$(time_cmd "$plain" sh -c 'find records -name "*.json" -exec cat {} +')
row "cat every record (warm)" "$warm_cat" "$plain_cat2"
warm_grep=$(time_cmd "$mnt" grep -r Zürich records); plain_grep=$(time_cmd "$plain" grep -r Zürich records)
row "grep -r Zürich (warm)" "$warm_grep" "$plain_grep"
warm_ls=$(time_cmd "$mnt" ls -R); plain_ls2=$(time_cmd "$plain" ls -R)
row "ls -R (warm)" "$warm_ls" "$plain_ls2"
warm_jq=$(time_cmd "$mnt" sh -c 'find records -name "*.json" -print0 | xargs -0 jq -r .id'); plain_jq=$(time_cmd "$plain" sh -c 'find records -name "*.json" -print0 | xargs -0 jq -r .id')
row "jq .id over every record (warm)" "$warm_jq" "$plain_jq"
rss=$(awk '/VmRSS/ { print $2 / 1024 }' /proc/$pid/status)
echo "resident size with the whole store loaded: ${rss} MB"

# Edits: write-and-close of one record (durable: the document is saved before close returns).
# (globs, not `ls | head`: with pipefail, a writer killed by SIGPIPE would end the script here)
months=("$mnt"/records/*/*); month=${months[0]}
month_files=("$month"/*.json); record=$(basename "${month_files[0]}")
python3 - "$month/$record" "$edits" <<'PY'
import sys, time, re, statistics
path, count = sys.argv[1], int(sys.argv[2])
original = open(path).read()
samples = []
for i in range(count):
    text = re.sub(r'"endTime": "[^"]*"', '"endTime": "2016-01-28T%02d:%02d:%02dZ"' % (i // 3600 % 24, i // 60 % 60, i % 60), original)
    start = time.perf_counter()
    with open(path, "w") as f:
        f.write(text)
    samples.append((time.perf_counter() - start) * 1000)
samples.sort()
print("record save (write + close, durable), %d saves in a month of the generated store: p50 %.2f ms, p99 %.2f ms" % (count, samples[len(samples) // 2], samples[int(len(samples) * 0.99) - 1]))
PY

# Live merge: another device's version lands as a conflict copy; how long until the mount shows it.
year=$(basename "$(dirname "$month")"); mm=$(basename "$month")
"$bench" diverge "$copy/records/$year/$mm.automerge" "$work/other.automerge" >/dev/null
python3 - "$work/other.automerge" "$copy/records/$year/$mm (Bob's conflicted copy 2024-01-15).automerge" "$month" <<'PY'
import sys, os, time, shutil, glob
source, copy, folder = sys.argv[1:]
start = time.perf_counter()
shutil.copy(source, copy)
while True:
    shown = any("2009-02-13T23:31:30.123Z" in open(p).read() for p in glob.glob(folder + "/*.json"))
    if shown and not os.path.exists(copy):
        break
    if time.perf_counter() - start > 30:
        print("live merge: not shown within 30 s"); sys.exit(0)
    time.sleep(0.005)
print("live merge (conflict copy lands -> merged content readable, copy gone): %.0f ms" % ((time.perf_counter() - start) * 1000))
PY
kill -TERM $pid; wait $pid || true

# Reads beside the FUSE floor (issue 16). The same commands on records/ (the same bytes everywhere) of
# plain files, fusefloor in open mode (one OPEN per open(2), as a file system that must see close()
# needs) and noopen mode (what a read-only mount can do) when FUSEFLOOR is set, minutafs, and minutafs
# -o ro. Each target is mounted fresh, one at a time; "first grep -r" is the first command after the
# mount (plain files: page cache warm), then each warm figure is the median of RUNS runs after one
# warming run. Times in seconds.
runs=${RUNS:-5}
# The floor: FUSEFLOOR (a fusefloor binary), else FUSEFLOOR_SOURCE (its fusefloor.c, built here), else a
# fusefloor on PATH; without any, the table has plain files and minutafs only.
floor=${FUSEFLOOR:-}
if [ -z "$floor" ] && [ -n "${FUSEFLOOR_SOURCE:-}" ]; then
    cc -O2 -o "$work/fusefloor" "$FUSEFLOOR_SOURCE" $(pkg-config --cflags --libs fuse3) && floor=$work/fusefloor
fi
[ -z "$floor" ] && floor=$(command -v fusefloor || true)
word=Zürich
op() {  # OP: run it in the current folder
    case $1 in
        grep) grep -r "$word" records >/dev/null || true ;;
        cat) find records -type f -exec cat {} + >/dev/null ;;
        ls) ls -R records >/dev/null ;;
    esac
}
time_op() {  # DIR OP: microseconds
    local s e
    s=$EPOCHREALTIME; (cd "$1" && op "$2"); e=$EPOCHREALTIME
    echo $(( ${e/./} - ${s/./} ))
}
warm() {  # DIR OP: median microseconds of RUNS runs after a warming run
    local i
    time_op "$1" "$2" >/dev/null
    for i in $(seq "$runs"); do time_op "$1" "$2"; done | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
declare -A result
targets=(plain)
[ -n "$floor" ] && targets+=(floor-open floor-noopen)
targets+=(minutafs minutafs-cached minutafs-ro)
mkdir -p "$floor_mnt"
for target in "${targets[@]}"; do
    dir=$floor_mnt
    case $target in
        plain) dir=$plain ;;
        floor-open|floor-noopen)
            "$floor" --mode "${target#floor-}" "$plain" "$floor_mnt" 2>"$work/$target.log" & floor_pid=$! ;;
        # minutafs: a store never seen (empty view cache); minutafs-cached: the same store mounted
        # again, its month views in the cache the first mount filled (issue 16).
        minutafs|minutafs-cached) XDG_CACHE_HOME=$work/cache-floor "$bin" mount -f --timezone UTC "$copy" "$floor_mnt" 2>"$work/$target.log" & floor_pid=$! ;;
        minutafs-ro) XDG_CACHE_HOME=$work/cache-ro "$bin" mount -f --timezone UTC -o ro "$copy" "$floor_mnt" 2>"$work/$target.log" & floor_pid=$! ;;
    esac
    if [ "$target" != plain ]; then
        for i in $(seq 600); do
            grep -q " $floor_mnt " /proc/self/mountinfo && [ -d "$floor_mnt/records" ] && break
            kill -0 "$floor_pid" 2>/dev/null || { cat "$work/$target.log" >&2; echo "$target did not mount" >&2; exit 1; }
            sleep 0.05
        done
    fi
    result[$target,first]=$(time_op "$dir" grep)
    [ "$target" = minutafs-cached ] || for o in grep cat ls; do result[$target,$o]=$(warm "$dir" "$o"); done
    if [ "$target" != plain ]; then
        kill -TERM "$floor_pid"; wait "$floor_pid" 2>/dev/null || true; floor_pid=
        fusermount3 -u "$floor_mnt" 2>/dev/null || true
    fi
done
echo
echo "reads beside the FUSE floor (records/, seconds; warm: median of $runs runs${floor:+; fusefloor $(basename "$floor")}):"
header="| command | plain"
[ -n "$floor" ] && header+=" | fusefloor open | fusefloor noopen"
header+=" | minutafs | minutafs -o ro | minutafs / plain"
[ -n "$floor" ] && header+=" | minutafs / fusefloor open"
header+=" | -o ro / plain"
[ -n "$floor" ] && header+=" | -o ro / fusefloor noopen"
echo "$header |"
echo "$header |" | sed 's/[^|]\+/---/g'
sec() { awk -v u="$1" 'BEGIN { printf "%.3f", u / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
for o in first grep cat ls; do
    case $o in
        first) label='first `grep -r` after mount (plain: page cache warm)' ;;
        grep) label='`grep -r` (warm)' ;;
        cat) label='`cat` of every file (warm)' ;;
        ls) label='`ls -R` (warm)' ;;
    esac
    line="| $label | $(sec "${result[plain,$o]}")"
    [ -n "$floor" ] && line+=" | $(sec "${result[floor-open,$o]}") | $(sec "${result[floor-noopen,$o]}")"
    line+=" | $(sec "${result[minutafs,$o]}") | $(sec "${result[minutafs-ro,$o]}") | $(ratio "${result[minutafs,$o]}" "${result[plain,$o]}")"
    [ -n "$floor" ] && line+=" | $(ratio "${result[minutafs,$o]}" "${result[floor-open,$o]}")"
    line+=" | $(ratio "${result[minutafs-ro,$o]}" "${result[plain,$o]}")"
    [ -n "$floor" ] && line+=" | $(ratio "${result[minutafs-ro,$o]}" "${result[floor-noopen,$o]}")"
    echo "$line |"
done
echo
line="first \`grep -r\` after a remount of the same store, month views in the cache: $(sec "${result[minutafs-cached,first]}") s"
line+=" (a store never seen: $(sec "${result[minutafs,first]}") s"
[ -n "$floor" ] && line+="; $(ratio "${result[minutafs-cached,first]}" "${result[floor-open,first]}") fusefloor open's first"
echo "$line)"

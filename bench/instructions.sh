#!/usr/bin/env bash
# Instructions the engine executes for one load (or save) of a document, counted by valgrind's
# callgrind: a figure that does not move with the machine's load, for telling whether a change to
# the engine made it do less. (Time still decides: an instruction that misses the cache costs more
# than one that does not. `bench/engine-ratio.sh` gives the time beside the reference.)
#
# The count is the difference between N2 and N1 in-process runs, divided by N2 - N1, so that the
# process's start and the bench's own set-up cancel out. Swift seeds its hash tables per process,
# so two runs of one build differ by about 0.5 %: compare builds in alternation, twice.
#
#   bench/instructions.sh [load|save] DOCUMENT [BENCH...]
#       (BENCH: minutafs-bench binaries to compare; default .build/release/minutafs-bench;
#        N1=20 and N2=100 unless set)
#   bench/instructions.sh edits STORE [BENCH...]
#       one save of a record through the store (`minutafs-bench edits`: parse, diff, edit, encode,
#       durable write, render), from save N1 to save N2 (N1=200 and N2=1200 unless set), each count
#       on a fresh copy of STORE (a folder `minutafs-bench store` wrote)
#
# Prints numbers, asserts nothing; without valgrind it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind > /dev/null; then
    echo "instructions: valgrind is not installed (apt-get install valgrind); skipped"
    exit 0
fi
operation=load
if [ "${1:-}" = load ] || [ "${1:-}" = save ] || [ "${1:-}" = edits ]; then operation=$1; shift; fi
if [ $# -lt 1 ]; then
    echo "usage: bench/instructions.sh [load|save] DOCUMENT [BENCH...] | edits STORE [BENCH...]" >&2
    exit 2
fi
document=$1; shift
[ $# -gt 0 ] || set -- .build/release/minutafs-bench
if [ "$operation" = edits ]; then
    [ -d "$document" ] || { echo "instructions: not a store folder: $document" >&2; exit 2; }
    first=${N1:-200}
    second=${N2:-1200}
else
    first=${N1:-20}
    second=${N2:-100}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions valgrind counted for `bench OPERATION DOCUMENT RUNS`.
count() {
    local output target=$document
    if [ "$operation" = edits ]; then
        # Every count saves into a fresh copy: saves change the store.
        rm -rf "$work/store"
        cp -a "$document" "$work/store"
        target=$work/store
    fi
    output=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$operation" "$target" "$2" 2>&1) || {
        echo "instructions: $1 $operation $document $2 failed:" >&2
        echo "$output" >&2
        exit 1
    }
    local collected
    collected=$(echo "$output" | sed -n 's/.*Collected : //p')
    if [ -z "$collected" ]; then
        echo "instructions: valgrind printed no count for $1" >&2
        exit 1
    fi
    echo "$collected"
}

for bench in "$@"; do
    # Valgrind 3.19 cannot read the DWARF 5 that Swift writes: count a copy without it.
    stripped="$work/$(basename "$bench")"
    strip --strip-debug -o "$stripped" "$bench"
    low=$(count "$stripped" "$first")
    high=$(count "$stripped" "$second")
    echo "$bench $operation $(basename "$document"): $(( (high - low) / (second - first) )) instructions"
done

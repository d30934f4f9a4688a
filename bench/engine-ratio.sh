#!/usr/bin/env bash
# The engine beside the reference, side by side in one run: for each document, ROUNDS rounds of
# (reference load, our load, reference save, our save), each the median of N in-process runs; the
# table gives the median of those medians and our time as a fraction of the reference's.
# Prints numbers, asserts nothing. The reference is the `amref` command (its `bench-load FILE N` and
# `bench-save FILE N`): AMREF=/path/to/amref, else `amref` on PATH; without it, the script says so
# and exits 0.
#
#   bench/engine-ratio.sh [DOCUMENT...]   (default: fixtures and generated months of 1,000 and 5,000
#                                          records; ROUNDS=5, N=30, BENCH=.build/release/minutafs-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
amref=${AMREF:-$(command -v amref || true)}
if [ -z "$amref" ] || [ ! -x "$amref" ]; then
    echo "engine ratio: no reference (set AMREF to an amref binary or put amref on PATH); skipped"
    exit 0
fi
bench=${BENCH:-.build/release/minutafs-bench}
rounds=${ROUNDS:-5}
runs=${N:-30}
work=${WORK:-/var/tmp/minutafs-engine-ratio}
mkdir -p "$work"
if [ $# -eq 0 ]; then
    fixtures=Tests/Fixtures/automerge
    for records in 1000 5000; do
        [ -s "$work/month-$records.automerge" ] || "$bench" generate "$records" "$work/month-$records.automerge"
    done
    set -- "$fixtures/minuta-month.automerge" "$fixtures/big-text.automerge" "$fixtures/large-month-1k.automerge" \
        "$fixtures/large-month-5k.automerge" "$work/month-1000.automerge" "$work/month-5000.automerge"
fi
median_of() { sed -n 's/^median_us[: =]*//p' | head -n 1; }
middle() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "engine beside the reference ($(basename "$amref")), median of $rounds rounds of median-of-$runs, microseconds"
printf '| %-26s | %9s | %9s | %9s | %5s | %9s | %9s | %5s |\n' document bytes "ref load" "our load" ratio "ref save" "our save" ratio
echo "|---|---|---|---|---|---|---|---|"
for file in "$@"; do
    refLoad=""; ourLoad=""; refSave=""; ourSave=""
    for _ in $(seq "$rounds"); do
        refLoad+=" $("$amref" bench-load "$file" "$runs" | median_of)"
        ourLoad+=" $("$bench" load "$file" "$runs" | median_of)"
        refSave+=" $("$amref" bench-save "$file" "$runs" | median_of)"
        ourSave+=" $("$bench" save "$file" "$runs" | median_of)"
    done
    rl=$(echo "$refLoad" | middle); ol=$(echo "$ourLoad" | middle)
    rs=$(echo "$refSave" | middle); os=$(echo "$ourSave" | middle)
    printf '| %-26s | %9s | %9s | %9s | %5.2f | %9s | %9s | %5.2f |\n' "$(basename "$file" .automerge)" "$(wc -c < "$file")" \
        "$rl" "$ol" "$(echo "$ol / $rl" | bc -l)" "$rs" "$os" "$(echo "$os / $rs" | bc -l)"
done

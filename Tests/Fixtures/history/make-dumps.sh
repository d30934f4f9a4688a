#!/bin/sh
# Writes NAME.at for every NAME.changes fixture in ../automerge: one line per change, the change's
# hash, a tab, and the reference's typed JSON of the document at that single head
# (`amref dump --at HASH`). large-month-1k has 1937 changes of up to 160 kB each: only every 97th
# change and its last are dumped there. Run once by hand; the tests read the files, never amref.
# Usage: AMREF=/path/to/amref sh make-dumps.sh
set -eu
: "${AMREF:?set AMREF to the reference tool (amref dump --at HEADS FILE)}"
here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/../automerge"
for changes in "$fixtures"/*.changes; do
    name=$(basename "$changes" .changes)
    document="$fixtures/$name.automerge"
    total=$(wc -l < "$changes")
    out="$here/$name.at"
    : > "$out"
    line=0
    while read -r hash _; do
        line=$((line + 1))
        if [ "$name" = large-month-1k ] && [ $((line % 97)) -ne 1 ] && [ "$line" -ne "$total" ]; then continue; fi
        printf '%s\t%s\n' "$hash" "$("$AMREF" dump --at "$hash" "$document")" >> "$out"
    done < "$changes"
done

#!/bin/sh
# minutafs sync against rsync and against a file-sync tool, on a generated ten-year store:
#
#   bench/sync-bench.sh [MINUTAFS] [MINUTAFS_BENCH] [WORK]
#
# Makes a store (minutafs-bench store WORK/base 10 300), copies it to two sides A and B, syncs them
# once (the sync states), then for 1 and for 100 edits on each side (`minutafs start --keep`: a new
# record; A and B edit some of the same months) measures:
#   minutafs sync A B                 bytes both ways (its report), wall time
#   rsync -a A/ B/ and B/ A/          bytes both ways over a pipe as over ssh (--stats), wall time;
#                                     it copies whole newer files over older ones, so an edit made
#                                     on both sides of one month is lost (said in the output)
#   a file-sync tool                  every changed document uploaded whole once and downloaded once;
#                                     a document changed on both sides also as a conflict copy
# Prints a table; every command's exit status is checked.
set -eu
MINUTAFS=${1:-.build/release/minutafs}
BENCH=${2:-.build/debug/minutafs-bench}
WORK=${3:-/var/tmp/minutafs-sync-bench}
case $MINUTAFS in /*) ;; *) MINUTAFS=$PWD/$MINUTAFS ;; esac
export XDG_STATE_HOME="$WORK/state"
now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
if [ ! -d "$WORK/base" ]; then
    mkdir -p "$WORK"
    "$BENCH" store "$WORK/base" 10 300 > /dev/null
fi
# rsync's remote shell: runs the command here ("host" dropped), so rsync speaks its protocol over a
# pipe, delta transfer included, as over ssh.
cat > "$WORK/local-shell" <<'SHELL'
#!/bin/sh
shift
exec "$@"
SHELL
chmod +x "$WORK/local-shell"

sizes() { # the sizes of the documents that differ between two trees, one per line
    (cd "$1" && find . -name '*.automerge' -type f | sort) | while read -r f; do
        if ! cmp -s "$1/$f" "$2/$f" 2>/dev/null; then stat -c %s "$1/$f"; fi
    done
}

edit() { # SIDE COUNT FIRST-YEAR: COUNT new records, in months of years FIRST-YEAR.. (10 per month)
    i=0
    while [ "$i" -lt "$2" ]; do
        year=$(( $3 + (i / 10) % 3 )); month=$(( 1 + (i / 10) % 12 )); day=$(( 1 + i % 10 ))
        at=$(printf '%04d-%02d-%02dT%02d:%02d' "$year" "$month" "$day" $(( 6 + i % 12 )) $(( i % 60 )))
        "$MINUTAFS" start --keep --comment "bench edit $i" --at "$at" "$1" > /dev/null
        i=$((i + 1))
    done
}

run() { # EDITS
    rm -rf "$WORK/A" "$WORK/B" "$WORK/state"
    cp -a "$WORK/base" "$WORK/A"
    cp -a "$WORK/base" "$WORK/B"
    start=$(now); "$MINUTAFS" sync "$WORK/A" "$WORK/B" > "$WORK/first.txt"; end=$(now)
    first_time=$(elapsed "$start" "$end")
    first_bytes=$(sed -n 's/.* \([0-9]*\) bytes sent, \([0-9]*\) bytes received/\1 + \2/p' "$WORK/first.txt" | tail -1)
    first_bytes=$(echo "$first_bytes" | awk '{ print $1 + $3 }')
    base_year=$(ls "$WORK/A/records" | sort | sed -n 3p)
    other_year=$(ls "$WORK/A/records" | sort | sed -n 4p)
    edit "$WORK/A" "$1" "$base_year"
    # One edit: another month than A's; a hundred: the months A edits too, each changed on both sides.
    if [ "$1" -gt 1 ]; then edit "$WORK/B" "$1" "$base_year"; else edit "$WORK/B" "$1" "$other_year"; fi
    # What a file-sync tool moves: each changed document up once and down once; one changed on
    # both sides twice more (the other side's version comes down as a conflict copy, and the merge
    # goes up again).
    cp -a "$WORK/A" "$WORK/A0"; cp -a "$WORK/B" "$WORK/B0"
    file_tool=$( { sizes "$WORK/A" "$WORK/base"; sizes "$WORK/B" "$WORK/base"; } | awk '{ n += 2 * $1 } END { print n + 0 }')
    both=$( (cd "$WORK/A" && find . -name '*.automerge' -type f) | while read -r f; do
        if ! cmp -s "$WORK/A/$f" "$WORK/base/$f" && ! cmp -s "$WORK/B/$f" "$WORK/base/$f"; then echo "$f"; fi; done | wc -l)
    both_bytes=$( (cd "$WORK/A" && find . -name '*.automerge' -type f) | while read -r f; do
        if ! cmp -s "$WORK/A/$f" "$WORK/base/$f" && ! cmp -s "$WORK/B/$f" "$WORK/base/$f"; then stat -c %s "$WORK/A/$f"; fi; done | awk '{ n += 2 * $1 } END { print n + 0 }')
    file_tool=$((file_tool + both_bytes))
    start=$(now); "$MINUTAFS" sync "$WORK/A" "$WORK/B" > "$WORK/sync.txt"; end=$(now)
    sync_time=$(elapsed "$start" "$end")
    sync_bytes=$(sed -n 's/.* \([0-9]*\) bytes sent, \([0-9]*\) bytes received/\1 \2/p' "$WORK/sync.txt" | awk '{ print $1 + $2 }')
    round_trips=$(sed -n 's/^\([0-9]*\) round trips.*/\1/p' "$WORK/sync.txt")
    # rsync both ways from the edited copies (A0, B0), over a pipe.
    start=$(now)
    ab=$(rsync -a --stats -e "$WORK/local-shell" "$WORK/A0/" "host:$WORK/B0/" | awk -F': ' '/^Total bytes (sent|received)/ { gsub(",", "", $2); n += $2 } END { print n }')
    ba=$(rsync -a --stats -e "$WORK/local-shell" "$WORK/B0/" "host:$WORK/A0/" | awk -F': ' '/^Total bytes (sent|received)/ { gsub(",", "", $2); n += $2 } END { print n }')
    end=$(now)
    rsync_time=$(elapsed "$start" "$end")
    rm -rf "$WORK/A0" "$WORK/B0"
    echo "| $1 on each side | $sync_bytes bytes, $round_trips round trips, ${sync_time}s | $((ab + ba)) bytes, ${rsync_time}s (loses edits: $both months changed on both sides) | $file_tool bytes ($both conflict copies) | first sync of identical stores: $first_bytes bytes, ${first_time}s |"
    sed 's/^/    /' "$WORK/sync.txt" >&2
}

echo "| edits | minutafs sync | rsync -a, both ways | file-sync tool | |"
echo "|---|---|---|---|---|"
run 1
run 100

#!/usr/bin/env bash
# Where a save through the mount spends its time, phase by phase: a copy of the sources at HEAD with
# `bench/save-phases.patch` applied (monotonic clock marks along the save, never in the sources
# themselves) is built in WORKDIR, a copy of the bench store is mounted with it, and
#   - PACED saves of one record, GAP seconds apart, each by a new process (a person's saves: caches,
#     disk and threads idle since the last), then
#   - LOOPED saves back to back (`bench/save-floor.sh`'s rounds),
# and the median microseconds of each phase are printed for both, in the order a save runs them:
#   flush            the kernel's FLUSH (the program's close) reached the mount's thread
#   store            the tree handed the save to the store
#   on-writer        a writer thread took it (the hand-off; writers run at a lower priority)
#   parsed           the JSON parsed
#   checked-out      the month's document taken out of the registry
#   edited           the record's fields diffed and applied as operations
#   committed        the change committed and checks of the file before writing
#   temporary-written-and-fsynced   the document's bytes in a new temporary file, fsynced
#   exchanged        renameat2(RENAME_EXCHANGE) with the document file
#   folder-fsynced   the folder fsynced (the save is durable)
#   old-version-removed   the swapped-out version unlinked
#   checked-in       the document back in the registry, its view rendered
#   answered         the tree's notices sent, the FLUSH answered
#
#   bench/save-phases.sh [WORKDIR]     (default: /var/tmp/minutafs-save-phases)
#
# Environment: REVISIONS (the commits to measure, HEAD by default; several are each built once and
# then measured in turn, ROUNDS times, so the disk's drift falls on all of them alike), ROUNDS (1),
# STORE (a store `minutafs-bench store` wrote; default: the one bench/save-floor.sh generates, made if
# missing), PACED (12), GAP (1), LOOPED (200). The first build takes several minutes; later ones
# rebuild only what changed. Prints numbers, asserts nothing; exits 1 when the patch does not apply to
# a revision or a save fails.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/var/tmp/minutafs-save-phases}
paced=${PACED:-12}
gap=${GAP:-1}
looped=${LOOPED:-200}
read -r -a revisions <<< "${REVISIONS:-HEAD}"
rounds=${ROUNDS:-1}
store=${STORE:-/var/tmp/minutafs-save-floor/store-2-300}
mkdir -p "$work"
tree=$work/sources
mnt=$work/mnt
pid=
# shellcheck source=bench/stop-mount.sh
. bench/stop-mount.sh
cleanup() { stop_mount "$pid" "$mnt"; pid=; }
trap cleanup EXIT

if [ ! -d "$store" ]; then
    swift build -c release --product minutafs-bench
    echo "generating 2 years x 12 months x 300 records in $store ..." >&2
    mkdir -p "$(dirname "$store")"
    .build/release/minutafs-bench store "$store" 2 300 > /dev/null
fi

# build REVISION: the sources at REVISION with the marks, built in $tree (its .build kept from one
# build to the next); the binary is copied to $work/minutafs-HASH (REVISION's short hash).
build() {
    rm -rf "$tree.new"
    mkdir -p "$tree.new"
    git archive "$1" | tar -x -C "$tree.new"
    if ! (cd "$tree.new" && git apply "$OLDPWD/bench/save-phases.patch"); then
        echo "save-phases: bench/save-phases.patch does not apply to $1: mark the same places again" >&2
        exit 1
    fi
    if [ -d "$tree/.build" ]; then mv "$tree/.build" "$tree.new/.build"; fi
    rm -rf "$tree"
    mv "$tree.new" "$tree"
    (cd "$tree" && swift build -c release --product minutafs >&2)
    cp "$tree/.build/release/minutafs" "$work/minutafs-$(git rev-parse --short "$1")"
}
for revision in "${revisions[@]}"; do build "$revision"; done
cc -O2 -o "$work/save-latency" bench/save-latency.c

# marks: the number of phase lines the mount has written so far.
marks() {
    grep -c '^save phases:' "$work/mount.log" || true
}

# summary FIRST LAST TITLE: the median of each phase over phase lines FIRST+1..LAST of the log.
summary() {
    grep '^save phases:' "$work/mount.log" | sed -n "$(($1 + 1)),$2p" | awk -v title="$3" '
        { for (i = 3; i <= NF; i++) { split($i, pair, "="); if (!(pair[1] in seen)) { seen[pair[1]] = 1; order[++count] = pair[1] }
                                      values[pair[1]] = values[pair[1]] " " pair[2] } lines++ }
        END {
            printf "%s (%d saves), median microseconds:\n", title, lines
            for (k = 1; k <= count; k++) {
                n = split(values[order[k]], list, " ")
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (list[j] + 0 < list[i] + 0) { t = list[i]; list[i] = list[j]; list[j] = t }
                printf "  %-32s %6d\n", order[k], list[int((n + 1) / 2)]
            } }'
}

# measure REVISION: mounts a fresh copy of the store with REVISION's build, makes the person's saves and
# the saves back to back, and prints the median of each phase of both.
measure() {
    rm -rf "$work/store" "$work/state" "$work/cache"
    cp -a "$store" "$work/store"
    mkdir -p "$mnt"
    XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache "$work/minutafs-$(git rev-parse --short "$1")" mount -f --timezone UTC "$work/store" "$mnt" 2> "$work/mount.log" &
    pid=$!
    until ls "$mnt/records" > /dev/null 2>&1 && grep -q " $mnt " /proc/self/mountinfo; do
        kill -0 "$pid" 2>/dev/null || { echo "the mount ended: $(cat "$work/mount.log")" >&2; exit 1; }
        sleep 0.01
    done
    local file before after_paced after_looped turn this other
    file=$mnt/records/2016/03/$(ls "$mnt/records/2016/03" | awk '/\.json$/ && n++ < 1')
    jq '.comment = "save A"' "$file" > "$work/a.json"
    jq '.comment = "save B"' "$file" > "$work/b.json"
    "$work/save-latency" mount "$file" "$work/a.json" "$work/b.json" 50 > /dev/null  # warm-up, ends on B
    before=$(marks)
    for turn in $(seq "$paced"); do
        if [ $((turn % 2)) = 1 ]; then this=$work/a.json; other=$work/b.json; else this=$work/b.json; other=$work/a.json; fi
        sleep "$gap"
        "$work/save-latency" mount "$file" "$this" "$other" 1 > /dev/null
    done
    after_paced=$(marks)
    "$work/save-latency" mount "$file" "$work/a.json" "$work/b.json" "$looped" > /dev/null
    after_looped=$(marks)
    cleanup
    echo "$1 ($(git rev-parse --short "$1")):"
    summary "$before" "$after_paced" "a person's saves, $gap s apart, each by a new process"
    summary "$after_paced" "$after_looped" "saves back to back"
}

echo "save phases through the mount, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
for round in $(seq "$rounds"); do
    for revision in "${revisions[@]}"; do
        [ "$rounds" -gt 1 ] && echo "round $round of $rounds, $revision"
        measure "$revision"
    done
done

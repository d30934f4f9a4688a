#!/usr/bin/env bash
# How long a fresh mount takes to answer its first `ls records`, then its first month listing, and the
# mount's resident memory after a `grep -r` of every record. Mounts a fresh copy of STORE with an empty
# view cache each time; prints numbers, asserts nothing. Give several binaries to compare them in one
# run, alternating (e.g. a release build of the commit before and of this one).
#
#   bench/first-ls.sh STORE MONTH BIN [BIN...]     (MONTH: records/YYYY/MM; ROUNDS=3)
set -euo pipefail
store=$1; month=$2; shift 2
work=${WORK:-/var/tmp/minutafs-first-ls}
for round in $(seq "${ROUNDS:-3}"); do
    for bin in "$@"; do
        fusermount3 -u -z "$work/m" 2>/dev/null || true
        rm -rf "$work"; mkdir -p "$work/m"; cp -a "$store" "$work/s"
        start=$EPOCHREALTIME
        XDG_CACHE_HOME=$work/cache "$bin" mount -f --timezone UTC "$work/s" "$work/m" 2>/dev/null & pid=$!
        until ls "$work/m/records" >/dev/null 2>&1 && grep -q " $work/m " /proc/self/mountinfo; do sleep 0.005; done
        first=$EPOCHREALTIME
        ls "$work/m/$month" >/dev/null
        listed=$EPOCHREALTIME
        grep -r Zürich "$work/m/records" >/dev/null || true
        sleep 3
        rss=$(awk '/VmRSS/ { print $2 / 1024 }' "/proc/$pid/status")
        echo "round $round $bin: first ls $(( (${first/./} - ${start/./}) / 1000 )) ms, first listing of $month $(( (${listed/./} - ${first/./}) / 1000 )) ms, VmRSS after grep -r ${rss} MB"
        kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    done
done

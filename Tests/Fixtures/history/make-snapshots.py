#!/usr/bin/env python3
"""Writes NAME.snapshots for the Minuta-shaped reference documents (minuta-month, minuta-tags): one
line per distinct effective time T of their changes, `T<TAB>HEADS<TAB>TYPED-JSON`, where the
effective times and the heads of the changes in effect at T are worked out here from
../automerge/NAME.changes (SPEC section 8: a change's effective time is the larger of its own time,
read as milliseconds above 10^11 and as seconds otherwise, and its dependencies' effective times),
and the typed JSON is the reference's state at those heads (`amref dump --at HEADS FILE`).
Run once by hand: AMREF=/path/to/amref python3 make-snapshots.py"""
import os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
amref = os.environ["AMREF"]
for name in ["minuta-month", "minuta-tags"]:
    rows = [line.split(" ", 7) for line in open(os.path.join(here, "..", "automerge", name + ".changes"), encoding="utf-8")]
    effective, deps = {}, {}
    for row in rows:
        hash_, dependencies, time = row[0], ([] if row[5] == "-" else row[5].split(",")), int(row[6])
        own = time if time > 10**11 else (time * 1000 if time > 0 else 0)
        effective[hash_] = max([own] + [effective[d] for d in dependencies])
        deps[hash_] = dependencies
    with open(os.path.join(here, name + ".snapshots"), "w", encoding="utf-8") as out:
        for instant in sorted(set(effective.values())):
            included = {h for h, t in effective.items() if t <= instant}
            depended = {d for h in included for d in deps[h]}
            heads = sorted(included - depended)
            state = subprocess.run([amref, "dump", "--at", ",".join(heads), os.path.join(here, "..", "automerge", name + ".automerge")],
                                   check=True, capture_output=True, text=True).stdout.strip()
            out.write("%d\t%s\t%s\n" % (instant, ",".join(heads), state))

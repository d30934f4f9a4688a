#!/usr/bin/env python3
"""Writes NAME.log for the merge fixtures that have concurrent record edits (SPEC section 8,
`minutafs log`), from the reference alone: for every change C of ../automerge/NAME.changes, the
record fields C set or removed are the fields that differ between the reference's state at C's
dependencies and its state at C (`amref dump --at`), so a value that lost a conflict still counts.
Two changes are concurrent when neither is in the other's causal past (from the .changes
dependencies). A field C set lost when, at the heads {C, D} of C and a concurrent change D that
also touched the record, the reference shows another value for it than C's (a text or a list
both edited shows both edits merged: that is not a loss).
Values are written as the record file shows them: timestamps as ISO 8601 UTC, text as a string,
images [] when absent. One JSON object per line, per (change, record), in the document's order.
Run once by hand: AMREF=/path/to/amref python3 make-logs.py
"""
import datetime, json, os, subprocess, sys

AMREF = os.environ["AMREF"]
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "automerge")
NAMES = ["concurrent-same-field.merged", "concurrent-fields.merged", "delete-vs-edit.merged", "three-way.merged"]


def at(document, heads):
    out = subprocess.run([AMREF, "dump", "--at", ",".join(heads) if heads else "-", document],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def iso(ms):
    moment = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (".%03dZ" % (ms % 1000) if ms % 1000 else "Z")


def value(typed):
    if isinstance(typed, dict):
        if set(typed) == {"_ts"}:
            return iso(typed["_ts"])
        if "_text" in typed:
            return typed["_text"]
    return typed


def view(record):
    if not isinstance(record, dict) or "_text" in record or "_table" in record:
        return None
    fields = {key: value(v) for key, v in record.items()}
    fields.setdefault("images", [])
    return fields


def differences(before, after):
    old, new = before or {}, after or {}
    return {key: {"old": old.get(key), "new": new.get(key)}
            for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)}


for name in NAMES:
    document = os.path.join(FIXTURES, name + ".automerge")
    changes = []
    for line in open(os.path.join(FIXTURES, name + ".changes")):
        parts = line.split(" ")
        changes.append((parts[0], [] if parts[5] == "-" else parts[5].split(",")))
    past = {}
    for hash, dependencies in changes:
        past[hash] = {hash}.union(*[past[d] for d in dependencies])
    touched = []  # (hash, record, kind, fields, typed record after C)
    for hash, dependencies in changes:
        before, after = at(document, dependencies), at(document, [hash])
        for record in sorted(set(before) | set(after)):
            old, new = view(before.get(record)), view(after.get(record))
            fields = differences(old, new)
            if not fields:
                continue
            kind = "created" if old is None else "deleted" if new is None else "edited"
            touched.append((hash, record, kind, fields, after.get(record)))
    with open(os.path.join(HERE, name + ".log"), "w") as out:
        for hash, record, kind, fields, typed in touched:
            others = [h for h, r, *_ in touched if r == record and h != hash
                      and h not in past[hash] and hash not in past[h]]
            lost = set()
            for other in others:
                merged_typed = at(document, [hash, other]).get(record)
                merged = view(merged_typed)
                for field, change in fields.items():
                    if change["new"] is None:
                        if merged is not None and merged.get(field) is not None:
                            lost.add(field)
                        continue
                    mine, theirs = (typed or {}).get(field), (merged_typed or {}).get(field)
                    if isinstance(mine, dict) and "_text" in mine and isinstance(theirs, dict) and "_text" in theirs:
                        continue
                    if isinstance(mine, list) and isinstance(theirs, list):
                        continue
                    if (merged or {}).get(field) != change["new"]:
                        lost.add(field)
            out.write(json.dumps({"change": hash, "record": record, "kind": kind, "fields": fields,
                                  "lost": sorted(lost), "concurrentWith": sorted(others)},
                                 sort_keys=True, ensure_ascii=False) + "\n")
    print(name, len(touched), file=sys.stderr)

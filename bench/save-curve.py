#!/usr/bin/env python3
"""Save cost over many saves through a mount, the way VS Code, gedit and os.replace save: a temporary
file in the record's folder, write, fsync, rename over the record. Prints the median latency of each
BLOCK saves, so a cost that grows with the saves a live mount has made shows as a rising column
(compare with the same run after a remount). Prints numbers; asserts nothing.

    python3 bench/save-curve.py MOUNT/records/YYYY/MM/RECORD.json [SAVES=4000] [BLOCK=500]
"""
import json
import os
import sys
import tempfile
import time

path = sys.argv[1]
saves = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
block = int(sys.argv[3]) if len(sys.argv) > 3 else 500
with open(path) as f:
    record = json.load(f)
times = []
for index in range(saves):
    record["comment"] = "curve %d " % index + "z" * (index % 97)
    start = time.perf_counter()
    descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(descriptor, "w") as out:
        json.dump(record, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    times.append(time.perf_counter() - start)
    if (index + 1) % block == 0:
        window = sorted(times[-block:])
        print("saves %6d: median %.2f ms" % (index + 1, 1000 * window[block // 2]), flush=True)

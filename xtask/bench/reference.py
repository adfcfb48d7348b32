#!/usr/bin/env python3
"""Times the reference compiler for `cargo xtask bench`.

Usage: reference.py SLANGC_PY OUT_DIR REPEATS FILE TARGET [FILE TARGET ...]

Loads the reference's in-process API once (the module next to SLANGC_PY),
compiles each FILE's vertex entry point `main` to TARGET REPEATS times and
writes the code to a file in OUT_DIR and prints one JSON object: {"FILE TARGET": median_ms, ...}. A compile that
fails prints {"error": "..."} and exits 1. Only the standard library.
"""

import json
import os
import statistics
import sys
import time


def main():
    slangc_py, out_dir, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pairs = sys.argv[4:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(slangc_py)))
    import slangc  # noqa: E402  (the reference's own module)

    out = {}
    for i in range(0, len(pairs), 2):
        path, target = pairs[i], pairs[i + 1]
        args = [path, "-target", target, "-entry", "main", "-stage", "vertex",
                "-o", os.path.join(out_dir, "reference.out")]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            rc, _, diag = slangc.compile(args)
            times.append((time.perf_counter() - start) * 1000.0)
            if rc != 0:
                print(json.dumps({"error": f"{path} {target}: {diag!r}"[:2000]}))
                return 1
        out[f"{path} {target}"] = statistics.median(times)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

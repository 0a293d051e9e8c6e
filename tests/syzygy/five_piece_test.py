#!/usr/bin/env python3
"""Runs the 5-piece table tests ([syzygy5] in arbiter_tests) when the tables are there.

    five_piece_test.py ARBITER_TESTS SHARED_DATA

SHARED_DATA is ../shared/data beside the repository: syzygy5/ holds the 5-piece tables
(too large for the repository) and syzygy/ the 3-4-piece tables their captures lead
to. Without them the test reports a skip (exit status 77) and says why.
"""

import glob
import os
import subprocess
import sys

SKIP = 77


def main():
    tests, shared = sys.argv[1], sys.argv[2]
    for folder in ("syzygy5", "syzygy"):
        path = os.path.join(shared, folder)
        if not glob.glob(os.path.join(path, "*.rtbw")):
            print(f"skipped: no Syzygy tables in {os.path.normpath(path)} "
                  "(the 5-piece tests need ../shared/data/syzygy5 and ../shared/data/syzygy beside the repository)")
            return SKIP
    return subprocess.run([tests, "[syzygy5]"]).returncode


if __name__ == "__main__":
    sys.exit(main())

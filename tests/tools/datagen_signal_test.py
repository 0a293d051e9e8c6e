#!/usr/bin/env python3
"""Process test of `arbiter datagen`'s stop and resume: SIGINT (and two SIGTERMs)
stop a run cleanly, the file holds whole games matching its progress file, and
rerunning the same command continues it to the same bytes as an uninterrupted run,
whatever the thread count.

usage: datagen_signal_test.py ARBITER"""

import os
import signal
import subprocess
import sys
import tempfile
import time

ENGINE = sys.argv[1]
SETTINGS = ["--soft-nodes", "300", "--nodes", "1500", "--seed", "11", "--hash", "2",
            "--chess960-percent", "10", "--dfrc-percent", "20"]
GAMES = 24


def run(out, fmt, threads, games=GAMES):
    return subprocess.run([ENGINE, "datagen", "--output", out, "--format", fmt, "--games", str(games),
                           "--threads", str(threads)] + SETTINGS, capture_output=True, text=True, timeout=600)


def progress(out):
    with open(out + ".progress") as f:
        fields = f.read().split()
    return dict(zip(fields[::2], fields[1::2]))


def interrupted(out, fmt, threads, signals):
    proc = subprocess.Popen([ENGINE, "datagen", "--output", out, "--format", fmt, "--games", "100000",
                             "--threads", str(threads)] + SETTINGS,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline:  # wait until a few games are written
        time.sleep(0.1)
        try:
            if int(progress(out)["games"]) >= 3:
                break
        except (OSError, KeyError, ValueError, IndexError):
            pass
    for sig in signals:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, (proc.returncode, err)
    assert "stopped by signal" in err and "the same command continues it" in err, err
    p = progress(out)
    assert os.path.getsize(out) == int(p["bytes"]), (os.path.getsize(out), p)
    games = int(p["games"])
    assert 3 <= games < 100000, p
    return games


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("abin", "agame"):
            reference = os.path.join(tmp, "ref." + fmt)
            r = run(reference, fmt, 1)
            assert r.returncode == 0, r.stderr
            with open(reference, "rb") as f:
                expected = f.read()
            for threads, signals in ((2, [signal.SIGINT]), (1, [signal.SIGTERM, signal.SIGTERM])):
                out = os.path.join(tmp, f"run{threads}.{fmt}")
                games = interrupted(out, fmt, threads, signals)
                with open(out, "rb") as f:
                    partial = f.read()
                ok = expected.startswith(partial)
                if games < GAMES:  # the rerun continues to GAMES
                    r = run(out, fmt, 3 - threads)
                    assert r.returncode == 0, r.stderr
                    assert f"resuming after {games} games" in r.stderr, r.stderr
                    with open(out, "rb") as f:
                        ok = ok and f.read() == expected
                print(f"{fmt}, {threads} thread(s), signals {[s.name for s in signals]}: stopped after {games} games,"
                      f" {'same bytes' if ok else 'DIFFERENT BYTES'}")
                failures += not ok
    print("FAIL" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

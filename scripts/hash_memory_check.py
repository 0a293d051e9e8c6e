#!/usr/bin/env python3
"""Checks that the engine honours the Hash option with its resident memory, and gives
memory back when the table shrinks.

usage: hash_memory_check.py --engine PATH

Resident memory is VmRSS from /proc/PID/status, read after `isready` has been answered
(so after the `setoption` before it has been carried out). Two passes:

1. Exact accounting. The engine runs with MALLOC_MMAP_THRESHOLD_=1048576, which makes
   glibc give every block of 1 MB or more its own mapping and unmap it on free; RSS
   then shows exactly what the engine holds. The constant is measured: F = RSS with
   Hash 1 minus 1 MB (code, libraries, stacks, one search thread's tables), plus a
   margin of 8 MB for what searching and output add (stack pages, move lists, stdio
   buffers; below 1 MB in practice). At every Hash H: H - 2 MB <= RSS <= H + F + 8 MB,
   i.e. the table is really there (the engine zero-fills it) and nothing else grows.
2. The default allocator, as users run it. glibc serves a block below its dynamic mmap
   threshold (which rises to the size of the largest mapped block freed so far, at
   most 32 MB on 64-bit) from the heap, and returns freed heap memory only once the
   free top exceeds the trim threshold (twice the mmap threshold: up to 64 MB). So up
   to 64 MB of earlier tables may legitimately stay resident: RSS <= H + F + 64 MB.

In both passes: Hash 16 -> 1024 -> 16 must give back at least 95% of the difference;
`setoption name Hash value 65536` (the maximum) must be refused with an
`info string error: ...` line while the old table stays (isready answered, RSS back
near the old figure, `go depth 5` gives a bestmove); skipped on a machine that could
really allocate 64 GB (RAM + swap >= 60 GB, or vm.overcommit_memory = 1), and watched
(the engine is killed if its RSS climbs by 4 GB). Threads, twice 1 -> 8 -> 32 -> 1 with
a search at each: RSS may grow by at most 8 MB per extra thread, also while they search;
back at Threads 1 it must be within the pass's margin (8 or 64 MB) of the first Threads 1
figure (the allocator keeps freed blocks below 1 MB as holes in its heap), and the second
cycle must not add to the first (no leak).

Prints the measured figures; exits non-zero if a check failed. Takes a few seconds.
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "uci"))
from uci_pipe import Engine  # noqa: E402

MAX_HASH = 65536
EXACT_MARGIN = 8.0      # MB over the measured fixed part, exact-accounting pass
ALLOCATOR_MARGIN = 64.0  # MB of freed heap glibc may keep (2 x 32 MB mmap threshold)
PER_THREAD = 8.0        # MB a search thread may add
SEQUENCE = [16, 1024, 16, 64, 256, 4, 1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def meminfo_gb():
    total = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(("MemTotal:", "SwapTotal:")):
                total += int(line.split()[1])
    return total / 1024 / 1024


def overcommit_mode():
    try:
        with open("/proc/sys/vm/overcommit_memory") as f:
            return int(f.read())
    except OSError:
        return None


class Check:
    def __init__(self, engine_path, env_name, env):
        self.name = env_name
        self.failures = []
        saved = os.environ.copy()
        os.environ.update(env)
        try:
            self.e = Engine(engine_path)
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def fail(self, message):
        self.failures.append(message)
        print(f"  FAIL: {message}")

    def rss(self):
        return rss_mb(self.e.proc.pid)

    def ready(self, timeout=60.0, watch_mb=None):
        """Sends isready and waits for readyok; returns (lines before it, seconds). With
        watch_mb, kills the engine if its RSS exceeds that while waiting."""
        start = self.e.send("isready")
        lines = []
        deadline = start + timeout
        while True:
            if watch_mb is not None and self.rss() > watch_mb:
                self.e.proc.kill()
                raise AssertionError(f"RSS passed {watch_mb:.0f} MB while waiting for readyok: the engine "
                                     f"is filling a huge table; killed it")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no readyok within {timeout:.0f} s; lines {lines[-5:]}")
            try:
                line = self.e.read_line(min(left, 0.05))
            except AssertionError as error:
                if "no output within" in str(error):
                    continue
                raise
            if line == "readyok":
                return lines, self.e.last_time - start
            lines.append(line)

    def set_option(self, name, value, **kw):
        self.e.send(f"setoption name {name} value {value}")
        return self.ready(**kw)

    def go(self, command):
        self.e.send(command)
        lines = self.e.read_until(lambda l: l.startswith("bestmove"), timeout=60)
        return lines[-1]

    def run(self, exact):
        e = self.e
        print(f"{self.name}:")
        self.ready()
        lines, _ = self.set_option("Hash", 1)
        base = self.rss()
        fixed = base - 1
        margin = EXACT_MARGIN if exact else ALLOCATOR_MARGIN
        constant = fixed + margin
        print(f"  Hash 1: RSS {base:.1f} MB -> fixed part F = {fixed:.1f} MB; constant F + {margin:.0f} = "
              f"{constant:.1f} MB")
        if lines:
            self.fail(f"setoption Hash 1 printed {lines}")
        rss_at = {1: base}
        for size in SEQUENCE:
            before = self.rss()
            lines, seconds = self.set_option("Hash", size)
            rss = self.rss()
            extra = rss - size
            print(f"  Hash {size:5}: RSS {rss:8.1f} MB = Hash + {extra:5.1f} MB (limit {constant:.1f}); "
                  f"set in {seconds * 1000:.0f} ms")
            if lines:
                self.fail(f"setoption Hash {size} printed {lines}")
            if rss > size + constant:
                self.fail(f"Hash {size}: RSS {rss:.1f} MB exceeds Hash + {constant:.1f} MB")
            if exact and rss < size - 2:
                self.fail(f"Hash {size}: RSS {rss:.1f} MB is less than the table itself")
            if size == 16 and 1024 in rss_at:
                returned = before - rss
                print(f"    1024 -> 16 gave back {returned:.1f} MB of {1024 - 16} MB")
                if returned < 0.95 * (1024 - 16):
                    self.fail(f"Hash 1024 -> 16 gave back only {returned:.1f} MB")
            rss_at[size] = rss
        best = self.go("go depth 5")
        after_search = self.rss()
        print(f"  go depth 5 with Hash {SEQUENCE[-1]}: {best}; RSS {after_search:.1f} MB")
        if after_search > SEQUENCE[-1] + constant:
            self.fail(f"after a search RSS {after_search:.1f} MB exceeds Hash + {constant:.1f} MB")

        self.check_maximum(constant)
        self.check_threads(constant, margin)
        e.send("quit")
        try:
            status = e.proc.wait(timeout=10)
        except Exception:
            status = None
        if status != 0:
            self.fail(f"exit status after quit: {status}")
        e.close()
        return self.failures

    def check_maximum(self, constant):
        self.set_option("Hash", 64)
        old = self.rss()
        ram = meminfo_gb()
        mode = overcommit_mode()
        if ram >= 60 or mode == 1:
            print(f"  Hash {MAX_HASH}: skipped (RAM + swap {ram:.0f} GB, vm.overcommit_memory {mode}: the "
                  f"allocation might succeed and fill the memory)")
            return
        self.e.send(f"setoption name Hash value {MAX_HASH}")
        lines, seconds = self.ready(watch_mb=old + 4096)
        rss = self.rss()
        errors = [l for l in lines if l.startswith("info string error: ")]
        print(f"  Hash {MAX_HASH} (RAM + swap {ram:.0f} GB): {lines} in {seconds * 1000:.0f} ms; RSS {rss:.1f} MB "
              f"(was {old:.1f})")
        if len(errors) != 1 or len(lines) != 1:
            self.fail(f"Hash {MAX_HASH}: expected one 'info string error: ...' line, got {lines}")
        elif "64 MB" not in errors[0]:
            print("    note: the error line does not say that the 64 MB table is kept")
        if abs(rss - old) > 4:
            self.fail(f"Hash {MAX_HASH}: RSS {rss:.1f} MB, was {old:.1f} MB with the old table")
        best = self.go("go depth 5")
        rss = self.rss()
        print(f"    then go depth 5: {best}; RSS {rss:.1f} MB")
        if not best.startswith("bestmove ") or best == "bestmove (none)":
            self.fail(f"go depth 5 after the refused Hash: {best}")
        if rss > 64 + constant or rss < 62:
            self.fail(f"after the refused Hash and a search RSS is {rss:.1f} MB, expected the 64 MB table "
                      f"(+ at most {constant:.1f})")

    def check_threads(self, constant, margin):
        """Two cycles Threads 1 -> 8 -> 32 -> 1, a search at each count."""
        hash_mb = 16
        self.set_option("Hash", hash_mb)
        self.set_option("Threads", 1)
        one = self.rss()
        back = []
        for cycle in (1, 2):
            figures = []
            for threads in (8, 32):
                lines, _ = self.set_option("Threads", threads)
                idle = self.rss()
                self.e.send("go movetime 300")
                time.sleep(0.15)
                searching = self.rss()
                best = self.e.read_until(lambda l: l.startswith("bestmove"), timeout=30)[-1]
                after = self.rss()
                per_thread = (max(idle, searching, after) - (back[-1] if back else one)) / (threads - 1)
                figures.append(f"{threads}: {idle:.1f} idle, {searching:.1f} searching, {after:.1f} after "
                               f"({per_thread:.2f} MB per extra thread)")
                if lines:
                    self.fail(f"setoption Threads {threads} printed {lines}")
                limit = hash_mb + constant + PER_THREAD * (threads - 1)
                for what, value in (("idle", idle), ("searching", searching), ("after the search", after)):
                    if value > limit:
                        self.fail(f"Threads {threads} {what}: RSS {value:.1f} MB exceeds {limit:.1f} MB")
                if not best.startswith("bestmove ") or best == "bestmove (none)":
                    self.fail(f"go movetime 300 with Threads {threads}: {best}")
            self.set_option("Threads", 1)
            back.append(self.rss())
            print(f"  Threads cycle {cycle}, RSS in MB: 1: {back[-2] if cycle == 2 else one:.1f}; "
                  + "; ".join(figures) + f"; 1 again: {back[-1]:.1f}")
        if back[0] > one + margin:
            self.fail(f"Threads 32 -> 1 left RSS at {back[0]:.1f} MB, {back[0] - one:.1f} MB above the "
                      f"{one:.1f} MB with one thread before (allowed {margin:.0f})")
        if back[1] > back[0] + 1:
            self.fail(f"a second Threads cycle grew RSS from {back[0]:.1f} to {back[1]:.1f} MB: a leak")


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--engine", default=os.path.join(ROOT, "build", "arbiter"), help="the binary under test")
    args = parser.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f"hash_memory_check: no engine at {args.engine}", file=sys.stderr)
        return 2
    start = time.monotonic()
    failures = []
    for name, env, exact in (
            ("pass 1, exact accounting (MALLOC_MMAP_THRESHOLD_=1048576)", {"MALLOC_MMAP_THRESHOLD_": "1048576"}, True),
            ("pass 2, default allocator", {}, False)):
        check = Check(args.engine, name, env)
        try:
            failures += check.run(exact)
        except AssertionError as error:
            failures.append(str(error))
            print(f"  FAIL: {error}")
            check.e.close()
    print(f"hash_memory_check: {len(failures)} failure(s) in {time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

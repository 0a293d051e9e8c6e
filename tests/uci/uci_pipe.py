"""Shared by the process-level tests: the engine in UCI mode driven through pipes.

Every read has a timeout, so a hang fails a test instead of blocking CTest.
"""
import queue
import subprocess
import threading
import time

TIMEOUT = 20  # seconds; generous for a slow CI machine, short enough to end a hang
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class Engine:
    """The engine in UCI mode with stdin kept open; stdout read line by line by a thread
    that stamps each line with its arrival time, so that every read can time out and
    latencies can be measured.

    The constructor returns once the engine has answered `isready`: its start-up (net,
    tables, hash; about 150 ms, twice that under AddressSanitizer) is then over, and a
    test that times a command or waits a fixed time for output times only that."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.last_time = 0.0  # arrival time of the line read last
        threading.Thread(target=self._pump, daemon=True).start()
        try:
            start = self.sync()
        except AssertionError:
            self.close()
            raise
        if start:
            self.close()
            raise AssertionError(f"output before the first command: {start}")

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, text):
        """Writes one command; returns the time just before the write."""
        sent = time.monotonic()
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return sent

    def read_line(self, timeout=TIMEOUT):
        try:
            self.last_time, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output within {timeout:.1f} s") from None
        if line is None:
            raise AssertionError("the engine closed its output")
        return line

    def read_until(self, predicate, timeout=TIMEOUT):
        """Lines up to and including the first one for which predicate is true."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout:.1f} s; last lines {seen[-5:]}")
            try:
                seen.append(self.read_line(left))
            except AssertionError as error:
                raise AssertionError(f"{error}; last lines {seen[-5:]}") from None
            if predicate(seen[-1]):
                return seen

    def read_for(self, seconds):
        """Every line that arrives within the next `seconds`."""
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return seen
            try:
                self.last_time, line = self.lines.get(timeout=left)
            except queue.Empty:
                return seen
            if line is None:
                raise AssertionError(f"the engine closed its output; last lines {seen[-5:]}")
            seen.append(line)

    def sync(self, timeout=TIMEOUT):
        """Sends isready; returns the lines before readyok."""
        self.send("isready")
        return self.read_until(lambda l: l == "readyok", timeout)[:-1]

    def search(self, go, timeout=TIMEOUT):
        """Sends a go command; returns (lines up to bestmove, the bestmove line)."""
        self.send(go)
        lines = self.read_until(lambda l: l.startswith("bestmove"), timeout)
        return lines, lines[-1]

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def run_tests(tests, *args, notes=()):
    """Runs each test with `args`, a failure not hiding the others; prints one line a
    failure, then `notes` (a list the tests may add to), the time taken and the
    closing `N passed, N failed`. Returns the exit status."""
    passed = failed = 0
    start = time.monotonic()
    for test in tests:
        try:
            test(*args)
            passed += 1
        except Exception as error:  # one failing test must not hide the others
            failed += 1
            print(f"FAIL {test.__name__}: {type(error).__name__}: {error}", flush=True)
    for text in notes:
        print(f"note: {text}")
    print(f"note: total {time.monotonic() - start:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

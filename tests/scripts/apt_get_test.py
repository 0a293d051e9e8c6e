#!/usr/bin/env python3
"""scripts/apt_get.sh against a fake apt-get: a failure because another process holds
dpkg's or apt's lock is retried until the lock is free, any other failure returns at once
with apt-get's status, and nothing reaches standard output (play.sh keeps it for UCI)."""
import os
import pathlib
import stat
import subprocess
import tempfile
import unittest

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"

# Logs its arguments and what it read from stdin, then fails as apt-get does while
# another package manager runs, for the first $FAKE_LOCKED calls, or with $FAKE_ERROR.
FAKE_APT_GET = """#!/bin/sh
echo "$*|$(cat)" >> "$FAKE_LOG"
calls=$(wc -l < "$FAKE_LOG")
echo "Reading package lists..."
if [ "$calls" -le "$FAKE_LOCKED" ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1794 (apt-get)" >&2
    echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
    exit 100
fi
if [ -n "$FAKE_ERROR" ]; then
    echo "E: $FAKE_ERROR" >&2
    exit 100
fi
exit 0
"""


class AptGetTest(unittest.TestCase):
    def run_apt_get(self, locked, error="", *args, function="arbiter_apt_get"):
        with tempfile.TemporaryDirectory() as folder:
            fake = pathlib.Path(folder) / "apt-get"
            fake.write_text(FAKE_APT_GET)
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            log = pathlib.Path(folder) / "calls"
            log.touch()
            env = dict(os.environ, PATH=f"{folder}:{os.environ['PATH']}", FAKE_LOG=str(log),
                       FAKE_LOCKED=str(locked), FAKE_ERROR=error, ARBITER_APT_LOCK_WAIT="0")
            script = f'source "{SCRIPTS / "apt_get.sh"}"; {function} "$@"'
            result = subprocess.run(["bash", "-c", script, "apt_get", *args], env=env, input="ignored",
                                    capture_output=True, text=True, timeout=60)
            return result, log.read_text().splitlines()

    def test_waits_while_another_package_manager_holds_the_lock(self):
        result, calls = self.run_apt_get(2, "", "update", "-q")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(calls, ["-o DPkg::Lock::Timeout=600 update -q|"] * 3)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.stderr.count("Could not get lock"), 2)
        self.assertEqual(result.stderr.count("holds apt's lock; trying again"), 2)
        self.assertIn("Reading package lists...", result.stderr)

    def test_any_other_failure_returns_at_once(self):
        result, calls = self.run_apt_get(0, "Unable to locate package no-such-package", "install", "-y",
                                         "no-such-package")
        self.assertEqual(result.returncode, 100)
        self.assertEqual(len(calls), 1)
        self.assertEqual(result.stdout, "")
        self.assertIn("Unable to locate package no-such-package", result.stderr)
        self.assertNotIn("trying again", result.stderr)

    def test_a_lock_it_may_not_open_is_not_waited_for(self):
        # What apt-get update prints without root's permissions: no other process to wait for.
        result, calls = self.run_apt_get(0, "Could not open lock file /var/lib/apt/lists/lock - open "
                                         "(13: Permission denied)\nE: Unable to lock directory /var/lib/apt/lists/",
                                         "update")
        self.assertEqual(result.returncode, 100)
        self.assertEqual(len(calls), 1)
        self.assertNotIn("trying again", result.stderr)

    def test_install_updates_the_lists_first(self):
        result, calls = self.run_apt_get(1, "", "clang", "libclang-rt-14-dev", function="arbiter_apt_install")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(calls, ["-o DPkg::Lock::Timeout=600 update -q|"] * 2 + [
            "-o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends clang libclang-rt-14-dev|"])
        self.assertEqual(result.stdout, "")

    def test_install_stops_when_the_update_fails(self):
        result, calls = self.run_apt_get(0, "Failed to fetch", "clang", function="arbiter_apt_install")
        self.assertEqual(result.returncode, 100)
        self.assertEqual(calls, ["-o DPkg::Lock::Timeout=600 update -q|"])

    def test_gives_up_on_a_lock_that_is_never_released(self):
        result, calls = self.run_apt_get(1000, "", "update")
        self.assertEqual(result.returncode, 100)
        self.assertEqual(len(calls), 61)


if __name__ == "__main__":
    unittest.main()

"""Finds the Python that has numpy (and torch) for the NNUE scripts.

Debian's python3-numpy and python3-torch install into /usr/bin/python3. When the
`python3` first on PATH is another interpreter without them (a pyenv shim, say), the
script re-runs itself under /usr/bin/python3; ARBITER_NNUE_REEXEC=1 prevents that.
"""
import importlib.util
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def reexec() -> None:
    """Re-runs the script under the system Python, once, when that is another
    interpreter; returns when it cannot (no such Python, it is this one, or this run
    is already the re-run)."""
    if (os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON)
            and not os.environ.get("ARBITER_NNUE_REEXEC")):
        os.environ["ARBITER_NNUE_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)


def require(*modules: str) -> None:
    """Returns when every module can be imported; else re-runs the script under the
    system Python once, or exits with the packages to install."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    reexec()
    packages = " ".join("python3-" + m for m in missing)
    sys.exit(f"{os.path.basename(sys.argv[0])}: needs {', '.join(missing)}: apt-get install {packages}")


def require_or_skip(*modules: str) -> None:
    """For tests: as require(), but without the modules exits with status 77, which
    CTest counts as skipped (SKIP_RETURN_CODE)."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return
    reexec()
    print(f"skipped: needs {', '.join(missing)} (apt-get install {' '.join('python3-' + m for m in missing)})")
    sys.exit(77)

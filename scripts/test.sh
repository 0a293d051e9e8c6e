#!/usr/bin/env bash
# Builds Arbiter and its tests (Release, in build/) and runs every test with CTest.
# Installs missing build dependencies first when run as root. Exits non-zero when
# the build or any test fails.
set -euo pipefail
# The trainer's end-to-end test, the eval graph, the xboard test and the HTML report's
# browser test need these too.
ARBITER_TEST_PACKAGES="python3-torch python3-matplotlib polyglot chromium"
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
arbiter_build all
ctest --test-dir build --output-on-failure --no-tests=error -j "$(nproc 2>/dev/null || echo 2)"

#!/usr/bin/env bash
# Builds Arbiter (Release, in build/) and starts it: UCI on stdin and stdout.
# Installs missing build dependencies first when run as root. Build messages go to
# stderr, so a GUI reading stdout sees only the engine. Arguments are passed on to
# the engine (for example `bash scripts/play.sh perft 5`).
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
arbiter_build arbiter
exec build/arbiter "$@"

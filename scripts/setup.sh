# shellcheck shell=bash
# Sourced by play.sh, test.sh and .ci/run: moves to the repository root and installs
# the build dependencies that are missing. Everything it prints goes to stderr, so
# that play.sh keeps stdout for UCI.
#
# Debian 12 packages: cmake, g++, make, libfmt-dev, liblzma-dev, catch2 (Catch2 v2), python3,
# python3-numpy (the net-file test of scripts/nnue); test.sh adds the packages only
# tests need through ARBITER_TEST_PACKAGES (python3-torch for the trainer's
# end-to-end test, python3-matplotlib for the eval graph of `analyse --plot`,
# polyglot for the xboard test, chromium to render the page of `analyse --html` headless).
# As root the missing ones are installed with apt-get (waiting while another package
# manager holds its lock: apt_get.sh); otherwise the exact command to run is printed and
# the script stops.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
# shellcheck source=scripts/apt_get.sh
source scripts/apt_get.sh

arbiter_missing_packages() {
    local missing=() command
    for command in cmake g++ make python3; do
        command -v "$command" >/dev/null 2>&1 || missing+=("$command")
    done
    # Libraries have no command to look for; ask dpkg where there is one and otherwise
    # leave it to CMake's find_package to name what it cannot find.
    if command -v dpkg >/dev/null 2>&1; then
        local package
        # shellcheck disable=SC2086 # a list of package names
        for package in libfmt-dev liblzma-dev catch2 python3-numpy ${ARBITER_TEST_PACKAGES:-}; do
            dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$package")
        done
    fi
    echo "${missing[*]}"
}

arbiter_install_dependencies() {
    local missing
    missing=$(arbiter_missing_packages)
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "Arbiter needs these Debian packages: $missing" >&2
        echo "Install them with:" >&2
        echo "    sudo apt-get update && sudo apt-get install -y $missing" >&2
        exit 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "Arbiter needs: $missing (no apt-get here: install them with your package manager)" >&2
        exit 1
    fi
    echo "Installing build dependencies: $missing" >&2
    # stdin is closed so that apt-get cannot swallow UCI commands meant for the engine.
    # shellcheck disable=SC2086 # $missing is a list of package names
    if ! arbiter_apt_install $missing; then
        echo "apt-get failed to install: $missing" >&2
        exit 1
    fi
}

# Configures build/ (Release) and builds the given targets (`all`: everything, tests
# included). The compiler's output goes to stderr.
arbiter_build() {
    if ! cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DARBITER_BUILD_TESTS=ON --log-level=WARNING </dev/null >&2 ||
        ! cmake --build build -j "$(nproc 2>/dev/null || echo 2)" --target "$@" </dev/null >&2; then
        echo "The build failed; see the messages above." >&2
        exit 1
    fi
}

arbiter_install_dependencies

#!/usr/bin/env bash
# The C++ sources in the house style of the root .clang-format (clang-format 14, Debian
# 12's; other versions format some constructs differently).
#
# usage: scripts/format.sh           formats every tracked C++ file in place
#        scripts/format.sh --check   changes nothing; lists the files that differ and
#                                    exits 1 when there are any (CI runs this)
# Installs clang-format when it is missing and the script runs as root.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        # shellcheck source=scripts/apt_get.sh
        source scripts/apt_get.sh
        arbiter_apt_install clang-format
    else
        echo "format.sh: needs clang-format (apt-get install clang-format)" >&2
        exit 2
    fi
fi
mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h')
if [ "${1:-}" = "--check" ]; then
    bad=()
    for file in "${files[@]}"; do
        clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || bad+=("$file")
    done
    if [ "${#bad[@]}" -ne 0 ]; then
        echo "format.sh: not in the style of .clang-format (run scripts/format.sh):" >&2
        printf '  %s\n' "${bad[@]}" >&2
        exit 1
    fi
    echo "format.sh: ${#files[@]} files in the house style"
else
    clang-format -i "${files[@]}"
fi

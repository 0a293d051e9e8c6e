# shellcheck shell=bash
# Sourced by setup.sh (so by every script that sources it) and format.sh.
#
# arbiter_apt_get ARGS... runs `apt-get ARGS` as the scripts need it (no stdin,
# everything on stderr, no questions) and waits while another package manager holds
# dpkg's or apt's lock, as unattended-upgrades often does in the first minutes of a new
# machine, instead of failing at once. apt's own DPkg::Lock::Timeout covers `install`
# but not the package lists' lock that `update` takes, so a failure that says another
# process holds a lock ("Could not get lock ... It is held by process N") is retried
# every ARBITER_APT_LOCK_WAIT seconds (default 10), 60 times at most. Any other failure
# returns at once, a lock that cannot be opened among them ("Unable to lock directory",
# as apt-get prints without root's permissions).

arbiter_apt_get() {
    local pause=${ARBITER_APT_LOCK_WAIT:-10} errors status retries=0
    errors=$(mktemp)
    while :; do
        status=0
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" </dev/null >&2 2>"$errors" ||
            status=$?
        cat "$errors" >&2
        if [ "$status" -eq 0 ] || ! grep -q 'Could not get lock' "$errors" ||
            [ "$retries" -ge 60 ]; then
            rm -f "$errors"
            return "$status"
        fi
        echo "Another package manager holds apt's lock; trying again in $pause s" >&2
        sleep "$pause"
        retries=$((retries + 1))
    done
}

# arbiter_apt_install PACKAGE...: the package lists updated, then the packages installed
# without their recommendations; non-zero when either step fails.
arbiter_apt_install() {
    arbiter_apt_get update -q && arbiter_apt_get install -y -q --no-install-recommends "$@"
}

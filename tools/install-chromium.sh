#!/bin/sh
# Install Debian's chromium for the browser tests, and nothing of the rest of the system.
#
#     tools/install-chromium.sh [--dry-run] TESTED_VERSION
#
# Takes TESTED_VERSION when the archive has both chromium and chromium-common at it (apt
# resolves a pin on chromium alone against the newest chromium-common, and fails with "held
# broken packages"), else the archive's candidate, saying so in one line. Each choice is first
# simulated (apt-get -s) without recommends: it is installed only if the simulation adds new
# packages and upgrades, downgrades or removes none; otherwise nothing is installed and the
# packages it would have changed are named. --dry-run stops after the choice (no root needed).
# Without apt-get, or not as root, it does nothing: the browser tests then skip with the reason.
# Exit status 0 whatever happens, so `make test` goes on and the browser tests report.

dry_run=
if [ "$1" = "--dry-run" ]; then
    dry_run=1
    shift
fi
tested=$1
chromium=${CHROMIUM:-/usr/bin/chromium}
# The recommends (udev, upower, a printer tool...) bring ~90 packages and upgrade systemd and
# perl to match; the page tests need none of them, only the fonts the page is measured with.
extra=fonts-liberation
choice=

say() { echo "install-chromium: $*"; }

if [ -z "$tested" ]; then
    echo "usage: tools/install-chromium.sh [--dry-run] TESTED_VERSION" >&2
    exit 2
fi
if [ -z "$dry_run" ]; then
    [ -x "$chromium" ] && exit 0
    command -v apt-get >/dev/null 2>&1 || exit 0
    [ "$(id -u)" = 0 ] || exit 0
    say "no $chromium: installing Debian's chromium for the browser tests"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 ||
        say "apt-get update failed: using the package lists already here"
fi

# available VERSION: true when both chromium and chromium-common have VERSION in the archive.
available() {
    found=$(apt-cache madison chromium chromium-common 2>/dev/null |
        awk -F'|' -v want="$1" '{ gsub(/ /, "", $1); gsub(/ /, "", $2) } $2 == want { print $1 }' |
        sort -u | tr '\n' ' ')
    [ "$found" = "chromium chromium-common " ]
}

# candidate: the version apt would install by default, or nothing.
candidate() {
    apt-cache policy chromium 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
}

# simulate VERSION: 0 when installing it only adds packages; prints what it would do.
simulate() {
    # (--allow-downgrades lets the simulation show a downgrade instead of refusing it)
    plan=$(apt-get -s -qq --allow-downgrades install --no-install-recommends "chromium=$1" \
        "chromium-common=$1" $extra 2>&1) ||
        { echo "does not install ($(echo "$plan" | grep '^E:' | head -n 1))"; return 1; }
    # "Inst NAME [OLD] (NEW ...)" replaces an installed version; "Remv NAME" removes one.
    changed=$(echo "$plan" | awk '($1 == "Inst" && $3 ~ /^\[/) || $1 == "Remv" { print $2 }' |
        tr '\n' ' ')
    if [ -n "$changed" ]; then
        echo "would change installed packages (${changed% })"
        return 1
    fi
    echo "$(echo "$plan" | grep -c '^Inst ') new packages, no installed package changed"
}

major() { echo "${1%%.*}"; }

if ! available "$tested"; then
    reason="$(major "$tested") is not available"
elif why=$(simulate "$tested"); then
    choice=$tested
    say "installing chromium $tested, the tested version ($why)"
else
    reason="$(major "$tested") $why"
fi
if [ -z "$choice" ]; then
    newest=$(candidate)
    if [ -z "$newest" ] || [ "$newest" = "$tested" ]; then
        say "$reason, and there is no other chromium: the browser tests will say so"
        exit 0
    fi
    if ! why=$(simulate "$newest"); then
        say "$reason, and $(major "$newest") $why"
        say "nothing installed: the browser tests will say so (to install it anyway:" \
            "apt-get install chromium)"
        exit 0
    fi
    choice=$newest
    say "$reason: installing $(major "$newest") ($newest; $why)"
fi
[ -n "$dry_run" ] && exit 0
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "chromium=$choice" "chromium-common=$choice" $extra >/dev/null ||
    say "could not install chromium $choice: the browser tests will say so"
exit 0

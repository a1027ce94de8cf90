#!/bin/sh
# Install Debian's mtools and dosfstools for the deploy tests on a real FAT drive
# (tests/test_deploy_drive.py), and nothing of the rest of the system.
#
# Only as root with apt-get, only when a tool is missing, without recommends, and only when
# apt's simulation adds new packages and upgrades, downgrades or removes none. Otherwise it does
# nothing and those tests skip with the reason. Exit status 0 whatever happens.

say() { echo "install-fat-tools: $*"; }

command -v mcopy >/dev/null 2>&1 && command -v mkfs.fat >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || exit 0
[ "$(id -u)" = 0 ] || exit 0
say "installing Debian's mtools and dosfstools for the deploy tests"
export DEBIAN_FRONTEND=noninteractive
plan=$(apt-get -s -qq install --no-install-recommends mtools dosfstools 2>&1) ||
    { apt-get update -qq >/dev/null 2>&1;
      plan=$(apt-get -s -qq install --no-install-recommends mtools dosfstools 2>&1); } ||
    { say "apt cannot install them: $(echo "$plan" | grep '^E:' | head -n 1)"; exit 0; }
# "Inst NAME [OLD] (NEW ...)": the brackets name an installed version, i.e. an upgrade.
changed=$(echo "$plan" | awk '($1 == "Inst" && $3 ~ /^\[/) || $1 == "Remv" { print $2 }' | tr '\n' ' ')
if [ -n "$changed" ]; then
    say "not installed: it would also change $changed"
    exit 0
fi
apt-get install -y -qq --no-install-recommends mtools dosfstools >/dev/null 2>&1 ||
    say "apt-get install failed: the FAT drive tests will skip"
exit 0

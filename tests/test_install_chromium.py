"""`make chromium` (tools/install-chromium.sh): the tested Chromium while the archive has it, else
the archive's with one line saying so, without recommends, and never when that would upgrade,
downgrade or remove an installed package.

The decisions run against stand-in ``apt-get``/``apt-cache``/``id`` commands first on PATH that
answer as Debian's do and log every call; one test asks this machine's real apt, simulating only.
"""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "install-chromium.sh")
TESTED = re.search(r"^CHROMIUM_TESTED := (\S+)$", open(os.path.join(ROOT, "Makefile")).read(),
                   re.M).group(1)
NEWER = "156.0.8078.114-1~deb12u1"

# apt-get -s output: new packages only ("Inst NAME (VERSION ...)")
ONLY_NEW = """Inst libopus0 (1.3.1-3 Debian:12.15/oldstable [amd64])
Inst chromium-common ({v} Debian-Security:12/oldstable-security [amd64])
Inst chromium ({v} Debian-Security:12/oldstable-security [amd64])
Inst fonts-liberation (1:1.07.4-11 Debian:12.15/oldstable [all])
"""
# ... and one that upgrades installed packages, as chromium's recommends (udev) do
UPGRADES = ONLY_NEW + """Inst perl-base [5.36.0-7+deb12u2] (5.36.0-7+deb12u4 Debian-Security:12 [amd64]) []
Inst libsystemd0 [252.38-1~deb12u1] (252.39-1~deb12u2 Debian:12.15/oldstable [amd64])
"""
HELD = "E: Unable to correct problems, you have held broken packages.\n"

FAKE_APT_CACHE = r"""#!/bin/sh
echo "apt-cache $*" >> "$FAKE/log"
case "$1" in
    madison) for v in $FAKE_VERSIONS; do
                 for p in chromium chromium-common; do echo " $p | $v | http://archive main"; done
             done ;;
    policy) echo "chromium:"; echo "  Installed: (none)"; echo "  Candidate: $FAKE_CANDIDATE" ;;
esac
"""
FAKE_APT_GET = r"""#!/bin/sh
echo "apt-get $*" >> "$FAKE/log"
case " $* " in
    *" -s "*) for arg in "$@"; do
                  case "$arg" in chromium=*) version=${arg#chromium=} ;; esac
              done
              if [ -f "$FAKE/sim-$version" ]; then cat "$FAKE/sim-$version"; else cat "$FAKE/sim"; fi
              grep -q '^E:' "$FAKE/sim-$version" "$FAKE/sim" 2>/dev/null && exit 100
              exit 0 ;;
esac
exit 0
"""
FAKE_ID = """#!/bin/sh
echo "$FAKE_UID"
"""


@pytest.fixture
def apt(tmp_path):
    """Runs `make chromium` against the stand-ins; ``apt.sim[version] = text`` sets what a
    simulated install of that version prints (``apt.sim[None]``: of any other)."""
    if shutil.which("make") is None:
        pytest.skip("needs make")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("apt-cache", FAKE_APT_CACHE), ("apt-get", FAKE_APT_GET), ("id", FAKE_ID)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)

    class Apt:
        versions = [TESTED, NEWER]
        candidate = NEWER
        uid = 0
        sim = {None: ONLY_NEW.format(v=NEWER)}

        def make(self, *args):
            for version, text in self.sim.items():
                (tmp_path / ("sim" if version is None else "sim-" + version)).write_text(text)
            env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]), FAKE=str(tmp_path),
                       FAKE_VERSIONS=" ".join(self.versions), FAKE_CANDIDATE=self.candidate,
                       FAKE_UID=str(self.uid), CHROMIUM=str(tmp_path / "no-chromium"))
            result = subprocess.run(["make", "-s", "--no-print-directory", "chromium"] + list(args),
                                    cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
            log = tmp_path / "log"
            self.calls = log.read_text().splitlines() if log.exists() else []
            return result

        def installs(self):
            return [c for c in self.calls if c.startswith("apt-get") and " install" in c
                    and " -s " not in c]

    return Apt()


def test_the_tested_version_with_its_common_files_and_no_recommends(apt):
    apt.sim[TESTED] = ONLY_NEW.format(v=TESTED)
    result = apt.make()
    assert result.returncode == 0 and result.stderr == ""
    assert apt.installs() == [
        "apt-get install -y -qq --no-install-recommends chromium=%s chromium-common=%s "
        "fonts-liberation" % (TESTED, TESTED)]
    assert "installing chromium %s, the tested version (4 new packages, no installed package" \
           " changed)" % TESTED in result.stdout
    assert "held broken" not in result.stdout + result.stderr


def test_a_gone_tested_version_falls_back_quietly_to_the_archives(apt):
    apt.versions = [NEWER]
    result = apt.make()
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[-1] == ("install-chromium: 150 is not available: installing 156 "
                         "(%s; 4 new packages, no installed package changed)" % NEWER)
    assert apt.installs() == [
        "apt-get install -y -qq --no-install-recommends chromium=%s chromium-common=%s "
        "fonts-liberation" % (NEWER, NEWER)]
    # the tested version was looked up, never handed to apt-get
    assert not [c for c in apt.calls if c.startswith("apt-get") and TESTED in c]


def test_a_tested_version_apt_cannot_resolve_falls_back(apt):
    apt.sim[TESTED] = HELD
    result = apt.make()
    assert "150 does not install (E: Unable to correct problems" in result.stdout
    assert ": installing 156 (" in result.stdout
    assert [c.split()[-2] for c in apt.installs()] == ["chromium-common=" + NEWER]


def test_nothing_is_installed_when_it_would_upgrade_the_system(apt):
    apt.versions = [NEWER]
    apt.sim[None] = UPGRADES.format(v=NEWER)
    result = apt.make()
    assert result.returncode == 0
    assert apt.installs() == []
    assert ("156 would change installed packages (perl-base libsystemd0)" in result.stdout)
    assert "nothing installed: the browser tests will say so" in result.stdout
    # and never an upgrade of anything, simulated or not
    assert not [c for c in apt.calls if "upgrade" in c.split()]


def test_a_downgrade_of_an_installed_chromium_counts_as_a_change(apt):
    apt.sim[TESTED] = "Inst chromium [%s] (%s Debian [amd64])\n" % (NEWER, TESTED)
    result = apt.make()
    assert "150 would change installed packages (chromium)" in result.stdout
    assert [c.split()[-2] for c in apt.installs()] == ["chromium-common=" + NEWER]


def test_not_root_or_already_there_does_nothing(apt, tmp_path):
    apt.uid = 1000
    result = apt.make()
    assert (result.returncode, result.stdout, apt.calls) == (0, "", [])
    apt.uid = 0
    chromium = tmp_path / "no-chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    result = apt.make()
    assert (result.returncode, result.stdout, apt.calls) == (0, "", [])


def test_the_dry_run_on_this_machines_apt_names_an_archive_version():
    if shutil.which("apt-cache") is None or shutil.which("apt-get") is None:
        pytest.skip("needs Debian's apt")
    madison = subprocess.run(["apt-cache", "madison", "chromium"], capture_output=True, text=True)
    versions = [line.split("|")[1].strip() for line in madison.stdout.splitlines()]
    if not versions:
        pytest.skip("apt's package lists have no chromium here (apt-get update first)")
    result = subprocess.run(["sh", SCRIPT, "--dry-run", TESTED], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0 and result.stderr == ""
    line, = result.stdout.splitlines()
    chosen = re.search(r"installing (?:chromium (\S+), the tested version|\d+ \((\S+);)", line)
    if chosen is None:
        assert "nothing installed" in line or "no other chromium" in line
        return
    assert (chosen.group(1) or chosen.group(2)) in versions

"""``python -m sim.deploy --usb-link``: a boot.py that enables the USB data channel, written only
when asked, a user's own boot.py kept under a free name (never written over), and removed by a
deploy without the flag only if it is the deploy's, unchanged."""

import os
import re

from sim import deploy


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def test_no_boot_py_unless_asked(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    assert not (dest / "boot.py").exists()
    assert "boot.py" not in capsys.readouterr().out


def test_usb_link_writes_a_boot_py_that_enables_the_data_channel(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--usb-link", "--dry-run"]) == 0
    assert re.search(r"^write\s+boot.py .*--usb-link", capsys.readouterr().out, re.M)
    assert not dest.exists()
    assert deploy.main([str(dest), "--usb-link"]) == 0
    boot = read(dest / "boot.py")
    assert boot == deploy.BOOT_USB_LINK
    lines = [line for line in boot.decode().splitlines() if line and not line.startswith("#")]
    assert lines == ["import usb_cdc", "usb_cdc.enable(console=True, data=True)"]
    assert "boot.py" in read(dest / deploy.MANIFEST).decode()
    # it is run from source: never compiled, whatever else is
    assert not (dest / "boot.mpy").exists()
    # again: nothing to do
    assert deploy.main([str(dest), "--usb-link"]) == 0
    assert "done: 0 change(s)" in capsys.readouterr().out


def test_a_deploy_without_the_flag_removes_the_deploys_boot_py_only_if_unchanged(tmp_path,
                                                                                capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--usb-link"]) == 0
    assert deploy.main([str(dest)]) == 0
    assert re.search(r"^remove\s+boot.py", capsys.readouterr().out, re.M)
    assert not (dest / "boot.py").exists()
    # edited on the board since: the user's now, left as it is
    assert deploy.main([str(dest), "--usb-link"]) == 0
    edited = deploy.BOOT_USB_LINK + b"import storage\n"
    (dest / "boot.py").write_bytes(edited)
    assert deploy.main([str(dest)]) == 0
    assert read(dest / "boot.py") == edited


def test_a_users_boot_py_is_kept_under_a_free_name_never_written_over(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    theirs = b"import storage\nstorage.remount('/', readonly=False)\n"
    (dest / "boot.py").write_bytes(theirs)
    assert deploy.main([str(dest)]) == 0          # not asked: theirs stays where it is
    assert read(dest / "boot.py") == theirs
    capsys.readouterr()
    assert deploy.main([str(dest), "--usb-link", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^rename\s+boot.py -> boot-before-rolit.py .*yours", out, re.M), out
    assert read(dest / "boot.py") == theirs
    assert deploy.main([str(dest), "--usb-link"]) == 0
    assert read(dest / "boot-before-rolit.py") == theirs
    assert read(dest / "boot.py") == deploy.BOOT_USB_LINK
    # the kept copy is the user's: a deploy without the flag removes only the deploy's boot.py
    assert deploy.main([str(dest)]) == 0
    assert not (dest / "boot.py").exists()
    assert read(dest / "boot-before-rolit.py") == theirs


def test_usb_link_is_refused_for_a_raspberry_pi(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--preset", "blinka_pi", "--usb-link"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--usb-link is for CircuitPython boards" in err
    assert not dest.exists()

"""The firmware's version changes with the release: docs/CHANGELOG.md's newest
entry is it, it is not the release whose journals are refused, and the
cabinet shows it on the audit identity page, in the read-out's ID and to a
SAS host (long poll 1F's additional ID; 54 keeps the SAS version "602").
Plain asserts: runs on CPython and on the MicroPython unix port."""
from firmware import version
from test_e2e_session import make
from test_device_faults import readout


def _changelog_newest():
    with open("docs/CHANGELOG.md") as f:
        for line in f:
            if line.startswith("## "):
                return line[3:].split()[0]
    return None


def test_the_version_is_the_changelogs_newest_release():
    parts = version.VERSION.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts), version.VERSION
    assert version.VERSION == _changelog_newest(), (version.VERSION, _changelog_newest())
    # 0.1.0 is the release whose whole-dollar journals this one refuses
    assert version.VERSION != "0.1.0"
    assert version.sas_id() == "".join(parts)[:3] and len(version.sas_id()) == 3


def test_the_audit_identity_page_shows_the_version():
    b, d = make(seed=81)
    b.audit_key.set(1)
    d.run(300)
    main = d.ctl.menu.stack[0]                 # the real menu, built with ctl.identity()
    target = [i[0] for i in main.items].index("Meters")
    while main.cursor != target:
        d.press("NEXT")
    d.press("ROLL")                            # Meters: its first page is the identity
    assert d.on_screen("Ver " + version.VERSION), d.screen_text()


def test_the_readout_id_reports_the_version():
    b, d = make(seed=82)
    out = readout(b, d, b"ID\n")
    assert "OK ID" in out and ("version=" + version.VERSION) in out, out


def test_sas_reports_the_version_in_1f_and_the_sas_version_in_54():
    b, d = make(seed=83, sas="loop")

    def poll(data):
        b.sas.host_send(data)
        d.run(20)
        return b.sas.host_read()
    poll(b"\x80")      # the host's sync: nothing is answered before a poll to another address
    ans = poll(b"\x01\x1f")
    assert ans[:2] == b"\x01\x1f" and ans[2:7] == b"BC" + version.sas_id().encode(), ans
    ans = poll(b"\x01\x54")
    assert ans[:2] == b"\x01\x54" and ans[3:6] == b"602", ans

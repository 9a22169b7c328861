"""A board release: Verify hashes the running image plus the release's
filesystem files and reports every other file; the import path holds only
'.frozen' so no file can shadow frozen or built-in modules; safe boot.
Plain asserts: pytest and the MicroPython unix port (mp_runner.py test_release).
"""
import hashlib
import os
import sys

from hal import image as running
from hal import buttons as B
from hal import faults as F
from hal import safeboot
from firmware import release
from firmware.audit.digest import Digest, for_board

MP_SKIP = ("test_host_tool_equals_verify_on_a_uf2", "test_host_tool_takes_the_file_list_from_the_image",
           "test_unix_port_shadowing_and_frozen_only",
           "test_host_tool_equals_verify_on_an_esp32_app",
           "test_uf2_end_past_the_last_page_reads_as_erased_flash")
TMP = "build/test_release"
IMAGE = bytes(range(256)) * 7 + b"end"   # not a multiple of the hash chunk
# the release's file list as a frozen firmware/release.py leaves it in an image
IMAGE_LIST = release.FS_LIST.encode() + b"\0"


def _rmtree(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for n in names:
        p = path + "/" + n
        if os.stat(p)[0] & 0x4000:
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def _tree(files):
    _rmtree(TMP)
    for d in ("build", TMP):
        try:
            os.mkdir(d)
        except OSError:
            pass
    for rel, data in files:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            try:
                os.mkdir(TMP + "/" + "/".join(parts[:i]))
            except OSError:
                pass
        with open(TMP + "/" + rel, "wb") as f:
            f.write(data)
    return TMP


RELEASE_TREE = (("main.py", b"import hal\n"), ("boot.py", b"import gc\n"))
STRAYS = (("hashlib.py", b"def sha256(d=b''): pass\n"), ("firmware/cabinet/game.mpy", b"M\x06"),
          ("notes.txt", b"x"))


def _expected(image, files):
    h = hashlib.sha256()
    h.update(b"image\n%d\n" % len(image))
    h.update(image)
    for rel, data in sorted(files):
        h.update(b"%s\n%d\n" % (rel.encode(), len(data)))
        h.update(data)
    return "".join("%02x" % b for b in h.digest())


def test_release_digest_hashes_image_and_release_files_and_reports_strays():
    root = _tree(RELEASE_TREE + STRAYS)
    d = Digest(root, IMAGE, release.FS_FILES)
    steps = 0
    while not d.step(1):
        steps += 1
    assert steps > len(IMAGE) // 512  # the image too is hashed in bounded steps
    assert d.hexdigest == _expected(IMAGE, RELEASE_TREE)
    assert d.extras == ["firmware/cabinet/game.mpy", "hashlib.py", "notes.txt"]
    assert [f[0] for f in d.files] == ["boot.py", "main.py"]
    # strays change nothing that is hashed; a changed image byte does
    clean = Digest(_tree(RELEASE_TREE), IMAGE, release.FS_FILES)
    assert clean.run() == d.hexdigest and clean.extras == []
    assert Digest(root, IMAGE[:-1] + b"E", release.FS_FILES).run() != d.hexdigest
    _rmtree(TMP)


def test_verify_and_readout_use_the_image_where_there_is_one():
    from firmware.audit.readout import Readout
    from test_audit_support import make, IDENT
    # the provisioned mark is the cabinet's own file: not a stray
    root = _tree(RELEASE_TREE + STRAYS[:1] + (("journal.provisioned", b"journal provisioned\n"),))
    assert for_board(root).release is None  # host: the tree digest
    saved = running.read
    running.read = lambda: IMAGE
    try:
        assert for_board(root).release == release.FS_FILES
        store, _ = make(1)
        r = Readout(store, IDENT, root=root)
        reply = r.feed(b"DIGEST\n")
        for _ in range(200):
            if b"OK DIGEST" in reply:
                break
            r.tick()
            reply = r.feed(b"DIGEST\n")
        text = reply.decode()
        assert "OK DIGEST " + _expected(IMAGE, RELEASE_TREE) in text, text
        assert "extra=1" in text and "extra_file=hashlib.py" in text
    finally:
        running.read = saved
        _rmtree(TMP)


def _ask(r, line):
    """One request through feed(): DIGEST asked again while it computes."""
    reply = r.feed(line)
    for _ in range(400):
        if not reply.startswith(b"ERR 5"):
            break
        r.tick()
        reply = r.feed(line)
    return reply.decode().split("\n")[:-2]   # without the "." line


def test_readout_lists_every_stray_file_page_by_page():
    from firmware.audit import readout as RO
    from test_audit_support import make, IDENT
    long_name = "d/" + "n" * 90 + ".py"   # longer than a screen line, listed whole
    strays = [("s%02d.txt" % i, b"x") for i in range(2 * RO.EXTRAS_PAGE + 5)] + [(long_name, b"y")]
    root = _tree(RELEASE_TREE + tuple(strays))
    saved = running.read
    running.read = lambda: IMAGE
    try:
        store, _ = make(1)
        r = RO.Readout(store, IDENT, root=root)
        assert _ask(r, b"EXTRAS\n")[0].startswith("ERR 6"), "no DIGEST yet"
        digest = _ask(r, b"DIGEST\n")
        assert digest[0] == "OK DIGEST " + _expected(IMAGE, RELEASE_TREE), digest[0]
        assert "extra=%d" % len(strays) in digest
        seen = [l[len("extra_file="):] for l in digest if l.startswith("extra_file=")]
        assert len(seen) == RO.EXTRAS_PAGE
        start = len(seen)
        while start < len(strays):
            page = _ask(r, b"EXTRAS %d\n" % start)
            assert page[0] == "OK EXTRAS %d of %d from %d" % (
                min(RO.EXTRAS_PAGE, len(strays) - start), len(strays), start), page[0]
            seen += [l[len("extra_file="):] for l in page[1:]]
            start += RO.EXTRAS_PAGE
        assert sorted(seen) == sorted(n for n, _ in strays), "every stray file, each whole"
        assert _ask(r, b"EXTRAS %d\n" % len(strays))[0] == "OK EXTRAS 0 of %d from %d" % (
            len(strays), len(strays))
        assert _ask(r, b"EXTRAS x\n")[0].startswith("ERR 4")
    finally:
        running.read = saved
        _rmtree(TMP)


def test_the_provisioned_mark_is_a_state_file_of_the_release():
    """hal/common.py keeps the mark in a file; Verify and tools/deploy know it
    from firmware/release.py STATE_FILES (deploy deleting it would let a wiped
    journal pass for a new cabinet)."""
    with open("hal/common.py") as f:  # both runners work in the repository root
        src = f.read()
    assert 'Marker("/%s")' % release.STATE_FILES[0] in src
    assert not set(release.STATE_FILES) & set(release.FS_FILES)


def test_audit_menu_verify_shows_the_image_digest_and_the_strays():
    from test_audit_support import make, menu, Driver
    root = _tree(RELEASE_TREE + STRAYS[:1])
    saved = running.read
    running.read = lambda: IMAGE
    try:
        store, board = make(0)
        m = menu(store, board, root)
        d = Driver(m, board)
        d.enter("Verify software")
        for _ in range(5000):
            if "EXTRA" in d.text() or "files" in d.text():
                break
            d.step()
        lines = m.lines()
        assert "".join(lines[1:5]) == _expected(IMAGE, RELEASE_TREE)
        assert lines[5] == "EXTRA FILES 1" and lines[6] == "hashlib.py"
    finally:
        running.read = saved
        _rmtree(TMP)


def test_release_path_only_when_the_image_holds_the_cabinet():
    from hal import bootpath
    saved = list(sys.path)
    mod = sys.modules.pop("firmware")
    try:
        # no frozen cabinet (the .mpy variant, or this host): the path is kept
        assert bootpath.release_path(sys.path) is False and sys.path == saved
        sys.modules["firmware"] = mod  # as if the image held it
        assert bootpath.release_path(sys.path) is True and sys.path == [".frozen"]
    finally:
        sys.modules["firmware"] = mod
        sys.path.clear()
        sys.path.extend(saved)


class _Inputs:
    """A hardware board's 74HC165 word (hal.common.ShiftInputs.read())."""

    def __init__(self, word):
        self.word = word

    def read(self):
        return self.word


class _PowerUpBoard:
    def __init__(self, word, faults=()):
        self.inputs = _Inputs(word)
        self._faults = list(faults)

    def faults(self):
        return self._faults


def test_safe_boot_by_flag_or_buttons_never_by_a_dead_chain():
    root = _tree(())
    b = _PowerUpBoard(0)
    assert safeboot.requested(b, root + "/") == ""
    with open(root + "/" + safeboot.FLAG, "w") as f:
        f.write("")
    assert safeboot.requested(b, root + "/") == "flag"
    os.remove(root + "/" + safeboot.FLAG)
    b.inputs.word = 1 << B.CASHOUT
    assert safeboot.requested(b, root + "/") == ""
    b.inputs.word |= 1 << B.HELP
    assert safeboot.requested(b, root + "/") == "buttons"
    dead = _PowerUpBoard(0xFFFFFF, (F.INPUTS,))  # what a chain stuck low reads
    assert safeboot.requested(dead, root + "/") == ""
    _rmtree(TMP)


def _uf2(image, base=0x10000000, unwritten=0):
    """A UF2 of `image` with a pico-sdk binary-info header naming its end;
    `unwritten` bytes past it count in the end but are in no block (the SDK's
    .uninitialized_data, when the image before it ends on a page boundary)."""
    import struct
    img = bytearray(image)
    head = 0x100
    info = len(img)
    img += struct.pack("<HHIi", 5, 0x5052, 0x68F465DE, 0)   # RP_BINARY_END, filled below
    ptrs = len(img)
    img += struct.pack("<I", base + info)
    end = base + len(img) + unwritten
    struct.pack_into("<i", img, info + 8, end - (1 << 32) if end >= 1 << 31 else end)
    struct.pack_into("<5I", img, head, 0x7188EBF2, base + ptrs, base + ptrs + 4, 0, 0xE71AA390)
    if unwritten:
        assert len(img) % 256 == 0
        return _blocks(img, base), bytes(img) + b"\xff" * unwritten
    img += b"\xAA" * (-len(img) % 256 + 256)  # padding past the end is not hashed
    return _blocks(img, base), bytes(img[:end - base])


def _blocks(img, base):
    import struct
    out = bytearray()
    n = len(img) // 256
    for i in range(n):
        out += struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, base + 256 * i, 256, i, n, 0xE48BFF56)
        out += img[256 * i:256 * i + 256] + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30)
    return bytes(out)


def test_uf2_end_past_the_last_page_reads_as_erased_flash():
    """pico-sdk's __flash_binary_end counts .uninitialized_data, which no UF2
    block holds: when .data ends on a page boundary the end lies past the last
    block (a real release image did this: end 0x1007ce20, blocks to 0x1007ce00).
    In the sector the loader erased those bytes read 0xFF, on the Pico and in
    the emulator; an end in a sector the UF2 never touched is refused."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "tools"))
    import digest_host
    path = TMP + "_tail.uf2"
    for payload, ok in ((256 * 40 - 16, True), (4096 * 2 - 16, False)):
        uf2, image = _uf2(bytes(range(256)) * (payload // 256) + bytes(payload % 256),
                          unwritten=0x20)
        with open(path, "wb") as f:
            f.write(uf2)
        if ok:
            assert digest_host.uf2_image(path) == image and image.endswith(b"\xff" * 0x20)
        else:
            try:
                digest_host.uf2_image(path)
                raise AssertionError("an end in an unwritten sector was accepted")
            except ValueError as e:
                assert "outside the UF2" in str(e)
    os.remove(path)


def test_host_tool_equals_verify_on_a_uf2():
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "tools"))
    import digest_host
    fs = _tree(RELEASE_TREE + STRAYS)
    uf2, image = _uf2(bytes(range(256)) * 40 + IMAGE_LIST)
    with open(fs + "/cabinet.uf2", "wb") as f:
        f.write(uf2)
    assert digest_host.uf2_image(fs + "/cabinet.uf2") == image
    verify = Digest(fs, image, release.FS_FILES).run()
    out = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/cabinet.uf2", "--fs", fs],
                         capture_output=True, text=True, check=True).stdout
    assert "SHA-256 " + verify in out
    with open(fs + "/bad.uf2", "wb") as f:
        f.write(uf2[:-1])
    bad = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/bad.uf2"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "not a UF2" in bad.stderr
    _rmtree(TMP)


def test_unix_port_shadowing_and_frozen_only():
    """What the frozen _boot.py fixes, on the unix port: a hashlib.py in the
    current directory replaces the built-in; with only '.frozen' on the path
    it cannot."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fs = _tree((("hashlib.py", b"SHADOW = 1\n"),))
    mp = os.path.join(root, ".venv", "bin", "micropython")
    code = ("import sys; sys.path.insert(0, %r); from hal import bootpath;"
            "import hashlib; print('before', hasattr(hashlib, 'SHADOW'));"
            "del sys.modules['hashlib']; bootpath.frozen_only(sys.path);"
            "import hashlib; print('after', hasattr(hashlib, 'SHADOW'), hasattr(hashlib, 'sha256'), sys.path)"
            % root)
    out = subprocess.run([mp, "-c", code], cwd=os.path.join(root, fs), capture_output=True,
                         text=True, check=True).stdout
    assert "before True" in out, out
    assert "after False True ['.frozen']" in out, out
    _rmtree(TMP)


def test_host_tool_takes_the_file_list_from_the_image():
    """tools/digest of an image hashes the files that image's own release
    list names (Verify on the board does), never the source tree's; an image
    that carries no list is refused."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "tools"))
    import digest_host
    extra = (("extra.py", b"print(1)\n"),)
    fs = _tree(RELEASE_TREE + extra)
    listed = b"release-fs-files:boot.py extra.py main.py\0"
    uf2, image = _uf2(bytes(range(256)) * 40 + listed)
    with open(fs + "/other.uf2", "wb") as f:
        f.write(uf2)
    assert digest_host.fs_files_in(image) == ("boot.py", "extra.py", "main.py")
    out = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/other.uf2", "--fs", fs,
                          "--list"], capture_output=True, text=True, check=True).stdout
    assert "SHA-256 " + _expected(image, RELEASE_TREE + extra) in out
    assert "extra.py" in out
    uf2, image = _uf2(bytes(range(256)) * 40)
    with open(fs + "/nolist.uf2", "wb") as f:
        f.write(uf2)
    bad = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/nolist.uf2", "--fs", fs],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "no release file list" in bad.stderr, bad.stderr
    named = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/nolist.uf2", "--fs", fs,
                            "--files-from", root], capture_output=True, text=True, check=True).stdout
    assert "SHA-256 " + _expected(image, RELEASE_TREE) in named, "the tree's list, when asked"
    # the source's list reads the same way, and says what the firmware holds
    assert digest_host.release_fs_files(root) == release.FS_FILES
    _rmtree(TMP)


def _esp_app(seg_lens, hashed, data=b""):
    """An ESP-IDF app image: header, segments (the first one starting with
    `data`), checksum block, SHA-256."""
    import struct
    img = bytearray(24)
    img[0], img[1], img[23] = 0xE9, len(seg_lens), 1 if hashed else 0
    for i, n in enumerate(seg_lens):
        seg = (data if i == 0 else b"") + bytes((i * 7 + k) & 0xFF for k in range(n))
        img += struct.pack("<II", 0x3F400000 + i, n) + seg[:n]
    img += bytes(15 - len(img) % 16) + b"\x5a"
    if hashed:
        img += hashlib.sha256(img).digest()
    return bytes(img)


class _Partition:
    """esp32.Partition's block protocol over bytes (4096-byte blocks)."""

    def __init__(self, data):
        self.data = data + b"\xff" * (-len(data) % 4096)
        self.reads = 0

    def ioctl(self, op, arg):
        return len(self.data) // 4096 if op == 4 else 4096 if op == 5 else 0

    def readblocks(self, block, buf, off=0):
        self.reads += 1
        start = block * 4096 + off
        buf[:] = self.data[start:start + len(buf)]


def test_esp32_image_is_walked_by_its_segments_and_read_in_pieces():
    from hal.esp32 import image as EI
    app = _esp_app((5000, 4093, 17), True)
    part = _Partition(app + b"old data from before" * 300)  # not part of the image
    assert EI.app_length(part) == len(app)
    img = EI.Image(part, len(app))
    assert bytes(img[4000:4500]) == app[4000:4500]  # across a block boundary
    root = _tree(RELEASE_TREE + STRAYS[:1])
    d = Digest(root, img, release.FS_FILES)
    assert d.run() == _expected(app, RELEASE_TREE) and d.extras == ["hashlib.py"]
    assert EI.app_length(_Partition(b"\xff" * 4096)) is None  # erased: no image
    assert EI.app_length(_Partition(_esp_app((9000,), False)[:4096])) is None  # cut short
    _rmtree(TMP)


def test_host_tool_equals_verify_on_an_esp32_app():
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    from hal.esp32 import image as EI
    app = _esp_app((300, 70000, 12), True, IMAGE_LIST)
    fs = _tree(RELEASE_TREE)
    with open(fs + "/micropython.bin", "wb") as f:
        f.write(app + b"\0" * 100)
    verify = Digest(fs, EI.Image(_Partition(app), len(app)), release.FS_FILES).run()
    out = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/micropython.bin", "--fs", fs],
                         capture_output=True, text=True, check=True).stdout
    assert "SHA-256 " + verify in out and "image (%d bytes)" % len(app) not in out
    listed = subprocess.run([os.path.join(root, "tools", "digest"), fs + "/micropython.bin", "--fs", fs,
                             "--list"], capture_output=True, text=True, check=True).stdout
    assert "image (%d bytes)" % len(app) in listed
    _rmtree(TMP)

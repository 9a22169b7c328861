"""NOR flash model: rules, counters, torn operations, bit rot, file backing."""
import os

import pytest

from hal.mock.norflash import NorFlash, PowerCut, SECTOR, PAGE


def page(fill=0xFF, at=None, val=None):
    b = bytearray([fill] * PAGE)
    if at is not None:
        b[at] = val
    return b


def read(f, addr, n):
    buf = bytearray(n)
    f.readblocks(addr // SECTOR, buf, addr % SECTOR)
    return buf


def test_blank_and_protocol():
    f = NorFlash(4 * SECTOR)
    assert f.ioctl(4, 0) == 4 and f.ioctl(5, 0) == 4096
    assert f.ioctl(1, 0) == 0 and f.ioctl(3, 0) == 0
    assert read(f, 0, 4 * SECTOR) == b"\xff" * (4 * SECTOR)
    assert f.bytes_read == 4 * SECTOR


def test_program_clears_bits_and_ff_leaves_bytes():
    f = NorFlash(2 * SECTOR)
    f.writeblocks(0, page(at=3, val=0x0F), 256)
    assert read(f, 259, 1)[0] == 0x0F
    # 0xFF elsewhere leaves programmed bytes alone (page sharing)
    f.writeblocks(0, page(at=4, val=0x00), 256)
    r = read(f, 256, PAGE)
    assert r[3] == 0x0F and r[4] == 0 and r[5] == 0xFF
    # clearing more bits of the same byte is fine
    f.writeblocks(0, page(at=3, val=0x03), 256)
    assert read(f, 259, 1)[0] == 0x03
    assert f.programs == 3 and f.bytes_programmed == 3 * PAGE


def test_zero_to_one_raises():
    f = NorFlash(SECTOR)
    f.writeblocks(0, page(at=0, val=0x00), 0)
    with pytest.raises(ValueError):
        f.writeblocks(0, page(at=0, val=0x01), 0)
    assert read(f, 0, 1)[0] == 0  # unchanged by the rejected program


def test_alignment_rules():
    f = NorFlash(SECTOR)
    with pytest.raises(ValueError):
        f.writeblocks(0, bytearray(PAGE), 128)
    with pytest.raises(ValueError):
        f.writeblocks(0, bytearray(100), 0)
    with pytest.raises(ValueError):
        f.writeblocks(0, bytearray(PAGE), SECTOR)  # past the end
    assert f.programs == 0


def test_erase_and_counters():
    f = NorFlash(4 * SECTOR)
    f.writeblocks(1, bytearray(SECTOR), 0)
    assert read(f, SECTOR, SECTOR) == bytes(SECTOR)
    assert f.ioctl(6, 1) == 0
    assert read(f, SECTOR, SECTOR) == b"\xff" * SECTOR
    assert f.erases == 1 and list(f.erase_counts) == [0, 1, 0, 0]
    # writeblocks without offset erases the touched sectors first
    f.writeblocks(2, bytearray(2 * SECTOR))
    assert list(f.erase_counts) == [0, 1, 1, 1]
    f.writeblocks(2, bytearray(b"\x55" * SECTOR))
    assert read(f, 2 * SECTOR, 4) == b"\x55" * 4


def test_torn_program_clears_subset_only():
    seen_partial = False
    for seed in range(1, 40):
        f = NorFlash(SECTOR, seed=seed)
        f.writeblocks(0, page(0xF0), 0)
        want = page(0x00)
        f.cut_after(1)
        with pytest.raises(PowerCut):
            f.writeblocks(0, want, 0)
        got = read_after_power(f, 0, PAGE)
        for b in got:
            assert b | 0xF0 == 0xF0  # bits may clear, none may be set
        if got != page(0xF0) and got != want:
            seen_partial = True
    assert seen_partial


def read_after_power(f, addr, n):
    with pytest.raises(PowerCut):
        read(f, addr, n)  # refuses until power_on
    f.power_on()
    return read(f, addr, n)


def test_torn_erase_neither_intact_nor_erased():
    partial = 0
    for seed in range(1, 30):
        f = NorFlash(2 * SECTOR, seed=seed)
        f.writeblocks(0, bytearray(SECTOR), 0)
        f.cut_after(1)
        with pytest.raises(PowerCut):
            f.ioctl(6, 0)
        got = read_after_power(f, 0, SECTOR)
        if got != bytes(SECTOR) and got != b"\xff" * SECTOR:
            partial += 1
            assert 0 < got.count(0xFF) < SECTOR
        assert read(f, SECTOR, SECTOR) == b"\xff" * SECTOR  # neighbour intact
    assert partial > 5


def test_cut_after_counts_ops_and_is_deterministic():
    outs = []
    for _ in range(2):
        f = NorFlash(SECTOR, seed=5)
        f.cut_after(3)
        f.writeblocks(0, page(0x7F), 0)
        f.ioctl(6, 0)
        with pytest.raises(PowerCut):
            f.writeblocks(0, page(0x00), 256)
        f.power_on()
        outs.append(read(f, 0, SECTOR))
    assert outs[0] == outs[1]


def test_flip_bit():
    f = NorFlash(SECTOR)
    f.flip_bit(10, 3)
    assert read(f, 10, 1)[0] == 0xF7


def test_file_backing_survives_reopen(tmp_path):
    p = str(tmp_path / "flash.bin")
    f = NorFlash(2 * SECTOR, path=p)
    f.writeblocks(1, page(0x12), 512)
    f.flip_bit(0, 0)
    # no close(): write-through must already be on disk (kill -9)
    g = NorFlash(2 * SECTOR, path=p)
    assert read(g, SECTOR + 512, 2) == b"\x12\x12"
    assert read(g, 0, 1)[0] == 0xFE
    g.ioctl(6, 1)
    h = NorFlash(2 * SECTOR, path=p)
    assert read(h, SECTOR + 512, 1)[0] == 0xFF
    assert os.path.getsize(p) == 2 * SECTOR


def test_region_view():
    f = NorFlash(8 * SECTOR)
    r = f.region(2, 4)
    assert r.ioctl(4, 0) == 4 and r.ioctl(5, 0) == 4096
    r.writeblocks(0, page(0x00), 0)
    assert read(f, 2 * SECTOR, 1)[0] == 0
    r.ioctl(6, 3)
    assert f.erase_counts[5] == 1
    with pytest.raises(ValueError):
        r.ioctl(6, 4)
    with pytest.raises(ValueError):
        r.writeblocks(4, page(), 0)

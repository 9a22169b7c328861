"""NOR flash model with MicroPython's extended block-device protocol (host mock).

Runs on CPython and on the MicroPython unix port. Models: 4 KiB erase sectors
(erase -> 0xFF), programs that can only clear bits, 256-byte aligned whole-page
programs (as rp2 flash_range_program), counters, deterministic torn program/erase
on a power cut, bit rot, optional file backing, and sub-range views.
hal/mock/hostile.py adds what makes real NOR harder (marginal cells,
durations, worn sectors).
"""
from micropython import const
from hal.mock.xorshift import Rng as _Xorshift

SECTOR = const(4096)
_ERASED = b"\xff" * SECTOR  # one copy: an erase allocates nothing (like the chip)
PAGE = const(256)


class PowerCut(BaseException):
    """The power went: not an error the firmware can see or handle (on a
    board the CPU just stops), so it passes every `except Exception`."""


def _Rng(seed):
    return _Xorshift(seed, 0x9E3779B9)


class NorFlash:
    def __init__(self, size, path=None, seed=1):
        if size % SECTOR:
            raise ValueError("size must be a multiple of 4096")
        self.size = size
        self.nsectors = size // SECTOR
        # one bytearray per sector: no big contiguous block on a small heap
        self.secs = [bytearray(b"\xff" * SECTOR) for _ in range(self.nsectors)]
        self.path = path
        self._f = None
        self.rng = _Rng(seed)
        self.reset_counters()
        self._cut = 0  # ops left until the torn one; 0 = no cut armed
        self.dead = False
        if path is not None:
            try:
                f = open(path, "r+b")
                for sec in self.secs:
                    f.readinto(sec)  # a short file leaves 0xFF (erased)
            except OSError:
                f = open(path, "w+b")
            f.seek(0)
            for sec in self.secs:
                f.write(sec)
            f.flush()
            self._f = f

    # ---- counters -------------------------------------------------------
    def reset_counters(self):
        self.programs = 0
        self.bytes_programmed = 0
        self.erases = 0
        self.erase_counts = [0] * self.nsectors
        self.bytes_read = 0
        self.ops = 0  # program + erase operations (what cut_after counts)

    # ---- fault injection --------------------------------------------------
    def cut_after(self, n):
        """The n-th program/erase from now (n >= 1) is torn, then PowerCut."""
        if n < 1:
            raise ValueError("n >= 1")
        self._cut = n

    def power_on(self):
        self.dead = False
        self._cut = 0

    def flip_bit(self, byte_offset, bit):
        sec = self.secs[byte_offset // SECTOR]
        sec[byte_offset % SECTOR] ^= 1 << bit
        self._persist(byte_offset, 1)

    def image(self):
        """Whole contents as bytes (tests)."""
        return b"".join(self.secs)

    def load_image(self, img):
        for i in range(self.nsectors):
            self.secs[i][:] = img[i * SECTOR:(i + 1) * SECTOR]
        if self._f is not None:
            self._persist(0, self.size)

    def peek(self, addr, n):
        """Bytes at addr (no counters, works while powered off)."""
        out = bytearray(n)
        self._copy_out(addr, out)
        return bytes(out)

    def _spans(self, addr, n):
        """(sector, offset in it, offset in the data, length) of each piece of
        [addr, addr + n) that lies in one sector."""
        k = 0
        while k < n:
            o = (addr + k) % SECTOR
            c = min(n - k, SECTOR - o)
            yield self.secs[(addr + k) // SECTOR], o, k, c
            k += c

    def _copy_out(self, addr, buf):
        for sec, o, k, c in self._spans(addr, len(buf)):
            buf[k:k + c] = memoryview(sec)[o:o + c]

    def _copy_in(self, addr, data):
        mv = memoryview(data)
        for sec, o, k, c in self._spans(addr, len(data)):
            sec[o:o + c] = mv[k:k + c]

    def _check_alive(self):
        if self.dead:
            raise PowerCut("flash is powered off")

    def _tick(self):
        """Count one op; True if this op must be torn."""
        self.ops += 1
        if self._cut:
            self._cut -= 1
            if self._cut == 0:
                return True
        return False

    def _persist(self, addr, n):
        f = self._f
        if f is not None:
            f.seek(addr)
            f.write(self.peek(addr, n))
            f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    # ---- primitive operations (absolute addresses) ------------------------
    def read(self, addr, buf):
        self._check_alive()
        n = len(buf)
        if addr < 0 or addr + n > self.size:
            raise ValueError("read out of range")
        self._copy_out(addr, buf)
        self.bytes_read += n

    def program(self, addr, buf):
        self._check_alive()
        n = len(buf)
        if addr % PAGE or n % PAGE or n == 0:
            raise ValueError("program must be 256-byte aligned, whole pages")
        if addr < 0 or addr + n > self.size:
            raise ValueError("program out of range")
        old = int.from_bytes(self.peek(addr, n), "big")
        new = int.from_bytes(buf, "big")
        res = old & new
        if res != new:
            # 0xFF bytes mean "leave unchanged" (page sharing); any other byte
            # that needs a 0->1 bit change is an error
            d = (res ^ new).to_bytes(n, "big")
            for i in range(n):
                if d[i] and buf[i] != 0xFF:
                    raise ValueError("program needs a 0->1 bit change at 0x%x" % (addr + i))
        res = res.to_bytes(n, "big")
        torn = self._tick()
        self.programs += 1
        self.bytes_programmed += n
        if not torn:
            self._copy_in(addr, res)
            self._persist(addr, n)
            return
        buf = res
        d = bytearray(self.peek(addr, n))
        # torn: only part of the bits that should clear are cleared
        rng = self.rng
        mode = rng.below(4)
        if mode == 1:  # all landed, but the caller never sees the return
            d[:] = buf
        elif mode >= 2:
            start = rng.below(n) if mode == 3 else 0
            for i in range(start, n):
                if mode == 3 and i - start > PAGE:
                    break
                want = buf[i]
                if want != d[i]:
                    # clear a random subset of the bits to be cleared
                    d[i] = d[i] & (want | (rng.next() & 0xFF))
            if mode == 3:  # bytes before start landed fully (page by page)
                d[:start] = buf[:start]
        self._copy_in(addr, d)
        self._persist(addr, n)
        self.dead = True
        raise PowerCut("torn program at 0x%x" % addr)

    def erase(self, sector):
        self._check_alive()
        if sector < 0 or sector >= self.nsectors:
            raise ValueError("erase out of range")
        torn = self._tick()
        self.erases += 1
        self.erase_counts[sector] += 1
        a = sector * SECTOR
        d = self.secs[sector]
        if not torn:
            d[:] = _ERASED
            self._persist(a, SECTOR)
            return
        rng = self.rng
        mode = rng.below(4)
        if mode == 1:
            d[:] = _ERASED
        elif mode >= 2:
            # neither intact nor erased: some bytes erased, some bits random
            for i in range(SECTOR):
                r = rng.next()
                k = r & 3
                if k == 1:
                    d[i] = 0xFF
                elif k == 2:
                    d[i] |= (r >> 8) & 0xFF
                elif k == 3 and mode == 3:
                    d[i] = (r >> 16) & 0xFF
        self._persist(a, SECTOR)
        self.dead = True
        raise PowerCut("torn erase of sector %d" % sector)

    # ---- extended block-device protocol -----------------------------------
    def readblocks(self, n, buf, offset=0):
        self.read(n * SECTOR + offset, buf)

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            nb = (len(buf) + SECTOR - 1) // SECTOR
            for i in range(nb):
                self.erase(n + i)
            offset = 0
        self.program(n * SECTOR + offset, buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.nsectors
        if op == 5:
            return SECTOR
        if op == 6:
            self.erase(arg)
            return 0
        if op in (1, 2, 3):
            return 0
        return None

    def region(self, start_block, nblocks):
        return NorRegion(self, start_block, nblocks)


class NorRegion:
    """Sub-range view with the same protocol (like rp2.Flash(start=, len=))."""

    def __init__(self, flash, start_block, nblocks):
        if start_block < 0 or start_block + nblocks > flash.nsectors:
            raise ValueError("region out of range")
        self.flash = flash
        self.start = start_block
        self.nblocks = nblocks

    def _addr(self, n, offset, length):
        if n < 0 or n * SECTOR + offset + length > self.nblocks * SECTOR:
            raise ValueError("out of region")
        return (self.start + n) * SECTOR + offset

    def readblocks(self, n, buf, offset=0):
        self.flash.read(self._addr(n, offset, len(buf)), buf)

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            nb = (len(buf) + SECTOR - 1) // SECTOR
            for i in range(nb):
                self.ioctl(6, n + i)
            offset = 0
        self.flash.program(self._addr(n, offset, len(buf)), buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.nblocks
        if op == 6:
            if arg < 0 or arg >= self.nblocks:
                raise ValueError("erase out of region")
            self.flash.erase(self.start + arg)
            return 0
        return self.flash.ioctl(op, arg)

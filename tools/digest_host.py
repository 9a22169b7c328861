"""Host side of the software verification digest (CPython only, independent
of the firmware code so the two check each other).

Algorithm (same as firmware/audit/digest.py): every *.py / *.mpy file under
firmware/ and hal/ (skipping __pycache__ and dot-directories) plus boot.py and
main.py at the top; relative "/" paths sorted by code point; SHA-256 over
path + "\\n" + size + "\\n" + bytes for each file in order.

Usage: tools/digest [DIR] [--list]   (DIR defaults to the repository)

A board release: tools/digest FILE.uf2 [--fs DIR] [--list]
  the image the UF2 writes, from 0x10000000 to the pico-sdk binary-info
  RP_BINARY_END (what the Pico's Verify reads from flash), hashed as
  "image\n" + size + "\n" + bytes, then the files a release puts on the
  filesystem, as the image lists them (firmware/release.py FS_LIST, frozen
  in it: a source tree's list never stands in), taken from DIR (default:
  the repository) as above. Equals the cabinet's Verify / read-out DIGEST.
  An image that carries no list (not a release image: the stock MicroPython
  image, the mpy variant) is refused unless --files-from TREE names the
  source tree whose list to use instead.
ESP32: tools/digest build/esp32/micropython.bin [--fs DIR] (the app image, not
  the combined firmware.bin): the ESP-IDF app image walked by its segment
  headers (+ checksum block, + the appended SHA-256 when flagged), hashed the
  same way; equals what hal/esp32/image.py reads from the running partition.
"""
import ast
import hashlib
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_files(root):
    out = []
    for top in ("firmware", "hal"):
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for d, dirs, files in os.walk(base):
            dirs[:] = [x for x in dirs if x != "__pycache__" and not x.startswith(".")]
            for name in files:
                if name.startswith("."):
                    continue
                if name.endswith(".py") or name.endswith(".mpy"):
                    full = os.path.join(d, name)
                    if os.path.isfile(full):
                        out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    for name in ("boot.py", "main.py"):
        if os.path.isfile(os.path.join(root, name)):
            out.append(name)
    return sorted(out)


def digest(root):
    h = hashlib.sha256()
    files = release_files(root)
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        h.update(("%s\n%d\n" % (rel, len(data))).encode())
        h.update(data)
    return h.hexdigest(), files


UF2_MAGIC = (0x0A324655, 0x9E5D5157)
XIP_BASE = 0x10000000
BI_MARK_START, BI_MARK_END = 0x7188EBF2, 0xE71AA390
BI_ID_AND_INT, BI_RP_BINARY_END = 5, 0x68F465DE
SECTOR = 4096  # flash erase unit


def uf2_flash(data):
    """{address: payload} of a UF2 file; ValueError if it is not one."""
    if len(data) % 512 or not data:
        raise ValueError("not a UF2 file (size %d)" % len(data))
    out = {}
    for i in range(0, len(data), 512):
        m0, m1, _flags, addr, size = struct.unpack_from("<5I", data, i)
        if (m0, m1) != UF2_MAGIC or size > 476:
            raise ValueError("not a UF2 block at offset %d" % i)
        out[addr] = data[i + 32:i + 32 + size]
    return out


def uf2_image(path):
    """The program image the UF2 writes: contiguous bytes from XIP_BASE up to
    the binary-info RP_BINARY_END."""
    with open(path, "rb") as f:
        blocks = uf2_flash(f.read())
    img = bytearray()
    for addr in sorted(blocks):
        if addr != XIP_BASE + len(img):
            break
        img += blocks[addr]

    def u32(addr):
        if not XIP_BASE <= addr <= XIP_BASE + len(img) - 4:
            raise ValueError("binary info points outside the image: 0x%08x" % addr)
        return struct.unpack_from("<I", img, addr - XIP_BASE)[0]
    for off in range(0, 1024 - 20, 4):
        if u32(XIP_BASE + off) == BI_MARK_START and u32(XIP_BASE + off + 16) == BI_MARK_END:
            start, end = u32(XIP_BASE + off + 4), u32(XIP_BASE + off + 8)
            for p in range(start, end, 4):
                e = u32(p)
                if XIP_BASE <= e < XIP_BASE + len(img) - 12 and \
                        struct.unpack_from("<H", img, e - XIP_BASE)[0] == BI_ID_AND_INT and \
                        u32(e + 4) == BI_RP_BINARY_END:
                    last = u32(e + 8)
                    written = XIP_BASE + len(img)
                    # __flash_binary_end also counts .uninitialized_data (NOLOAD, never in
                    # the UF2): when .data ends on a page boundary those bytes fall in a page
                    # the UF2 leaves out, inside the sector the loader erased for the last
                    # page, so the board (and the emulator) read them as 0xFF.
                    if last > written and (last - 1) // SECTOR == (written - 1) // SECTOR:
                        img += b"\xff" * (last - written)
                    if not XIP_BASE < last <= XIP_BASE + len(img):
                        raise ValueError("binary end 0x%08x outside the UF2" % last)
                    return bytes(img[:last - XIP_BASE])
            raise ValueError("no RP_BINARY_END in the binary info")
    raise ValueError("no pico-sdk binary info header in the first 1 KiB")


def esp_app_image(path):
    """The ESP-IDF app image at the start of `path`: header (24 bytes,
    segment count at 1, hash-appended flag at 23), segments (address,
    length, data), checksum closing a 16-byte block, optional SHA-256."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24 or data[0] != 0xE9:
        raise ValueError("not an ESP32 app image (no 0xE9 header)")
    pos = 24
    for _ in range(data[1]):
        if pos + 8 > len(data):
            raise ValueError("segment header past the end of the file")
        pos += 8 + struct.unpack_from("<I", data, pos + 4)[0]
    pos = (pos | 15) + 1
    if data[23] == 1:
        pos += 32
    if pos > len(data):
        raise ValueError("image longer than the file")
    return data[:pos]


def read_image(path):
    """UF2 (rp2) or ESP32 app image, by content."""
    with open(path, "rb") as f:
        head = f.read(8)
    if len(head) == 8 and struct.unpack_from("<2I", head) == UF2_MAGIC:
        return uf2_image(path)
    if head[:1] == b"\xe9":
        return esp_app_image(path)
    return uf2_image(path)  # reports why it is not a UF2


FS_MARK = b"release-fs-files:"  # firmware/release.py FS_LIST


def fs_files_in(data):
    """FS_FILES from bytes holding firmware/release.py's FS_LIST: an image
    (the frozen string ends at its NUL) or the source (at its quote). Every
    copy found must say the same; ValueError when there is none."""
    found = set()
    i = data.find(FS_MARK)
    while i >= 0:
        j = end = i + len(FS_MARK)
        while end < len(data) and 32 <= data[end] < 127 and data[end] != 0x22:
            end += 1
        found.add(tuple(data[j:end].decode().split()))
        i = data.find(FS_MARK, end)
    if len(found) != 1:
        raise ValueError("no release file list (%r) in it" % FS_MARK.decode() if not found
                         else "release file lists that differ: %s" % sorted(found))
    return found.pop()


def release_fs_files(root=ROOT):
    """FS_FILES of a source tree's firmware/release.py (read as data, not imported)."""
    with open(os.path.join(root, "firmware", "release.py"), "rb") as f:
        return fs_files_in(f.read())


def image_digest(path, fs_root, files_from=None):
    """files_from: a source tree whose release list stands in for an image
    that carries none (the stock MicroPython image, the mpy variant)."""
    image = read_image(path)
    h = hashlib.sha256()
    h.update(("image\n%d\n" % len(image)).encode())
    h.update(image)
    # the list the image itself carries: what Verify on the board hashes
    listed = fs_files_in(image) if files_from is None else release_fs_files(files_from)
    files = sorted(f for f in listed if os.path.isfile(os.path.join(fs_root, f)))
    for rel in files:
        with open(os.path.join(fs_root, rel), "rb") as f:
            data = f.read()
        h.update(("%s\n%d\n" % (rel, len(data))).encode())
        h.update(data)
    return h.hexdigest(), ["image (%d bytes)" % len(image)] + files


def _value(argv, name):
    if name in argv:
        i = argv.index(name)
        if i + 1 < len(argv):
            return argv[i + 1]
    return None


def main(argv):
    fs = _value(argv, "--fs")
    files_from = _value(argv, "--files-from")
    args = [a for a in argv if not a.startswith("-") and a not in (fs, files_from)]
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    root = args[0] if args else ROOT
    if os.path.isfile(root):
        try:
            hexd, files = image_digest(root, fs or ROOT, files_from)
        except (OSError, ValueError) as exc:
            print("%s: %s" % (root, exc), file=sys.stderr)
            return 2
    elif not os.path.isdir(root):
        print("not a directory or UF2 file: %s" % root, file=sys.stderr)
        return 2
    else:
        hexd, files = digest(root)
    if "--list" in argv:
        for rel in files:
            print(rel)
    print("SHA-256 %s" % hexd)
    print("files %d  root %s" % (len(files), os.path.abspath(root)))
    for i in range(0, 64, 16):  # as the cabinet shows it
        print("  " + hexd[i:i + 16])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tools/build_firmware.py: unpacking the MicroPython tarball on every Python the README allows."""
import io
import os
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import build_firmware  # noqa: E402


def make_tarball(path):
    with tarfile.open(path, "w:gz") as t:
        data = b"int main(void) { return 0; }\n"
        info = tarfile.TarInfo("micropython/ports/rp2/main.c")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))


def test_unpack_extracts_the_tarball(tmp_path):
    make_tarball(tmp_path / "mp.tar.gz")
    build_firmware.unpack(str(tmp_path / "mp.tar.gz"), str(tmp_path / "out"))
    assert (tmp_path / "out/micropython/ports/rp2/main.c").read_bytes().startswith(b"int main")


def test_unpack_works_on_a_python_without_extraction_filters(tmp_path, monkeypatch):
    """Debian 12's python3 is 3.11.2: extractall has no filter argument there (3.11.4 added it)."""
    plain_extractall = tarfile.TarFile.extractall

    def extractall_of_3_11_2(self, path=".", members=None, *, numeric_owner=False, **unknown):
        if unknown:
            raise TypeError("extractall() got an unexpected keyword argument %r" % sorted(unknown)[0])
        return plain_extractall(self, path, members, numeric_owner=numeric_owner)

    monkeypatch.setattr(tarfile.TarFile, "extractall", extractall_of_3_11_2)
    make_tarball(tmp_path / "mp.tar.gz")
    build_firmware.unpack(str(tmp_path / "mp.tar.gz"), str(tmp_path / "out"))
    assert (tmp_path / "out/micropython/ports/rp2/main.c").exists()

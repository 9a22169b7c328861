# Frozen in place of ports/esp32/modules/_boot.py (see hal/esp32/manifest.py):
# the port's mount of the "vfs" partition, then only frozen modules may be
# imported (hal/bootpath.py). The "journal" partition is raw: nobody mounts it.
import gc
import sys
import vfs
from flashbdev import bdev
from hal import bootpath

try:
    if bdev:
        vfs.mount(bdev, "/")
except OSError:
    import inisetup

    inisetup.setup()
bootpath.release_path(sys.path)
del bdev, bootpath, sys, vfs
gc.collect()

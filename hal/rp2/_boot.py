# Frozen in place of ports/rp2/modules/_boot.py (see hal/rp2/manifest.py).
# Mounts littlefs on the lower part of the storage area only, so the top
# JOURNAL_LEN bytes stay raw for the journal. The first boot after switching
# from a stock build reformats the filesystem (its superblock spans the whole
# area and does not mount on the shorter range); the journal region is erased
# by nobody here and is validated by the journal code itself.
# Then, in the release image, only frozen modules may be imported
# (hal/bootpath.py). Both modules are imported before the mount, when no
# file can stand in for them.
import sys

from hal import bootpath
from hal.rp2 import storage

storage.mount_fs(True)
bootpath.release_path(sys.path)
del storage, bootpath
# Forget the packages imported from the image before the filesystem existed:
# later imports then resolve along sys.path like every other module (an image
# that freezes only the boot code finds the rest of hal/ on the filesystem).
for _m in ("hal.rp2.storage", "hal.rp2", "hal.bootpath", "hal"):
    sys.modules.pop(_m, None)
del sys, _m

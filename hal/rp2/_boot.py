# Frozen in place of ports/rp2/modules/_boot.py (see hal/rp2/manifest.py).
# Mounts littlefs on the lower part of the storage area only, so the top
# JOURNAL_LEN bytes stay raw for the journal. The first boot after switching
# from a stock build reformats the filesystem (its superblock spans the whole
# area and does not mount on the shorter range); the journal region is erased
# by nobody here and is validated by the journal code itself.
# Then only frozen modules may be imported (hal/bootpath.py).
import sys
from hal import bootpath
from hal.rp2 import storage

storage.mount_fs(True)
bootpath.frozen_only(sys.path)
del storage, bootpath, sys

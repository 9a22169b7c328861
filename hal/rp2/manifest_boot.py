# The part of the cabinet image every rp2 build has (used alone by
# `tools/build-firmware rp2 --variant mpy`, whose cabinet code then comes from
# .mpy files on the filesystem): the port's modules except its _boot.py, which
# is replaced by ours (littlefs on the lower range only; hal/REFERENCE.md,
# "Flash layout"), asyncio, and the storage module that _boot.py needs.
freeze("$(PORT_DIR)/modules", "rp2.py")
module("_boot.py")  # paths are relative to this manifest
include("$(MPY_DIR)/extmod/asyncio")
# (the release manifest includes this one with whole_hal=True and freezes all of hal/)
if not options.whole_hal:
    package("hal", files=["__init__.py", "bootpath.py", "rp2/__init__.py", "rp2/storage.py"], base_path="../..")

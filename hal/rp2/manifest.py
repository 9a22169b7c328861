# Firmware build for the cabinet (Pico):
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/hal/rp2/manifest.py
# The port's modules are frozen except its _boot.py, which is replaced by ours
# (littlefs on the lower range only; see hal/REFERENCE.md, "Flash layout").
freeze("$(PORT_DIR)/modules", "rp2.py")
module("_boot.py", base_path="$(MANIFEST_DIR)")
include("$(MPY_DIR)/extmod/asyncio")
package("hal", base_path="$(MANIFEST_DIR)/../..")
# The cabinet's own code, frozen: its bytecode then runs from flash and the
# heap holds only the state (the unix-port benchmark loads it into RAM).
package("firmware", base_path="$(MANIFEST_DIR)/../..")

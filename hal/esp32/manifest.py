# Firmware build for the cabinet (ESP32, 4 MiB flash): tools/build-firmware esp32
# (tools/build_esp32.sh, needs ESP-IDF), which builds the board in
# hal/esp32/board/ (its partition table hal/esp32/partitions-4MiB.csv has the
# raw "journal" partition) with this manifest. Paths are relative to this
# file. The port's modules are frozen except its _boot.py, replaced by ours;
# machine.py stays (it is where machine.Counter lives).
freeze("$(PORT_DIR)/modules", ("flashbdev.py", "inisetup.py", "machine.py"))
module("_boot.py")
include("$(MPY_DIR)/extmod/asyncio")
# Frozen, the firmware's bytecode stays in flash: an ESP32 without PSRAM
# (about 110 KB of heap) runs the cabinet only this way. The whole packages
# are frozen (hal/mock and hal/rp2 too: never imported here, and the app
# partition has room for them).
package("hal", base_path="../..")
package("firmware", base_path="../..")

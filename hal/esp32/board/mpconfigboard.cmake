# The cabinet's ESP32 board (make -C ports/esp32 BOARD_DIR=<this folder>):
# ESP32_GENERIC's settings, the cabinet's partition table and frozen manifest.
set(IDF_TARGET esp32)
file(WRITE ${CMAKE_BINARY_DIR}/sdkconfig.cabinet
    "CONFIG_PARTITION_TABLE_CUSTOM=y\nCONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\"${MICROPY_BOARD_DIR}/../partitions-4MiB.csv\"\n")
set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    ${CMAKE_BINARY_DIR}/sdkconfig.cabinet
)
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/../manifest.py)

#!/usr/bin/env bash
# The cabinet's ESP32 firmware (tools/build-firmware esp32 runs this).
#
# NEEDS ESP-IDF: it is not on this machine and is not installed by the suite.
# MicroPython v1.28.0 builds with ESP-IDF v5.5.1 (also v5.3, v5.4.x):
#   git clone -b v5.5.1 --recursive https://github.com/espressif/esp-idf.git
#   ./esp-idf/install.sh esp32 && source ./esp-idf/export.sh
# and a full MicroPython v1.28.0 checkout (the shared rp2 tarball lacks the
# esp32 submodules, e.g. lib/berkeley-db-1.xx):
#   git clone -b v1.28.0 https://github.com/micropython/micropython.git
#   export MICROPYTHON_SRC=$PWD/micropython
#
# Builds board hal/esp32/board (ESP32_GENERIC settings + partition table
# hal/esp32/partitions-4MiB.csv with the raw "journal" partition, frozen
# manifest hal/esp32/manifest.py) into build/esp32, where
# tools/deploy --board esp32 finds bootloader, partition table and app.
# Exit status: 0 built, 3 ESP-IDF or MicroPython source missing, 1 build failed.
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
out="$ROOT/build/esp32"
if ! command -v idf.py >/dev/null 2>&1; then
  echo "build-firmware esp32: needs ESP-IDF (v5.5.1; idf.py not on PATH)." >&2
  echo "  Install it and 'source esp-idf/export.sh', then run again (see tools/build_esp32.sh)." >&2
  exit 3
fi
src="${MICROPYTHON_SRC:-}"
if [ -z "$src" ] || [ ! -f "$src/ports/esp32/Makefile" ]; then
  echo "build-firmware esp32: set MICROPYTHON_SRC to a full MicroPython v1.28.0 checkout" >&2
  exit 3
fi
mkdir -p "$out" || exit 1
make -C "$src/mpy-cross" -j2 || exit 1
make -C "$src/ports/esp32" BOARD_DIR="$ROOT/hal/esp32/board" BUILD="$out" submodules || exit 1
make -C "$src/ports/esp32" BOARD_DIR="$ROOT/hal/esp32/board" BUILD="$out" -j2 || exit 1
ls -l "$out/micropython.bin" "$out/partition_table/partition-table.bin" "$out/bootloader/bootloader.bin"
echo "esp32 image: $(stat -c %s "$out/micropython.bin") bytes in $out"

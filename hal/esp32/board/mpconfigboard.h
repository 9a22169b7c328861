// The cabinet's ESP32 board: a WROOM-32 module, no PSRAM (hal/REFERENCE.md).
#define MICROPY_HW_BOARD_NAME "BubbleCraps cabinet (ESP32)"
#define MICROPY_HW_MCU_NAME "ESP32"

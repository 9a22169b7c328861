"""Every module that ships to the board imports on the MicroPython port.

mpy-cross only checks syntax; this catches a CPython-only import (enum,
dataclasses, typing at run time, ...) anywhere in firmware/ and the
platform-free hal/ the moment it is written. hal/rp2 and hal/esp32 need
their boards' `machine`; pyright checks those against the stubs instead.
"""
import os
import sys

BOARD_ONLY = ("hal/rp2", "hal/esp32")
# Built into MicroPython, absent from CPython (where the mock HAL carries a
# stand-in): on CPython a module may fail for these names only.
MP_BUILTINS = ("framebuf",)


def shipped_modules():
    out = []
    for top in ("firmware", "hal"):
        stack = [top]
        while stack:
            d = stack.pop()
            for name in sorted(os.listdir(d)):
                path = d + "/" + name
                if name.startswith(".") or name == "__pycache__":
                    continue
                if path in BOARD_ONLY:
                    continue
                if name.endswith(".py"):
                    if name == "manifest.py":
                        continue  # a build script for the firmware image, not a module
                    mod = path[:-3].replace("/", ".")
                    out.append(mod[:-9] if mod.endswith(".__init__") else mod)
                elif "." not in name:
                    stack.append(path)
    return out


def test_every_shipped_module_imports():
    mods = shipped_modules()
    assert "firmware.rules.table" in mods and "hal.mock.board" in mods
    assert len(mods) > 40
    failed = []
    for m in mods:
        try:
            __import__(m)
        except ImportError as exc:
            if sys.implementation.name == "micropython" or \
                    not any(b in str(exc) for b in MP_BUILTINS):
                failed.append((m, repr(exc)))
        except Exception as exc:
            failed.append((m, repr(exc)))
    assert not failed, failed

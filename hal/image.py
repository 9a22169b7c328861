"""The running firmware image, for Verify software (loaded only then).

read() -> len() and [a:b] slices of the image (rp2: a view of flash from
XIP_BASE to the SDK's binary end; esp32: the app image in the running
partition, read in pieces), or None where there is none (the host).
"""
import sys


def read():
    p = sys.platform
    if p == "rp2":
        from hal.rp2.image import image
    elif p == "esp32":
        from hal.esp32.image import image
    else:
        return None
    return image()

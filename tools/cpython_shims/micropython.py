"""CPython stand-in for MicroPython's `micropython` module, host only.

Firmware imports `const` from `micropython`; on CPython this file answers.
"""


def const(value):
    return value


def mem_peak():
    return 0


def mem_current():
    return 0


def schedule(func, arg):
    func(arg)


def kbd_intr(chr):
    pass

"""Parity of a byte, for the serial lines whose ninth bit is a parity bit
(ID-003's 8E1 on rp2 PIO, SAS's parity trick on the ESP32 UART)."""


def odd_ones(b):
    """1 when the byte has an odd number of ones."""
    b ^= b >> 4
    b ^= b >> 2
    b ^= b >> 1
    return b & 1

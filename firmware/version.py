"""Software identity shown on the audit screens and in the meter read-out."""
NAME = "BubbleCraps"
VERSION = "0.1.0"

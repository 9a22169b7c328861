"""Stands in for an audit module that cannot be loaded: importing it fails
as a fragmented heap makes an import fail (test_basic_audit.py)."""
raise MemoryError("memory allocation failed (test)")

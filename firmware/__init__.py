def forget(name):
    """Lets the collector free a module that was needed only for a moment.

    An import keeps the module twice: in sys.modules and as an attribute of
    its package, so both references go. A later import loads it again.
    """
    import sys
    sys.modules.pop(name, None)
    pkg, _, attr = name.rpartition(".")
    parent = sys.modules.get(pkg)
    if parent is not None:
        parent.__dict__.pop(attr, None)

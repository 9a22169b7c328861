# The cabinet's release image for the Pico (tools/build-firmware rp2):
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/hal/rp2/manifest.py
# The cabinet's own code is frozen: its bytecode then runs from flash and the
# heap holds only the state. hal/mock (host only), hal/esp32 (the other board)
# and the build files themselves are left out. The manifest runs with the
# current directory set to its own folder.
import os

include("manifest_boot.py", whole_hal=True)
_REPO = os.path.abspath(os.path.join("..", ".."))
_SKIP_DIRS = ("mock", "esp32", "__pycache__")
_SKIP_FILES = ("manifest.py", "manifest_boot.py", "_boot.py")


def _sources(top):
    base = os.path.join(_REPO, top)
    out = []
    for d, dirs, names in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x not in _SKIP_DIRS and not x.startswith("."))
        out += [os.path.relpath(os.path.join(d, n), base) for n in sorted(names)
                if n.endswith(".py") and n not in _SKIP_FILES]
    return out


for _top in ("hal", "firmware"):
    package(_top, files=_sources(_top), base_path=_REPO)

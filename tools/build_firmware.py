"""Builds the cabinet's own MicroPython image (host side, CPython).

    tools/build-firmware rp2 [--variant frozen|mpy] [--quiet]
    tools/build-firmware esp32          (tools/build_esp32.sh: needs ESP-IDF)

rp2: MicroPython v1.28.0 (board RPI_PICO) from the source tarball in
shared/rp2-emu/ (tools/sharedpath.py says where shared/ is) or
MICROPYTHON_SRC (the tarball itself or the folder holding it), with
hal/rp2/manifest.py frozen (variant `frozen`, the release image) or only
hal/rp2/manifest_boot.py (variant `mpy`: the same _boot.py and flash layout,
the cabinet code then comes from .mpy files on the filesystem; benchmarks).

Everything heavy is cached outside the clone, in
$XDG_CACHE_HOME/bubblecraps/rp2 (default ~/.cache/bubblecraps/rp2): the
unpacked source with picotool and mpy-cross built once per tarball, one cmake
build folder per variant, and every image under a key that hashes the tarball,
the variant and every file the manifest freezes, so a changed firmware file
rebuilds and an unchanged tree costs nothing. The image is copied to
build/rp2/cabinet-rp2-frozen.uf2 (cabinet-rp2-mpy.uf2 for the mpy variant),
the ELF it was linked from beside it (.elf: its symbols, for profiling); the
tool prints its path, size, the file's SHA-256 and what `tools/digest` (and
so Verify on a board running it) gives for it.
It needs the Arm GNU toolchain with newlib and libstdc++, cmake, g++ and make
(Debian packages in TOOLCHAIN). When some are missing it says which and how
to install them and stops; run as root on a Debian system it installs them
with apt-get instead, saying so first (a fresh CI machine).
"""
import fcntl
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import tarfile
import time

import sharedpath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = sharedpath.TARBALL
# Debian package -> how to tell it is there
TOOLCHAIN = (("gcc-arm-none-eabi", "arm-none-eabi-gcc"),
             ("libnewlib-arm-none-eabi", "libc.a"),
             ("libstdc++-arm-none-eabi-newlib", "libstdc++.a"),
             ("cmake", "cmake"), ("g++", "g++"), ("make", "make"))
MANIFESTS = {"frozen": "manifest.py", "mpy": "manifest_boot.py"}
# where tools/deploy and tools/digest expect the release image
OUTPUTS = {"frozen": "build/rp2/cabinet-rp2-frozen.uf2", "mpy": "build/rp2/cabinet-rp2-mpy.uf2"}
# bump when the build recipe changes in a way the key cannot see
RECIPE = "3"


def log(msg):
    print("build-firmware: " + msg, flush=True)


def find_tarball():
    path = sharedpath.micropython_source()
    return path if path and os.path.isfile(path) else None


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bubblecraps", "rp2")


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run(cmd, cwd=None, env=None, quiet=False):
    log("$ " + " ".join(cmd))
    out = subprocess.DEVNULL if quiet else None
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT if quiet else None)
    if r.returncode:
        raise SystemExit("build-firmware: failed (%d): %s" % (r.returncode, " ".join(cmd)))


def missing_packages():
    """The Debian packages of TOOLCHAIN that are not installed."""
    gcc = shutil.which("arm-none-eabi-gcc")
    missing = []
    for package, what in TOOLCHAIN:
        if what.endswith(".a"):  # a library of the Arm compiler
            found = gcc and os.path.isabs(subprocess.run(
                [gcc, "-print-file-name=" + what], capture_output=True, text=True).stdout.strip())
        else:
            found = shutil.which(what)
        if not found:
            missing.append(package)
    return missing


def can_install():
    """apt-get may install here: root on a system that has it."""
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def install_advice(missing):
    """What is missing and the command that installs it."""
    if shutil.which("apt-get"):
        how = "sudo apt-get install -y " + " ".join(missing)
    else:
        how = "the Arm GNU toolchain (arm-none-eabi-gcc with newlib and libstdc++), cmake, g++, make"
    return "%s; install: %s" % (", ".join(missing), how)


def ensure_toolchain():
    missing = missing_packages()
    if not missing:
        return
    if not can_install():
        raise SystemExit("build-firmware: needs " + install_advice(missing))
    log("installing %s with apt-get (missing; running as root)" % " ".join(missing))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q"] + missing
    if subprocess.run(cmd, env=env).returncode:
        run(["apt-get", "update", "-q"], env=env)
        run(cmd, env=env)
    still = missing_packages()
    if still:
        raise SystemExit("build-firmware: still missing after apt-get: " + ", ".join(still))


def unpack(tarball, dest):
    """Extracts the whole tarball, which is trusted (checked by its sha256)."""
    # extractall's filter arrived in 3.11.4; Debian 12's python3 is 3.11.2, where passing it is a TypeError.
    has_filter = "filter" in inspect.signature(tarfile.TarFile.extractall).parameters
    trusted = {"filter": "fully_trusted"} if has_filter else {}
    with tarfile.open(tarball) as t:
        t.extractall(dest, **trusted)


def prepare_source(tarball, cache, tar_sha, quiet):
    """Unpacked tarball with picotool installed and mpy-cross built (once per tarball)."""
    src = os.path.join(cache, "src-" + tar_sha[:16])
    ready = os.path.join(src, ".ready")
    if os.path.exists(ready):
        return src
    shutil.rmtree(src, ignore_errors=True)
    tmp = src + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    log("unpacking %s" % tarball)
    unpack(tarball, tmp)
    os.rename(tmp, src)
    mp = os.path.join(src, "micropython")
    pt = os.path.join(src, "picotool")
    run(["cmake", "-S", pt, "-B", os.path.join(pt, "build"),
         "-DPICO_SDK_PATH=" + os.path.join(mp, "lib", "pico-sdk"), "-DPICOTOOL_NO_LIBUSB=1",
         "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=" + os.path.join(src, "picotool-install")],
        quiet=quiet)
    run(["make", "-C", os.path.join(pt, "build"), "-j2"], quiet=quiet)
    run(["make", "-C", os.path.join(pt, "build"), "install"], quiet=quiet)
    run(["make", "-C", os.path.join(mp, "mpy-cross"), "-j2"], quiet=quiet)
    with open(ready, "w") as f:
        f.write(time.strftime("%Y-%m-%d %H:%M:%S\n"))
    return src


def frozen_inputs(manifest, src):
    """(target path, full path) of every file the manifest freezes, via the
    port's own manifest reader, so the cache key sees exactly what is built."""
    mp = os.path.join(src, "micropython")
    sys.path.insert(0, os.path.join(mp, "tools"))
    try:
        import manifestfile
    finally:
        sys.path.pop(0)
    m = manifestfile.ManifestFile(manifestfile.MODE_FREEZE, {
        "MPY_DIR": mp, "MPY_LIB_DIR": os.path.join(mp, "lib", "micropython-lib"),
        "PORT_DIR": os.path.join(mp, "ports", "rp2"),
        "BOARD_DIR": os.path.join(mp, "ports", "rp2", "boards", "RPI_PICO")})
    m.execute(manifest)
    return sorted((f.target_path, f.full_path) for f in m.files())


def cache_key(tar_sha, variant, manifest, inputs):
    h = hashlib.sha256()
    h.update(("recipe %s\ntarball %s\nvariant %s\n" % (RECIPE, tar_sha, variant)).encode())
    here = os.path.dirname(manifest)
    for name in sorted(os.listdir(here)):
        if name.startswith("manifest") and name.endswith(".py"):
            with open(os.path.join(here, name), "rb") as f:
                h.update(name.encode() + b"\n" + f.read())
    for target, full in inputs:
        with open(full, "rb") as f:
            data = f.read()
        h.update(("%s\n%d\n" % (target, len(data))).encode() + data)
    return h.hexdigest()


def uf2_payload_size(path):
    with open(path, "rb") as f:
        data = f.read()
    return sum(int.from_bytes(data[i + 16:i + 20], "little") for i in range(0, len(data), 512))


def elf_of(uf2):
    return uf2[:-len(".uf2")] + ".elf"


def build_rp2(variant, quiet):
    tarball = find_tarball()
    if tarball is None:
        raise SystemExit("build-firmware: %s (or set MICROPYTHON_SRC to the tarball)"
                         % sharedpath.missing_note())
    cache = cache_root()
    os.makedirs(cache, exist_ok=True)
    manifest = os.path.join(ROOT, "hal", "rp2", MANIFESTS[variant])
    with open(os.path.join(cache, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time per machine (shared cache)
        tar_sha = sha256_file(tarball)
        ensure_toolchain()
        src = prepare_source(tarball, cache, tar_sha, quiet)
        inputs = frozen_inputs(manifest, src)
        key = cache_key(tar_sha, variant, manifest, inputs)
        cached = os.path.join(cache, "images", "%s-%s.uf2" % (variant, key[:24]))
        if os.path.exists(cached):
            log("cached image (key %s)" % key[:24])
        else:
            t0 = time.time()
            mp = os.path.join(src, "micropython")
            build = os.path.join(cache, "build-%s-%s" % (tar_sha[:16], variant))
            # makemanifest decides by timestamps, which a tree switch (another
            # worktree, a checkout) can leave older than its last output
            for stale in ("frozen_content.c", "frozen_mpy"):
                p = os.path.join(build, stale)
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.remove(p)
            env = dict(os.environ, PICOTOOL_FETCH_FROM_GIT_PATH=os.path.join(src, "picotool-install"))
            # the port's Makefile runs cmake only when the folder has no
            # Makefile yet, so the manifest path and the Python of the first
            # clone that built here would stay in CMakeCache.txt for every
            # later clone (its code frozen, its venv needed); the real
            # interpreter behind the venv outlives any clone
            if os.path.exists(os.path.join(build, "Makefile")):
                run(["cmake", "-S", os.path.join(mp, "ports", "rp2"), "-B", build,
                     "-DMICROPY_FROZEN_MANIFEST=" + manifest,
                     "-DPython3_EXECUTABLE=" + os.path.realpath(sys.executable)],
                    env=env, quiet=quiet)
            run(["make", "-C", os.path.join(mp, "ports", "rp2"), "BOARD=RPI_PICO", "BUILD=" + build,
                 "FROZEN_MANIFEST=" + manifest, "-j2"], env=env, quiet=quiet)
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            # the ELF names the image's addresses (tools/bench_rp2.mjs --elf)
            shutil.copyfile(os.path.join(build, "firmware.elf"), elf_of(cached))
            shutil.copyfile(os.path.join(build, "firmware.uf2"), cached + ".tmp")
            os.rename(cached + ".tmp", cached)
            log("built in %.0f s (%d frozen files)" % (time.time() - t0, len(inputs)))
    out = os.path.join(ROOT, OUTPUTS[variant])
    os.makedirs(os.path.dirname(out), exist_ok=True)
    shutil.copyfile(cached, out)
    log("image %s" % os.path.relpath(out, ROOT))
    if os.path.exists(elf_of(cached)):
        shutil.copyfile(elf_of(cached), elf_of(out))
    elif os.path.exists(elf_of(out)):
        os.remove(elf_of(out))  # another image's
    log("size %d bytes of flash (UF2 file %d bytes), %d frozen files" % (
        uf2_payload_size(out), os.path.getsize(out), len(inputs)))
    log("UF2 file SHA-256 %s" % sha256_file(out))
    if variant == "frozen":
        # what Verify shows on a board running this image with the release files
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "digest_host.py"), out],
                           capture_output=True, text=True)
        log("tools/digest %s: %s" % (os.path.relpath(out, ROOT),
                                      (r.stdout.splitlines() or [r.stderr.strip()])[0]))
    return out


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    board, rest = argv[0], argv[1:]
    variant, quiet = "frozen", False
    i = 0
    while i < len(rest):
        if rest[i] == "--variant" and i + 1 < len(rest) and rest[i + 1] in MANIFESTS:
            variant = rest[i + 1]
            i += 2
        elif rest[i] == "--quiet":
            quiet = True
            i += 1
        else:
            print("build-firmware: unknown option %r (see --help)" % rest[i], file=sys.stderr)
            return 2
    if board == "esp32":  # needs ESP-IDF: the script says so plainly (exit 3)
        os.execv("/bin/bash", ["bash", os.path.join(ROOT, "tools", "build_esp32.sh")] + rest)
    if board != "rp2":
        print("build-firmware: unknown board %r (rp2 or esp32)" % board, file=sys.stderr)
        return 2
    build_rp2(variant, quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

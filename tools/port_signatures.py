"""Signatures of the port APIs the board drivers call, read from MicroPython's C
source (CPython, host only). Stubs are not the truth: the port's argument
tables are.

  python tools/port_signatures.py [SRC] [--write]

SRC: a MicroPython source tree or the v1.28.0 tarball (default:
$MICROPYTHON_SRC, else the tarball in shared/rp2-emu/: tools/sharedpath.py).
Prints the table as
JSON; --write stores it as tools/port_signatures.json (the copy a clone
without the source checks against; tests_host/test_port_signatures.py
re-extracts it whenever the source is there and fails if it differs).

How a Python call maps onto the C source: the class is the type defined with
MP_DEFINE_CONST_OBJ_TYPE(..., MP_QSTR_<Name>, ...); its constructor is the
`make_new` function, its methods the entries of its `locals_dict`, each a
MP_DEFINE_CONST_FUN_OBJ_* object. A KW function (or a make_new) parses with
an `allowed_args[]` table, either itself or in the helper it hands
`n_args - k, args + k` to (k leading positionals consumed first). Python
modules of the port (esp32's machine.Counter) are read with `ast`.
"""
import ast
import json
import os
import re
import sys
import tarfile

import sharedpath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tools", "port_signatures.json")
VERSION = "v1.28.0"

# what the drivers use: module -> class names (C types)
TYPES = {
    "rp2": {"machine": ("Pin", "PWM", "SPI", "I2C", "UART", "WDT"),
            "rp2": ("StateMachine", "Flash")},
    "esp32": {"machine": ("Pin", "PWM", "SPI", "I2C", "UART", "WDT", "RTC"),
              "esp32": ("Partition", "PCNT")},
}
# Python source of the port (class -> file, methods whose signatures matter)
PY = {
    "rp2": {"rp2.asm_pio": ("ports/rp2/modules/rp2.py", "asm_pio"),
            "rp2.asm_pio_encode": ("ports/rp2/modules/rp2.py", "asm_pio_encode")},
    "esp32": {"machine.Counter.__init__": ("ports/esp32/modules/machine.py", "_CounterBase.__init__"),
              "machine.Counter._configure": ("ports/esp32/modules/machine.py", "Counter._configure"),
              "machine.Counter.value": ("ports/esp32/modules/machine.py", "_CounterBase.value")},
}


def default_source():
    return sharedpath.micropython_source()


def _wanted(rel):
    return (rel.startswith(("extmod/machine_", "py/stream.c"))
            or (rel.startswith(("ports/rp2/", "ports/esp32/")) and rel.count("/") == 2
                and rel.endswith(".c"))
            or rel in ("ports/rp2/modules/rp2.py", "ports/esp32/modules/machine.py"))


def read_sources(src):
    """{relative path: text} of the files the extraction needs."""
    files = {}
    if os.path.isdir(src):
        base = src
        if os.path.isdir(os.path.join(src, "micropython")):
            base = os.path.join(src, "micropython")
        for d, _, names in os.walk(base):
            for n in names:
                rel = os.path.relpath(os.path.join(d, n), base).replace(os.sep, "/")
                if _wanted(rel):
                    with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                        files[rel] = f.read()
        return files
    with tarfile.open(src, "r:*") as tar:
        for m in tar:
            rel = m.name.split("/", 1)[1] if m.name.startswith("micropython/") else None
            if rel and m.isfile() and _wanted(rel):
                files[rel] = tar.extractfile(m).read().decode("utf-8", "replace")
    return files


def _body(text, fun):
    """(offset, body text) of the C function `fun`'s definition, or None."""
    m = re.search(r"\b%s\s*\([^;{)]*\)\s*\{" % re.escape(fun), text)
    if not m:
        return None
    i = m.end()
    depth = 1
    while depth and i < len(text):
        c = text[i]
        depth += (c == "{") - (c == "}")
        i += 1
    return m.start(), text[m.end():i - 1]


def _first_branches(text):
    """Keeps the first branch of each #if/#else in a table (the branch the
    RPI_PICO and generic ESP32 boards build: e.g. rp2's I2C/SPI `id` has a
    default because the board defines PICO_DEFAULT_I2C/SPI)."""
    out = []
    skip = []  # per open #if: True while inside an #else/#elif branch
    for line in text.split("\n"):
        t = line.strip()
        if t.startswith("#if"):
            skip.append(False)
        elif t.startswith(("#else", "#elif")):
            skip[-1] = True
        elif t.startswith("#endif"):
            skip.pop()
        elif not any(skip):
            out.append(line)
    return "\n".join(out)


def _allowed(body, before=""):
    """The mp_arg_t table a body parses with: defined in it, or (named in its
    mp_arg_parse_all call) the last definition in the file before it."""
    m = re.search(r"allowed_args\[\]\s*=\s*\{(.*?)\n\s*\};", body, re.S)
    if not m:
        use = re.search(r"mp_arg_parse_all(?:_kw_array)?\([^;]*?MP_ARRAY_SIZE\((\w+)\)", body, re.S)
        if not use:
            return None
        found = re.findall(r"\b%s\[\]\s*=\s*\{(.*?)\n\s*\};" % use.group(1), before, re.S)
        if not found:
            return None
        m = re.match(r"(.*)", found[-1], re.S)
    out = []
    for name, flags in re.findall(r"\{\s*MP_QSTR_(\w+)\s*,\s*([^,]+?)\s*,", _first_branches(m.group(1))):
        out.append([name, "MP_ARG_KW_ONLY" in flags, "MP_ARG_REQUIRED" in flags])
    return out


class Corpus:
    def __init__(self, files, port):
        self.files = {k: v for k, v in files.items()
                      if k.startswith(("extmod/", "py/", "ports/%s/" % port)) and k.endswith(".c")}
        # port files first: a port's definition wins over extmod's
        self.order = sorted(self.files, key=lambda k: (not k.startswith("ports/"), k))

    def find(self, pattern):
        for rel in self.order:
            m = re.search(pattern, self.files[rel], re.S)
            if m:
                return rel, m
        return None, None

    def function(self, fun):
        """(file text before the definition, body) or (None, None)."""
        for rel in self.order:
            text = self.files[rel]
            found = _body(text, fun)
            if found is not None:
                return text[:found[0]], found[1]
        return None, None

    def args_of(self, fun, base):
        """How `fun` parses its arguments: its allowed_args table (or its
        helper's), with `lead` = positionals consumed before the table
        (self, an id); `base` = those consumed by the callers so far."""
        before, body = self.function(fun)
        if body is None:
            raise LookupError("no C function %s" % fun)
        table = _allowed(body, before)
        if table is not None:
            k = re.search(r"mp_arg_parse_all(?:_kw_array)?\(\s*n_\w*args(?:\s*-\s*(\d+))?", body)
            return {"kind": "args", "lead": base + int(k.group(1) or 0 if k else 0), "args": table}
        m = re.search(r"(\w+)\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*n_\w*args\s*-\s*(\d+)\s*,\s*\w+\s*\+\s*\d+\s*,"
                      r"\s*&?kw_args\s*\)", body)
        if m:
            return self.args_of(m.group(1), base + int(m.group(2)))
        # esp32 PCNT: the id, then only keywords reach the helper (further
        # positionals are dropped unread)
        m = re.search(r"(\w+)\(\s*\w+\s*,\s*0\s*,\s*args\s*\+\s*n_\w*args\s*,\s*&?kw_args\s*\)", body)
        if m:
            sig = self.args_of(m.group(1), base + 1)
            sig["args"] = [[a[0], True, a[2]] for a in sig["args"]]
            return sig
        m = re.search(r"mp_arg_check_num\(\s*n_args\s*,\s*n_kw\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)",
                      body)
        if not m:
            raise LookupError("no argument table in %s" % fun)
        hi = m.group(2)
        return {"kind": "pos", "min": int(m.group(1)), "max": int(hi) if hi.isdigit() else None,
                "kw": m.group(3) == "true"}

    def fun_obj(self, obj):
        """Signature of a function object by its C name."""
        _, m = self.find(r"MP_DEFINE_CONST_(?:STATIC|CLASS)METHOD_OBJ\(\s*%s\s*,\s*MP_ROM_PTR\(&(\w+)\)"
                         % re.escape(obj))
        if m:
            sig = self.fun_obj(m.group(1))
            if "CLASSMETHOD" in m.group(0):
                sig["classmethod"] = True
            return sig
        _, m = self.find(r"MP_DEFINE_CONST_FUN_OBJ_([0-3]|VAR_BETWEEN|VAR|KW)\(\s*%s\s*,([^;]*)\)"
                         % re.escape(obj))
        if not m:
            raise LookupError("no function object %s" % obj)
        kind, rest = m.group(1), [p.strip() for p in m.group(2).split(",")]
        if kind in "0123":
            return {"kind": "pos", "min": int(kind), "max": int(kind)}
        if kind == "VAR":
            return {"kind": "pos", "min": int(rest[0]), "max": None}
        if kind == "VAR_BETWEEN":
            return {"kind": "pos", "min": int(rest[0]), "max": int(rest[1])}
        sig = self.args_of(rest[1], 0)  # n_args counts self: the parse call skips it
        sig["min"] = int(rest[0])
        return sig

    def type_sig(self, qstr):
        rel, m = self.find(r"MP_DEFINE_CONST_OBJ_TYPE\(\s*(\w+)\s*,\s*MP_QSTR_%s\s*,(.*?)\);" % qstr)
        if not m:
            raise LookupError("no type %s" % qstr)
        slots = m.group(2)
        out = {"methods": {}, "consts": []}
        mk = re.search(r"make_new\s*,\s*&?(\w+)", slots)
        if mk:
            out["new"] = self.args_of(mk.group(1), 0)
        call = re.search(r"\bcall\s*,\s*(\w+)", slots)
        if call:  # pin(0): the type's call slot
            out["call"] = self.args_of(call.group(1), 0)
        ld = re.search(r"locals_dict\s*,\s*&(\w+)", slots)
        if ld:
            _, t = self.find(r"MP_DEFINE_CONST_DICT\(\s*%s\s*,\s*(\w+)\s*\)" % ld.group(1))
            _, tab = self.find(r"\b%s\[\]\s*=\s*\{(.*?)\n\};" % t.group(1))
            for name, kind, ref in re.findall(
                    r"MP_ROM_QSTR\(MP_QSTR_(\w+)\)\s*,\s*MP_ROM_(PTR|INT)\(&?([^)]*)\)", tab.group(1)):
                if kind == "INT":
                    out["consts"].append(name)
                elif name not in out["methods"] and not name.startswith("__"):
                    try:
                        out["methods"][name] = self.fun_obj(ref.strip())
                    except LookupError:  # a type or other object, not a function
                        pass
        out["consts"] = sorted(set(out["consts"]))
        return out


def _py_sig(text, dotted):
    tree = ast.parse(text)
    node = tree
    for part in dotted.split("."):
        node = next(n for n in ast.walk(node)
                    if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == part)
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args]
    return {"kind": "py", "args": names, "defaults": len(a.defaults),
            "kwonly": [x.arg for x in a.kwonlyargs], "varargs": a.vararg is not None,
            "varkw": a.kwarg is not None}


def extract(files):
    out = {"version": VERSION}
    for port, modules in TYPES.items():
        corpus = Corpus(files, port)
        table = {}
        for module, names in modules.items():
            for name in names:
                table["%s.%s" % (module, name)] = corpus.type_sig(name)
        for key, (rel, dotted) in PY[port].items():
            table[key] = _py_sig(files[rel], dotted)
        out[port] = table
    machine_py = files["ports/esp32/modules/machine.py"]
    m = re.search(r"filter=min\(max\(0, filter_ns \* (\d+) // 1000\), (\d+)\)", machine_py)
    pcnt = files["ports/esp32/esp32_pcnt.c"]
    limit = re.search(r"if \(filter > (\d+)\)", pcnt)
    out["esp32_pcnt_filter"] = {"apb_mhz": int(m.group(1)), "max_cycles": int(m.group(2)),
                                "pcnt_refuses_above": int(limit.group(1))}
    return out


def load_table():
    with open(TABLE) as f:
        return json.load(f)


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    src = args[0] if args else default_source()
    if not src or not os.path.exists(src):
        print("MicroPython source not found (give SRC or set MICROPYTHON_SRC)", file=sys.stderr)
        return 2
    table = extract(read_sources(src))
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if "--write" in argv:
        with open(TABLE, "w") as f:
            f.write(text)
        print("wrote %s from %s" % (os.path.relpath(TABLE, ROOT), src))
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

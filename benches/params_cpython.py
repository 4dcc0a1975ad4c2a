"""CPython's C unpickler on a GameParams.data, for issue #50's comparison rows (the other side of
`cargo bench --bench params`): reverse, `zlib.decompress`, `pickle.Unpickler` with the Python 2
globals mapped to stand-ins (`encoding='bytes'`), then list the entry names, or `json.dump` the
state dicts with byte strings decoded (UTF-8, else latin-1) and non-string keys as `json` writes
them. Best of N runs of each.

    python3 benches/params_cpython.py FILE [RUNS]

FILE: `gamebin synth params --scale full -o FILE` makes the bench's input."""

import io
import json
import pickle
import sys
import time
import zlib


class Stand:
    def __setstate__(self, state):
        self.state = state


CLASSES = {}


def stand_in(module, name):
    return CLASSES.setdefault((module, name), type(name, (Stand,), {}))


def reconstructor(cls, base, state):
    return cls.__new__(cls)


class Reference(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("copy_reg", "_reconstructor"):
            return reconstructor
        if module == "__builtin__":
            return {"object": object, "set": set, "frozenset": frozenset}[name]
        return stand_in(module, name)


def text(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("latin-1")


def key(k):
    if isinstance(k, bytes):
        return text(k)
    if isinstance(k, (str, int, float, bool)) or k is None:
        return k
    return repr(k)


def plain(v):
    if isinstance(v, Stand):
        return plain(getattr(v, "state", {}))
    if isinstance(v, dict):
        return {key(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [plain(x) for x in v]
    if isinstance(v, bytes):
        return text(v)
    return v


def load(raw):
    return Reference(io.BytesIO(zlib.decompress(raw[::-1])), encoding="bytes").load()


def params(root):
    return root[0] if isinstance(root, list) else root[b""]


def best(f, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3, max(times) * 1e3


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    raw = open(path, "rb").read()
    inflate = best(lambda: zlib.decompress(raw[::-1]), runs)
    names = best(lambda: [text(k) for k in params(load(raw))], runs)

    def export():
        out = io.StringIO()
        json.dump({text(k): plain(v) for k, v in params(load(raw)).items()}, out, ensure_ascii=False)

    whole = best(export, runs)
    for what, (lo, hi) in [("inflate", inflate), ("inflate + load + list", names), ("inflate + load + JSON", whole)]:
        print(f"{what}: best {lo:.0f} ms (worst {hi:.0f} ms) of {runs}")


main()

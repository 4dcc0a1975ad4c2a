"""`gamebin params export` against CPython's own `pickle` module, the independent reference
(issue #50's proof): every sample and a file gamebin's writer made are loaded with
`pickle.Unpickler` (reverse the bytes, zlib, protocol 0 with Python 2's globals mapped to
stand-ins), turned into the JSON dataminers use (objects as their state dicts, non-string keys as
`json` writes them, tuple keys by repr, tuples and sets as arrays, byte strings UTF-8 or else
latin-1) independently of gamebin, and compared with the CLI's output, key order included.

The CLI binary is looked for at $GAMEBIN_BIN, then under $CARGO_TARGET_DIR or the repository's
target/ (release, then debug: what `cargo build`/`cargo test` leave there), then on PATH; the
tests are skipped, saying so, when there is none."""

import io
import json
import os
import pickle
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from conftest import REPO, samples


def gamebin_bin() -> str:
    candidates = []
    if os.environ.get("GAMEBIN_BIN"):
        candidates.append(Path(os.environ["GAMEBIN_BIN"]))
    roots = [Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    roots.append(REPO / "target")
    for root in roots:
        candidates += [root / "release" / "gamebin", root / "debug" / "gamebin"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which("gamebin")
    if found:
        return found
    pytest.skip("needs the gamebin CLI (cargo build -p gamebin-cli, or GAMEBIN_BIN)")


class Stand:
    """A stand-in for a GameParams class: keeps its module, name and state."""

    module = ""
    name = ""

    def __setstate__(self, state):
        self.state = state


def stand_in(module: str, name: str):
    return type(name, (Stand,), {"module": module, "name": name})


def reconstructor(cls, base, state):
    assert base is object and state is None
    return cls.__new__(cls)


class Reference(pickle.Unpickler):
    """CPython's unpickler with Python 2's globals mapped: `copy_reg._reconstructor` makes a
    stand-in object of the class, `__builtin__` is `builtins`, any `GameParams.X` a stand-in
    class."""

    def find_class(self, module, name):
        if (module, name) == ("copy_reg", "_reconstructor"):
            return reconstructor
        if module == "__builtin__":
            return {"object": object, "set": set, "frozenset": frozenset}[name]
        if module == "GameParams":
            return stand_in(module, name)
        raise pickle.UnpicklingError(f"unexpected global {module}.{name}")


def load(path: Path):
    data = path.read_bytes()[::-1]
    return Reference(io.BytesIO(zlib.decompress(data)), encoding="bytes").load()


def text(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("latin-1")


def py_repr(v) -> str:
    """Python 3's repr of a key whose byte strings are text."""
    if isinstance(v, bytes):
        return repr(text(v))
    if isinstance(v, tuple):
        inner = ", ".join(py_repr(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    return repr(v)


def key(k) -> str:
    if isinstance(k, bytes):
        return text(k)
    if isinstance(k, str):
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, (int, float)):
        return json.dumps(k)
    if isinstance(k, tuple):
        return py_repr(k)
    raise TypeError(f"unexpected key {k!r}")


def plain(v, classes=None):
    """The JSON value dataminers see."""
    if isinstance(v, Stand):
        if classes is not None:
            classes.add((v.module, v.name))
        return plain(getattr(v, "state", {}), classes)
    if isinstance(v, dict):
        return {key(k): plain(x, classes) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        # A set has no order (CPython's differs from run to run): its items sorted. The
        # writer's sets (synth) are written sorted; the samples have none of two items or more.
        return sorted((plain(x, classes) for x in v), key=json.dumps)
    if isinstance(v, (list, tuple)):
        return [plain(x, classes) for x in v]
    if isinstance(v, bytes):
        return text(v)
    return v


def params_of(root):
    if isinstance(root, list):
        return root[0], {}
    return root[b""], {text(k): v for k, v in root.items() if k != b""}


def export(path: Path, *extra) -> dict:
    out = subprocess.run(
        [gamebin_bin(), "params", "export", str(path), "-o", "-", *extra],
        check=True,
        capture_output=True,
    ).stdout
    return json.loads(out)


def same(ours: dict, reference: dict):
    assert list(ours) == list(reference)
    for name in reference:
        assert ours[name] == reference[name], name
    # Key order inside entries too, as json writes it.
    assert json.dumps(ours) == json.dumps(reference)


@pytest.mark.parametrize("kind", ["classic", "regional"])
def test_export_equals_cpython_pickle(kind):
    path = samples() / "wows-gameparams" / kind / "GameParams.data"
    params, regions = params_of(load(path))
    reference = {text(k): plain(v) for k, v in params.items()}
    assert len(reference) == 300
    same(export(path), reference)
    for region, overrides in regions.items():
        laid = dict(params)
        laid.update(overrides)
        same(export(path, "--region", region), {text(k): plain(v) for k, v in laid.items()})


def test_writer_output_reads_in_cpython_as_the_same_objects(tmp_path):
    for regional in (False, True):
        path = tmp_path / f"GameParams{int(regional)}.data"
        args = [gamebin_bin(), "synth", "params", "--scale", "small", "-o", str(path)]
        subprocess.run(args + (["--regional"] if regional else []), check=True, capture_output=True)
        params, regions = params_of(load(path))
        classes = set()
        reference = {text(k): plain(v, classes) for k, v in params.items()}
        assert classes == {("GameParams", "GPData"), ("GameParams", "TypeInfo")}
        assert len(reference) == 300
        same(export(path), reference)
        ship = params[b"PJSD012_Shimakaze_1943"].state
        assert ship[b"id"] == 4282101744
        assert ship[b"bigNumber"] == 123456789012345678901234567890
        assert ship[b"tags"] == {b"fast", b"torpedo"}
        assert ship[b"title"] == "Shimakaze \u5cf6\u98a8"
        assert ship[b"legacyName"] == b"\xd8\xe8\xec\xe0"
        assert ship[1.5] is True and ship[None] == -1 and ship[True] == b"yes"
        if regional:
            assert list(regions) == ["RU"]
            assert all(v.state[b"level"] == 99 for v in regions["RU"].values())


@pytest.mark.parametrize("protocol", [0, 2])
@pytest.mark.parametrize("kind", ["classic", "regional"])
def test_a_file_written_by_cpython_3_reads_the_same(tmp_path, kind, protocol):
    """Each sample re-pickled by CPython 3 (protocol 2: binary opcodes, NEWOBJ for the objects;
    both: bytes as `_codecs.encode` calls, the regions' keys too, memo puts and gets of its own),
    stored as the game stores it: the export is the same, each region's too."""
    import sys
    import types

    path = samples() / "wows-gameparams" / kind / "GameParams.data"
    module = types.ModuleType("GameParams")

    class Base:
        def __getstate__(self):
            return self.state

        def __setstate__(self, state):
            self.state = state

    for name in ("GPData", "TypeInfo"):
        cls = type(name, (Base,), {"__module__": "GameParams", "__qualname__": name})
        setattr(module, name, cls)

    class Again(Reference):
        def find_class(self, mod, name):
            if mod == "GameParams":
                return getattr(module, name)
            return super().find_class(mod, name)

    sys.modules["GameParams"] = module
    try:
        data = zlib.decompress(path.read_bytes()[::-1])
        root = Again(io.BytesIO(data), encoding="bytes").load()
        again = pickle.dumps(root, protocol=protocol)
    finally:
        del sys.modules["GameParams"]
    if protocol == 2:
        assert again[:2] == b"\x80\x02" and b"\x81" in again
    assert b"_codecs" in again
    out = tmp_path / "GameParams.data"
    out.write_bytes(zlib.compress(again)[::-1])
    params, regions = params_of(load(path))
    same(export(out), {text(k): plain(v) for k, v in params.items()})
    assert list(regions) == (["RU"] if kind == "regional" else [])
    for region, overrides in regions.items():
        laid = dict(params)
        laid.update(overrides)
        same(export(out, "--region", region), {text(k): plain(v) for k, v in laid.items()})
    # The ids (LONG1 in protocol 2, past i32) and indexes are found.
    got = subprocess.run(
        [gamebin_bin(), "params", "get", str(out), "4183734032", "index"],
        check=True,
        capture_output=True,
    ).stdout
    assert json.loads(got) == "PHSC106"

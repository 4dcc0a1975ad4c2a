"""``gamebin.GameParams``: look-ups by name, id and index, filters and regions, on the committed
fixtures (made by the writer) and the real samples; values against CPython's own unpickler."""

import pytest

import gamebin
from conftest import fixture, samples
from test_params_cpython import load, params_of, text, Stand


def native(v):
    """The plain Python value gamebin hands out for a value CPython's unpickler made: objects as
    their state, byte strings as text (UTF-8, else latin-1), sets as lists, tuples kept."""
    if isinstance(v, Stand):
        return native(getattr(v, "state", {}))
    if isinstance(v, dict):
        return {native(k): native(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(native(x) for x in v)
    if isinstance(v, (set, frozenset)):
        # A set has no order: sorted, as the writer's sets and the samples' are.
        return sorted((native(x) for x in v), key=repr)
    if isinstance(v, list):
        return [native(x) for x in v]
    if isinstance(v, bytes):
        return text(v)
    return v


def test_lookups_on_the_fixture():
    path = fixture("wows-gameparams", "GameParams.data")
    p = gamebin.GameParams(path)
    assert len(p) == 60
    assert isinstance(gamebin.open(path), gamebin.GameParams)
    ship = p["PJSD012_Shimakaze_1943"]
    assert ship["index"] == "PJSD012"
    assert ship["id"] == 4282101744
    assert ship["typeinfo"] == {"type": "Ship", "nation": "Japan", "species": "Destroyer"}
    assert ship["bigNumber"] == 123456789012345678901234567890
    assert ship["legacyName"] == b"\xd8\xe8\xec\xe0".decode("latin-1")
    assert ship[1.5] is True and ship[None] == -1
    assert ship["camoOffsets"][("camo", 2)] == 0.25
    assert p.by_id(4282101744) == ship
    assert p.by_index("PJSD012") == ship
    assert p.by_id(1) is None and p.get("nothing") is None and "nothing" not in p
    with pytest.raises(KeyError):
        p["nothing"]
    ships = p.filter(type="Ship", nation="Japan")
    assert ships and all(e["type"] == "Ship" and e["nation"] == "Japan" for e in ships)
    assert "PJSD012_Shimakaze_1943" in [e["name"] for e in ships]
    assert p.regions == [] and list(p)[0] == "PJSD012_Shimakaze_1943"


def test_regions_on_the_fixture():
    p = gamebin.GameParams(fixture("wows-gameparams", "regional.GameParams.data"))
    assert p.regions == ["RU"]
    ru = p.region("RU")
    name = "PJSD012_Shimakaze_1943"
    assert ru[name]["level"] == 99 and p[name]["level"] != 99
    assert len(ru) == len(p) == 60
    assert sum(1 for e in ru.entries() if e["region"] == "RU") == 6
    with pytest.raises(KeyError):
        p.region("EU")


def test_bytes_and_damage():
    data = fixture("wows-gameparams", "GameParams.data").read_bytes()
    assert len(gamebin.GameParams(data)) == 60
    with pytest.raises(gamebin.FormatError) as e:
        gamebin.GameParams(data[: len(data) // 2])
    assert e.value.offset is not None


@pytest.mark.parametrize("kind", ["classic", "regional"])
def test_samples_equal_cpython(kind):
    path = samples() / "wows-gameparams" / kind / "GameParams.data"
    p = gamebin.GameParams(path)
    params, regions = params_of(load(path))
    assert len(p) == 300
    for name, value in params.items():
        assert p[text(name)] == native(value), name
    k = p["PHSC106_Kijkduin"]
    assert p.by_id(4183734032) == k and p.by_index("PHSC106") == k
    assert k["typeinfo"] == {"type": "Ship", "species": "Cruiser", "nation": "Netherlands"}
    assert len(p.filter(type="Ship")) == 2
    for region, overrides in regions.items():
        r = p.region(region)
        for name, value in overrides.items():
            assert r[text(name)] == native(value)
            assert r[text(name)]["level"] == 99


def test_a_game_folder(tmp_path):
    """A game folder: its content/GameParams.data read out of the archives (by the package, and
    by the CLI as GAME::content/GameParams.data and as the folder)."""
    import json
    import subprocess

    from test_params_cpython import gamebin_bin

    data = fixture("wows-gameparams", "GameParams.data").read_bytes()
    idx, volumes = gamebin.write_pfs([("content/GameParams.data", data, "deflate")])
    (tmp_path / "bin" / "1234" / "idx").mkdir(parents=True)
    (tmp_path / "res_packages").mkdir()
    (tmp_path / "bin" / "1234" / "idx" / "content.idx").write_bytes(idx)
    for name, volume in volumes:
        (tmp_path / "res_packages" / name).write_bytes(volume)
    p = gamebin.GameParams(tmp_path)
    assert len(p) == 60 and p.by_index("PJSD012")["name"] == "PJSD012_Shimakaze_1943"
    want = p["PJSD012_Shimakaze_1943"]["A_Hull"]["health"]
    for target in (str(tmp_path), f"{tmp_path}::content/GameParams.data"):
        out = subprocess.run(
            [gamebin_bin(), "params", "get", target, "PJSD012", "A_Hull.health"],
            check=True,
            capture_output=True,
        ).stdout
        assert json.loads(out) == want

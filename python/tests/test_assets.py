"""assets.bin: lookups by id and by path, the path table, against the sample's documented
contents and the Rust CLI's golden dump of the fixture."""

import pytest

import gamebin
from conftest import fixture, golden, samples


def test_fixture_paths_and_prototypes_match_the_golden_dump():
    db = gamebin.AssetsDb(fixture("wows-assets", "all_prototypes.assets.bin"))
    expected = golden("all_prototypes.assets.bin")
    assert [(int(p["id"], 16), p["path"]) for p in expected["paths"]] == list(db.paths())
    assert [d["name"] for d in expected["databases"]] == [d["type"] for d in db.info["databases"]]
    for p in expected["paths"]:
        found = db.get(int(p["id"], 16))
        assert (found is not None) == (p["prototype"] is not None), p["path"]
        if found is not None:
            # The same prototype by its path (CityHash64 of it) and by its id.
            assert db[p["path"]].id == found.id == int(p["id"], 16)
            assert found.path == p["path"]
            assert found.raw is not None and len(found.raw) == found.size


def test_minimal_synthetic_sample():
    # SOURCES.txt of the sample (an independent generator, checked by wowsunpack).
    db = gamebin.open(samples() / "wows-assets" / "minimal_synthetic_assets.bin")
    assert isinstance(db, gamebin.AssetsDb)
    visual = db[0x3333]
    assert visual.type == "VisualPrototype"
    assert (visual.database, visual.record, visual.state) == (1, 0, "live")
    assert visual.path == "content/gameplay/Test.visual"
    # Ids are not path hashes in this file: the path is found by walking the table.
    assert db["content/gameplay/Test.visual"].id == 0x3333
    assert db["res/content/gameplay/Test.visual"].id == 0x3333
    assert db[0x5555].type == "MaterialPrototype"
    assert db[0x4444].type == "ModelPrototype"
    assert 0x6666 not in db  # Test.geometry has no prototype
    with pytest.raises(KeyError):
        db["content/gameplay/Missing.visual"]
    assert len(list(db.paths())) == 6
    assert db.find("content/gameplay/Test.m") == [
        (0x4444, "content/gameplay/Test.model"),
        (0x5555, "content/gameplay/Test.mfm"),
    ]
    assert visual.to_dict()["type"] == "VisualPrototype"
    # The record's fields, from SOURCES.txt.
    assert [n["name"] for n in visual.nodes] == ["Scene Root", "HP_Test"]
    assert visual.nodes[1]["matrix"][12:15] == [1.5, 2.5, 3.5]
    assert visual.merged_geometry_path_id == 0x6666
    assert visual.abovewater
    (rs,) = visual.render_sets
    assert (rs["name"], rs["material"]) == ("rs_hull", "mat_hull")
    assert (rs["vertices_mapping_id"], rs["indices_mapping_id"]) == (0xC301017C, 0xB3CEF438)
    assert rs["material_mfm_path_id"] == 0x5555 and rs["nodes"] == ["Scene Root"]
    (lod,) = visual.lods
    assert lod["extent"] == 500.0 and lod["casts_shadow"] and lod["render_sets"] == ["rs_hull"]
    assert visual.bounding_box == {"min": [-1.0, -2.0, -3.0], "max": [1.0, 2.0, 3.0]}
    (prop,) = db[0x5555].properties
    assert prop["name"] == "diffuseMap" and prop["value"] == 0xDEADBEEFCAFEF00D
    assert db[0x4444].visual_resource_id == 0x3333
    assert db[0x4444].animations == [] and db[0x4444].skeleton_extenders == []
    with pytest.raises(AttributeError):
        visual.no_such_field


def test_model_pipeline_exports_a_glb(tmp_path):
    # The crate's example world: Test.model -> Test.visual (render set rs_hull, one LOD) ->
    # Test.geometry holding the mesh Hull.
    gamebin._gamebin.write_model_example(tmp_path)
    db = gamebin.AssetsDb(tmp_path / "assets.bin")
    model = db.model("content/gameplay/Test.model", res=tmp_path)
    scenes, meshes = model.export_glb(tmp_path / "Test.glb")
    assert (scenes, meshes) == (1, 1)
    assert (tmp_path / "Test.glb").read_bytes()[:4] == b"glTF"
    # A resource folder without the .geometry: an error that names what is missing.
    with pytest.raises(gamebin.FormatError, match="Test.geometry"):
        db.model("content/gameplay/Test.model", res=tmp_path / "nowhere").export_glb(
            tmp_path / "x.glb"
        )


def _normalized(value):
    """A value of the CLI's `dump --json` or of `Prototype.fields` in one shape: ids in hex text
    as integers, pairs as lists, floats as float32 (the records store f32; JSON prints the shortest
    decimal of the f32, Python holds the f32's exact double)."""
    import numpy as np

    if isinstance(value, dict):
        if set(value) == {"time", "value"}:
            return [_normalized(value["time"]), _normalized(value["value"])]
        if set(value) == {"min", "max"}:
            return [_normalized(value["min"]), _normalized(value["max"])]
        return {k: _normalized(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalized(v) for v in value]
    if isinstance(value, str) and value.startswith("0x"):
        return int(value, 16)
    if isinstance(value, float):
        return float(np.float32(value))
    return value


def test_every_prototype_type_has_the_fields_the_cli_prints():
    db = gamebin.AssetsDb(fixture("wows-assets", "all_prototypes.assets.bin"))
    expected = golden("all_prototypes.assets.bin")
    records = {(r["database"], r["index"]): r["record"] for r in expected["records"]}
    seen = set()
    for p in expected["paths"]:
        if p["prototype"] is None:
            continue
        want = records[(p["prototype"]["database"], p["prototype"]["record"])]
        found = db.get(int(p["id"], 16))
        fields = found.fields
        assert fields, f"{want.get('type')}: no fields bound"
        # Every field Python gives is one the CLI prints, with the same value.
        for key, value in fields.items():
            assert key in want, f"{want.get('type')}.{key}"
            assert _normalized(value) == _normalized(want[key]), f"{want.get('type')}.{key}"
        seen.add(found.type)
    assert len(seen) == 10, seen

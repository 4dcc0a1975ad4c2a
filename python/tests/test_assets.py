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
    # A resource folder without the .geometry: FileNotFoundError naming the path it looked at.
    nowhere = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError) as info:
        db.model("content/gameplay/Test.model", res=nowhere).export_glb(tmp_path / "x.glb")
    assert str(nowhere / "content" / "gameplay" / "Test.geometry") in str(info.value)
    assert not (tmp_path / "x.glb").exists()


def test_model_pipeline_names_a_damaged_geometry_with_its_offset(tmp_path):
    # The example world with its .geometry cut short: a FormatError carrying the reader's offset
    # and field, its message naming the file.
    gamebin._gamebin.write_model_example(tmp_path)
    geometry = tmp_path / "content" / "gameplay" / "Test.geometry"
    geometry.write_bytes(geometry.read_bytes()[:40])
    db = gamebin.AssetsDb(tmp_path / "assets.bin")
    with pytest.raises(gamebin.FormatError) as info:
        db.model("content/gameplay/Test.model", res=tmp_path).export_glb(tmp_path / "x.glb")
    assert "Test.geometry" in str(info.value)
    assert info.value.field != "model" and info.value.field
    assert f"{info.value.offset:#010x}" in str(info.value)


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


def test_legacy_layouts_fixture_as_its_writer_built_it():
    # The writer's inputs (gamebin::synth::assets::legacy_layouts): explicit path ids 0x10
    # content, 0x20 ships, 0x30 Old.model, 0x40 Old.visual, 0x50 Gone.model (deleted); the model
    # in the 0x20 layout with visual 0x40, misc type 1, animation 0xC1 and a dye tinting
    # "tint_old"; a database of unknown magic holding one 24-byte record; a CRC32 checksum.
    db = gamebin.AssetsDb(fixture("wows-assets", "legacy_layouts.assets.bin"))
    paths = dict(db.paths())
    assert paths[0x30] == "content/ships/Old.model"
    assert paths[0x40] == "content/ships/Old.visual"
    assert paths[0x50] == "content/ships/Gone.model"
    # The ids are not path hashes: the path is found by walking the table.
    assert db["content/ships/Old.visual"].id == 0x40
    assert db[0x40].type == "VisualPrototype"
    assert db[0x50].state == "deleted" and db[0x50].raw is None
    model = db[0x30]
    assert model.type == "ModelPrototype" and model.path == "content/ships/Old.model"
    assert (model.visual_resource_id, model.misc_type) == (0x40, 1)
    assert model.layout == "0x20"
    assert model.animations == [0xC1] and model.skeleton_extenders == []
    (dye,) = model.dyes
    assert "tint_old" in str(dye)
    databases = db.info["databases"]
    assert len(databases) == 11
    unknown = databases[10]
    assert unknown["type"] is None
    assert unknown["records"] == 1

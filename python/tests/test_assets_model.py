"""The whole assets.bin as a model: ``AssetsDb.to_model()`` → ``gamebin.write_assets`` gives the
fixtures (files of the crate's writer) back byte for byte, as a dict and as JSON text; an edit
reaches the file; a bad model raises with the reason. The expected bytes are the committed
fixtures, never this binding's output."""

import copy
import json

import pytest

import gamebin
from conftest import all_fixtures, fixture, samples


def assets_fixtures():
    found = [p for p in all_fixtures() if p.name.endswith(".assets.bin")]
    assert len(found) >= 2, "fixtures missing"
    return found


@pytest.mark.parametrize("path", assets_fixtures(), ids=lambda p: p.name)
def test_model_writes_the_fixture_again_byte_for_byte(path):
    data = path.read_bytes()
    model = gamebin.AssetsDb(path).to_model()
    assert gamebin.write_assets(model) == data
    # The same from bytes, and from the model's JSON text (what `gamebin assets unpack` prints).
    assert gamebin.AssetsDb(data).to_model() == model
    assert gamebin.write_assets(json.dumps(model, indent=2)) == data


def test_the_model_holds_what_the_file_stores():
    path = fixture("wows-assets", "all_prototypes.assets.bin")
    db = gamebin.AssetsDb(path)
    model = db.to_model()
    assert len(model["paths"]) == len(list(db.paths()))
    assert [d["type"] for d in db.info["databases"]] == [
        d["records"]["decoded"]["records"][0]["type"] for d in model["databases"]
    ]
    # Every record in the complete form: the effect's systems listed as hex text, not counted.
    effect = next(
        d["records"]["decoded"]["records"][0]
        for d in model["databases"]
        if d["records"]["decoded"]["records"][0]["type"] == "EffectPrototype"
    )
    assert isinstance(effect["systems"], list) and effect["systems"]
    assert all(isinstance(s, str) for s in effect["systems"])


def test_an_edit_reaches_the_file():
    path = fixture("wows-assets", "all_prototypes.assets.bin")
    before = gamebin.AssetsDb(path)
    visual = before["content/gameplay/Test.visual"]
    model = before.to_model()
    entry = next(p for p in model["paths"] if p["name"] == "Test.visual")
    entry["name"] = "Renamed.visual"
    after = gamebin.AssetsDb(gamebin.write_assets(model))
    assert after.path_of(visual.id) == "content/gameplay/Renamed.visual"
    assert after[visual.id].type == "VisualPrototype"
    assert "content/gameplay/Test.visual" not in {path for _, path in after.paths()}


def test_a_bad_model_raises_with_the_reason():
    model = gamebin.AssetsDb(fixture("wows-assets", "legacy_layouts.assets.bin")).to_model()

    missing = copy.deepcopy(model)
    del missing["checksum"]
    with pytest.raises(ValueError, match="missing field `checksum`"):
        gamebin.write_assets(missing)

    misspelt = copy.deepcopy(model)
    misspelt["paths"][0]["nam"] = misspelt["paths"][0].pop("name")
    with pytest.raises(ValueError, match="unknown field `nam`"):
        gamebin.write_assets(misspelt)

    with pytest.raises(ValueError, match="not valid JSON"):
        gamebin.write_assets(json.dumps(model)[:100])

    # Well-formed, but more than the writer allows: the library's error, with its field.
    huge = copy.deepcopy(model)
    huge["strings_capacity"] = 1 << 40
    with pytest.raises(gamebin.FormatError, match="more than eight times") as info:
        gamebin.write_assets(huge)
    assert info.value.field == "offsetsMap.capacity"
    # Where in the model, and no file offset: the error is about the model.
    assert info.value.path == "strings_capacity"
    assert info.value.offset is None

    wide = copy.deepcopy(model)
    wide["prototypes"][0]["record"] = 1 << 24
    with pytest.raises(gamebin.FormatError) as info:
        gamebin.write_assets(wide)
    assert info.value.field == "resourceToPrototypeMap.value"
    assert info.value.path == "prototypes[0].record"


def test_the_sample_is_written_again_byte_for_byte():
    # Another writer's file: its layout (kept in the model's "layout") is not this writer's,
    # and the model writes it again byte for byte; what it holds (SOURCES.txt) reads the same.
    path = samples() / "wows-assets" / "minimal_synthetic_assets.bin"
    model = gamebin.AssetsDb(path).to_model()
    assert (model["strings_capacity"], model["prototypes_capacity"]) == (11, 7)
    assert model["layout"]["string_words"] == "slot"
    # Its blobs as where their out-of-line arrays are (the material's, the visual's), no hex.
    assert "stored_blobs" not in model["layout"]
    assert [p["database"] for p in model["layout"]["blob_placements"]] == [0, 1]
    original = path.read_bytes()
    assert gamebin.write_assets(model) == original
    # One value edited (SOURCES.txt's texture 0xDEADBEEFCAFEF00D): only its 8 bytes and the
    # header's checksum differ.
    edited = copy.deepcopy(model)
    material = edited["databases"][0]["records"]["decoded"]["records"][0]
    assert material["properties"][0]["value"] == "0xdeadbeefcafef00d"
    material["properties"][0]["value"] = "0x0123456789abcdef"
    written = gamebin.write_assets(edited)
    at = original.index((0xDEADBEEFCAFEF00D).to_bytes(8, "little"))
    assert written[at : at + 8] == (0x0123456789ABCDEF).to_bytes(8, "little")
    assert len(written) == len(original)
    changed = [i for i in range(len(original)) if written[i] != original[i]]
    assert all(8 <= i < 12 or at <= i < at + 8 for i in changed), changed
    # Without its layout: this writer's layout, a file that reads the same.
    del model["layout"]
    written = gamebin.AssetsDb(gamebin.write_assets(model))
    assert written.to_model() == model
    assert written[0x3333].type == "VisualPrototype"
    assert written.path_of(0x3333) == "content/gameplay/Test.visual"

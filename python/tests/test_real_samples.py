"""The facts tests/real_samples.rs asserts about the real samples, through Python. The expected
values come from the samples' SOURCES.txt (quoted) and from bytes read here with ``struct`` as the
format lays them out, not from gamebin's output."""

import struct

import numpy as np
import pytest

import gamebin
from conftest import samples

# Every .geometry SOURCES.txt lists, in its order.
ALL = [
    "CM001_0.11.5.geometry",
    "CM001_p2g_0.10.2.geometry",
    "CM001_p2g_0.11.5.geometry",
    "CPA003_Shell_CS_0.11.5.geometry",
    "FSD012_Kleber_1952_0.11.5.geometry",
    "CPA001_Shell_AP_0.10.2.geometry",
    "JAS007_Kawanishi_E15K1.geometry",
    "AGS028_5in38_Mk29_Mod0_0.10.2.geometry",
]


def geometry(name):
    return gamebin.GeometryFile(samples() / "wows-geometry" / name)


def vertex_mappings(name):
    """(mapping id, itemsCount) of each vertex MappingEntry, read from the header: the count at
    0x08, the table's offset at 0x18; entries of 16 bytes (id u32, mergedBufferIndex u16,
    packedTexelDensity u16, itemsOffset u32, itemsCount u32)."""
    data = (samples() / "wows-geometry" / name).read_bytes()
    (count,) = struct.unpack_from("<I", data, 0x08)
    (table,) = struct.unpack_from("<q", data, 0x18)
    return [
        (struct.unpack_from("<I", data, table + 16 * i)[0],
         struct.unpack_from("<I", data, table + 16 * i + 12)[0])
        for i in range(count)
    ]


def test_every_geometry_sample_is_listed():
    assert sorted(p.name for p in (samples() / "wows-geometry").glob("*.geometry")) == sorted(ALL)


def test_encoded_and_raw_samples():
    # "ENCD-encoded (vertex codec v0, index codec v0)"; the others raw.
    g = geometry("CM001_p2g_0.11.5.geometry")
    assert g.vertex_buffer_info[0]["encoded"] and g.index_buffer_info[0]["encoded"]
    for name in [ALL[0], ALL[1], ALL[3], ALL[4]]:
        g = geometry(name)
        assert not any(b["encoded"] for b in g.vertex_buffer_info), name
        assert not any(b["encoded"] for b in g.index_buffer_info), name


@pytest.mark.parametrize("name", [ALL[0], ALL[3], ALL[5]])
def test_three_mappings_three_draws(name):
    # "raw, 3 LOD mappings", "raw, 1 vertex format, 3 mappings", "raw, 3 vertex + 3 index
    # mappings": every mapping pairs.
    assert len(vertex_mappings(name)) == 3
    draws = geometry(name).draws
    assert len(draws) == 3
    assert sorted(d.vertices_id for d in draws) == sorted(m for m, _ in vertex_mappings(name))


def test_one_vertex_format():
    # CPA003: "1 vertex format".
    g = geometry(ALL[3])
    assert len(g.vertex_buffers) == 1


def test_table_order_is_not_the_pairing():
    # CPA001: "the i-th index mapping does NOT belong to the i-th vertex mapping". Draws come in
    # index-mapping order; the first is not the first vertex mapping's, which has 14 vertices.
    mappings = vertex_mappings("CPA001_Shell_AP_0.10.2.geometry")
    first_id, first_count = mappings[0]
    assert first_count == 14
    draws = geometry("CPA001_Shell_AP_0.10.2.geometry").draws
    assert draws[0].vertices_id != first_id
    (draw,) = [d for d in draws if d.vertices_id == first_id]
    assert len(draw.vertices) == 14


def test_first_raw_vertex_of_the_cm001_mesh():
    # The 0.10.2 twin's first vertex as stored: position (-0.5, -0.5, -0.5), normal bytes
    # 7f 7f 00 = (0, 0, -1), tangent fe 7f 7f = (1, 0, 0), binormal 7f 00 7f = (0, -1, 0);
    # 24 vertices of 28 bytes.
    g = geometry("CM001_p2g_0.10.2.geometry")
    v = g.vertex_buffers[0]
    assert (len(v), v.dtype.itemsize) == (24, 28)
    assert gamebin.positions(v)[0].tolist() == [-0.5, -0.5, -0.5]
    assert gamebin.normals(v)[0].tolist() == [0.0, 0.0, -1.0]
    assert v["normal"][0][:3].tolist() == [0x7F, 0x7F, 0x00]
    assert v["tangent"][0][:3].tolist() == [0xFE, 0x7F, 0x7F]
    assert v["binormal"][0][:3].tolist() == [0x7F, 0x00, 0x7F]


@pytest.mark.parametrize("name", ALL[:3])
def test_propeller_pairs_by_its_name(name):
    # Vertex mapping id = MurmurHash3("Propeller_meshShape.vertices") = 0xC301017C, index mapping
    # id = MurmurHash3("Propeller_meshShape.indices") = 0xB3CEF438 (tests/real_samples.rs).
    (draw,) = [d for d in geometry(name).draws if d.vertices_id == 0xC301017C]
    assert draw.indices_id == 0xB3CEF438


def test_kleber_armor():
    # "1 ArmorModelPrototype "CM_PA_united.armor" (2072 triangles)"; its id 0x80000001, normals of
    # unit length, layers 1-based, every corner inside the model's triangles' bounds.
    (armor,) = geometry("FSD012_Kleber_1952_0.11.5.geometry").armor
    assert armor.name == "CM_PA_united.armor"
    assert armor.id == 0x8000_0001
    assert armor.triangles.shape == (2072, 3, 3)
    packed = np.concatenate([n["normal"] for n in armor.nodes]).astype(np.float32)
    normals = armor.normals
    assert normals.shape == (2072, 3, 3) and normals.dtype == np.float32
    # Offset-binary as the format stores unit vectors: (byte - 127) / 127.
    assert np.array_equal(normals.reshape(-1, 3), (packed - 127) / 127)
    assert np.all(np.abs(np.linalg.norm(normals, axis=2) - 1) <= 0.02)
    assert armor.layers.min() >= 1


def test_btstab_schema_as_sources_txt_describes_it():
    # "!!sheetname BtSceneTable, ... 55 field names: whole-word i-fields, "uiDespair0" (width 0:
    # second character is a letter), i8/u4/u1/i5 bit fields, two s-fields".
    wdb = gamebin.WdbFile(samples() / "ff13-wdb" / "bartz24_ffmoddingwpf_xiii2_btstab00032.wdb")
    assert wdb.sheet_name == "BtSceneTable"
    assert len(wdb.field_names) == 55
    kinds = dict(zip(wdb.field_names, wdb.field_kinds))
    assert kinds["uiDespair0"] == "uint"
    assert kinds["i8BattleSituationRandom0"] == "int"
    assert sum(k == "str" for k in wdb.field_kinds) == 2


def test_monster_book_record_m003():
    # Hand-decoded from the bytes of record m003 (tests/real_samples.rs): cell 16 = 0x043C0024.
    wdb = gamebin.WdbFile(samples() / "ff13-wdb" / "bartz24_ffmoddingwpf_lr_monster_book.wdb")
    records = {r["record"]: r for r in wdb.records}
    m003 = records["m003"]
    assert (m003["u7NewRace"], m003["u9SortId"]) == (36, 60)
    assert m003["sLibraOpenItem"] == "libra_m003"
    assert np.float32(m003["fScale"]) == np.float32(0.65)
    assert "m004" not in records and "!!string" not in records


def test_glanduff_project_header_and_first_control():
    # tests/real_samples.rs: startup scene 0x0106, next control id 82, no description, the first
    # control id 5 named "SM" (a mouse control, positive button 1), non-ASCII control names.
    p = gamebin.CraftStudioProject(
        samples() / "craftstudio-project" / "AntarkaGame_CS_Glanduff_Project.dat"
    )
    d = p.to_dict()
    assert (d["startup_scene_id"], d["next_control_id"], d["description"]) == (0x0106, 82, "")
    first = p.controls[0]
    assert (first["id"], first["name"], first["positive_button"]) == (5, "SM", 1)
    assert any(not c["name"].isascii() for c in p.controls)

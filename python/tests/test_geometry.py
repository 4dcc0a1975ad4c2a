"""`.geometry`: counts, bounds and pairings against the Rust CLI's golden dumps; ENCD against the
raw twin of the same mesh; armor against the sample's documented triangle count."""

import numpy as np
import pytest

import gamebin
from conftest import fixture, golden, samples

GEOMETRY_FIXTURES = [
    "ships_encd",
    "ships_raw",
    "mixed_formats",
    "ambiguous_pairing",
    "pairing_by_index_range",
    "swapped_index_size",
]


@pytest.mark.parametrize("name", GEOMETRY_FIXTURES)
def test_buffers_match_the_golden_dump(name):
    g = gamebin.GeometryFile(fixture("wows-geometry", f"{name}.geometry"))
    expected = golden(f"{name}.geometry")
    assert len(g.vertex_buffers) == len(expected["vertex_buffers"])
    for array, info, want in zip(g.vertex_buffers, g.vertex_buffer_info, expected["vertex_buffers"]):
        assert info["format_name"] == want["format"]
        assert info["stride"] == want["stride"] == array.dtype.itemsize
        assert info["encoded"] == want["encoded"]
        assert len(array) == want["vertex_count"]
        if "aabb" in want and "position" in array.dtype.names:
            p = gamebin.positions(array)
            assert p.min(axis=0).tolist() == pytest.approx(want["aabb"]["min"])
            assert p.max(axis=0).tolist() == pytest.approx(want["aabb"]["max"])
    for array, want in zip(g.index_buffers, expected["index_buffers"]):
        assert len(array) == want["index_count"]
        assert array.dtype.itemsize == want["index_size"]
        if len(array):
            assert int(array.max()) == want["max_index"]
    draws = g.draws
    assert len(draws) == len(expected["draws"])
    for draw, want in zip(draws, expected["draws"]):
        assert draw.vertices_id == want["vertex_mapping"]
        assert draw.indices_id == want["index_mapping"]
        assert draw.pairing == want["pairing"]
        assert len(draw.triangles) == want["triangles"]
        assert draw.positions.shape == (len(draw.vertices), 3)
        assert draw.positions.dtype == np.float32
        if len(draw.indices):
            assert int(draw.indices.max()) < len(draw.vertices)


def test_attributes_decode_like_the_rust_reader():
    g = gamebin.GeometryFile(fixture("wows-geometry", "ships_raw.geometry"))
    v = g.vertex_buffers[0]
    n = gamebin.normals(v)
    assert n.shape == (len(v), 3) and n.dtype == np.float32
    # Offset-binary bytes: 127 is 0, 254 is 1 (the spec's formula).
    assert np.allclose(n, (v["normal"][:, :3].astype(np.float32) - 127) / 127)
    uv = gamebin.uvs(v)
    assert uv.shape == (len(v), 2) and uv.dtype == np.float32
    assert np.array_equal(uv, v["uv"].astype(np.float32))


def test_draw_arrays_are_views_into_the_merged_buffers():
    g = gamebin.GeometryFile(fixture("wows-geometry", "ships_raw.geometry"))
    draw = g.draws[0]
    assert np.shares_memory(draw.vertices, g.vertex_buffers[0])
    assert np.shares_memory(draw.indices, g.index_buffers[0])


def test_encd_decodes_to_the_bytes_of_its_raw_twin():
    # SOURCES.txt: the 0.10.2 file holds the same mesh raw, its vertex bytes equal to the decoded
    # ENCD vertices of the 0.11.5 file (written by Wargaming's own converter).
    root = samples() / "wows-geometry"
    encd = gamebin.open(root / "CM001_p2g_0.11.5.geometry")
    raw = gamebin.open(root / "CM001_p2g_0.10.2.geometry")
    assert encd.vertex_buffer_info[0]["encoded"] and not raw.vertex_buffer_info[0]["encoded"]
    assert encd.vertex_buffers[0].tobytes() == raw.vertex_buffers[0].tobytes()
    # The index codec may rotate a triangle's corners (meshoptimizer keeps the winding only):
    # the same triangles, each turned to start at its smallest index.
    def canonical(indices):
        t = indices.reshape(-1, 3).astype(np.int64)
        turn = t.argmin(axis=1)
        return np.stack([np.roll(row, -k) for row, k in zip(t, turn)])

    assert np.array_equal(canonical(encd.index_buffers[0]), canonical(raw.index_buffers[0]))


def test_armor_triangles_of_the_kleber_sample():
    # SOURCES.txt: 1 ArmorModelPrototype "CM_PA_united.armor" (2072 triangles).
    g = gamebin.open(samples() / "wows-geometry" / "FSD012_Kleber_1952_0.11.5.geometry")
    (armor,) = g.armor
    assert armor.name == "CM_PA_united.armor"
    assert armor.triangles.shape == (2072, 3, 3)
    assert armor.triangles.dtype == np.float32
    assert len(armor.materials) == len(armor.layers) == 2072
    assert np.shares_memory(armor.nodes[0], armor.nodes[0].base)


def test_every_real_geometry_reads(tmp_path):
    for path in sorted((samples() / "wows-geometry").glob("*.geometry")):
        g = gamebin.open(path)
        assert isinstance(g, gamebin.GeometryFile)
        for draw in g.draws:
            if len(draw.indices):
                assert int(draw.indices.max()) < len(draw.vertices), path.name
        out = tmp_path / f"{path.stem}.glb"
        skipped = g.export_glb(out, armor=True)
        assert out.read_bytes()[:4] == b"glTF"
        assert skipped == [], (path.name, skipped)


def _formats_laid_out_as_the_library_reads_them(paths):
    """Checks every vertex buffer's dtype against the reader's layout of that buffer (its
    ``fields``, from the Rust ``VertexBuffer::format``); returns the (format, stride) pairs seen."""
    seen = set()
    for path in paths:
        g = gamebin.GeometryFile(path)
        for info, array in zip(g.vertex_buffer_info, g.vertex_buffers):
            dtype = array.dtype
            assert dtype.itemsize == info["stride"], path.name
            offsets = {name: dtype.fields[name][1] for name in dtype.names}
            assert offsets == info["fields"], (path.name, info["format_name"])
            # Each field ends before the next begins, and the last within the record.
            spans = sorted((at, dtype.fields[name][0].itemsize) for name, at in offsets.items())
            ends = [at + size for at, size in spans]
            assert all(end <= at for end, (at, _) in zip(ends, spans[1:])), info["format_name"]
            assert not ends or ends[-1] <= info["stride"], info["format_name"]
            assert dtype == gamebin.vertex_dtype(info["format_name"], info["stride"])
            seen.add((info["format_name"], info["stride"]))
    return seen


def test_vertex_dtypes_are_the_librarys_layouts_in_the_fixtures():
    paths = sorted(fixture("wows-geometry", "").glob("*.geometry"))
    seen = _formats_laid_out_as_the_library_reads_them(paths)
    # Skinned and two-UV-set layouts (mixed_formats), the common one, and one without tangents.
    names = {"set3/xyznuviiiwwtbpc", "set3/xyznuv2tbpc", "set3/xyznuvtbpc", "set3/xyznuvpc"}
    assert names <= {name for name, _ in seen}, seen


def test_vertex_dtypes_are_the_librarys_layouts_in_the_samples():
    paths = sorted(samples().rglob("*.geometry"))
    assert len(paths) >= 8
    assert _formats_laid_out_as_the_library_reads_them(paths)

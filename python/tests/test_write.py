"""Round trips through the crate's writer (`_gamebin.write_geometry`): what is written, raw or
ENCD-encoded, reads back through the zero-copy and the decoding paths."""

import numpy as np
import pytest

import gamebin
from gamebin import _gamebin as native


def cube():
    positions = np.array(
        [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float32
    )
    normals = positions / np.linalg.norm(positions, axis=1, keepdims=True)
    uvs = np.linspace(-0.5, 0.5, 16, dtype=np.float32).reshape(8, 2)
    indices = np.array(
        [0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7, 0, 4, 1, 1, 4, 5, 2, 3, 6, 3, 7, 6],
        dtype=np.uint32,
    )
    return positions, normals, uvs, indices


@pytest.mark.parametrize("encode", [False, True])
@pytest.mark.parametrize("index_size", [2, 4])
def test_written_meshes_read_back(encode, index_size):
    p, n, uv, idx = cube()
    data = native.write_geometry(
        [("Cube", p, n, uv, idx, 100), ("Moved", p + 3, None, None, idx[:12], 200)],
        "set3/xyznuvtbpc",
        encode,
        index_size,
    )
    g = gamebin.GeometryFile(data)
    assert g.vertex_buffer_info[0]["encoded"] == encode
    assert g.index_buffers[0].dtype.itemsize == index_size
    draws = {d.vertices_id: d for d in g.draws}
    assert len(draws) == 2
    cube_draw, moved = sorted(draws.values(), key=lambda d: len(d.indices), reverse=True)
    assert np.array_equal(cube_draw.positions, p)
    assert np.array_equal(moved.positions, p + 3)
    # Normals go through one byte each ((v * 127) + 127, rounded); UVs through float16.
    assert np.allclose(cube_draw.normals, n, atol=1 / 127)
    assert np.allclose(cube_draw.uvs, uv, atol=1e-3)
    tri = lambda t: sorted(tuple(np.roll(r, -int(np.argmin(r)))) for r in t.reshape(-1, 3))
    assert tri(cube_draw.indices) == tri(idx)
    assert tri(moved.indices) == tri(idx[:12])


def test_writer_errors_are_exceptions():
    p, n, uv, idx = cube()
    with pytest.raises(gamebin.FormatError):
        native.write_geometry([("Bad", p, None, None, idx + 100, 0)])
    with pytest.raises(ValueError):
        native.write_geometry([("Bad", p, n[:3], None, idx, 0)])
    with pytest.raises(ValueError):
        native.write_geometry([], index_size=3)

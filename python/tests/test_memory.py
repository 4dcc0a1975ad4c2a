"""Zero-copy and lifetimes: arrays over the mapping share its memory, keep it alive after their
parent object is gone, and block `close()` (an error, not a crash)."""

import gc

import numpy as np
import pytest

import gamebin
from conftest import fixture


def raw_geometry():
    return gamebin.GeometryFile(fixture("wows-geometry", "ships_raw.geometry"))


def test_raw_vertex_array_is_a_read_only_view_of_the_mapping():
    g = raw_geometry()
    assert g.source.is_mapped
    v = g.vertex_buffers[0]
    # The structured array views the uint8 array over the file, whose base is the Source.
    assert v.base.base is g.source
    assert not v.flags.writeable
    with pytest.raises(ValueError):
        v["position"][0] = 0
    info = g.vertex_buffer_info[0]
    whole = g.source.array(0, len(g.source))
    assert np.shares_memory(v, whole)
    # The array's first byte is the file's byte at the buffer's data offset.
    start = v.view(np.uint8).__array_interface__["data"][0]
    assert start - whole.__array_interface__["data"][0] == info["data_offset"]
    assert np.shares_memory(g.draws[0].vertices, g.vertex_buffers[0])


def test_views_outlive_their_parent():
    g = raw_geometry()
    v = g.vertex_buffers[0]
    expected = v.tobytes()
    del g
    gc.collect()
    assert v.tobytes() == expected  # the Source (and its mapping) lives on as the array's base


def test_close_while_views_exist_is_an_error():
    g = raw_geometry()
    v = g.vertex_buffers[0]
    with pytest.raises(BufferError):
        g.close()
    assert v.tobytes()  # still readable
    del v
    gc.collect()
    g.close()
    assert g.closed
    with pytest.raises(ValueError):
        g.source.array(0, 4)


def test_context_manager_and_bytes_input():
    data = fixture("wows-geometry", "ships_raw.geometry").read_bytes()
    with gamebin.open(memoryview(data)) as g:
        assert not g.source.is_mapped
        n = len(g.draws)
        assert n == len(gamebin.GeometryFile(bytearray(data)).draws)
    assert g.closed


def test_array_range_is_checked():
    g = raw_geometry()
    with pytest.raises(gamebin.FormatError):
        g.source.array(len(g.source) - 1, 2)
    with pytest.raises(gamebin.FormatError):
        g.source.array(2**63, 2**63)


@pytest.mark.parametrize(
    "make",
    [bytes, bytearray, lambda b: memoryview(bytearray(b)), lambda b: memoryview(b)],
    ids=["bytes", "bytearray", "memoryview(bytearray)", "memoryview(bytes)"],
)
def test_in_memory_input_is_copied_once_outside_python(make):
    # The one copy is the Rust half's (not traced by tracemalloc): Python allocates nothing of
    # the input's size on the way, where `bytes(data)` would have allocated all of it.
    import tracemalloc

    payload = bytes(range(256)) * 4096  # 1 MiB
    data = make(payload)
    tracemalloc.start()
    try:
        source = gamebin.File(data).source
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(payload) // 8, peak
    assert not source.is_mapped and len(source) == len(payload)
    assert source.array(0, len(payload)).tobytes() == payload
    # The source owns its copy: changing the caller's buffer does not change it.
    if isinstance(data, bytearray):
        data[0] ^= 0xFF
        assert source.array(0, 1)[0] == payload[0]


def test_a_non_contiguous_memoryview_is_read_too():
    payload = bytes(range(256)) * 16
    source = gamebin.File(memoryview(payload)[::2]).source
    assert source.array(0, len(source)).tobytes() == payload[::2]

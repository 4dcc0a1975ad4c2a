"""Errors: every fixture truncated (and byte-flipped) gives a result or a FormatError with an
offset and a field, never a crash; I/O problems are OSError."""

import random
import struct

import pytest

import gamebin
from conftest import all_fixtures, fixture, samples

CLASSES = {
    "wows-geometry": gamebin.GeometryFile,
    "wows-assets": gamebin.AssetsDb,
    "ff13-wdb": gamebin.WdbFile,
    "wap32-wwd": gamebin.WwdLevel,
    "rusty-hearts-wdata": gamebin.WdataMap,
    "craftstudio-project": gamebin.CraftStudioProject,
    "dds": gamebin.DdsTexture,
    "wows-gameparams": gamebin.GameParams,
}


def use(obj):
    """Touches everything the object exposes."""
    if isinstance(obj, gamebin.GeometryFile):
        for d in obj.draws:
            d.vertices, d.indices
        for a in obj.armor:
            a.triangles, a.normals, a.materials
    elif isinstance(obj, gamebin.AssetsDb):
        obj.info
        for id_, _path in obj.paths():
            p = obj.get(id_)
            if p is not None:
                p.raw
    elif isinstance(obj, gamebin.WdbFile):
        obj.records
    elif isinstance(obj, gamebin.WwdLevel):
        for p in obj.planes:
            p.tiles
        obj.objects
    elif isinstance(obj, gamebin.WdataMap):
        obj.event_boxes, obj.event_boxes_by_type
    elif isinstance(obj, gamebin.CraftStudioProject):
        obj.entries, obj.controls
    elif isinstance(obj, gamebin.GameParams):
        obj.info
        for e in obj.entries():
            obj.get(e["name"])
            if e["id"] is not None:
                obj.by_id(e["id"])
        for r in obj.regions:
            for e in obj.region(r).entries():
                obj.region(r).get(e["name"])
    elif isinstance(obj, gamebin.DdsTexture):
        obj.levels
        for slice_ in range(obj.slice_count):
            for mip in range(obj.mip_count):
                obj.decode(mip, slice_)


def read(cls, data):
    try:
        use(cls(data))
    except gamebin.FormatError as e:
        assert isinstance(e.offset, int) and e.offset >= 0
        assert isinstance(e.field, str) and e.field
        assert str(e)


def class_fixtures():
    """The fixtures read by a class of their own. The PFS archives (wows-pfs) are read through
    gamebin.Install; test_install.py damages those indexes and volumes."""
    return [p for p in all_fixtures() if p.parent.name in CLASSES]


def test_every_fixture_folder_is_read_here_or_through_an_install():
    assert {p.parent.name for p in all_fixtures()} == set(CLASSES) | {"wows-pfs"}


@pytest.mark.parametrize("path", class_fixtures(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_truncated_and_flipped_fixtures_never_crash(path):
    data = path.read_bytes()
    cls = CLASSES[path.parent.name]
    step = max(1, len(data) // 64)
    for n in list(range(0, len(data), step)) + [len(data) - 1]:
        read(cls, data[:n])
    rng = random.Random(path.name)
    for _ in range(32):
        flipped = bytearray(data)
        for _ in range(4):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        read(cls, bytes(flipped))


@pytest.mark.parametrize("folder", sorted(CLASSES))
def test_a_truncated_file_of_each_format_raises_format_error(folder):
    path = next(p for p in all_fixtures() if p.parent.name == folder)
    data = path.read_bytes()
    with pytest.raises(gamebin.FormatError) as info:
        use(CLASSES[folder](data[: len(data) // 2] if folder != "ff13-wdb" else data[:20]))
    assert info.value.offset >= 0 and info.value.field


def _first_vertex_mapping(data: bytes):
    """The file offset of the first vertex MappingEntry and its mapping id, read from the header
    as the format lays it out (vertices_mapping_ptr at 0x18; entries of 16 bytes: id u32,
    mergedBufferIndex u16, texel density u16, itemsOffset u32, itemsCount u32)."""
    (table,) = struct.unpack_from("<q", data, 0x18)
    (mapping_id,) = struct.unpack_from("<I", data, table)
    return table, mapping_id


def _draw_of(g, mapping_id):
    return next(d for d in g.draws if d.vertices_id == mapping_id)


def test_a_draw_naming_a_missing_buffer_is_a_format_error_at_its_mapping():
    data = bytearray(fixture("wows-geometry", "ships_raw.geometry").read_bytes())
    at, mapping_id = _first_vertex_mapping(data)
    struct.pack_into("<H", data, at + 4, 77)  # mergedBufferIndex: no such buffer
    draw = _draw_of(gamebin.GeometryFile(bytes(data)), mapping_id)
    with pytest.raises(gamebin.FormatError) as info:
        draw.vertices
    assert info.value.offset == at
    assert info.value.field == "MappingEntry(vertices).mergedBufferIndex"
    assert str(info.value).startswith(f"at {at:#010x}: MappingEntry(vertices).mergedBufferIndex")
    assert "invalid value 77" in str(info.value)


def test_a_draw_range_past_its_buffer_is_a_format_error_at_its_mapping():
    data = bytearray(fixture("wows-geometry", "ships_raw.geometry").read_bytes())
    at, mapping_id = _first_vertex_mapping(data)
    struct.pack_into("<I", data, at + 12, 0x7FFFFFF)  # itemsCount: far past the buffer
    draw = _draw_of(gamebin.GeometryFile(bytes(data)), mapping_id)
    with pytest.raises(gamebin.FormatError) as info:
        draw.vertices
    assert info.value.offset == at
    assert info.value.field == "MappingEntry(vertices).itemsCount"
    assert f"invalid value {0x7FFFFFF}" in str(info.value)


def test_truncated_real_geometry_names_offset_and_field():
    data = (samples() / "wows-geometry" / "CM001_0.11.5.geometry").read_bytes()
    with pytest.raises(gamebin.FormatError) as info:
        gamebin.GeometryFile(data[:500])
    assert info.value.field
    assert f"{info.value.offset:#010x}" in str(info.value)


def test_unknown_content_and_io_errors():
    with pytest.raises(gamebin.FormatError):
        gamebin.open(b"not a game file at all")
    with pytest.raises(FileNotFoundError, match="/nonexistent/ship.geometry"):
        gamebin.open("/nonexistent/ship.geometry")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        gamebin.open("/")


def test_open_of_a_truncated_named_file_raises_its_readers_error(tmp_path):
    # Issue #29: `gamebin.open` said only "not a format gamebin reads" where the CLI names the
    # field and offset. A file whose name says its format is read as that format.
    data = (samples() / "wows-geometry" / "CM001_0.11.5.geometry").read_bytes()
    cut = tmp_path / "CM001_cut.geometry"
    cut.write_bytes(data[:500])
    with pytest.raises(gamebin.FormatError) as info:
        gamebin.open(cut)
    assert "named .geometry but does not read as one" in str(info.value)
    assert info.value.field and info.value.field != "format"
    assert f"{info.value.offset:#010x}" in str(info.value)
    # The same bytes without a name still fail (how precisely depends on content detection).
    with pytest.raises(gamebin.FormatError):
        gamebin.open(data[:500])


def test_unrecognised_content_is_said_as_the_cli_says_it(tmp_path):
    # Issue 49, item 7: `gamebin.open("empty.bin")` said "not a format gamebin reads" where the
    # CLI says "empty (0 bytes)". Both now take the words from the library's one rule.
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(gamebin.FormatError) as info:
        gamebin.open(empty)
    assert str(info.value) == f"{empty}: empty (0 bytes): there is nothing to read"
    text = tmp_path / "notes.txt"
    text.write_bytes(b"not a game file")
    with pytest.raises(gamebin.FormatError) as info:
        gamebin.open(text)
    assert str(info.value) == (
        f"{text}: not a format gamebin reads (formats are detected by content)"
    )

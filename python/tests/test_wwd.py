"""`.wwd`: planes and objects against the samples' EXPECTED.tsv; tile grids, zero-copy for an
uncompressed level and equal to the compressed twin's."""

import csv

import numpy as np
import pytest

import gamebin
from conftest import fixture, golden, samples


WWD_FIXTURES = [
    "claw_small",
    "claw_small_nocompress",
    "claw_small_wapmap",
    "claw_small_nocompress_wapmap",
    "gruntz_small",
    "empty_planes",
]

# Python's object keys that the dump names differently (the dump keeps the record's field names).
_DUMP_FIELD = {"x": "location_x", "y": "location_y", "z": "location_z", "i": "location_i"}


@pytest.mark.parametrize("name", WWD_FIXTURES)
def test_fixture_level_matches_the_golden_dump(name):
    level = gamebin.WwdLevel(fixture("wap32-wwd", f"{name}.wwd"))
    expected = golden(f"{name}.wwd")
    # `dump --json` prints the owned level under "level": the header, and per plane its header,
    # its tiles (row by row), image sets and objects (the record's fields under "fields").
    model = expected["level"]
    assert level.header["compressed"] == expected["compressed"]
    assert level.header["signature_ok"] == expected["signature_ok"]
    assert level.header["name"] == model["header"]["name"]
    assert len(level.planes) == len(model["planes"])
    for plane, want in zip(level.planes, model["planes"]):
        header = want["header"]
        assert plane.name == header["name"]
        for key in ("flags", "tile_width", "tile_height", "tiles_wide", "tiles_high", "z_coord"):
            assert getattr(plane, key) == header[key], (plane.name, key)
        assert plane.tiles.shape == (header["tiles_high"], header["tiles_wide"])
        assert plane.tiles.dtype == np.uint32
        assert plane.tiles.ravel().tolist() == want["tiles"], plane.name
        assert plane.image_sets == want["image_sets"], plane.name
        assert len(plane.objects) == len(want["objects"]) == header["num_objects"], plane.name
        for got, dumped in zip(plane.objects, want["objects"]):
            fields = dumped["fields"]
            for key, value in got.items():
                if key in ("name", "logic", "image_set", "animation"):
                    assert value == dumped[key], (plane.name, key)
                elif key == "user":
                    assert list(value) == fields["user"], (plane.name, key)
                else:
                    assert value == fields[_DUMP_FIELD.get(key, key)], (plane.name, key)
    assert level.objects == [o for p in level.planes for o in p.objects]
    assert len(level.objects) == sum(len(p["objects"]) for p in model["planes"])


def test_fixtures_hold_objects_and_image_sets():
    # What the comparison above covers is not empty: claw_small's Action plane has nine objects
    # and each plane one image set, per its golden dump.
    level = gamebin.WwdLevel(fixture("wap32-wwd", "claw_small.wwd"))
    assert [len(p.objects) for p in level.planes] == [0, 9, 0]
    assert [p.image_sets for p in level.planes] == [["BACK"], ["ACTION"], ["FRONT"]]
    assert level.planes[1].objects[0]["logic"] == "TreasurePowerup"


def test_real_levels_match_expected_tsv():
    root = samples() / "wap32-wwd"
    with open(root / "EXPECTED.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert rows
    for row in rows:
        # open() passes the option on; the _badsig copy, which detection by content does not
        # recognise, is read as a level because of it.
        level = gamebin.open(root / row["file"], ignore_signature=True)
        assert isinstance(level, gamebin.WwdLevel)
        assert len(level.planes) == int(row["num_planes"]), row["file"]
        assert len(level.objects) == int(row["objects"]), row["file"]
        assert level.header["compressed"] == (row["compression"] != "none")
        assert level.header["signature_ok"] == (row["sig_ok"] == "True")


def test_uncompressed_grid_is_zero_copy_and_equals_the_inflated_one():
    root = samples() / "wap32-wwd"
    raw = gamebin.open(root / "claw_libwap32_RETAIL01_nocompress.WWD")
    packed = gamebin.open(root / "claw_libwap32_RETAIL01.WWD")
    for a, b in zip(raw.planes, packed.planes):
        assert np.array_equal(a.tiles, b.tiles)
    tiles = raw.planes[1].tiles
    assert not tiles.flags.writeable
    assert np.shares_memory(tiles, raw.planes[1].tiles)  # both over the same mapping


def _decode_png(data: bytes) -> np.ndarray:
    """An 8-bit RGB PNG's pixels, decoded with the standard library (zlib and the five row
    filters), independently of the encoder that wrote it."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2), "8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = cur[x - 3] if x >= 3 else 0
            b = prev[x]
            c = prev[x - 3] if x >= 3 else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (int(line[x]) + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, 3)


def test_render_returns_the_picture_and_writes_it_as_png(tmp_path):
    level = gamebin.WwdLevel(fixture("wap32-wwd", "claw_small.wwd"))
    main = next(p for p in level.planes if p.flags & 1)
    image = level.render(tmp_path / "map.png", scale=2)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    # Cropped to the part in use, 2 px per tile, at least 360 px wide, with a legend under it.
    assert image.shape[1] <= max(main.tiles_wide * 2, 360)
    assert image.shape[0] > 0
    decoded = _decode_png((tmp_path / "map.png").read_bytes())
    assert np.array_equal(decoded, image)
    # Without a path nothing is written, and the same options give the same picture.
    assert np.array_equal(level.render(scale=2), image)
    # The whole plane, uncropped: as many tile columns as the plane has.
    whole = level.render(scale=1, crop=False)
    assert whole.shape[1] == max(main.tiles_wide, 360)


def test_render_names_a_missing_plane():
    import pytest

    level = gamebin.WwdLevel(fixture("wap32-wwd", "claw_small.wwd"))
    with pytest.raises(KeyError, match="no plane named"):
        level.render(plane="Nope")


def test_open_passes_options_on_and_names_one_the_reader_does_not_take():
    level = gamebin.open(fixture("wap32-wwd", "claw_small.wwd"), ignore_signature=True)
    assert isinstance(level, gamebin.WwdLevel) and level.header["signature_ok"]
    with pytest.raises(TypeError, match="wows-geometry reader .* no option ignore_signature"):
        gamebin.open(fixture("wows-geometry", "ships_raw.geometry"), ignore_signature=True)
    with pytest.raises(TypeError, match="no option colour"):
        gamebin.open(fixture("wap32-wwd", "claw_small.wwd"), colour=True)
    # Without the option, the level whose signature is wrong is nothing gamebin recognises.
    with pytest.raises(gamebin.FormatError):
        gamebin.open(samples() / "wap32-wwd" / "claw_libwap32_RETAIL01_badsig.WWD")


def test_a_compressed_levels_grid_is_read_only_too():
    # Issue #29: the copy out of the inflated main block was writeable, against the docs.
    packed = gamebin.open(samples() / "wap32-wwd" / "claw_libwap32_RETAIL01.WWD")
    assert packed.header["compressed"]
    for plane in packed.planes:
        assert not plane.tiles.flags.writeable


def test_level_text_is_the_stored_text_not_the_dumps_escapes():
    # `gamebin dump --json` writes this sample's animation name with its trailing tab escaped as
    # `LEVEL_AMBIENT_WATER%09`, so that the JSON gives back the stored bytes; Python shows the
    # text itself.
    level = gamebin.WwdLevel(samples() / "wap32-wwd" / "gruntz_libwap32_RockySwitch.wwd")
    animations = {o["animation"] for o in level.objects}
    assert "LEVEL_AMBIENT_WATER\t" in animations
    assert not any("%09" in a for a in animations)

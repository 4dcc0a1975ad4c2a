"""`.wwd`: planes and objects against the samples' EXPECTED.tsv; tile grids, zero-copy for an
uncompressed level and equal to the compressed twin's."""

import csv

import numpy as np

import gamebin
from conftest import fixture, golden, samples


def test_fixture_planes_match_the_golden_dump():
    for name in ["claw_small", "claw_small_nocompress", "gruntz_small", "empty_planes"]:
        level = gamebin.WwdLevel(fixture("wap32-wwd", f"{name}.wwd"))
        expected = golden(f"{name}.wwd")
        # `dump --json` prints the owned level under "level" (header and planes with their headers).
        model = expected["level"]
        assert level.header["compressed"] == expected["compressed"]
        assert level.header["name"] == model["header"]["name"]
        assert [p.name for p in level.planes] == [p["header"]["name"] for p in model["planes"]]
        for plane in level.planes:
            assert plane.tiles.shape == (plane.tiles_high, plane.tiles_wide)
            assert plane.tiles.dtype == np.uint32


def test_real_levels_match_expected_tsv():
    root = samples() / "wap32-wwd"
    with open(root / "EXPECTED.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert rows
    for row in rows:
        # The class, not open(): detection by content wants the signature the _badsig copy lacks.
        level = gamebin.WwdLevel(root / row["file"], ignore_signature=True)
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

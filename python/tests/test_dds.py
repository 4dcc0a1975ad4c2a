"""DDS textures through Python: every level of every fixture and real texture decodes as Pillow's
DDS decoder (an independent implementation) decodes the top level, within rounding; the stored
levels are zero-copy arrays; a missing level is an IndexError."""

import io

import numpy as np
import pytest
from PIL import Image

import gamebin
from conftest import FIXTURES, samples

# Pillow and bcdec round BC1/BC3 colours and 565 pixels differently (at most 1 of 255 apart per
# channel; BC7 and 8-bit layouts are equal): "within rounding".
TOLERANCE = 1


def pillow_rgba(path):
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))


def largest_difference(a, b):
    assert a.shape == b.shape, (a.shape, b.shape)
    return int(np.max(np.abs(a.astype(np.int16) - b.astype(np.int16))))


FIXTURE_TEXTURES = sorted((FIXTURES / "dds").glob("*.dds"))

@pytest.mark.parametrize("path", FIXTURE_TEXTURES, ids=lambda p: p.name)
def test_fixtures_decode_as_pillow_does(path):
    with gamebin.open(path) as texture:
        assert isinstance(texture, gamebin.DdsTexture)
        assert texture.format == "dds"
        mips = texture.mips
        assert len(mips) == texture.mip_count
        for mip, pixels in enumerate(mips):
            assert pixels.shape == (max(texture.height >> mip, 1), max(texture.width >> mip, 1), 4)
            assert not pixels.flags.writeable
        # Pillow reads the top level (of the first slice or face).
        assert largest_difference(mips[0], pillow_rgba(path)) <= TOLERANCE
        del mips


def test_levels_are_zero_copy_views_of_the_stored_bytes():
    path = FIXTURES / "dds" / "bc1_cube.dds"
    data = path.read_bytes()
    texture = gamebin.DdsTexture(path)
    levels = texture.levels
    assert len(levels) == 6 * 4
    assert [(l["slice"], l["mip"]) for l in levels[:5]] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]
    for level in levels:
        stored = level["data"]
        assert not stored.flags.writeable
        assert stored.tobytes() == data[level["offset"]:level["offset"] + level["size"]]
    with pytest.raises(BufferError):
        texture.close()
    del levels, level, stored
    texture.close()


def test_a_missing_level_is_an_index_error_and_damage_a_format_error():
    texture = gamebin.DdsTexture(FIXTURES / "dds" / "l8.dds")
    with pytest.raises(IndexError, match="no slice 0 mip 5"):
        texture.decode(mip=5)
    data = (FIXTURES / "dds" / "bc7_dx10.dds").read_bytes()
    with pytest.raises(gamebin.FormatError) as error:
        gamebin.DdsTexture(data[:-1])
    assert error.value.field == "DDS level data"
    assert error.value.offset == 148


def test_real_textures_decode_as_pillow_does():
    root = samples() / "wows-mod"
    found = sorted(root.rglob("*.dds"))
    # SOURCES.txt lists nine textures.
    assert len(found) == 9
    for path in found:
        with gamebin.open(path) as texture:
            ours = texture.decode()
            theirs = pillow_rgba(path)
            assert largest_difference(ours, theirs) <= TOLERANCE, path
            del ours

"""DDS textures: the stored levels as zero-copy arrays, and decoding into RGBA8 arrays."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from . import _gamebin as _native
from ._file import File, Input


class DdsTexture(File):
    """A DDS texture (BC1–BC7 or uncompressed). ``info`` is what ``gamebin info --json`` prints
    (``format`` there is the pixel format: ``"BC7"``, ``"A8R8G8B8"``, ...); ``levels`` lists every
    mip level of every slice; :meth:`decode` gives one level as a ``(height, width, 4)`` RGBA8
    array, and :attr:`mips` every mip level of slice 0 decoded.

    >>> with gamebin.open("ship_a.dds") as t:                 # doctest: +SKIP
    ...     top = t.decode()            # numpy uint8, shape (512, 512, 4)
    ...     print(t.pixel_format, t.width, t.height, len(t.mips))
    """

    format = "dds"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        texture = _native.dds_texture(self._source)
        self.info: Dict[str, Any] = texture["info"]
        self._levels: List[Dict[str, Any]] = texture["levels"]

    @property
    def pixel_format(self) -> str:
        """The pixel format's short name (``"BC1"``, ``"BC7"``, ``"A8R8G8B8"``, ``"L8"``)."""
        return str(self.info["format"])

    @property
    def width(self) -> int:
        """Width of the top level in pixels."""
        return int(self.info["width"])

    @property
    def height(self) -> int:
        """Height of the top level in pixels."""
        return int(self.info["height"])

    @property
    def mip_count(self) -> int:
        """Mip levels per slice."""
        return int(self.info["mips"])

    @property
    def slice_count(self) -> int:
        """Array slices, every cube face counted."""
        return int(self.info["slices"])

    @property
    def levels(self) -> List[Dict[str, Any]]:
        """Every level in file order: ``slice``, ``mip``, ``width``, ``height``, ``depth``,
        ``offset``, ``size``, and ``data``, a read-only ``uint8`` array over its stored bytes
        (zero-copy: it keeps the file open)."""
        return [
            {**level, "data": self._source.array(level["offset"], level["size"])}
            for level in self._levels
        ]

    def decode(self, mip: int = 0, slice: int = 0) -> np.ndarray:  # noqa: A002 (the format's word)
        """Level ``mip`` of ``slice`` decoded to RGBA8: a new read-only ``uint8`` array of shape
        ``(height, width, 4)`` (a volume level's depth slices stacked in rows). BC4 comes out
        grey, BC5 in red and green, BC6H clamped to 0..1. ``IndexError`` for a level the texture
        does not have."""
        return _native.dds_decode(self._source, mip, slice)

    @property
    def mips(self) -> List[np.ndarray]:
        """Every mip level of slice 0, decoded (:meth:`decode`), largest first."""
        return [self.decode(mip) for mip in range(self.mip_count)]

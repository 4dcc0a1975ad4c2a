"""Captain Claw / Gruntz ``.wwd``: planes' tile grids as 2-D uint32 arrays, headers and objects as
dicts."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Union

import numpy as np

from . import _gamebin as _native
from ._file import File, Input


# The object keys Python names differently from the model (and `dump --json`): the position is
# `x`, `y`, `z`, `i`, as it was before objects carried every field.
_OBJECT_KEY = {"location_x": "x", "location_y": "y", "location_z": "z", "location_i": "i"}


def _texts(data: Dict[str, Any]) -> Dict[str, Any]:
    """``data`` with every text of the model (escaped as ``dump --json`` writes it) as the text
    it stores, decoded as the library decodes text for display."""
    return {k: _native.wwd_text(v) if isinstance(v, str) else v for k, v in data.items()}


def _object(data: Dict[str, Any]) -> Dict[str, Any]:
    """An object of the model as one flat dict: its record's fields, then its four strings."""
    fields = data.pop("fields")
    return {**{_OBJECT_KEY.get(k, k): v for k, v in fields.items()}, **_texts(data)}


class Plane:
    """A plane: ``header`` (every field of its plane header, as ``gamebin dump --json`` prints
    it), the most used of them as attributes (``name``, ``flags``, ``tile_width``,
    ``tiles_wide``, ...), its ``image_sets`` and ``objects`` (dicts), and ``tiles``."""

    def __init__(self, level: "WwdLevel", data: Dict[str, Any], grid: Dict[str, Any]) -> None:
        self._level = level
        self._grid = grid
        self.header: Dict[str, Any] = _texts(data["header"])
        self.name: str = self.header["name"]
        self.flags: int = self.header["flags"]
        self.tile_width: int = self.header["tile_width"]
        self.tile_height: int = self.header["tile_height"]
        self.tiles_wide: int = self.header["tiles_wide"]
        self.tiles_high: int = self.header["tiles_high"]
        self.z_coord: int = self.header["z_coord"]
        self.image_sets: List[str] = [_native.wwd_text(n) for n in data["image_sets"]]
        self.objects: List[Dict[str, Any]] = [_object(o) for o in data["objects"]]

    @property
    def tiles(self) -> np.ndarray:
        """The tile grid, ``(tiles_high, tiles_wide)`` uint32, row by row: a read-only zero-copy
        view of the file for an uncompressed level, a copy from the inflated main block for a
        compressed one."""
        if "tiles" in self._grid:
            return self._grid["tiles"]
        high, wide = self._grid["shape"]
        raw = self._level.source.array(self._grid["tiles_offset"], high * wide * 4)
        return raw.view("<u4").reshape(high, wide)

    def __repr__(self) -> str:
        return f"<gamebin.Plane {self.name!r} {self.tiles_wide}×{self.tiles_high}>"


class WwdLevel(File):
    """A ``.wwd`` level (compressed levels are inflated once, on open), read whole into the model
    ``gamebin dump --json`` prints, but for the tile grids and the text: strings are the stored
    bytes up to the first NUL, read as Windows-1250 (not the dump's ``%XX`` escapes);
    ``ignore_signature=True`` reads a level whose header signature is wrong.

    >>> level = gamebin.WwdLevel("RETAIL01.WWD")               # doctest: +SKIP
    >>> level.planes[1].tiles.shape                              # doctest: +SKIP
    """

    format = "wap32-wwd"

    def __init__(
        self, data: Input, *, read: bool = False, ignore_signature: bool = False
    ) -> None:
        super().__init__(data, read=read)
        self._ignore_signature = ignore_signature
        info = _native.wwd_level(self._source, ignore_signature)
        header, planes = json.loads(info["model"])
        #: Every header field as ``gamebin dump --json`` prints it (``name``, ``author``,
        #: ``flags``, ``start_x``, ...), and ``compressed``, ``signature_ok`` and ``start``
        #: (``(start_x, start_y)``).
        self.header: Dict[str, Any] = {
            **_texts(header),
            "compressed": info["compressed"],
            "signature_ok": info["signature_ok"],
            "start": (header["start_x"], header["start_y"]),
        }
        self.planes: List[Plane] = [Plane(self, p, g) for p, g in zip(planes, info["grids"])]

    @property
    def objects(self) -> List[Dict[str, Any]]:
        """Every plane's objects, in plane order."""
        return [o for p in self.planes for o in p.objects]

    def render(
        self,
        path: Optional[Union[str, "os.PathLike[str]"]] = None,
        *,
        plane: Optional[str] = None,
        scale: Optional[int] = None,
        crop: bool = True,
    ) -> np.ndarray:
        """A picture of one plane, as ``gamebin wwd render`` draws it: each tile coloured by its
        tile property (double and mask tiles pixel by pixel), objects marked, a legend
        underneath. ``plane`` names the plane (default: the main plane), ``scale`` is pixels per
        tile (default: about 4,096 pixels wide), ``crop`` keeps only the part in use.

        Returns the picture as a ``(height, width, 3)`` uint8 RGB array; with ``path``, also
        writes it there as a PNG.

        >>> image = level.render("map.png", scale=4)              # doctest: +SKIP
        """
        width, height, rgb, png = _native.wwd_render(
            self._source,
            self._ignore_signature,
            plane,
            scale,
            crop,
            path is not None,
        )
        if path is not None:
            with open(os.fspath(path), "wb") as out:
                out.write(png)
        return np.frombuffer(rgb, dtype=np.uint8).reshape(height, width, 3)

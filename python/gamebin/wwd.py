"""Captain Claw / Gruntz ``.wwd``: planes' tile grids as 2-D uint32 arrays, objects as dicts."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Union

import numpy as np

from . import _gamebin as _native
from ._file import File, Input


class Plane:
    """A plane: its fields (``name``, ``flags``, ``tile_width``, ``tiles_wide``, ...), its
    ``image_sets`` and ``objects`` (dicts), and ``tiles``."""

    def __init__(self, level: "WwdLevel", info: Dict[str, Any]) -> None:
        self._level = level
        self._info = info
        self.name: str = info["name"]
        self.flags: int = info["flags"]
        self.tile_width: int = info["tile_width"]
        self.tile_height: int = info["tile_height"]
        self.tiles_wide: int = info["tiles_wide"]
        self.tiles_high: int = info["tiles_high"]
        self.z_coord: int = info["z_coord"]
        self.image_sets: List[str] = info["image_sets"]
        self.objects: List[Dict[str, Any]] = info["objects"]

    @property
    def tiles(self) -> np.ndarray:
        """The tile grid, ``(tiles_high, tiles_wide)`` uint32, row by row: a read-only zero-copy
        view of the file for an uncompressed level, a copy from the inflated main block for a
        compressed one."""
        if "tiles" in self._info:
            return self._info["tiles"]
        high, wide = self._info["shape"]
        raw = self._level.source.array(self._info["tiles_offset"], high * wide * 4)
        return raw.view("<u4").reshape(high, wide)

    def __repr__(self) -> str:
        return f"<gamebin.Plane {self.name!r} {self.tiles_wide}×{self.tiles_high}>"


class WwdLevel(File):
    """A ``.wwd`` level (compressed levels are inflated once, on open). Strings are decoded as
    Windows-1250, like the CLI; ``ignore_signature=True`` reads a level whose header signature is
    wrong.

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
        #: Header fields: ``name``, ``author``, ``birth``, ``rez_file``, ``image_dir``,
        #: ``pal_rez``, ``launch_app``, ``compressed``, ``start``, ``signature_ok``.
        self.header: Dict[str, Any] = {k: v for k, v in info.items() if k != "planes"}
        self.planes: List[Plane] = [Plane(self, p) for p in info["planes"]]

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

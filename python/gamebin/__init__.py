"""gamebin: zero-copy readers for game data files, with NumPy arrays over the mapping.

``gamebin.open(path)`` picks the reader by content; each format also has its class:
:class:`GeometryFile`, :class:`AssetsDb`, :class:`WdbFile`, :class:`WwdLevel`,
:class:`WdataMap`, :class:`CraftStudioProject`. Every constructor takes a path (mapped), or
``bytes``/``bytearray``/``memoryview``. A malformed file raises :class:`FormatError`
(``.offset``, ``.field``); I/O problems raise ``OSError``.
"""

from __future__ import annotations

from typing import Union

from ._file import File, Input, source_of
from ._gamebin import FormatError, Source
from .assets import AssetsDb, Model, Prototype
from .geometry import ArmorModel, Draw, GeometryFile, normals, positions, uvs, vertex_dtype
from .models import CraftStudioProject, WdataMap
from .wdb import WdbFile
from .wwd import Plane, WwdLevel

__all__ = [
    "ArmorModel",
    "AssetsDb",
    "CraftStudioProject",
    "Draw",
    "File",
    "FormatError",
    "GeometryFile",
    "Model",
    "Plane",
    "Prototype",
    "Source",
    "WdataMap",
    "WdbFile",
    "WwdLevel",
    "normals",
    "open",
    "positions",
    "uvs",
    "vertex_dtype",
]

AnyFile = Union[GeometryFile, AssetsDb, WdbFile, WwdLevel, WdataMap, CraftStudioProject]

_BY_FORMAT = {
    cls.format: cls
    for cls in (GeometryFile, AssetsDb, WdbFile, WwdLevel, WdataMap, CraftStudioProject)
}


def open(data: Input, *, read: bool = False) -> AnyFile:  # noqa: A001 (like io.open)
    """Opens ``data`` (a path, or the bytes) with the reader its content calls for.
    ``FormatError`` when no format recognises it.

    >>> with gamebin.open("ship.geometry") as g:             # doctest: +SKIP
    ...     print(len(g.draws))
    """
    source = source_of(data, read)
    name = source.format()
    if name is None:
        err = FormatError(f"{source.name}: not a format gamebin reads")
        err.offset = 0
        err.field = "format"
        raise err
    return _BY_FORMAT[name](source)

"""gamebin: zero-copy readers for game data files, with NumPy arrays over the mapping.

``gamebin.open(path)`` picks the reader by content; each format also has its class:
:class:`GeometryFile`, :class:`AssetsDb`, :class:`WdbFile`, :class:`WwdLevel`,
:class:`WdataMap`, :class:`CraftStudioProject`, :class:`DdsTexture`. Every constructor takes a path (mapped), or
``bytes``/``bytearray``/``memoryview``. A malformed file raises :class:`FormatError`
(``.offset``, ``.field``); I/O problems raise ``OSError``. :class:`Install` opens a World of
Warships game folder and reads (or opens) the files in its archives.
"""

from __future__ import annotations

import inspect
from typing import Any, Union

from ._file import File, Input, source_of
from ._gamebin import FormatError, Source
from .assets import AssetsDb, Model, Prototype, write_assets
from .dds import DdsTexture
from .install import FileState, Install, InstallChange, diff_installs, write_pfs
from .geometry import ArmorModel, Draw, GeometryFile, normals, positions, uvs, vertex_dtype
from .models import CraftStudioProject, WdataMap
from .params import GameParams
from .wdb import WdbFile
from .wwd import Plane, WwdLevel

__all__ = [
    "ArmorModel",
    "AssetsDb",
    "CraftStudioProject",
    "DdsTexture",
    "Draw",
    "File",
    "FileState",
    "FormatError",
    "GameParams",
    "GeometryFile",
    "Install",
    "InstallChange",
    "Model",
    "Plane",
    "Prototype",
    "Source",
    "WdataMap",
    "WdbFile",
    "WwdLevel",
    "diff_installs",
    "normals",
    "open",
    "positions",
    "uvs",
    "vertex_dtype",
    "write_assets",
    "write_pfs",
]

AnyFile = Union[
    GeometryFile, AssetsDb, WdbFile, WwdLevel, WdataMap, CraftStudioProject, DdsTexture, GameParams
]

_BY_FORMAT = {
    cls.format: cls
    for cls in (
        GeometryFile,
        AssetsDb,
        WdbFile,
        WwdLevel,
        WdataMap,
        CraftStudioProject,
        DdsTexture,
        GameParams,
    )
}


def open(data: Input, *, read: bool = False, **options: Any) -> AnyFile:  # noqa: A001 (like io.open)
    """Opens ``data`` (a path, or the bytes) with the reader its content calls for.
    ``FormatError`` when no format recognises it; a file whose name says its format
    (``.geometry``, ``.wdb``, ``.wwd``, ``.wdata``, ``.dds``, ``assets.bin``, ``Project.dat``) but whose
    content does not read as it (truncated, damaged) raises that reader's ``FormatError``, with
    its ``offset`` and ``field``.

    ``options`` go to that reader's constructor (``ignore_signature=True`` for a ``.wwd``); one
    the reader does not take is a ``TypeError`` naming it. A level whose signature is wrong is
    not recognised by content, so with ``ignore_signature=True`` content no format recognises is
    read as a ``.wwd`` (and its errors are the ``.wwd`` reader's).

    >>> with gamebin.open("ship.geometry") as g:             # doctest: +SKIP
    ...     print(len(g.draws))
    >>> gamebin.open("LEVEL1_badsig.WWD", ignore_signature=True)   # doctest: +SKIP
    """
    source = source_of(data, read)
    # By content, then by the file's name: a damaged `ship.geometry` raises its reader's error
    # (offset and field) rather than "not a format".
    name = source.detect(bool(options.get("ignore_signature")))
    if name is None and options.get("ignore_signature"):
        name = WwdLevel.format
    if name is None:
        # The CLI's words for the same bytes: "empty (0 bytes)" or "not a format gamebin reads".
        err = FormatError(f"{source.name}: {source.unrecognised()}")
        err.offset = 0
        err.field = "format"
        raise err
    cls = _BY_FORMAT.get(name)
    if cls is None:
        # A format the library reads but the package has no class for (a single PFS index:
        # its files are read through the game folder, with gamebin.Install).
        err = FormatError(
            f"{source.name}: a {name} file, which gamebin.open does not read"
            + (" (open its game folder with gamebin.Install)" if name == "wows-pfs-idx" else "")
        )
        err.offset = 0
        err.field = "format"
        raise err
    accepted = inspect.signature(cls.__init__).parameters
    unknown = sorted(k for k in options if k not in accepted or k in ("self", "data"))
    if unknown:
        raise TypeError(
            f"{source.name}: the {name} reader ({cls.__name__}) takes no option "
            + ", ".join(unknown)
        )
    return cls(source, **options)

"""World of Warships ``.geometry``: vertex and index buffers as NumPy arrays, draws, armor."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

import numpy as np

from . import _gamebin as _native
from ._file import File, Input, format_error

#: One armor vertex as stored: position, offset-binary normal (``(byte - 127) / 127``, as for
#: vertex normals), padding.
ARMOR_VERTEX = np.dtype(
    {
        "names": ["position", "normal", "reserved"],
        "formats": [("<f4", (3,)), ("u1", (3,)), "u1"],
        "offsets": [0, 12, 15],
        "itemsize": 16,
    }
)


def vertex_dtype(format_name: str, stride: int) -> np.dtype:
    """The structured dtype of vertices of format ``format_name`` (``"set3/xyznuvtbpc"``) stored
    ``stride`` bytes apart: the attributes the library reads within the stride, each at its
    offset and as stored; bytes no attribute names stay unnamed."""
    return np.dtype(_native.geometry_vertex_dtype(format_name, stride))


def positions(vertices: np.ndarray) -> np.ndarray:
    """Positions of structured vertices as a float32 ``(N, 3)`` array (a copy)."""
    return np.array(vertices["position"], dtype=np.float32)


def _unit(vertices: np.ndarray, field: str) -> np.ndarray:
    if field not in (vertices.dtype.names or ()):
        raise KeyError(f"the vertex format has no {field}")
    packed = vertices[field][:, :3].astype(np.float32)
    return (packed - 127.0) / 127.0


def normals(vertices: np.ndarray) -> np.ndarray:
    """Normals of structured vertices decoded to float32 ``(N, 3)``: ``(byte - 127) / 127``."""
    return _unit(vertices, "normal")


def uvs(vertices: np.ndarray, uv_set: int = 0) -> np.ndarray:
    """A UV set of structured vertices as float32 ``(N, 2)``, as stored (add 0.5 for 0..1)."""
    field = "uv" if uv_set == 0 else "uv1"
    if field not in (vertices.dtype.names or ()):
        raise KeyError(f"the vertex format has no UV set {uv_set}")
    return vertices[field].astype(np.float32)


class Draw:
    """A draw: an index mapping paired with the vertex mapping its indices address.
    ``vertices`` and ``indices`` are views into the merged buffers (no copy); indices count from
    the draw's first vertex."""

    def __init__(self, geometry: "GeometryFile", info: Dict[str, Any]) -> None:
        self._geometry = geometry
        self.vertices_id: int = info["vertices_id"]
        self.indices_id: int = info["indices_id"]
        #: How the pairing was decided (``"name"``, ``"id"``, ``"texel-density"``, ...).
        self.pairing: str = info["pairing"]
        self._info = info

    def _error(self, kind: str, field: str, value: int, reason: str) -> Exception:
        """A :class:`FormatError` at the draw's MappingEntry, worded as the Rust library words
        the same check (``DecodedGeometry::draw_data``)."""
        offset = self._info[f"{kind}_mapping_offset"]
        table = "vertices" if kind == "vertex" else "indices"
        what = f"MappingEntry({table}).{field}"
        return format_error(
            f"at {offset:#010x}: {what}: invalid value {value} ({value:#x}): {reason}",
            offset,
            what,
        )

    def _buffer(self, kind: str) -> np.ndarray:
        """The merged buffer the draw's ``kind`` mapping slices; ``FormatError`` when the file
        has no buffer with that index."""
        i = self._info[f"{kind}_buffer"]
        if kind == "vertex":
            count, get = len(self._geometry.vertex_buffer_info), self._geometry.vertex_buffer
        else:
            count, get = len(self._geometry.index_buffer_info), self._geometry.index_buffer
        if i >= count:
            raise self._error(
                kind, "mergedBufferIndex", i, f"no merged {kind} buffer with this index"
            )
        return get(i)

    def _range(self, kind: str) -> np.ndarray:
        buffer = self._buffer(kind)
        start = self._info[f"{kind}_offset"]
        count = self._info[f"{kind}_count"]
        if start + count > len(buffer):
            raise self._error(
                kind,
                "itemsCount",
                count,
                f"the {kind} range runs past its merged {kind} buffer "
                f"(items {start}+{count} of {len(buffer)})",
            )
        return buffer[start : start + count]

    @property
    def vertices(self) -> np.ndarray:
        """The draw's vertices: a structured array, a view into its merged vertex buffer."""
        return self._range("vertex")

    @property
    def indices(self) -> np.ndarray:
        """The draw's indices (uint16 or uint32), a view into its merged index buffer."""
        return self._range("index")

    @property
    def positions(self) -> np.ndarray:
        """float32 ``(N, 3)`` positions."""
        return positions(self.vertices)

    @property
    def normals(self) -> np.ndarray:
        """float32 ``(N, 3)`` normals."""
        return normals(self.vertices)

    @property
    def uvs(self) -> np.ndarray:
        """float32 ``(N, 2)`` first UV set, as stored."""
        return uvs(self.vertices)

    @property
    def triangles(self) -> np.ndarray:
        """The indices as an ``(T, 3)`` array."""
        indices = self.indices
        return indices[: len(indices) - len(indices) % 3].reshape(-1, 3)

    def __repr__(self) -> str:
        return (
            f"<gamebin.Draw {self.vertices_id:08x}_{self.indices_id:08x} "
            f"{self._info['vertex_count']} vertices, {self._info['index_count']} indices>"
        )


class ArmorModel:
    """An armor model: BVH nodes of triangles with a material id and layer each."""

    def __init__(self, geometry: "GeometryFile", info: Dict[str, Any]) -> None:
        self._geometry = geometry
        self.name: str = info["name"]
        self.id: int = info["id"]
        self._nodes = info["nodes"]

    @property
    def nodes(self) -> List[np.ndarray]:
        """Each node's vertices as stored: zero-copy structured arrays (:data:`ARMOR_VERTEX`)."""
        source = self._geometry.source
        return [
            source.array(n["vertices_offset"], n["vertex_count"] * 16).view(ARMOR_VERTEX)
            for n in self._nodes
        ]

    @property
    def triangles(self) -> np.ndarray:
        """Every triangle's corners, float32 ``(T, 3, 3)``."""
        if not self._nodes:
            return np.zeros((0, 3, 3), dtype=np.float32)
        corners = np.concatenate([n["position"] for n in self.nodes])
        return np.array(corners, dtype=np.float32).reshape(-1, 3, 3)

    @property
    def normals(self) -> np.ndarray:
        """Every triangle's corner normals, decoded to float32 ``(T, 3, 3)``:
        ``(byte - 127) / 127``, as the library decodes them."""
        if not self._nodes:
            return np.zeros((0, 3, 3), dtype=np.float32)
        packed = np.concatenate([n["normal"] for n in self.nodes]).astype(np.float32)
        return ((packed - 127.0) / 127.0).reshape(-1, 3, 3)

    @property
    def materials(self) -> np.ndarray:
        """Each triangle's material id (uint8)."""
        return self._per_triangle("material_id")

    @property
    def layers(self) -> np.ndarray:
        """Each triangle's armor layer (uint8, 1-based)."""
        return self._per_triangle("layer_index")

    def _per_triangle(self, key: str) -> np.ndarray:
        counts = [n["vertex_count"] // 3 for n in self._nodes]
        values = [n[key] for n in self._nodes]
        return np.repeat(np.array(values, dtype=np.uint8), counts)

    def __repr__(self) -> str:
        return f"<gamebin.ArmorModel {self.name!r} {len(self._nodes)} nodes>"


class GeometryFile(File):
    """A ``.geometry`` file. Raw buffers are read-only zero-copy arrays over the mapping;
    ENCD-encoded buffers are decoded once, on first use, into arrays of their own.

    >>> g = gamebin.GeometryFile("ship.geometry")          # doctest: +SKIP
    >>> for draw in g.draws:                                 # doctest: +SKIP
    ...     print(draw.positions.shape, draw.triangles.max())
    """

    format = "wows-geometry"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        self._layout = _native.geometry_layout(self._source)
        self._vertex: List[Optional[np.ndarray]] = [None] * len(self._layout["vertex_buffers"])
        self._index: List[Optional[np.ndarray]] = [None] * len(self._layout["index_buffers"])

    def _drop_caches(self) -> None:
        self._vertex = [None] * len(self._vertex)
        self._index = [None] * len(self._index)

    @property
    def vertex_buffer_info(self) -> List[Dict[str, Any]]:
        """Per merged vertex buffer: ``format_name``, ``stride``, ``encoded``, ``count``,
        ``data_offset``, ``size``, ``fields`` (attribute → byte offset), ``skinned``, ``bumped``."""
        return self._layout["vertex_buffers"]

    @property
    def index_buffer_info(self) -> List[Dict[str, Any]]:
        """Per merged index buffer: ``index_size``, ``encoded``, ``count``, ``data_offset``,
        ``size``."""
        return self._layout["index_buffers"]

    def vertex_buffer(self, i: int) -> np.ndarray:
        """Merged vertex buffer ``i`` as a structured array (dtype from its vertex format)."""
        cached = self._vertex[i]
        if cached is not None:
            return cached
        info = self._layout["vertex_buffers"][i]
        if info["encoded"]:
            raw = _native.geometry_decode_vertices(self._source, i)
            raw.setflags(write=False)
        else:
            raw = self._source.array(info["data_offset"], info["size"])
        array = raw.view(vertex_dtype(info["format_name"], info["stride"]))
        self._vertex[i] = array
        return array

    def index_buffer(self, i: int) -> np.ndarray:
        """Merged index buffer ``i`` as a uint16 or uint32 array."""
        cached = self._index[i]
        if cached is not None:
            return cached
        info = self._layout["index_buffers"][i]
        if info["encoded"]:
            array = _native.geometry_decode_indices(self._source, i)
            array.setflags(write=False)
        else:
            raw = self._source.array(info["data_offset"], info["size"])
            array = raw.view("<u2" if info["index_size"] == 2 else "<u4")
        self._index[i] = array
        return array

    @property
    def vertex_buffers(self) -> List[np.ndarray]:
        """Every merged vertex buffer (see :meth:`vertex_buffer`)."""
        return [self.vertex_buffer(i) for i in range(len(self._vertex))]

    @property
    def index_buffers(self) -> List[np.ndarray]:
        """Every merged index buffer (see :meth:`index_buffer`)."""
        return [self.index_buffer(i) for i in range(len(self._index))]

    @property
    def draws(self) -> List[Draw]:
        """The paired draws, in index-mapping order."""
        return [Draw(self, d) for d in self._layout["draws"]]

    @property
    def armor(self) -> List[ArmorModel]:
        """The armor models."""
        return [ArmorModel(self, a) for a in self._layout["armor"]]

    def export_glb(self, path: "str | os.PathLike[str]", armor: bool = False) -> List[str]:
        """Writes every sound draw (and the armor with ``armor=True``) as a GLB at ``path``;
        returns the messages of the draws that had to be left out."""
        _meshes, skipped = _native.geometry_export_glb(self._source, os.fspath(path), armor)
        return skipped

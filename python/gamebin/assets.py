"""World of Warships ``assets.bin``: prototypes by id or path, the path table."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import numpy as np

from . import _gamebin as _native
from ._file import File, Input

Key = Union[int, str]


def _ids_as_integers(value: Any) -> Any:
    """The record JSON with its ``0x…`` ids as integers: the fields the library lists, and a
    texture property's value."""
    if isinstance(value, list):
        return [_ids_as_integers(v) for v in value]
    if not isinstance(value, dict):
        return value
    texture = value.get("type") == "texture"
    out = {}
    for key, v in value.items():
        if key in _native.ASSETS_ID_FIELDS or (texture and key == "value"):
            out[key] = int(v, 16)
        elif key in _native.ASSETS_ID_LIST_FIELDS:
            out[key] = [int(i, 16) for i in v]
        else:
            out[key] = _ids_as_integers(v)
    return out


class Prototype:
    """One prototype entry: where its record is and what type it has. Attributes: ``id``,
    ``type`` (``"VisualPrototype"``, ...; ``None`` when not live or of an unknown type),
    ``database``, ``record``, ``state`` (``"live"``, ``"deleted"``), ``offset`` and ``size`` of
    the record in the file; ``path`` (looked up on first use) and ``raw`` (the record's bytes,
    zero-copy)."""

    __slots__ = (
        "_db", "id", "database", "record", "state", "type", "offset", "size", "_path", "_fields"
    )

    def __init__(self, db: "AssetsDb", found: Tuple[Any, ...]) -> None:
        self._db = db
        (self.id, self.database, self.record, self.state, self.type, self.offset, self.size) = (
            found
        )
        self._path: Optional[str] = None
        self._fields: Optional[Dict[str, Any]] = None

    @property
    def path(self) -> Optional[str]:
        """The full path (``content/…``) of the id in the path table, ``None`` if it has none."""
        if self._path is None:
            self._path = self._db.path_of(self.id)
        return self._path

    @property
    def raw(self) -> Optional[np.ndarray]:
        """The record's bytes as a read-only uint8 array over the file, ``None`` if not live."""
        if self.offset is None or self.size is None:
            return None
        return self._db.source.array(self.offset, self.size)

    @property
    def fields(self) -> Dict[str, Any]:
        """The record's decoded fields, names resolved (Visual: ``nodes``, ``render_sets``,
        ``lods``, ``bounding_box``, ...; Material: ``properties``, ...; Model:
        ``visual_resource_id``, ...; and the fields of the seven other types, as ``gamebin assets
        get`` prints them, ids as integers). Empty for a record the reader keeps raw (an unknown
        layout; its bytes are :attr:`raw`)."""
        if self._fields is None:
            found = _native.assets_prototype_json(self._db.source, self.id)
            self._fields = {} if found is None else _ids_as_integers(json.loads(found))
        return self._fields

    def __getattr__(self, name: str) -> Any:
        # Attribute access to the decoded fields: `visual.render_sets`, `model.visual_resource_id`.
        if name.startswith("_"):
            raise AttributeError(name)
        fields = self.fields
        if name in fields:
            return fields[name]
        raise AttributeError(f"{self.type or 'prototype'} has no field {name!r}")

    def to_dict(self) -> Dict[str, Any]:
        """The attributes and the decoded fields as a dict (``raw`` left out)."""
        return {
            **self.fields,
            "id": self.id,
            "path": self.path,
            "type": self.type,
            "database": self.database,
            "record": self.record,
            "state": self.state,
            "offset": self.offset,
            "size": self.size,
        }

    def __repr__(self) -> str:
        return f"<gamebin.Prototype {self.id:#018x} {self.type or self.state}>"


class AssetsDb(File):
    """An ``assets.bin`` (BWDB PrototypeDatabase). ``db[id]`` and ``db["content/…"]`` give a
    :class:`Prototype` (``KeyError`` when there is none); lookups are O(1) probes of the file's
    own hash table.

    >>> db = gamebin.AssetsDb("assets.bin")                              # doctest: +SKIP
    >>> db["content/gameplay/Test.visual"].type                          # doctest: +SKIP
    'VisualPrototype'
    """

    format = "wows-assets"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        # Opening reads the header and the tables' places only (a FormatError if they do not
        # read); the counts of `info` walk the prototype table, so they wait until asked for.
        _native.assets_lookup(self._source, 0, False)
        self._info: Optional[Dict[str, Any]] = None
        self._table: Optional[_native.PathTable] = None
        # Files whose path ids are CityHash64 of the paths (the game's) find a path by its hash
        # alone; others (hand-made files) by walking the path table when the hash misses. Checked
        # on the first lookup by path (a sample of the table, walked linearly: milliseconds).
        self._walk: Optional[bool] = None

    @property
    def info(self) -> Dict[str, Any]:
        """Counts (``paths``, ``prototypes``) and the databases' types, magics, schema hashes and
        record counts."""
        if self._info is None:
            self._info = _native.assets_info(self._source)
        return self._info

    def get(self, key: Key) -> Optional[Prototype]:
        """The prototype of an id or a path (``res/`` prefix allowed), ``None`` if none."""
        walk = False
        if isinstance(key, str):
            if self._walk is None:
                self._walk = not _native.assets_ids_are_path_hashes(self._source)
            walk = self._walk
        found = _native.assets_lookup(self._source, key, walk)
        return None if found is None else Prototype(self, found)

    def __getitem__(self, key: Key) -> Prototype:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, (int, str)) and self.get(key) is not None

    def __len__(self) -> int:
        return int(self.info["prototypes"])

    def _paths_table(self) -> "_native.PathTable":
        if self._table is None:
            self._table = _native.assets_path_table(self._source)
        return self._table

    def path_of(self, id: int) -> Optional[str]:
        """The full path of ``id``, ``None`` when the path table has no such entry."""
        return _native.assets_full_path(self._source, self._paths_table(), id)

    def paths(self) -> Iterator[Tuple[int, str]]:
        """Every ``(id, full path)`` of the path table."""
        return iter(_native.assets_paths(self._source, self._paths_table(), ""))

    def find(self, prefix: str) -> List[Tuple[int, str]]:
        """The ``(id, full path)`` pairs whose path starts with ``prefix``."""
        return _native.assets_paths(self._source, self._paths_table(), prefix)

    def to_model(self) -> Dict[str, Any]:
        """The whole file as plain data, the JSON ``gamebin assets unpack`` prints: ``strings``,
        ``paths``, ``prototypes`` (the resource-to-prototype entries), ``databases`` (each
        record with every field, an effect's systems as hex text; a database kept raw as a hex
        ``blob``), ``strings_capacity``, ``prototypes_capacity``, ``checksum`` and, for a file
        of another writer, its ``layout``. Ids are ``"0x…"`` hex text. :func:`write_assets`
        writes it (edited or not) back: unedited, to the same bytes.

        >>> model = gamebin.AssetsDb("assets.bin").to_model()           # doctest: +SKIP
        >>> model["paths"][0]["name"] = "renamed"                       # doctest: +SKIP
        >>> open("edited.bin", "wb").write(gamebin.write_assets(model))  # doctest: +SKIP
        """
        return json.loads(_native.assets_model_json(self._source))

    def model(self, key: Key, res: "str | os.PathLike[str]") -> "Model":
        """The model (or visual) ``key`` (an id or a path), its ``.geometry`` to be found under
        ``res`` (the game's ``res/`` folder). ``KeyError`` if the key has no prototype."""
        return Model(self, self[key].id, os.fspath(res))


def write_assets(model: Union[Dict[str, Any], str]) -> bytes:
    """The ``assets.bin`` a model describes: a dict as :meth:`AssetsDb.to_model` gives, or its
    JSON text (``gamebin assets unpack``'s output). ``ValueError`` when it is not a model (a
    missing or unknown key, a value of the wrong type; with the line and column of its JSON),
    :class:`FormatError` when the writer cannot store it (a capacity too large, an index too
    wide for its bits; ``.field`` names the structure and field)."""
    text = model if isinstance(model, str) else json.dumps(model)
    return _native.write_assets(text)


class Model:
    """A model of an :class:`AssetsDb` with the resource folder its files are under."""

    def __init__(self, db: AssetsDb, id: int, res: str) -> None:
        self._db = db
        self.id = id
        self.res = res

    def export_glb(self, path: "str | os.PathLike[str]") -> Tuple[int, int]:
        """Writes the model (LOD 0) as a GLB at ``path``: model → visual → ``.geometry``, the
        pipeline of ``gamebin model``. Returns the numbers of scenes and meshes written.

        A ``.geometry`` that cannot be opened raises the ``OSError`` of its cause
        (``FileNotFoundError``, ...) naming its path under ``res``; a file that does not read
        raises :class:`FormatError` with the reader's ``offset`` and ``field`` (an offset in the
        file the message names); any other missing piece (no visual, no mapping, ...) raises
        :class:`FormatError` naming it, with ``field == "model"`` and ``offset == 0``."""
        return _native.assets_model_glb(self._db.source, self.id, self.res, os.fspath(path))

    def __repr__(self) -> str:
        return f"<gamebin.Model {self.id:#018x} under {self.res!r}>"

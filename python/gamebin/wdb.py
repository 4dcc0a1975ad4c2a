"""Final Fantasy XIII ``.wdb``: records as dicts, a NumPy structured array, or a DataFrame."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import numpy as np

from . import _gamebin as _native
from ._file import File, Input

_KIND_DTYPES = {"int": "<i8", "uint": "<u8", "float": "<f4", "str": object}


class WdbFile(File):
    """A ``.wdb`` table. ``records`` are dicts: ``"record"`` (the record's name) and one key per
    field. XIII-1 files carry no field names: their cells are named as ``dump --json`` names them,
    ``bitpacked-field_0``, ``float-field_0``, ``!!string-field_0``, ``uint-field_0``, ...

    >>> wdb = gamebin.WdbFile("item.wdb")                   # doctest: +SKIP
    >>> wdb.field_names[:2], wdb.records[0]["record"]       # doctest: +SKIP
    """

    format = "ff13-wdb"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        table = _native.wdb_table(self._source)
        #: ``"xiii"`` or ``"xiii-2/lr"``.
        self.game: str = table["game"]
        #: ``!!sheetname``, if the file has one.
        self.sheet_name: Optional[Union[str, bytes]] = table["sheet_name"]
        #: ``!!version``, if the file has one.
        self.version: Optional[int] = table["version"]
        #: Field names, in record order.
        self.field_names: List[str] = [name for name, _ in table["fields"]]
        #: Each field's kind: ``"int"``, ``"uint"``, ``"float"`` or ``"str"``.
        self.field_kinds: List[str] = [kind for _, kind in table["fields"]]
        self._rows = table["records"]

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def records(self) -> List[Dict[str, Any]]:
        """Every record as a dict (``"record"`` then the fields)."""
        names = self.field_names
        return [{"record": name, **dict(zip(names, values))} for name, values in self._rows]

    def to_records(self, numpy: bool = True) -> Union[np.ndarray, List[Dict[str, Any]]]:
        """The records as a NumPy structured array (``record`` and the fields; strings as
        objects), or with ``numpy=False`` as a list of dicts."""
        if not numpy:
            return self.records
        dtype = np.dtype(
            [("record", object)]
            + [(n, _KIND_DTYPES[k]) for n, k in zip(self.field_names, self.field_kinds)]
        )
        out = np.empty(len(self._rows), dtype=dtype)
        for i, (name, values) in enumerate(self._rows):
            out[i] = (name, *values)
        return out

    def to_pandas(self) -> Any:
        """The records as a ``pandas.DataFrame`` indexed by record name (needs pandas)."""
        import pandas as pd  # optional: only this method needs it

        return pd.DataFrame(self.records).set_index("record")

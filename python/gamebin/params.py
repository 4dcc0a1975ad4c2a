"""World of Warships ``GameParams.data``: every ship, gun, shell and consumable, looked up by
name, id or index and handed out as plain Python values (dicts, lists, tuples, str, int, float,
bool, None), each object as its state dict, as dataminers' JSON has them."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional

from . import _gamebin as _native
from ._file import Input, Source, source_of

#: Where the file is inside a game folder.
IN_INSTALL = "content/GameParams.data"


class GameParams:
    """``GameParams(path)`` opens a ``GameParams.data`` (or its bytes, or a game folder: its
    newest build's ``content/GameParams.data`` read out of the archives). The file is inflated and
    indexed once; entries decode when asked for.

    >>> p = gamebin.GameParams("GameParams.data")               # doctest: +SKIP
    >>> p["PJSD012_Shimakaze_1943"]["A_Hull"]["health"]          # doctest: +SKIP
    >>> p.by_index("PJSD012")["id"]                              # doctest: +SKIP
    >>> [e["name"] for e in p.filter(type="Ship", nation="Japan")]   # doctest: +SKIP
    >>> p.region("RU")["PJSD012_Shimakaze_1943"]                 # doctest: +SKIP
    """

    format = "wows-gameparams"

    def __init__(self, data: Input, *, read: bool = False, _region: Optional[str] = None) -> None:
        if isinstance(data, _native.Params):
            self._native = data
        else:
            if isinstance(data, (str, os.PathLike)) and os.path.isdir(data):
                from .install import Install

                with Install(data) as game:
                    data = game.read(IN_INSTALL)
            owned = not isinstance(data, Source)
            source = source_of(data, read)
            try:
                self._native = _native.Params.open(source)
            finally:
                # The params keep the inflated pickle: the file's bytes are not needed any more.
                if owned:
                    source.close()
        self._region = _region

    def region(self, name: str) -> "GameParams":
        """The params as region ``name`` sees them: its overrides laid over the base entries.
        ``KeyError`` when the file has no such region."""
        if name not in self._native.regions():
            raise KeyError(f"no region {name!r} in the file (its regions: {self.regions})")
        return GameParams(self._native, _region=name)

    @property
    def regions(self) -> List[str]:
        """The regions whose overrides the file holds (``["RU"]``; ``[]`` for classic files)."""
        return self._native.regions()

    @property
    def info(self) -> Dict[str, Any]:
        """``gamebin info --json``'s facts: entries, protocol, root, pickle_len, by_type,
        regions."""
        return self._native.info()

    def __len__(self) -> int:
        return len(self.entries()) if self._region else self._native.len()

    def entries(self) -> List[Dict[str, Any]]:
        """Every entry's facts (``name``, ``id``, ``index``, ``type``, ``nation``, ``species``,
        ``region``), in the file's order."""
        return self._native.listing(self._region)

    def filter(
        self,
        type: Optional[str] = None,  # noqa: A002 (the field's name)
        nation: Optional[str] = None,
        species: Optional[str] = None,
    ) -> List[Dict[str, Any]]:
        """The facts of the entries whose typeinfo has this type, nation and species (each
        compared exactly; ``None``: any)."""
        return self._native.listing(self._region, type, nation, species)

    def __iter__(self) -> Iterator[str]:
        return (e["name"] for e in self.entries())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __getitem__(self, name: str) -> Any:
        value = self._native.by_name(name, self._region)
        if value is None:
            raise KeyError(name)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        """The entry named ``name``, or ``default``."""
        value = self._native.by_name(name, self._region)
        return default if value is None else value

    def by_id(self, id: int) -> Any:  # noqa: A002 (the field's name)
        """The entry whose ``id`` is ``id`` (a u32), or None."""
        return self._native.by_id(id, self._region)

    def by_index(self, index: str) -> Any:
        """The entry whose ``index`` is ``index`` (``"PJSD012"``), or None."""
        return self._native.by_index(index, self._region)

    def __repr__(self) -> str:
        where = f" region {self._region!r}" if self._region else ""
        return f"<gamebin.GameParams {self._native.len()} entries{where}>"

"""Rusty Hearts ``.wdata`` and CraftStudio ``Project.dat``: the owned models as dicts."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from . import _gamebin as _native
from ._file import File, Input


class WdataMap(File):
    """A ``.wdata`` map, read whole into the model ``gamebin dump --json`` prints."""

    format = "rusty-hearts-wdata"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        self._model: Dict[str, Any] = json.loads(_native.wdata_json(self._source))

    def to_dict(self) -> Dict[str, Any]:
        """The whole map as dicts and lists."""
        return self._model

    @property
    def event_boxes(self) -> List[Any]:
        """The event boxes (``to_dict()["event_boxes"]``)."""
        return self._model.get("event_boxes", [])

    def __getitem__(self, key: str) -> Any:
        return self._model[key]


class CraftStudioProject(File):
    """A CraftStudio ``Project.dat``: settings, game controls and the asset tree's entries."""

    format = "craftstudio-project"

    def __init__(self, data: Input, *, read: bool = False) -> None:
        super().__init__(data, read=read)
        self._model: Dict[str, Any] = _native.craftstudio_project(self._source)

    def to_dict(self) -> Dict[str, Any]:
        """The whole project as a dict."""
        return self._model

    @property
    def entries(self) -> List[Dict[str, Any]]:
        """The asset tree's folders and assets."""
        return self._model["entries"]

    @property
    def controls(self) -> List[Dict[str, Any]]:
        """The game controls."""
        return self._model["controls"]

    def __getitem__(self, key: str) -> Any:
        return self._model[key]

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
    def event_boxes_by_type(self) -> Dict[str, List[Dict[str, Any]]]:
        """The event boxes grouped by type, in type order: ``{"CameraBox": [...], ...}``, every
        type the file's EventBox section lists (an empty list for a type without records).
        Type 14 (``UnusedBox``), whose records are kept as raw bytes, is not a list of boxes and
        is left out (``to_dict()["event_boxes"]["UnusedBox"]`` has it). ``{}`` when the file has
        no EventBox section (main version below 7)."""
        section = self._model.get("event_boxes") or {}
        return {name: boxes for name, boxes in section.items() if isinstance(boxes, list)}

    @property
    def event_boxes(self) -> List[Dict[str, Any]]:
        """Every event box as a flat list, in type order then record order: each box's fields
        (``obb`` with its ``name`` and ``position``, ...) plus ``"type"``, its type's name
        (``"CameraBox"``, ...). ``[]`` when the file has no EventBox section. See
        :attr:`event_boxes_by_type` for the grouped form."""
        return [
            {"type": name, **box}
            for name, boxes in self.event_boxes_by_type.items()
            for box in boxes
        ]

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

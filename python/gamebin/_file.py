"""The base of every file object: it owns a :class:`Source` (the mapping) and closes it."""

from __future__ import annotations

import os
from typing import Any, Union

import numpy as np

from ._gamebin import FormatError, Source

#: What the constructors accept: a path, the bytes themselves, or an open :class:`Source`.
Input = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Source]


def source_of(data: Input, read: bool = False) -> Source:
    """A :class:`Source` for ``data``: a path is mapped (or read into memory with ``read=True``);
    ``bytes``/``bytearray``/``memoryview`` are copied once into memory the source owns (a
    non-contiguous ``memoryview`` twice: first into contiguous bytes)."""
    if isinstance(data, Source):
        return data
    if isinstance(data, bytes):
        return Source.from_bytes(data)
    if isinstance(data, (bytearray, memoryview)):
        if isinstance(data, memoryview) and not data.c_contiguous:
            return Source.from_bytes(data.tobytes())
        # A uint8 array over the same memory (no copy), which the Rust half copies from.
        return Source.from_bytes(np.frombuffer(data, dtype=np.uint8))
    return Source(os.fspath(data), read)


def format_error(message: str, offset: int, field: str) -> FormatError:
    """A :class:`FormatError` raised by the Python half, with the same attributes as Rust's."""
    err = FormatError(message)
    err.offset = offset
    err.field = field
    return err


class File:
    """A file opened by gamebin. Usable as a context manager; :meth:`close` unmaps the file and
    fails (``BufferError``) while arrays or objects that borrow its bytes are still alive."""

    #: The format's short name (``"wows-geometry"``, ...).
    format: str = ""

    def __init__(self, data: Input, *, read: bool = False) -> None:
        self._source = source_of(data, read)

    @property
    def source(self) -> Source:
        """The :class:`Source` that owns the bytes."""
        return self._source

    @property
    def name(self) -> str:
        """Where the bytes came from: the path, or ``<bytes>``."""
        return self._source.name

    def _drop_caches(self) -> None:
        """Forgets the arrays this object cached, so that only the caller's keep the bytes busy."""

    def close(self) -> None:
        """Unmaps the file. ``BufferError`` while an array or object over its bytes is alive."""
        self._drop_caches()
        self._source.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._source.closed

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<gamebin.{type(self).__name__} {self.name!r}>"

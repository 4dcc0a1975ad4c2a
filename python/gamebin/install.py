"""World of Warships installs: the ``.idx`` indexes of a build and their ``.pkg`` volumes, read
as one tree of files."""

from __future__ import annotations

import os
from typing import Any, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gamebin as _native
from ._gamebin import Source

PathLike = Union[str, "os.PathLike[str]"]


class Entry(NamedTuple):
    """One file of an install, as :meth:`Install.ls` lists it."""

    #: Full path relative to ``res/`` (``content/assets.bin``).
    path: str
    #: Size of the file's bytes (unpacked).
    size: int
    #: Size of its blob in the volume.
    stored_size: int
    #: ``"stored"``, ``"deflate"``, ``"oodle"`` (not decoded) or ``"unknown"``.
    compression: str
    #: CRC-32 of the unpacked bytes, as the index records it.
    crc32: int


class Install:
    """A World of Warships install: ``Install("World_of_Warships")`` opens a game folder (the
    newest ``bin/<build>/idx/`` and the volumes in ``res_packages/``);
    ``Install(idx="…/idx", volumes="…/res_packages")`` opens an idx folder with its volume
    folder. Indexes and volumes are mapped (volumes when first read); ``read=True`` reads them
    into memory instead, safe against files another process changes. ``build=`` opens an older
    build of the folder, whose indexes the game keeps under ``bin/<build>/``
    (:meth:`Install.builds` lists them), as ``GAME@BUILD`` does on the command line.

    Paths are those under ``res/`` (``content/assets.bin``; a leading ``/`` or ``res/`` is
    accepted). ``len(install)`` is the number of files; iterating gives their paths;
    ``path in install`` looks one up (one hash, one probe).

    A file missing from the install is a ``KeyError`` naming it; a record or blob that does not
    read (CRC-32 mismatch, damaged volume, Oodle compression) a :class:`FormatError` with
    ``.offset``, ``.field`` and ``.path`` (the file in the install; ``.volume`` the volume file);
    a volume file that is missing a ``FileNotFoundError`` naming the file and the volume.

    >>> game = gamebin.Install("World_of_Warships")                      # doctest: +SKIP
    >>> [e.path for e in game.ls("content/**/*.geometry")][:2]            # doctest: +SKIP
    >>> db = game.open("content/assets.bin")                             # an AssetsDb # doctest: +SKIP
    """

    def __init__(
        self,
        game: Optional[PathLike] = None,
        *,
        idx: Optional[PathLike] = None,
        volumes: Optional[PathLike] = None,
        read: bool = False,
        build: Optional[int] = None,
    ) -> None:
        if isinstance(game, _native.Install):
            self._native = game
            return
        if game is not None:
            if idx is not None or volumes is not None:
                raise TypeError("Install: give a game folder, or idx= and volumes=, not both")
            self._native = _native.Install.open(os.fspath(game), read, build)
        elif build is not None:
            raise TypeError("Install: build= goes with a game folder, not with idx= and volumes=")
        elif idx is not None and volumes is not None:
            self._native = _native.Install.open_dirs(os.fspath(idx), os.fspath(volumes), read)
        else:
            raise TypeError("Install: give a game folder, or both idx= and volumes=")

    @staticmethod
    def builds(game: PathLike) -> List[int]:
        """The builds of the game folder ``game`` whose indexes it keeps (``bin/<build>/``),
        oldest first: ``Install(game, build=b)`` opens one."""
        return list(_native.Install.builds(os.fspath(game)))

    @classmethod
    def from_memory(
        cls,
        indexes: Sequence[Tuple[str, bytes]],
        volumes: Sequence[Tuple[str, bytes]],
    ) -> "Install":
        """An install of indexes and volumes given as ``(file name, bytes)`` pairs (copied);
        the volumes are found by the names the indexes give them."""
        return cls(_native.Install.from_memory(list(indexes), list(volumes)))

    @property
    def name(self) -> str:
        """What was opened: the game folder, the idx folder, or ``<memory>``."""
        return self._native.name

    @property
    def file_count(self) -> int:
        """How many files the install holds (``len(install)``)."""
        return self._native.file_count

    @property
    def entry_count(self) -> int:
        """How many distinct names (folders and files) the install holds."""
        return self._native.entry_count

    @property
    def index_paths(self) -> List[str]:
        """The ``.idx`` files, in the order they were read."""
        return self._native.index_paths()

    @property
    def damaged(self) -> List[str]:
        """The indexes left out because they do not read, each as the message saying which
        ``.idx`` and where and why it fails; their files are not in the install. Empty for a
        sound install (one in which no index reads fails to open)."""
        return self._native.damaged()

    @property
    def conflicts(self) -> List[Tuple[int, str, str]]:
        """Ids two indexes give to different records: ``(id, kept index, dropped index)``; the
        first index's record is the one read."""
        return self._native.conflicts()

    def ls(self, selection: Optional[str] = None) -> List[Entry]:
        """The files the selection names, in the install's order (by id): every file for
        ``None``, a folder or file for a prefix (whole segments: ``content/gui`` is not
        ``content/guide``), or a glob (``*`` and ``?`` within a segment, ``**`` any number of
        segments; a glob matching a folder selects what is in it), as ``gamebin pfs ls``."""
        return [Entry(*e) for e in self._native.ls(selection)]

    def stat(self, path: str) -> Entry:
        """The :class:`Entry` of the file at ``path`` (``KeyError`` when there is none)."""
        found = self._native.stat(path)
        if found is None:
            raise KeyError(f"{path}: no such file in {self.name}")
        return Entry(*found)

    def __len__(self) -> int:
        return self._native.file_count

    def __iter__(self) -> Iterator[str]:
        return iter([e[0] for e in self._native.ls(None)])

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._native.__contains__(path)

    def read(self, path: str) -> bytes:
        """The bytes of the file at ``path`` (a copy; deflated files inflated), with sizes,
        the volume's trailer and the CRC-32 checked."""
        return self._native.read(path)

    def view(self, path: str) -> np.ndarray:
        """The bytes of the file at ``path`` as a read-only ``uint8`` array: a view of the
        volume (no copy) when the file is stored, its inflated bytes when deflated. An array
        over a volume keeps the install's mapping alive; :meth:`close` raises ``BufferError``
        while one exists."""
        return self._native.view(path)

    def source(self, path: str) -> Source:
        """The file at ``path`` as a :class:`Source` that owns its bytes, named by the path."""
        return self._native.source(path)

    def open(self, path: str, **options: Any) -> Any:
        """The file at ``path`` opened with the reader its content (or its name) calls for, as
        :func:`gamebin.open` does: an :class:`AssetsDb` for ``content/assets.bin``, a
        :class:`GeometryFile` for a ``.geometry``, ... The object owns a copy of the bytes: it
        stays usable after the install is closed."""
        from . import open as open_file

        return open_file(self._native.source(path), **options)

    def close(self) -> None:
        """Unmaps the indexes and volumes. ``BufferError`` while an array from :meth:`view`
        still borrows a volume."""
        self._native.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._native.closed

    def __enter__(self) -> "Install":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return f"<gamebin.Install {self.name!r}: closed>"
        return f"<gamebin.Install {self.name!r}: {self.file_count} files>"


class FileState(NamedTuple):
    """What an index says of a file's bytes, as :func:`diff_installs` compares them."""

    #: Size of the file's bytes (unpacked).
    size: int
    #: CRC-32 of the unpacked bytes.
    crc32: int


class InstallChange(NamedTuple):
    """One file that differs between two installs (:func:`diff_installs`)."""

    #: ``"+"`` added (only in the new install), ``"-"`` removed, ``"~"`` changed.
    sign: str
    #: Full path relative to ``res/``.
    path: str
    #: Its size and CRC-32 in the old install (``None`` when added).
    before: Optional[FileState]
    #: Its size and CRC-32 in the new install (``None`` when removed).
    after: Optional[FileState]


def diff_installs(
    old: Union["Install", PathLike], new: Union["Install", PathLike]
) -> Iterator[InstallChange]:
    """What changed between two installs (two builds of the game), from their indexes alone (no
    archive is read): yields ``(sign, path, before, after)`` for every file added (``"+"``),
    removed (``"-"``) or changed (``"~"``: its unpacked size or CRC-32; a change that keeps the
    size is told by the CRC), in path order; unchanged files are not yielded. ``old`` and
    ``new`` are :class:`Install` objects or game folders.

    An install with an index that does not read raises :class:`FormatError` naming it (its files
    are unknown); two installs that share no file raise ``ValueError``.

    >>> for sign, path, before, after in gamebin.diff_installs("wows_old", "wows"):  # doctest: +SKIP
    ...     print(sign, path)
    """
    old = old if isinstance(old, Install) else Install(old)
    new = new if isinstance(new, Install) else Install(new)
    for sign, path, before, after in _native.diff_installs(old._native, new._native):
        yield InstallChange(
            sign,
            path,
            None if before is None else FileState(*before),
            None if after is None else FileState(*after),
        )


def write_pfs(
    files: Sequence[Tuple[Any, ...]],
    volume: str = "data_0001.pkg",
    layout: str = "current",
    level: int = 6,
) -> Tuple[bytes, List[Tuple[str, bytes]]]:
    """Writes one index and its volumes with the library's writer (for tests and examples):
    ``files`` are ``(path, data, compression)`` or ``(path, data, compression, volume)``
    tuples, compression ``"stored"`` or ``"deflate"`` (``"oodle"`` writes the data as given
    under the Oodle words, which the reader refuses); a new volume name starts a new volume.
    Returns ``(idx bytes, [(volume name, bytes)])``."""
    return _native.write_pfs(list(files), volume, layout, level)

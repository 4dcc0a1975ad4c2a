"""World of Warships installs (`gamebin.Install`) on synthetic installs written by the library's
PFS writer (`gamebin.write_pfs`): every file reads back as the bytes given to the writer,
selections filter as `gamebin pfs ls` does, damage gives errors naming the file, and the files
open with the reader their content calls for."""

import random
import zlib

import numpy as np
import pytest

import gamebin
from conftest import fixture
from gamebin import _gamebin as native
from gamebin.install import Entry

BUILD = "1000001"


def payload(seed: int, size: int) -> bytes:
    rng = random.Random(seed)
    # Half text-like (deflate shrinks it), half random bytes.
    return bytes(rng.choice(b"abcdefgh \n") if i % 2 else rng.randrange(256) for i in range(size))


def cube_geometry() -> bytes:
    p = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float32)
    idx = np.array([0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7], dtype=np.uint32)
    return native.write_geometry([("Cube", p, None, None, idx, 100)])


ASSETS = fixture("wows-assets", "all_prototypes.assets.bin").read_bytes()
GEOMETRY = cube_geometry()

# Two indexes (each with its volumes), as a build has: `content/` repeats across them.
PART_A = [
    ("content/assets.bin", ASSETS, "deflate"),
    ("content/gameplay/ship/Cube.geometry", GEOMETRY, "stored"),
    ("content/gameplay/ship/Cube_z.geometry", GEOMETRY, "deflate"),
    ("content/gui/readme.txt", b"gamebin synthetic install\n", "stored"),
    ("content/guide/notes.txt", payload(1, 3000), "deflate"),
    ("content/empty.bin", b"", "stored"),
    ("spaces/shared/big.bin", payload(2, 200_000), "deflate", "part_a_0002.pkg"),
]
PART_B = [
    ("content/gameplay/plane/p.bin", payload(3, 777), "stored"),
    ("gui/flags/flag_01.bin", payload(4, 64), "deflate"),
    ("gui/flags/flag_02.bin", payload(5, 65), "stored"),
]
FILES = {f[0]: f[1] for f in PART_A + PART_B}


def archives():
    idx_a, vols_a = gamebin.write_pfs(PART_A, volume="part_a_0001.pkg")
    idx_b, vols_b = gamebin.write_pfs(PART_B, volume="part_b_0001.pkg", layout="legacy")
    return [("part_a.idx", idx_a), ("part_b.idx", idx_b)], vols_a + vols_b


def write_game(root, indexes, volumes, build=BUILD):
    idx_dir = root / "bin" / build / "idx"
    pkg_dir = root / "res_packages"
    idx_dir.mkdir(parents=True)
    pkg_dir.mkdir(exist_ok=True)
    for name, data in indexes:
        (idx_dir / name).write_bytes(data)
    for name, data in volumes:
        (pkg_dir / name).write_bytes(data)
    return root


@pytest.fixture
def game(tmp_path):
    return write_game(tmp_path / "game", *archives())


def test_the_writer_wrote_what_was_asked():
    indexes, volumes = archives()
    assert [n for n, _ in volumes] == ["part_a_0001.pkg", "part_a_0002.pkg", "part_b_0001.pkg"]
    # Each blob is followed by its 16-byte trailer: u32 0, CRC-32, size, u32 0.
    pkg = dict(volumes)["part_b_0001.pkg"]
    p = FILES["content/gameplay/plane/p.bin"]
    assert pkg[: len(p)] == p
    assert pkg[len(p) : len(p) + 16] == (
        b"\0" * 4 + zlib.crc32(p).to_bytes(4, "little") + len(p).to_bytes(4, "little") + b"\0" * 4
    )


@pytest.mark.parametrize("read", [False, True])
def test_every_file_reads_back_as_written(game, read):
    with gamebin.Install(game, read=read) as install:
        assert len(install) == install.file_count == len(FILES)
        assert sorted(install) == sorted(FILES)
        # Directories merged across the two indexes: every distinct folder once.
        folders = {p.rsplit("/", 1)[0] for p in FILES}
        folders |= {f.rsplit("/", i)[0] for f in folders for i in range(1, f.count("/") + 1)}
        assert install.entry_count == len(FILES) + len(folders)
        assert install.conflicts == []
        assert [p.rsplit("/", 1)[1] for p in install.index_paths] == ["part_a.idx", "part_b.idx"]
        for path, data in FILES.items():
            assert path in install
            assert install.read(path) == data, path
            view = install.view(path)
            assert view.dtype == np.uint8 and not view.flags.writeable
            assert view.tobytes() == data, path
            del view
            entry = install.stat(path)
            assert entry.size == len(data) and entry.crc32 == zlib.crc32(data)


def test_listing_gives_sizes_and_compression(game):
    install = gamebin.Install(game)
    listed = {e.path: e for e in install.ls()}
    assert sorted(listed) == sorted(FILES)
    for f in PART_A + PART_B:
        e = listed[f[0]]
        assert isinstance(e, Entry)
        assert (e.size, e.compression, e.crc32) == (len(f[1]), f[2], zlib.crc32(f[1]))
        if f[2] == "stored":
            assert e.stored_size == e.size
    # The text-like files shrink when deflated.
    assert listed["content/assets.bin"].stored_size < len(ASSETS)
    assert listed["spaces/shared/big.bin"].stored_size < 200_000


def test_selections_filter_like_pfs_ls(game):
    install = gamebin.Install(game)

    def names(selection):
        return sorted(e.path for e in install.ls(selection))

    # A prefix is whole segments: content/gui is not content/guide.
    assert names("content/gui") == ["content/gui/readme.txt"]
    assert names("content/gui/") == ["content/gui/readme.txt"]
    assert names("/res/content/gui") == ["content/gui/readme.txt"]
    assert names("content/gameplay") == sorted(p for p in FILES if p.startswith("content/gameplay/"))
    assert names("content/assets.bin") == ["content/assets.bin"]
    assert names("gui/flags/flag_01.bin") == ["gui/flags/flag_01.bin"]
    # Globs: * within a segment, ** across segments, ? one character; a matched folder selects
    # what is in it.
    assert names("content/**/*.geometry") == [
        "content/gameplay/ship/Cube.geometry",
        "content/gameplay/ship/Cube_z.geometry",
    ]
    assert names("**/*.geometry") == names("content/**/*.geometry")
    assert names("gui/flags/flag_0?.bin") == ["gui/flags/flag_01.bin", "gui/flags/flag_02.bin"]
    assert names("content/gu*") == ["content/gui/readme.txt", "content/guide/notes.txt"]
    assert names("*/flags") == ["gui/flags/flag_01.bin", "gui/flags/flag_02.bin"]
    assert names("nothing/here") == [] and names("**/*.nope") == []
    assert names(None) == names("") == sorted(FILES)


def test_lookups_accept_the_forms_of_a_path(game):
    install = gamebin.Install(game)
    for form in ("content/gui/readme.txt", "/content/gui/readme.txt", "res/content/gui/readme.txt"):
        assert form in install
        assert install.read(form) == FILES["content/gui/readme.txt"]
    assert "content/gui" not in install  # a folder
    assert "content/gui/readme.tx" not in install
    assert 42 not in install


def test_idx_and_volume_folders(game):
    install = gamebin.Install(idx=game / "bin" / BUILD / "idx", volumes=game / "res_packages")
    assert sorted(install) == sorted(FILES)
    assert install.read("gui/flags/flag_02.bin") == FILES["gui/flags/flag_02.bin"]
    with pytest.raises(TypeError):
        gamebin.Install(game, idx=game)
    with pytest.raises(TypeError):
        gamebin.Install(idx=game)


def test_the_newest_build_is_read(game):
    # An older build with other indexes is not read.
    old_idx, old_vols = gamebin.write_pfs([("old/only.txt", b"old", "stored")], volume="old.pkg")
    write_game(game, [("old.idx", old_idx)], old_vols, build="999")
    install = gamebin.Install(game)
    assert "old/only.txt" not in install and len(install) == len(FILES)


def test_from_memory_matches_the_folder(game):
    install = gamebin.Install.from_memory(*archives())
    assert sorted(install) == sorted(FILES)
    for path, data in FILES.items():
        assert install.read(path) == data


def test_files_open_with_their_reader(game):
    install = gamebin.Install(game)
    db = install.open("content/assets.bin")
    assert isinstance(db, gamebin.AssetsDb)
    expected = gamebin.AssetsDb(ASSETS)
    assert list(db.paths()) == list(expected.paths()) and len(list(db.paths())) > 0
    for id_, _ in expected.paths():
        a, b = db.get(id_), expected.get(id_)
        assert (a is None) == (b is None)
        if a is not None:
            assert (a.type, a.raw.tobytes()) == (b.type, b.raw.tobytes())
    for path in ("content/gameplay/ship/Cube.geometry", "content/gameplay/ship/Cube_z.geometry"):
        g = install.open(path)
        assert isinstance(g, gamebin.GeometryFile)
        assert g.name == path
        (draw,) = g.draws
        assert np.array_equal(
            draw.positions,
            np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float32),
        )
    source = install.source("content/gui/readme.txt")
    assert source.name == "content/gui/readme.txt" and bytes(source.array(0, len(source))) == (
        FILES["content/gui/readme.txt"]
    )
    with pytest.raises(gamebin.FormatError):
        install.open("content/gui/readme.txt")  # no format reads text
    # The opened objects own their bytes: they outlive the install.
    install.close()
    assert len(list(db.paths())) == len(list(expected.paths()))


def test_missing_files_and_folders_are_key_errors(game):
    install = gamebin.Install(game)
    with pytest.raises(KeyError, match="content/nope.bin: no such file"):
        install.read("content/nope.bin")
    with pytest.raises(KeyError, match="content/gui: a folder, not a file"):
        install.read("content/gui")
    with pytest.raises(KeyError, match="nope"):
        install.stat("nope")
    with pytest.raises(KeyError):
        install.open("content/nope.bin")


def test_a_damaged_blob_fails_its_crc_naming_the_file(game):
    pkg = game / "res_packages" / "part_b_0001.pkg"
    data = bytearray(pkg.read_bytes())
    data[5] ^= 0xFF  # inside content/gameplay/plane/p.bin, the first (stored) blob
    pkg.write_bytes(bytes(data))
    install = gamebin.Install(game)
    with pytest.raises(gamebin.FormatError, match="content/gameplay/plane/p.bin") as err:
        install.read("content/gameplay/plane/p.bin")
    assert err.value.path == "content/gameplay/plane/p.bin"
    assert err.value.volume.endswith("part_b_0001.pkg")
    assert err.value.field == "PkgBlob(crc32)" and err.value.offset == 0
    for method in (install.view, install.open):
        with pytest.raises(gamebin.FormatError, match="content/gameplay/plane/p.bin"):
            method("content/gameplay/plane/p.bin")
    # The other files of that volume still read.
    assert install.read("gui/flags/flag_02.bin") == FILES["gui/flags/flag_02.bin"]


def test_a_damaged_deflate_stream_is_an_error_naming_the_file(game):
    indexes, volumes = archives()
    install = gamebin.Install.from_memory(indexes, volumes)
    stored = {e.path: e for e in install.ls()}
    # The first blob of part_a_0001.pkg is content/assets.bin, deflated.
    assert stored["content/assets.bin"].compression == "deflate"
    damaged = []
    for name, data in volumes:
        if name == "part_a_0001.pkg":
            data = bytearray(data)
            for i in range(10, 60):
                data[i] ^= 0x5A
            data = bytes(data)
        damaged.append((name, data))
    install = gamebin.Install.from_memory(indexes, damaged)
    with pytest.raises(gamebin.FormatError, match="content/assets.bin") as err:
        install.read("content/assets.bin")
    assert err.value.path == "content/assets.bin"


def test_a_truncated_volume_is_an_error_naming_the_file(game):
    pkg = game / "res_packages" / "part_a_0002.pkg"
    pkg.write_bytes(pkg.read_bytes()[:1000])
    install = gamebin.Install(game)
    with pytest.raises(gamebin.FormatError, match="spaces/shared/big.bin") as err:
        install.read("spaces/shared/big.bin")
    assert err.value.path == "spaces/shared/big.bin"


def test_a_missing_volume_names_the_file_and_the_volume(game):
    (game / "res_packages" / "part_a_0002.pkg").unlink()
    install = gamebin.Install(game)
    assert "spaces/shared/big.bin" in install  # the index still lists it
    with pytest.raises(FileNotFoundError, match="spaces/shared/big.bin") as err:
        install.read("spaces/shared/big.bin")
    assert "part_a_0002.pkg" in str(err.value)
    assert err.value.path == "spaces/shared/big.bin"
    assert install.read("content/gui/readme.txt") == FILES["content/gui/readme.txt"]


def test_an_oodle_entry_is_refused_naming_the_file():
    idx, vols = gamebin.write_pfs(
        [("content/lesta.bin", b"\x01" * 40, "oodle"), ("content/ok.txt", b"ok", "stored")]
    )
    install = gamebin.Install.from_memory([("a.idx", idx)], vols)
    assert install.stat("content/lesta.bin").compression == "oodle"
    with pytest.raises(gamebin.FormatError, match="content/lesta.bin.*Oodle") as err:
        install.read("content/lesta.bin")
    assert err.value.field == "FileRecord.compression"
    assert install.read("content/ok.txt") == b"ok"


def test_damaged_or_missing_indexes(tmp_path, game):
    (tmp_path / "empty" / "bin" / "1").mkdir(parents=True)
    with pytest.raises(FileNotFoundError, match="no index files"):
        gamebin.Install(tmp_path / "empty")
    with pytest.raises(FileNotFoundError):
        gamebin.Install(tmp_path / "does-not-exist")
    # A damaged index costs its own files, not the install's; with every index damaged, opening
    # fails and names them.
    idx = game / "bin" / BUILD / "idx" / "part_b.idx"
    idx.write_bytes(idx.read_bytes()[:40])
    [damaged] = gamebin.Install(game).damaged
    assert "part_b.idx" in damaged
    other = game / "bin" / BUILD / "idx" / "part_a.idx"
    other.write_bytes(other.read_bytes()[:40])
    with pytest.raises(gamebin.FormatError, match="part_b.idx"):
        gamebin.Install(game)


def test_damaged_indexes_never_crash():
    """Every truncation and many byte flips of an index give an install or an error."""
    idx, vols = gamebin.write_pfs(PART_B)
    rng = random.Random(27)
    cases = [idx[:n] for n in range(len(idx))]
    for _ in range(300):
        d = bytearray(idx)
        for _ in range(rng.randrange(1, 4)):
            d[rng.randrange(len(d))] = rng.randrange(256)
        cases.append(bytes(d))
    for data in cases:
        try:
            install = gamebin.Install.from_memory([("x.idx", data)], vols)
        except (gamebin.FormatError, OSError):
            continue
        try:
            paths = [e.path for e in install.ls()]
        except (gamebin.FormatError, OSError):
            continue
        for path in paths:
            try:
                install.read(path)
            except (gamebin.FormatError, OSError, KeyError):
                pass


def test_views_keep_the_volume_and_close_waits_for_them(game):
    install = gamebin.Install(game)
    view = install.view("content/gameplay/plane/p.bin")  # stored: borrows the volume
    assert view.base is install._native and install._native.exports() == 1
    with pytest.raises(ValueError):
        view[0] = 1
    with pytest.raises(BufferError):
        install.close()
    inflated = install.view("gui/flags/flag_01.bin")  # deflated: owns its bytes
    assert inflated.base is not install._native and install._native.exports() == 1
    del view
    install.close()
    assert install.closed and "closed" in repr(install)
    assert inflated.tobytes() == FILES["gui/flags/flag_01.bin"]
    with pytest.raises(ValueError, match="closed"):
        install.read("content/gui/readme.txt")
    # An array outliving the object that made it keeps the mapping alive.
    other = gamebin.Install(game)
    kept = other.view("content/gameplay/plane/p.bin")
    del other
    assert kept.tobytes() == FILES["content/gameplay/plane/p.bin"]


def test_writer_errors():
    with pytest.raises(ValueError, match="compression"):
        gamebin.write_pfs([("a", b"x", "lzma")])
    with pytest.raises(TypeError):
        gamebin.write_pfs([("a", b"x")])
    with pytest.raises(ValueError, match="layout"):
        gamebin.write_pfs([], layout="v3")
    with pytest.raises(gamebin.FormatError):
        gamebin.write_pfs([("a/b", b"x", "stored"), ("a/b", b"y", "stored")])


def test_a_single_index_opened_alone_points_at_install(game):
    idx = game / "bin" / BUILD / "idx" / "part_a.idx"
    with pytest.raises(gamebin.FormatError, match="gamebin.Install") as err:
        gamebin.open(idx)
    assert err.value.offset == 0


def test_a_damaged_index_costs_its_own_files_not_the_install(tmp_path):
    ((name_a, idx_a), (name_b, idx_b)), volumes = archives()
    root = write_game(tmp_path / "game", [(name_a, idx_a[:10]), (name_b, idx_b)], volumes)
    install = gamebin.Install(root)
    assert sorted(e.path for e in install.ls()) == sorted(f[0] for f in PART_B)
    [damaged] = install.damaged
    assert "part_a.idx" in damaged and "at 0x" in damaged
    assert gamebin.Install(write_game(tmp_path / "sound", *archives())).damaged == []


def test_diff_installs_yields_every_change_in_path_order():
    """Two installs written with a known set of changes: a file added, one removed, one changed
    in size, one changed keeping its size (only the CRC-32 tells), the rest the same; the
    expected states from zlib's CRC-32 of the bytes given to the writer."""
    old_files = {
        "content/a.xml": b"<a/>",
        "content/gameplay/b.xml": b"<b/>",
        "content/gameplay/c.xml": b"<c/>",
        "content/gameplay-old/d.xml": b"<d/>",
        "gui/e.png": b"\x89PNG",
    }
    new_files = dict(old_files)
    del new_files["content/gameplay-old/d.xml"]
    new_files["content/gameplay/b.xml"] = b"<B/>"  # same size
    new_files["gui/e.png"] = b"\x89PNG\r\n"
    new_files["content/gameplay/japan/f.xml"] = b"<f/>"

    def install(files):
        idx, volumes = gamebin.write_pfs([(p, d, "deflate") for p, d in files.items()])
        return gamebin.Install.from_memory([("basecontent.idx", idx)], volumes)

    def state(data):
        return gamebin.FileState(len(data), zlib.crc32(data))

    got = list(gamebin.diff_installs(install(old_files), install(new_files)))
    want = []
    for path in sorted(set(old_files) | set(new_files)):
        a, b = old_files.get(path), new_files.get(path)
        if a == b:
            continue
        sign = "+" if a is None else "-" if b is None else "~"
        want.append((sign, path, a and state(a), b and state(b)))
    assert got == want
    assert [c.sign for c in got] == ["-", "~", "+", "~"]
    same_size = got[1]
    assert same_size.path == "content/gameplay/b.xml"
    assert same_size.before.size == same_size.after.size
    assert same_size.before.crc32 != same_size.after.crc32


def test_diff_installs_refuses_installs_that_share_no_file(tmp_path):
    def install(path):
        idx, volumes = gamebin.write_pfs([(path, b"x", "stored")])
        return gamebin.Install.from_memory([("basecontent.idx", idx)], volumes)

    with pytest.raises(ValueError, match="share no file"):
        list(gamebin.diff_installs(install("gui/a.xml"), install("gui/b.xml")))


def test_an_older_build_of_a_game_folder_opens_by_its_number(tmp_path):
    """A game folder keeping the indexes of two builds (as the game does after an update):
    ``Install.builds`` lists both, ``Install(game)`` opens the newest, ``build=`` the older, and
    the two diff as two folders would."""
    game = tmp_path / "game"
    (game / "res_packages").mkdir(parents=True)
    builds = {
        100: {"content/a.xml": b"<a/>", "content/b.xml": b"<b/>"},
        200: {"content/a.xml": b"<a/>", "content/c.xml": b"<c/>"},
    }
    for build, files in builds.items():
        idx, volumes = gamebin.write_pfs(
            [(p, d, "deflate") for p, d in files.items()], volume=f"build{build}_0001.pkg"
        )
        (game / "bin" / str(build) / "idx").mkdir(parents=True)
        (game / "bin" / str(build) / "idx" / "basecontent.idx").write_bytes(idx)
        for name, data in volumes:
            (game / "res_packages" / name).write_bytes(data)
    assert gamebin.Install.builds(game) == [100, 200]
    assert sorted(gamebin.Install(game)) == sorted(builds[200])
    assert sorted(gamebin.Install(game, build=100)) == sorted(builds[100])
    got = [(c.sign, c.path) for c in gamebin.diff_installs(gamebin.Install(game, build=100), game)]
    assert got == [("-", "content/b.xml"), ("+", "content/c.xml")]
    with pytest.raises(Exception, match="7"):
        gamebin.Install(game, build=7)
    with pytest.raises(TypeError, match="build="):
        gamebin.Install(idx=game, volumes=game, build=100)

"""Per-call overhead of the Python package against the Rust figures in the README.

    python python/bench.py --assets target/assets-full.bin [--geometry target/large-encd.geometry]

- assets.bin: opens the file, then looks up 10,000 ids (spread over the path table, the same every
  run) and 10,000 full paths: through ``AssetsDb.get`` (a ``Prototype`` object per hit) and through
  the native call alone (``_gamebin.assets_lookup``, a tuple).
- ``.geometry``: decodes the 1M-vertex ENCD file of ``benches/geometry.rs`` (a 1024 × 1024 grid in
  32 bands, ``set3/xyznuvtbpc``, 4-byte ENCD indices; made here with the crate's writer through
  ``_gamebin.write_geometry`` when ``--geometry`` is not given) into NumPy arrays.

Every figure is the median of ``--rounds`` rounds. Make the full-scale assets.bin with
``cargo run --release -- synth assets --scale full -o target/assets-full.bin``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

import numpy as np

import gamebin
from gamebin import _gamebin as native

GRID = 1024
BAND_ROWS = 32


def grid_meshes():
    """The benchmark surface of benches/geometry.rs: y = 2 sin(0.05 x) cos(0.07 z), 0.25 m apart,
    analytic normals, UVs spanning the grid (stored as uv - 0.5), cut into bands of 32 rows that
    share their border rows."""
    meshes = []
    first, band = 0, 0
    while first + 1 < GRID:
        last = min(first + BAND_ROWS, GRID - 1)
        j, i = np.mgrid[first : last + 1, 0:GRID]
        x, z = i.astype(np.float32) * 0.25, j.astype(np.float32) * 0.25
        y = 2.0 * np.sin(0.05 * x) * np.cos(0.07 * z)
        dx = 2.0 * 0.05 * np.cos(0.05 * x) * np.cos(0.07 * z)
        dz = -2.0 * 0.07 * np.sin(0.05 * x) * np.sin(0.07 * z)
        n = np.stack([-dx, np.ones_like(dx), -dz], axis=-1)
        n /= np.linalg.norm(n, axis=-1, keepdims=True)
        positions = np.stack([x, y, z], axis=-1).reshape(-1, 3).astype(np.float32)
        uvs = np.stack([i / (GRID - 1) - 0.5, j / (GRID - 1) - 0.5], axis=-1)
        rows = last - first + 1
        r, c = np.mgrid[0 : rows - 1, 0 : GRID - 1]
        a, b = r * GRID + c, r * GRID + c + 1
        d, e = a + GRID, b + GRID
        indices = np.stack([a, d, b, b, d, e], axis=-1).reshape(-1).astype(np.uint32)
        meshes.append(
            (
                f"Band_{band:02}",
                positions,
                n.reshape(-1, 3).astype(np.float32),
                uvs.reshape(-1, 2).astype(np.float32),
                indices,
                17000 + band,
            )
        )
        first, band = last, band + 1
    return meshes


def median_time(f, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_assets(path: Path, rounds: int) -> None:
    start = time.perf_counter()
    db = gamebin.AssetsDb(path)
    opened = time.perf_counter() - start
    pairs = list(db.paths())
    rng = random.Random(15)
    sample = rng.sample(pairs, min(10_000, len(pairs)))
    ids = [i for i, _ in sample]
    paths = [p for _, p in sample]
    src = db.source
    hits = sum(db.get(i) is not None for i in ids)
    print(f"assets.bin {path} ({os.path.getsize(path) / 1e6:.0f} MB, {len(pairs):,} paths)")
    print(f"  open (AssetsDb: map + header and tables): {opened * 1e6:.0f} µs")
    print(f"  {len(ids):,} ids sampled, {hits:,} with a prototype")
    for what, f, n in [
        ("len(src) (a native call doing nothing: the floor)", lambda: [len(src) for i in ids], len(ids)),
        ("AssetsDb.get(id)", lambda: [db.get(i) for i in ids], len(ids)),
        ("_gamebin.assets_lookup(src, id)", lambda: [native.assets_lookup(src, i) for i in ids], len(ids)),
        ("AssetsDb.get(path)", lambda: [db.get(p) for p in paths], len(paths)),
        ("_gamebin.assets_lookup(src, path, False)", lambda: [native.assets_lookup(src, p, False) for p in paths], len(paths)),
    ]:
        t = median_time(f, rounds)
        print(f"  {what:52} {t * 1e3:8.2f} ms for {n:,}  = {t / n * 1e9:7.0f} ns per call")


def bench_geometry(path: Path, rounds: int) -> None:
    g = gamebin.GeometryFile(path)
    info = g.vertex_buffer_info[0]
    print(f".geometry {path} ({os.path.getsize(path) / 1e6:.1f} MB)")
    print(f"  {info['count']:,} vertices ({info['format_name']}, encoded={info['encoded']}), "
          f"{g.index_buffer_info[0]['count']:,} indices")
    src = g.source

    def vertices():
        return native.geometry_decode_vertices(src, 0)

    def indices():
        return native.geometry_decode_indices(src, 0)

    def structured():
        return gamebin.GeometryFile(src).vertex_buffer(0)

    mb = info["count"] * info["stride"] / 1e6
    for what, f in [
        ("decode vertices into a new NumPy array", vertices),
        ("GeometryFile(src).vertex_buffer(0) (layout + decode)", structured),
        ("decode indices into a new NumPy array", indices),
    ]:
        t = median_time(f, rounds)
        extra = f" ({mb / 1e3 / t:.2f} GB/s)" if "vertices" in what else ""
        print(f"  {what:55} {t * 1e3:8.2f} ms{extra}")
    t = median_time(lambda: gamebin.positions(g.vertex_buffer(0)), rounds)
    print(f"  {'positions(...) float32 (N, 3) from the decoded buffer':55} {t * 1e3:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assets", type=Path, help="a full-scale assets.bin (gamebin synth)")
    parser.add_argument("--geometry", type=Path, help="the 1M-vertex ENCD .geometry (made if absent)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    if args.assets:
        bench_assets(args.assets, args.rounds)
    geometry = args.geometry
    if geometry is None or not geometry.exists():
        geometry = geometry or Path("target/large-encd.geometry")
        start = time.perf_counter()
        data = native.write_geometry(grid_meshes(), "set3/xyznuvtbpc", True, 4)
        geometry.write_bytes(data)
        print(f"wrote {geometry} in {time.perf_counter() - start:.1f} s")
    bench_geometry(geometry, args.rounds)


if __name__ == "__main__":
    main()

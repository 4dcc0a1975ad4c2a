//! Drives every accessor of every view over arbitrary bytes. Shared by the corruption tests and the
//! fuzz targets (`#[path]`-included), so both exercise the same surface: a panic, abort or hang
//! anywhere in here on any input is a bug in the reader. One file per format.
#![allow(dead_code)]

mod assets;
mod craftstudio;
mod geometry;
mod wdata;
mod wdb;
mod wwd;

// drive_assets_under: the fuzz target's entry, with a resource root (not every includer uses it).
#[allow(unused_imports)]
pub use assets::{drive_assets, drive_assets_under};
pub use craftstudio::drive_craftstudio;
pub use geometry::drive_geometry;
pub use wdata::drive_wdata;
pub use wdb::drive_wdb;
pub use wwd::drive_wwd;

/// Decode buffers are sized by the reader's own checked lengths; this caps what one call may ask
/// for so that a harness never allocates more than the reader guarantees (1024 × the payload).
pub const MAX_DECODE_BYTES: usize = 64 << 20;

/// Opens `data` as every format and walks everything that opened. Returns how many structures were
/// read, so that callers can check the walk did something.
pub fn drive_all(data: &[u8]) -> usize {
    let _ = gamebin::detect(data);
    drive_geometry(data)
        + drive_assets(data)
        + drive_craftstudio(data)
        + drive_wdb(data)
        + drive_wwd(data)
        + drive_wdata(data)
}

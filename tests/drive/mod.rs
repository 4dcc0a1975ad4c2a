//! Drives every accessor of every view over arbitrary bytes. Shared by the corruption tests and the
//! fuzz targets (`#[path]`-included), so both exercise the same surface: a panic, abort or hang
//! anywhere in here on any input is a bug in the reader. One file per format.
#![allow(dead_code)]

use gamebin::{AnyView, Scratch, View};

mod assets;
mod craftstudio;
mod dds;
mod geometry;
mod params;
pub mod pfs;
mod wdata;
mod wdb;
mod wwd;

// drive_assets_under: the fuzz target's entry, with a resource root (not every includer uses it).
#[allow(unused_imports)]
pub use assets::{drive_assets, drive_assets_under};
pub use craftstudio::drive_craftstudio;
pub use dds::drive_dds;
pub use geometry::drive_geometry;
pub use params::drive_params;
pub use pfs::drive_pfs;
pub use wdata::drive_wdata;
pub use wdb::drive_wdb;
pub use wwd::drive_wwd;

/// Decode buffers are sized by the reader's own checked lengths; this caps what one call may ask
/// for so that a harness never allocates more than the reader guarantees (1024 × the payload).
pub const MAX_DECODE_BYTES: usize = 64 << 20;

/// Opens `data` as format `V` through the [`View`] trait, as [`AnyView`] does once it knows the
/// format; the drivers force each format this way whatever content detection says, so that every
/// reader meets every input.
pub fn open<'a, V: View<'a>>(data: &'a [u8], scratch: &'a mut Scratch) -> Option<V> {
    V::from_bytes_in(data, scratch).ok()
}

/// Opens `data` through [`AnyView::parse`] (detection by content, then the format's reader) and
/// walks what every format offers generically: the check, the summary (its line) and the
/// owned model. Returns how many of them were made.
pub fn drive_any(data: &[u8]) -> usize {
    let _ = gamebin::detect(data);
    let _ = gamebin::detect_file(
        std::path::Path::new("input.geometry"),
        data,
        true,
        &mut Scratch::new(),
    );
    let mut scratch = Scratch::new();
    let Ok(view) = AnyView::parse(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let found = view.check();
    seen += found.errors.len() + found.warnings.len();
    for problem in found.errors.iter().chain(&found.warnings) {
        std::hint::black_box(problem.to_string());
    }
    if let Ok(summary) = view.summary() {
        seen += 1;
        std::hint::black_box(summary.to_string());
    }
    if let Ok(model) = view.to_model() {
        seen += 1;
        std::hint::black_box(model.format());
    }
    seen
}

/// Opens `data` generically ([`drive_any`]) and as every format, and walks everything that opened.
/// Returns how many structures were read, so that callers can check the walk did something.
pub fn drive_all(data: &[u8]) -> usize {
    drive_any(data)
        + drive_geometry(data)
        + drive_assets(data)
        + drive_craftstudio(data)
        + drive_wdb(data)
        + drive_wwd(data)
        + drive_wdata(data)
        + drive_pfs(data)
        + drive_dds(data)
        + drive_params(data)
}

//! GameParams.data: detects and opens generically, then as a reversed zlib file and as a bare
//! pickle (so that mutations reach the pickle reader without passing through zlib), driving every
//! accessor through the driver the corruption tests share (`tests/drive`): look-ups, regions,
//! every value decoded and written as JSON, the full check.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/drive/mod.rs"]
mod drive;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(drive::drive_any(data));
    std::hint::black_box(drive::drive_params(data));
});

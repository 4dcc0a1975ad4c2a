//! DDS textures: detects, opens, decodes every level and writes the model back through the driver
//! the corruption tests share (`tests/drive`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/drive/mod.rs"]
mod drive;

fuzz_target!(|data: &[u8]| {
    // Generically first (detection, check, summary, model), then this format's every accessor.
    std::hint::black_box(drive::drive_any(data));
    std::hint::black_box(drive::drive_dds(data));
});

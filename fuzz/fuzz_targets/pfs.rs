//! PFS archives: an input is an index and a volume (`u32` LE length of the index, the index, the
//! volume; the seeds in `fuzz/seeds/pfs` are made so by the writer); the driver the corruption
//! tests share reads every record, every blob and every lookup (`tests/drive/pfs.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/drive/mod.rs"]
mod drive;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(drive::drive_any(data));
    std::hint::black_box(drive::drive_pfs(data));
});

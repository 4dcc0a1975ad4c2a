//! BigWorld XML sources: any text read as a `.model`, a `.visual` and a `.mfm` gives a model or an
//! error naming its place, never a panic, a hang or an unbounded allocation.
#![no_main]

use gamebin::wows::sources::{Material, ModelFile, VisualFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = ModelFile::parse("f.model", text) {
        std::hint::black_box(e.to_string());
    }
    if let Err(e) = VisualFile::parse("f.visual", text) {
        std::hint::black_box(e.to_string());
    }
    if let Err(e) = Material::parse("f.mfm", text) {
        std::hint::black_box(e.to_string());
    }
});

//! `gamebin synth assets --scale full -o FILE`: writes a deterministic synthetic file at a real
//! file's scale, for benchmarks and tests.

use std::path::Path;

use anyhow::{Context, Result};
use gamebin::write::assets_synth::{Scale, synth};

use crate::output::Status;

pub fn run_assets(scale: Scale, output: &Path) -> Result<Status> {
    let bytes = synth(scale)?;
    std::fs::write(output, &bytes).with_context(|| format!("cannot write {}", output.display()))?;
    eprintln!(
        "gamebin: wrote {} ({} bytes)",
        output.display(),
        bytes.len()
    );
    Ok(Status::Success)
}

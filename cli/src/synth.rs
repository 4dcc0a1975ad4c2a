//! `gamebin synth assets --scale full -o FILE [--res DIR | --patched]`: writes a deterministic synthetic file
//! at a real file's scale, and with `--res` the `.geometry` files of its ship visuals, for
//! benchmarks and tests.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use gamebin::write::assets_synth::{Scale, synth, synth_patched};
use gamebin::write::model::write_synth_world;

use crate::output::Status;

pub fn run_assets(
    scale: Scale,
    output: &Path,
    res: Option<&Path>,
    patched: bool,
) -> Result<Status> {
    let Some(res) = res else {
        let bytes = if patched {
            synth_patched(scale)?
        } else {
            synth(scale)?
        };
        std::fs::write(output, &bytes)
            .with_context(|| format!("cannot write {}", output.display()))?;
        eprintln!(
            "gamebin: wrote {} ({} bytes)",
            output.display(),
            bytes.len()
        );
        return Ok(Status::Success);
    };
    let world = write_synth_world(scale, output, res).map_err(|e| {
        anyhow!(
            "cannot write the world ({} and {}): {e}",
            output.display(),
            res.display()
        )
    })?;
    eprintln!(
        "gamebin: wrote {} ({} models) and {} .geometry files under {}",
        output.display(),
        world.models.len(),
        world.geometry_files,
        res.display()
    );
    Ok(Status::Success)
}

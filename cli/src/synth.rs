//! `gamebin synth assets --scale full -o FILE [--res DIR | --patched]`: writes a deterministic synthetic file
//! at a real file's scale, and with `--res` the `.geometry` files of its ship visuals, for
//! benchmarks and tests.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use gamebin::synth::assets_scale::{Scale, synth, synth_patched};
use gamebin::synth::model_world::write_synth_world;

use crate::files::{refuse_existing, write_new};
use crate::output::Status;

pub fn run_assets(
    scale: Scale,
    output: &Path,
    res: Option<&Path>,
    patched: bool,
    force: bool,
) -> Result<Status> {
    // Refused before anything is generated (no work for nothing).
    refuse_existing(output, force)?;
    let Some(res) = res else {
        let bytes = if patched {
            synth_patched(scale)?
        } else {
            synth(scale)?
        };
        // Checked again as the file is created: one appearing meanwhile is not replaced either.
        write_new(output, &bytes, force)?;
        eprintln!(
            "gamebin: wrote {} ({} bytes)",
            output.display(),
            bytes.len()
        );
        return Ok(Status::Success);
    };
    refuse_filled_dir(res, force)?;
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

/// `synth install [--update]`: the synthetic world as a game folder (indexes and volumes).
pub fn run_install(scale: Scale, output: &Path, update: bool, force: bool) -> Result<Status> {
    refuse_filled_dir(output, force)?;
    let install = if update {
        gamebin::synth::pfs::synth_update(scale)
    } else {
        gamebin::synth::pfs::synth_install(scale)
    }
    .map_err(|e| anyhow!("cannot make the install: {e}"))?;
    install
        .write_to(output)
        .map_err(|e| anyhow!("cannot write the install under {}: {e}", output.display()))?;
    let bytes: usize = install
        .indexes
        .iter()
        .chain(&install.volumes)
        .map(|(_, b)| b.len())
        .sum();
    eprintln!(
        "gamebin: wrote an install under {}: {} indexes, {} volumes, {bytes} bytes; {} textures \
         in {} files ({} bytes of DDS unpacked)",
        output.display(),
        install.indexes.len(),
        install.volumes.len(),
        install.textures,
        install.texture_files,
        install.texture_bytes,
    );
    Ok(Status::Success)
}

/// Refuses a resource folder that exists and holds anything, unless `force`: the world's
/// `.geometry` files would replace files there (which ones is known only once the world is
/// generated, so a folder in use is refused as a whole, before any work).
fn refuse_filled_dir(dir: &Path, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    let filled = match std::fs::read_dir(dir) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => bail!("cannot write the world under {}: {e}", dir.display()),
    };
    if filled {
        bail!(
            "{} exists and is not empty; not written into (use --force to replace the files \
             there)",
            dir.display()
        );
    }
    Ok(())
}

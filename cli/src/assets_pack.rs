//! `gamebin assets unpack` and `gamebin assets pack`: a whole `assets.bin` as the library's
//! [`AssetsModel`] in JSON, and that JSON, edited or not, written back as a file.
//!
//! Not `dump --json` + `pack` as for a `.geometry`: an assets.bin's dump is a streamed view for
//! reading (full paths, records in their short form), and its model beside it would double an
//! output that is already hundreds of megabytes for a real file.

use std::io::{BufWriter, Write as _};
use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use gamebin::Format;
use gamebin::wows::assets::AssetsDb;
use gamebin::wows::assets::model::{AssetsBuilder, AssetsModel};
use serde::Deserialize;

use crate::files;
use crate::output::{Out, Status, finish};

/// `gamebin assets unpack FILE [-o MODEL.json]`: the model on stdout, or in a new file.
pub fn unpack_run(input: &Path, output: Option<&Path>, force: bool) -> Result<Status> {
    Ok(finish(input, unpack(input, output, force)))
}

fn unpack(input: &Path, output: Option<&Path>, force: bool) -> Result<()> {
    // Checked again as the file is created; this early check spares building the model of a
    // large file for an output that will be refused.
    if let Some(output) = output {
        files::refuse_existing(output, force)?;
    }
    // The mapping ends with this block: an output naming the input itself then replaces a file
    // nothing reads any more (truncating a mapped file would kill the process with SIGBUS).
    let model = {
        let file = files::map(input)?;
        if let Some(format) = gamebin::detect(&file).filter(|f| *f != Format::WowsAssets) {
            bail!("a {format} file, not an assets.bin");
        }
        AssetsBuilder::from_view(&AssetsDb::from_bytes(&file)?)?.to_model()
    };
    let Some(output) = output else {
        let mut out = Out::new();
        write_model(&mut out, &model)?;
        return Ok(out.flush()?);
    };
    let file = files::create_new(output, force)?;
    let mut writer = BufWriter::new(file);
    let written = write_model(&mut writer, &model).and_then(|()| Ok(writer.flush()?));
    if let Err(e) = written {
        // Half a model is no model: the partial file goes.
        drop(writer);
        let _ = std::fs::remove_file(output);
        return Err(e.context(format!("cannot write {}", output.display())));
    }
    Ok(())
}

/// The model as indented JSON and a final newline, written as it is serialized (never the whole
/// text in memory); a write error, such as stdout's reader going away, stops it at once.
fn write_model(out: &mut impl std::io::Write, model: &AssetsModel) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, model).map_err(|e| {
        if e.is_io() {
            // The I/O error itself, so that a closed pipe is recognised as one.
            anyhow::Error::from(std::io::Error::from(e))
        } else {
            anyhow::Error::from(e)
        }
    })?;
    Ok(out.write_all(b"\n")?)
}

/// `gamebin assets pack MODEL.json -o FILE`: the model written as an assets.bin. Exit status 1,
/// with the reason on stderr and nothing written, when the JSON is not a model or the model does
/// not fit the format.
pub fn pack_run(json: &Path, output: &Path, force: bool) -> Result<Status> {
    Ok(finish(json, pack(json, output, force)))
}

fn pack(json: &Path, output: &Path, force: bool) -> Result<()> {
    let text = files::read_text(json)?;
    let model = model_from_json(&text)?;
    let bytes = AssetsBuilder::from_model(model)
        .and_then(|builder| builder.to_bytes())
        .context("the model cannot be written")?;
    files::write_new(output, &bytes, force)
}

/// The model a `pack` input holds. Text that is not JSON and JSON that is not a model are told
/// apart, both with the line and column; a `dump --json` (which is not a model) is named as one.
pub fn model_from_json(text: &str) -> Result<AssetsModel> {
    serde_json::from_str(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            return anyhow!("not valid JSON: {e}");
        }
        match serde_json::from_str::<Dumped>(text) {
            Ok(Dumped {
                format: Some(format),
            }) if format == Format::WowsAssets.name() => anyhow!(
                "a `gamebin dump --json` of an assets.bin, which is not its model (records there \
                 are summarized, paths given in full): `gamebin assets unpack FILE` prints the \
                 model that packs back"
            ),
            Ok(Dumped {
                format: Some(format),
            }) => anyhow!("a `gamebin dump --json` of a {format} file, not an assets.bin model"),
            _ => anyhow!("not an assets.bin model: {e}"),
        }
    })
}

/// What tells a `dump --json` document from a model: its `format` key (other keys skipped).
#[derive(Deserialize)]
struct Dumped {
    format: Option<String>,
}

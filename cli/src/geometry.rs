//! What the CLI shows of a World of Warships `.geometry`: a one-line (or JSON) summary, the dump
//! (the summary and, in JSON, the whole file as the library's owned model); and `geometry pack`,
//! which writes the model of a dump back.

use crate::output::{Status, finish};
use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use gamebin::View;
use gamebin::wows::geometry::model::GeometryModel;
use gamebin::wows::geometry::{GeometrySummary, GeometryView};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// `dump --json`'s document: the file's path and format, the library's summary of it (buffers with
/// their bounds, mappings, draws, models), and under [`MODEL_KEY`] the whole file as the library's
/// owned model, which `geometry pack` writes back.
#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    #[serde(flatten)]
    pub summary: GeometrySummary,
    /// Every field and blob the file stores ([`GeometryModel`]); last, as its blobs are long.
    pub model: GeometryModel,
}

/// The key of the model in a dump (the summary's keys are the model's names for other things:
/// `vertex_buffers` there are what the reader made of the buffers, not what the file stores).
pub const MODEL_KEY: &str = "model";

pub fn dump(path: &Path, view: &GeometryView<'_>) -> Result<Dump> {
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::WowsGeometry.name(),
        summary: GeometrySummary::from_view(view)?,
        model: View::to_model(view)?,
    })
}

/// Says on stderr which draws store values that are not finite (a NaN texture coordinate): the
/// dump shows them as stored, the exporters write 0 there.
pub fn warn_non_finite(path: &Path, view: &GeometryView<'_>) {
    let mut decoded = gamebin::wows::geometry::DecodedGeometry::new();
    decoded.decode(view);
    for finding in decoded.non_finite_attributes(view) {
        eprintln!("gamebin: {}: warning: {finding}", path.display());
    }
}

/// The dump as indented text: the summary alone (the model is blobs, which text cannot show).
pub fn dump_text(path: &Path, view: &GeometryView<'_>) -> Result<String> {
    let summary = GeometrySummary::from_view(view)?;
    let format = gamebin::Format::WowsGeometry.name();
    Ok(format!("{}: {format}\n{summary}", path.display()))
}

/// `gamebin geometry pack FILE.json -o FILE.geometry`: a `dump --json` document (or a bare
/// model), edited or not, written back as a file. Exit status 1, with the reason on stderr, when
/// the JSON is not a model or the model does not fit the format's fields.
pub fn pack_run(json: &Path, output: &Path, force: bool) -> Result<Status> {
    Ok(finish(json, pack(json, output, force)))
}

fn pack(json: &Path, output: &Path, force: bool) -> Result<()> {
    let text = crate::files::read_text(json)?;
    let bytes = file_from_json(&text)?
        .to_bytes()
        .context("the model cannot be written")?;
    crate::files::write_new(output, &bytes, force)
}

/// The model a `geometry pack` input holds: the [`MODEL_KEY`] of a `dump --json` document (the
/// summary beside it is ignored), or a bare serialized [`GeometryModel`]. Bad JSON and JSON that is
/// not a model are told apart; both say the line and column.
pub fn file_from_json(text: &str) -> Result<GeometryModel> {
    let shape: Shape = serde_json::from_str(text).map_err(json_error)?;
    if shape.has_model {
        let dump: DumpModel = serde_json::from_str(text).map_err(json_error)?;
        Ok(dump.model)
    } else if shape.is_dump {
        bail!(
            "a dump without its {MODEL_KEY:?} key (the summary alone cannot be written back): dump the \
             file again with this gamebin"
        )
    } else {
        serde_json::from_str(text).map_err(json_error)
    }
}

fn json_error(e: serde_json::Error) -> anyhow::Error {
    if e.is_syntax() || e.is_eof() {
        anyhow!("not valid JSON: {e}")
    } else {
        anyhow!("not a .geometry model: {e}")
    }
}

/// A dump's model, the other keys skipped.
#[derive(Deserialize)]
struct DumpModel {
    model: GeometryModel,
}

/// What a pack input's top-level keys say it is: a dump (it has `path` or `format`) with or
/// without its model, or else a bare model. Read in a first pass, so that the model's own errors
/// come from one reading of the document, with their line and column.
#[derive(Default)]
struct Shape {
    is_dump: bool,
    has_model: bool,
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the object `gamebin dump --json` prints for a .geometry, or its \"model\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        let mut shape = Shape::default();
        while let Some(key) = map.next_key::<String>()? {
            if key == "format" {
                let format = map.next_value::<String>()?;
                let geometry = gamebin::Format::WowsGeometry.name();
                if format != geometry {
                    return Err(de::Error::custom(format_args!(
                        "its \"format\" is {format:?}, not {geometry:?}"
                    )));
                }
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
            shape.is_dump |= key == "format" || key == "path";
            shape.has_model |= key == MODEL_KEY;
        }
        Ok(shape)
    }
}

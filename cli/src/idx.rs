//! What the CLI shows of a single World of Warships `.idx` index: its `dump` (text, and the JSON
//! of `dump --json`). The files of a whole install are the `pfs` commands'.

use std::path::Path;

use anyhow::Result;
use gamebin::wows::pfs::IdxView;

use crate::output::count;

/// `dump --json` of a single `.idx`: its path and format, where its tables are, whether its
/// checksum matches, then its owned model (every record, with the full paths its tree spells).
#[derive(Debug, serde::Serialize)]
pub struct IdxDump {
    pub path: String,
    pub format: &'static str,
    pub size: usize,
    /// File offsets of the name, file and volume tables.
    pub table_offsets: [usize; 3],
    /// `"ok"` or `"mismatch"`.
    pub checksum_verdict: &'static str,
    /// What a dump of an index alone cannot show.
    pub blobs: &'static str,
    #[serde(flatten)]
    pub model: gamebin::wows::pfs::model::IdxModel,
}

pub fn dump_idx(path: &Path, view: &IdxView<'_>) -> Result<IdxDump> {
    Ok(IdxDump {
        path: path.display().to_string(),
        format: gamebin::Format::WowsPfsIdx.name(),
        size: view.as_bytes().len(),
        table_offsets: view.table_offsets(),
        checksum_verdict: if view.verify_checksum().is_ok() {
            "ok"
        } else {
            "mismatch"
        },
        blobs: gamebin::wows::pfs::BLOBS_NOT_CHECKED,
        model: gamebin::View::to_model(view)?,
    })
}

/// `dump` of a single `.idx` as text: a header line, then one line per file (its path, sizes,
/// compression, CRC-32 and volume), then the volumes.
pub fn dump_idx_text(path: &Path, view: &IdxView<'_>) -> Result<String> {
    use std::fmt::Write as _;
    let d = dump_idx(path, view)?;
    let m = &d.model;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} ({} layout), {} bytes, checksum {:#010x} ({})",
        d.path, d.format, m.layout, d.size, m.checksum, d.checksum_verdict
    );
    let _ = writeln!(
        out,
        "{} ({} directories):",
        count(m.files.len(), "file", "files"),
        m.names.len().saturating_sub(m.files.len())
    );
    for f in &m.files {
        let path = f
            .path
            .clone()
            .unwrap_or_else(|| format!("(id {:#018x})", f.id));
        let _ = writeln!(
            out,
            "  {path}: {} bytes, {} stored ({}), crc32 {:#010x}, in {} at {:#x}",
            f.unpacked_size,
            f.size,
            f.compression,
            f.crc32,
            f.volume
                .clone()
                .unwrap_or_else(|| format!("(volume {:#018x})", f.volume_id)),
            f.offset
        );
    }
    let _ = writeln!(out, "{}:", count(m.volumes.len(), "volume", "volumes"));
    for v in &m.volumes {
        let _ = writeln!(out, "  {} ({:#018x})", v.name, v.id);
    }
    Ok(out)
}

//! PFS archives: an index and a volume from one input (`u32` LE length of the index, the index,
//! then the volume), read through the index's view and as an install: every name, volume and
//! file record, every blob read out of the volume (stored, inflated, CRC-checked), every lookup,
//! and the index's `View` (check, summary, owned model).

use gamebin::View;
use gamebin::wows::pfs::{BlobReader, GameInstall, IdxView, Selection};

/// The index and the volume of a driver input.
pub fn split(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = data.split_first_chunk::<4>()?;
    let len = (u32::from_le_bytes(*len) as usize).min(rest.len());
    Some(rest.split_at(len))
}

pub fn drive_pfs(data: &[u8]) -> usize {
    let Some((idx_bytes, pkg)) = split(data) else {
        return 0;
    };
    let Ok(idx) = IdxView::from_bytes(idx_bytes) else {
        return 0;
    };
    let mut seen = 1 + idx.verify_checksum().is_ok() as usize;
    seen += drive_idx_view(&idx);
    let mut volumes = Vec::new();
    for volume in idx.volumes().flatten() {
        if let Ok(name) = volume.name_str() {
            volumes.push((name.to_owned(), pkg.to_vec()));
        }
        seen += 1;
    }
    for name in idx.names().flatten() {
        seen += name.name_str().map_or(0, str::len);
    }
    let (mut reader, mut out) = (BlobReader::new(), Vec::new());
    for file in idx.files() {
        seen += reader.read(&file, pkg, &mut out).map_or(0, <[u8]>::len);
    }
    let Ok(install) =
        GameInstall::from_memory(vec![("in.idx".into(), idx_bytes.to_vec())], volumes)
    else {
        return seen;
    };
    seen += install.conflicts().len();
    let mut path = String::new();
    let mut paths = Vec::new();
    install.for_each_file(&Selection::All, &mut path, |path, file| {
        if let Ok(file) = file {
            paths.push(path.to_owned());
            let _ = install.read(&file, path, &mut reader, &mut out);
        }
        true
    });
    for path in &paths {
        seen += install.find(path).ok().flatten().is_some() as usize;
    }
    seen
}

/// The index as one of `AnyView`'s formats: its check (every record, the tree, the checksum), its
/// summary and its owned model, each message written out.
pub fn drive_idx_view(idx: &IdxView<'_>) -> usize {
    let report = View::check(idx);
    let mut seen = report.errors.len() + report.warnings.len();
    for problem in report.errors.iter().chain(&report.warnings) {
        seen += problem.to_string().len();
    }
    if let Ok(summary) = View::summary(idx) {
        seen += summary.to_string().len();
    }
    if let Ok(model) = View::to_model(idx) {
        seen += model.files.len() + model.names.len();
    }
    seen
}

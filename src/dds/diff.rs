//! `diff` of two DDS textures, through their owned models.

use super::DdsView;
use super::model::DdsModel;

/// Compares two textures: every header field, then each level by slice and mip (its size, and
/// whether its bytes changed).
pub fn files(a: &DdsView<'_>, b: &DdsView<'_>) -> crate::diff::Report {
    models(&DdsModel::from_view(a), &DdsModel::from_view(b))
}

fn models(a: &DdsModel, b: &DdsModel) -> crate::diff::Report {
    use crate::diff::value::{compare, compare_keyed, to_value};
    use serde_json::Value;
    let mut changes = Vec::new();
    compare(
        "header",
        &to_value(&a.header),
        &to_value(&b.header),
        &mut changes,
    );
    compare("dx10", &to_value(&a.dx10), &to_value(&b.dx10), &mut changes);
    let levels = |m: &DdsModel| -> Vec<(String, Value)> {
        m.levels
            .iter()
            .map(|l| {
                (
                    format!("slice {} mip {}", l.slice, l.mip),
                    serde_json::json!({
                        "width": l.width,
                        "height": l.height,
                        "depth": l.depth,
                        "bytes": l.data.len(),
                        "digest": fingerprint(&l.data),
                    }),
                )
            })
            .collect()
    };
    compare_keyed("levels", levels(a), levels(b), &mut changes);
    compare(
        "trailing",
        &Value::from(crate::bytes::hex(&a.trailing)),
        &Value::from(crate::bytes::hex(&b.trailing)),
        &mut changes,
    );
    crate::diff::Report::new(crate::Format::Dds.name(), changes)
}

/// A level's fingerprint for `diff`: both files are compared in one process, so std's hasher
/// tells changed bytes apart without a checksum dependency.
fn fingerprint(data: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

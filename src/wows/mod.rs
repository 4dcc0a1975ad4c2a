//! World of Warships formats.

#[cfg(feature = "assets")]
pub mod assets;
#[cfg(feature = "geometry")]
pub mod axes;
#[cfg(any(feature = "assets", feature = "pfs"))]
pub mod bigworld;
#[cfg(feature = "geometry")]
pub mod geometry;
#[cfg(all(feature = "geometry", feature = "assets"))]
pub mod model;
#[cfg(feature = "pfs")]
pub mod pfs;
#[cfg(feature = "gltf")]
pub mod scene;
#[cfg(feature = "sources")]
pub mod sources;
#[cfg(feature = "gltf")]
pub mod textures;

/// `a/b/X_a.tga` → `a/b/X_a.dds`: a material names a texture by its source file, and the file
/// shipped is the `.dds` of the same stem (both in `.mfm` sources and in `assets.bin`).
pub fn dds_path(stored: &str) -> String {
    let file_start = stored.rfind('/').map_or(0, |i| i + 1);
    match stored.rfind('.') {
        Some(dot) if dot > file_start => format!("{}.dds", &stored[..dot]),
        _ => format!("{stored}.dds"),
    }
}

/// Whether a resource path from an `assets.bin` (`content/gameplay/.../B.model`) stays under the
/// folder it is joined to: not empty, and no empty, `.` or `..` segment, no backslash, colon or
/// NUL (a drive, a root or a parent would let a crafted file name a path anywhere). Every caller
/// that turns a stored path into a file path (reading `.geometry` files under a resource root,
/// writing one GLB per model under an output folder) checks it first.
pub fn is_safe_resource_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|segment| {
            !matches!(segment, "" | "." | "..") && !segment.contains(['\\', ':', '\0'])
        })
}

#[cfg(test)]
mod tests {
    use super::is_safe_resource_path as safe;

    #[test]
    fn resource_paths_stay_under_their_root() {
        assert!(safe("content/a/B.model"));
        assert!(safe("a"));
        for bad in [
            "",
            "/etc/passwd",
            "content/../B.model",
            "./a",
            "a//b",
            "a/",
            "c:/x",
            "a\\b",
            "a\0b",
        ] {
            assert!(!safe(bad), "{bad:?}");
        }
    }
}

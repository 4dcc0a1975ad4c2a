//! World of Warships formats.

#[cfg(feature = "assets")]
pub mod assets;
#[cfg(feature = "geometry")]
pub mod axes;
#[cfg(any(feature = "assets", feature = "pfs"))]
pub mod bigworld;
#[cfg(feature = "geometry")]
pub mod geometry;
#[cfg(feature = "params")]
pub mod params;
#[cfg(feature = "pfs")]
pub mod pfs;
#[cfg(all(feature = "geometry", feature = "assets"))]
pub mod resolve;
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
    // One pass over the bytes: an extraction asks this of every file, and splitting into
    // segments first took about 1,100 instructions a file, a seventh of a full-scale
    // extraction's work outside the kernel (callgrind). `/`, `.` and
    // the refused bytes are ASCII, so they are never part of another character.
    let (mut len, mut dots) = (0usize, 0usize);
    let is_dots = |len: usize, dots: usize| len == dots && len <= 2;
    for &byte in path.as_bytes() {
        match byte {
            b'/' if len == 0 || is_dots(len, dots) => return false,
            b'/' => (len, dots) = (0, 0),
            b'\\' | b':' | 0 => return false,
            b'.' => (len, dots) = (len + 1, dots + 1),
            _ => len += 1,
        }
    }
    len != 0 && !is_dots(len, dots)
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
        for good in ["...", "a/.../b", ".a/b.", "a/..b", "ü/ß.dds"] {
            assert!(safe(good), "{good:?}");
        }
    }

    /// The rule as it reads: no empty, `.` or `..` segment, and none holding `\`, `:` or NUL.
    fn by_segments(path: &str) -> bool {
        !path.is_empty()
            && path.split('/').all(|segment| {
                !matches!(segment, "" | "." | "..") && !segment.contains(['\\', ':', '\0'])
            })
    }

    #[test]
    fn the_one_pass_check_agrees_with_the_rule_on_every_short_path() {
        // Every string of up to five characters from those the rule looks at.
        let alphabet = ['a', '.', '/', '\\', ':', '\0', 'é'];
        let mut paths = vec![String::new()];
        let mut level = vec![String::new()];
        for _ in 0..5 {
            level = (level.iter())
                .flat_map(|p| alphabet.iter().map(move |c| format!("{p}{c}")))
                .collect();
            paths.extend(level.iter().cloned());
        }
        assert_eq!(paths.len(), (0..=5).map(|n| 7usize.pow(n)).sum::<usize>());
        for path in &paths {
            assert_eq!(safe(path), by_segments(path), "{path:?}");
        }
    }
}

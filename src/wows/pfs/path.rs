//! Path ids: a name's id is CityHash64 of its full path relative to `res/`, so a path is found by
//! hashing it.

use super::entry::Name;
use crate::hash::city_hash_64;

/// The parent id of every top-level name: CityHash64(`"."`).
pub const ROOT_PARENT_ID: u64 = 0xdbb1_a1d1_b108_b927;

/// The id of `path` as the index stores it: CityHash64 of the path relative to `res/`,
/// `/`-separated, with no leading slash (`content/assets.bin`).
///
/// `\` is read as `/`, and leading slashes, a leading `res/` and empty or `.` segments are left
/// out, so `/res/content\assets.bin` has the same id as `content/assets.bin`. A path already in
/// that form is hashed as it is; another is written into a buffer first.
pub fn path_id(path: &str) -> u64 {
    if is_normal(path) {
        city_hash_64(path.as_bytes())
    } else {
        let mut normal = String::with_capacity(path.len());
        for (i, segment) in segments(path).enumerate() {
            if i > 0 {
                normal.push('/');
            }
            normal.push_str(segment);
        }
        city_hash_64(normal.as_bytes())
    }
}

/// Whether a name and a path's segment hold the same bytes. A lookup compares a handful of
/// short names (most under 20 bytes): inline, a word at a time (the last word overlapping the one
/// before), which is cheaper than a call to the C library's `memcmp` for each.
#[inline]
pub(super) fn same_segment(name: &[u8], segment: &[u8]) -> bool {
    let n = name.len();
    if n != segment.len() {
        return false;
    }
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            if word::<8>(name, at) != word::<8>(segment, at) {
                return false;
            }
            at += 8;
        }
        return word::<8>(name, n - 8) == word::<8>(segment, n - 8);
    }
    if n >= 4 {
        return word::<4>(name, 0) == word::<4>(segment, 0)
            && word::<4>(name, n - 4) == word::<4>(segment, n - 4);
    }
    name.iter().zip(segment).all(|(a, b)| a == b)
}

/// The `N` bytes of `bytes` at `at` (one load once compiled), `None` past the end.
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

/// The segments of `path` in the form [`path_id`] hashes.
pub(super) fn segments(path: &str) -> impl DoubleEndedIterator<Item = &str> {
    let path = path.trim_start_matches(['/', '\\']);
    let path = strip_res(path).unwrap_or(path);
    path.split(['/', '\\'])
        .filter(|segment| !matches!(*segment, "" | "."))
}

/// Whether the names from `leaf` up to the root spell `path`, one name a segment from the last;
/// `parent` finds a name by its id. The walk takes at most one step a segment, so a cycle of
/// parents ends it.
pub(super) fn spells<'n, E>(
    leaf: Name<'n>,
    path: &str,
    mut parent: impl FnMut(u64) -> Result<Option<Name<'n>>, E>,
) -> Result<bool, E> {
    let mut segments = segments(path).rev();
    let mut current = leaf;
    loop {
        let Some(segment) = segments.next() else {
            return Ok(false);
        };
        if current.name != segment.as_bytes() {
            return Ok(false);
        }
        if current.parent_id == ROOT_PARENT_ID {
            return Ok(segments.next().is_none());
        }
        match parent(current.parent_id)? {
            Some(name) => current = name,
            None => return Ok(false),
        }
    }
}

/// `path` after a leading `res/` segment.
fn strip_res(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("res")?;
    let rest = rest.strip_prefix(['/', '\\'])?;
    Some(rest.trim_start_matches(['/', '\\']))
}

/// Whether `path` is already in the form [`path_id`] hashes.
///
/// One pass over the bytes (a lookup's first step): no `\\`, no empty or `.` segment, and not
/// under a leading `res` segment.
pub(super) fn is_normal(path: &str) -> bool {
    if strip_res(path).is_some() {
        return false;
    }
    // The length of the current segment, and whether it is `.` so far.
    let (mut len, mut dot) = (0usize, false);
    for &b in path.as_bytes() {
        match b {
            b'\\' => return false,
            b'/' if len == 0 || dot => return false,
            b'/' => (len, dot) = (0, false),
            b'.' => (len, dot) = (len + 1, len == 0),
            _ => (len, dot) = (len + 1, false),
        }
    }
    len != 0 && !dot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_segment_is_slice_equality() {
        let name: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for len in 0..=name.len() {
            let a = &name[..len];
            let copy = a.to_vec();
            assert!(same_segment(a, a));
            assert!(same_segment(a, &copy), "{len}");
            // One byte changed anywhere, or one more or fewer byte: different.
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!same_segment(a, &b), "{len} {at}");
                b[at] = 0;
                assert!(!same_segment(a, &b), "{len} {at}");
            }
            assert!(!same_segment(a, &name[..len.saturating_sub(1)]) || len == 0);
            assert!(len == name.len() || !same_segment(a, &name[..len + 1]));
        }
        assert!(!same_segment(b"abc", b"abc\0"));
    }

    /// The ids the notes give, checked there against a real index's hexdump.
    #[test]
    fn ids_of_the_real_index() {
        assert_eq!(path_id("KDStorage.bin"), 0x93b6_404f_ba9a_0c8f);
        assert_eq!(path_id("animatedMiscs.xml"), 0x6b4f_2cac_e7a2_70ad);
        assert_eq!(city_hash_64(b"."), ROOT_PARENT_ID);
        assert_eq!(city_hash_64(b"system_data_0001.pkg"), 0x77ed_330d_0703_1170);
    }

    #[test]
    fn the_one_pass_normal_form_check_agrees_with_the_segments() {
        // The definition, in segments: what `is_normal` decides in one pass over the bytes.
        let by_segments = |path: &str| {
            strip_res(path).is_none()
                && !path.contains('\\')
                && path.split('/').all(|segment| !matches!(segment, "" | "."))
        };
        let atoms = ["a", ".", "..", "/", "\\", "res", ".a", "a.", "é", "x/y"];
        let mut paths = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| atoms.iter().map(move |a| format!("{p}{a}")))
                .collect();
            paths.extend(longer);
        }
        for path in &paths {
            assert_eq!(is_normal(path), by_segments(path), "{path:?}");
        }
    }

    #[test]
    fn other_spellings_have_the_same_id() {
        let id = path_id("content/assets.bin");
        for spelling in [
            "/content/assets.bin",
            "res/content/assets.bin",
            "/res/content/assets.bin",
            "content\\assets.bin",
            "content//./assets.bin",
        ] {
            assert_eq!(path_id(spelling), id, "{spelling}");
        }
        assert_ne!(path_id("resources/a"), path_id("a"));
        assert_ne!(path_id("Content/assets.bin"), id, "ids are case-sensitive");
    }
}

//! Which paths of an install a command means: a prefix (`content/gameplay`: that folder, or that
//! file) or a glob (`content/**/*.geometry`).
//!
//! Globs match segment by segment: `*` is any run of characters within one segment, `?` one
//! character, `**` as a whole segment any number of segments (none included); everything else is
//! itself, case included (the index's paths are case-sensitive). Matching allocates nothing and
//! takes time linear in the path for each star (the two-pointer algorithm, at both levels).

/// A selection of paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Every path.
    All,
    /// The path itself and everything under it (segments, not characters: `content/gui` does not
    /// select `content/guide`).
    Prefix(String),
    /// Paths the glob matches, and everything under a folder it matches.
    Glob(String),
}

impl Selection {
    /// A glob when `text` has `*` or `?`, else a prefix (an empty one selects everything). Leading
    /// slashes and a leading `res/` are left out, as for lookups.
    pub fn parse(text: &str) -> Selection {
        let text = text.trim_start_matches('/');
        let text = text.strip_prefix("res/").unwrap_or(text);
        if text.contains(['*', '?']) {
            Selection::Glob(text.to_owned())
        } else {
            let prefix = text.trim_end_matches('/');
            if prefix.is_empty() {
                Selection::All
            } else {
                Selection::Prefix(prefix.to_owned())
            }
        }
    }

    /// Whether `path` is selected.
    pub fn matches(&self, path: &str) -> bool {
        match self {
            Selection::All => true,
            Selection::Prefix(prefix) => path
                .strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            // A glob that matches a folder selects what is in it, as a prefix does.
            Selection::Glob(glob) => {
                glob_matches(glob, path)
                    || path
                        .match_indices('/')
                        .any(|(end, _)| glob_matches(glob, &path[..end]))
            }
        }
    }
}

/// Whether `glob` matches `path`, segment by segment.
fn glob_matches(glob: &str, path: &str) -> bool {
    star_match(
        glob.split('/'),
        path.split('/'),
        |p: &&str| *p == "**",
        |p, s| segment_matches(p.as_bytes(), s.as_bytes()),
    )
}

/// Whether one segment pattern matches one segment.
fn segment_matches(pattern: &[u8], text: &[u8]) -> bool {
    star_match(
        pattern.iter(),
        text.iter(),
        |p: &&u8| **p == b'*',
        |p, t| **p == b'?' || p == t,
    )
}

/// The two-pointer wildcard match over sequences: `is_star` items match any run of items, others
/// one item by `one`. A star remembers where it was met; on a mismatch the run it matches grows by
/// one and matching resumes after it.
fn star_match<P, T>(
    pattern: impl Iterator<Item = P> + Clone,
    text: impl Iterator<Item = T> + Clone,
    is_star: impl Fn(&P) -> bool,
    one: impl Fn(&P, &T) -> bool,
) -> bool {
    let (mut p, mut t) = (pattern, text);
    // Where to resume after the last star: the pattern after it, the text one item further.
    let mut resume: Option<(_, _)> = None;
    loop {
        let t_before = t.clone();
        match (p.next(), t.next()) {
            (Some(ref item), _) if is_star(item) => {
                resume = Some((p.clone(), t_before.clone()));
                t = t_before;
            }
            (Some(item), Some(ref text_item)) if one(&item, text_item) => {}
            (None, None) => return true,
            _ => {
                let Some((after_star, mut from)) = resume.take() else {
                    return false;
                };
                if from.next().is_none() {
                    return false;
                }
                p = after_star.clone();
                t = from.clone();
                resume = Some((after_star, from));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_select_whole_segments() {
        let s = Selection::parse("/res/content/gui/");
        assert_eq!(s, Selection::Prefix("content/gui".into()));
        assert!(s.matches("content/gui"));
        assert!(s.matches("content/gui/a.png"));
        assert!(!s.matches("content/guide/a.png"));
        assert!(Selection::parse("").matches("anything"));
    }

    #[test]
    fn globs_match_within_and_across_segments() {
        let cases = [
            ("content/**/*.geometry", "content/a/b/C.geometry", true),
            ("content/**/*.geometry", "content/C.geometry", true),
            ("content/**/*.geometry", "content/a/C.model", false),
            ("content/*.geometry", "content/a/C.geometry", false),
            ("**", "a/b/c", true),
            ("*/b/*", "a/b/c", true),
            ("*/b/*", "a/b", false),
            ("a?c/*", "abc/x", true),
            ("a?c/*", "ac/x", false),
            (
                "*a*a*a*b",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                false,
            ),
            ("**/x/**/y", "a/x/b/x/c/y", true),
            ("**/x/**/y", "a/x/b/x/c/z", false),
            ("gui/*", "gui/", true),
            ("Gui/*", "gui/a", false),
            // A matched folder selects what is under it.
            ("gui/fl*", "gui/flags/a/b.png", true),
            ("gui/*/a", "gui/flags/a/b.png", true),
            ("gui/fl*", "gui/icons/b.png", false),
        ];
        for (glob, path, expected) in cases {
            assert_eq!(
                Selection::parse(glob).matches(path),
                expected,
                "{glob} {path}"
            );
        }
    }
}

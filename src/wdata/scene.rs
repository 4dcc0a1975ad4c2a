//! Scenes: `i32 count`, then `count` scene cameras (first pass), then, from main version 20, a
//! second pass of `count` records with each scene's name (v21), ids, event entries and render lists.

use super::Versions;
use super::cursor::{WdataCursor as _, check_fits};
pub use super::flat_records::{SceneDetails, SceneHead};
use super::gates;
use super::records::{Record, Records, Run};
use crate::bytes::Cursor;
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// One scene: its first-pass record and, from main version 20, its second-pass details.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    /// The first-pass fields.
    pub head: SceneHead<'a>,
    /// The second pass (main version >= 20).
    pub details: Option<SceneDetails<'a>>,
}

/// The Scenes section, checked at open.
#[derive(Debug, Clone, Copy)]
pub struct SceneSection<'a> {
    heads: Run<'a, SceneHead<'a>>,
    details: Option<Run<'a, SceneDetails<'a>>>,
}

impl<'a> SceneSection<'a> {
    pub(crate) fn read(cur: &mut Cursor<'a>, versions: Versions) -> Result<Self> {
        let count = cur.count("Scenes.count", SceneHead::MIN_SIZE)?;
        let heads = Run::read(cur, count, versions)?;
        let details = if gates::SCENE_PASS2.stored(versions) {
            check_fits(
                cur.offset(),
                "Scenes.details",
                count,
                SceneDetails::MIN_SIZE,
                cur.remaining(),
            )?;
            Some(Run::read(cur, count, versions)?)
        } else {
            None
        };
        Ok(SceneSection { heads, details })
    }

    /// Number of scenes.
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    /// Whether there are no scenes.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// Absolute offset of the second pass (main version >= 20).
    pub fn details_offset(&self) -> Option<usize> {
        self.details.map(|d| d.offset())
    }

    /// The scenes, both passes joined.
    pub fn iter(&self) -> Scenes<'a> {
        Scenes {
            heads: self.heads.iter(),
            details: self.details.map(|d| d.iter()),
            done: false,
        }
    }
}

/// The scenes, in file order.
#[derive(Debug, Clone)]
pub struct Scenes<'a> {
    heads: Records<'a, SceneHead<'a>>,
    details: Option<Records<'a, SceneDetails<'a>>>,
    /// Set after an error has been yielded: the iteration ends there.
    done: bool,
}

impl Scenes<'_> {
    /// Ends the iteration after `e`, which is yielded.
    fn stop(&mut self, e: Error) -> Error {
        self.done = true;
        e
    }
}

impl<'a> Iterator for Scenes<'a> {
    type Item = Result<Scene<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Result<Scene<'a>>> {
        if self.done {
            return None;
        }
        let head = match self.heads.next()? {
            Ok(head) => head,
            Err(e) => return Some(Err(self.stop(e))),
        };
        let details = match self.details.as_mut().map(Iterator::next) {
            None => None,
            Some(Some(Ok(details))) => Some(details),
            Some(Some(Err(e))) => return Some(Err(self.stop(e))),
            // Both passes were checked to hold the same count when the view opened.
            Some(None) => {
                return Some(Err(self.stop(Error::invalid(
                    u64_of(self.heads.offset()),
                    "SceneDetails",
                    0,
                    "the second pass holds fewer scenes than the first",
                ))));
            }
        };
        Some(Ok(Scene { head, details }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            (0, Some(0))
        } else {
            self.heads.size_hint()
        }
    }
}

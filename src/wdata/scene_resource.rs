//! SceneResources: `i32 count`, then per resource a key, aliases, animated paths, cues (v11), a
//! sound block (v12, with its version-dependent unknown fields) and ambients (v17). Unknown fields
//! are kept as values.

use super::Versions;
use super::cursor::WdataCursor as _;
pub use super::flat_records::{Ambient, Cue, ScenePath, Sound, SoundBlock};
use super::gates;
use super::records::{NameList, Record, Run};
use super::wstr::WStr;
use crate::bytes::{Cursor, Place};
use crate::error::Result;

/// One scene resource.
#[derive(Debug, Clone, Copy)]
pub struct SceneResource<'a> {
    /// The resource's key.
    pub key: WStr<'a>,
    /// Other names of the resource.
    pub aliases: NameList<'a>,
    /// Present when the resource has paths.
    pub delay: Option<f32>,
    /// The model/motion paths played in turn.
    pub paths: Run<'a, ScenePath<'a>>,
    /// Main version >= 11.
    pub cues: Option<Run<'a, Cue<'a>>>,
    /// Main version >= 12.
    pub sound: Option<SoundBlock<'a>>,
    /// Main version >= 17.
    pub ambients: Option<Run<'a, Ambient<'a>>>,
}

impl<'a> Record<'a> for SceneResource<'a> {
    type Context = Versions;
    const MIN_SIZE: usize = 2 + 4 + 4;

    fn read(cur: &mut Cursor<'a>, versions: Versions, place: Place) -> Result<Self> {
        let key = cur.wstr("SceneResource.Key")?;
        let aliases = cur.count("SceneResource.aliasCnt", 2)?;
        let aliases = NameList::read(cur, aliases, false, "SceneResource.Aliases")?;
        let paths = cur.count("SceneResource.pathCnt", ScenePath::MIN_SIZE)?;
        let delay = if paths > 0 {
            Some(cur.f32_le("SceneResource.Delay")?)
        } else {
            None
        };
        let paths = Run::read(cur, paths, versions)?;
        let cues = if gates::RESOURCE_CUES.stored(versions) {
            Some(Run::read_counted(cur, versions, "SceneResource.cueCnt")?)
        } else {
            None
        };
        let sound = if gates::RESOURCE_SOUND.stored(versions) {
            Some(SoundBlock::read(cur, versions, place)?)
        } else {
            None
        };
        let ambients = if gates::RESOURCE_AMBIENTS.stored(versions) {
            Some(Run::read_counted(
                cur,
                versions,
                "SceneResource.ambientCnt",
            )?)
        } else {
            None
        };
        Ok(SceneResource {
            key,
            aliases,
            delay,
            paths,
            cues,
            sound,
            ambients,
        })
    }
}

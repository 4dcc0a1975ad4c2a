//! SceneResources: `i32 count`, then per resource a key, aliases, animated paths, cues (v11), a
//! sound block (v12, with its version-dependent unknown fields) and ambients (v17). Unknown fields
//! are kept as values.

use zerocopy::little_endian::I32;

use super::Versions;
use super::cursor::WdataCursor as _;
pub use super::flat_records::{Ambient, Cue, ScenePath, Sound};
use super::gates;
use super::raw::RawSoundTail;
use super::records::{NameList, Record, Run};
use super::wstr::WStr;
use crate::bytes::{Cursor, Place};
use crate::error::Result;

/// The sound block (main version >= 12): the sounds and the unknown fields after them.
#[derive(Debug, Clone, Copy)]
pub struct SoundBlock<'a> {
    /// The sounds.
    pub sounds: Run<'a, Sound<'a>>,
    /// Main version >= 13.
    pub unk1: Option<u32>,
    /// Unknown (the peer's `Unk2`); kept as read.
    pub unk2: u32,
    /// Unknown (the peer's `Unk3`); kept as read.
    pub unk3: f32,
    /// Unknown (the peer's `Unk4`); kept as read.
    pub unk4: u32,
    /// Seven unknown `i32`s (main versions 12 to 14), borrowed.
    pub legacy_ints: Option<&'a [I32; 7]>,
    /// Two unknown strings (main versions 12 and 13).
    pub legacy_strings: Option<[WStr<'a>; 2]>,
}

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

    fn read(cur: &mut Cursor<'a>, versions: Versions, _: Place) -> Result<Self> {
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
            let sounds = Run::read_counted(cur, versions, "SceneResource.soundCnt")?;
            let unk1 = if gates::SOUND_UNK1.stored(versions) {
                Some(cur.u32_le("SceneResource.Unk1")?)
            } else {
                None
            };
            let tail: &RawSoundTail = cur.read("SceneResource.Unk2")?;
            let legacy_ints = if gates::SOUND_LEGACY_INTS.stored(versions) {
                Some(cur.read::<[I32; 7]>("SceneResource.legacyInts")?)
            } else {
                None
            };
            let legacy_strings = if gates::SOUND_LEGACY_STRINGS.stored(versions) {
                Some([
                    cur.wstr("SceneResource.legacyString0")?,
                    cur.wstr("SceneResource.legacyString1")?,
                ])
            } else {
                None
            };
            Some(SoundBlock {
                sounds,
                unk1,
                unk2: tail.unk2.get(),
                unk3: tail.unk3.get(),
                unk4: tail.unk4.get(),
                legacy_ints,
                legacy_strings,
            })
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

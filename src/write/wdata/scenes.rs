//! The Scenes and SceneResources sections (cutscene cameras and their content), gated on the
//! main version.

use super::model::{Bool32, WString};

/// A scene: its first-pass record and, from version 20, its second-pass record (the file stores
/// every scene's first pass, then every scene's second pass).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scene {
    /// The camera file (`.mec`).
    pub file: WString,
    pub fade_in_preview: f32,
    pub fade_hold_preview: f32,
    pub fade_out_preview: f32,
    /// Version >= 15.
    pub timing: Option<SceneTiming>,
    /// Version >= 19.
    pub camera: Option<SceneCamera>,
    /// Version >= 20.
    pub pass2: Option<ScenePass2>,
}

/// A scene's category, fades, blend and fog (version >= 15).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneTiming {
    pub category: u32,
    pub scene_fade_in: f32,
    pub scene_fade_hold: f32,
    pub scene_fade_out: f32,
    pub blend_time: f32,
    pub fog_near: f32,
    pub fog_far: f32,
}

/// A scene's camera (version >= 19).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneCamera {
    pub position: [f32; 3],
    pub rotation: [f32; 3],
    pub fov: f32,
    pub aspect_ratio: f32,
}

/// A scene's second-pass record (version >= 20): ten counts, then the lists in this order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScenePass2 {
    /// Version >= 21.
    pub name: Option<WString>,
    pub scene_ids: Vec<u32>,
    pub event_entries: Vec<EventEntry>,
    pub render_bg: Vec<SceneElement>,
    pub render_ani: Vec<SceneElement>,
    pub render_item: Vec<SceneElement>,
    pub render_gimmick: Vec<SceneElement>,
    pub no_render_bg: Vec<SceneElement>,
    pub no_render_ani: Vec<SceneElement>,
    pub no_render_item: Vec<SceneElement>,
    pub no_render_gimmick: Vec<SceneElement>,
}

/// A scene event (always category + key).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EventEntry {
    pub category: u32,
    pub key: WString,
}

/// An item of a scene's render / no-render lists.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneElement {
    /// Version >= 22.
    pub category: Option<u32>,
    pub key: WString,
}

/// A scene resource: a keyed sequence of animations, cues and sounds.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneResource {
    pub key: WString,
    pub aliases: Vec<WString>,
    /// Stored only when there is at least one path: `Some` exactly when `paths` is not empty.
    pub delay: Option<f32>,
    pub paths: Vec<SceneData>,
    /// Version >= 11.
    pub cues: Option<Vec<Cue>>,
    /// Version >= 12.
    pub sound: Option<SoundBlock>,
    /// Version >= 17.
    pub ambients: Option<Vec<Ambient>>,
}

/// One path (animation segment) of a scene resource.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneData {
    pub model: WString,
    pub motion: WString,
    pub name: WString,
    pub event_name: WString,
    /// `Time` and `Hold`, version >= 10.
    pub time_hold: Option<(u32, u32)>,
    /// Blend into the next path: stored after every path but the last, so `Some` exactly when
    /// this is not the last path.
    pub blend_time: Option<f32>,
}

/// A timed cue of a scene resource (version >= 11).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Cue {
    pub end: f32,
    pub name: WString,
    pub id: u32,
    pub start: f32,
}

/// Everything a scene resource stores from `soundCnt` to the two unknown strings (version >= 12).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SoundBlock {
    pub sounds: Vec<Sound>,
    /// Version >= 13.
    pub unk1: Option<u32>,
    pub unk2: u32,
    pub unk3: f32,
    pub unk4: u32,
    /// Seven unknown `i32`s, version <= 14.
    pub unknown_ints: Option<[i32; 7]>,
    /// Two unknown strings, version <= 13.
    pub unknown_strings: Option<[WString; 2]>,
}

/// A sound of a scene resource.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Sound {
    pub start: f32,
    /// Version >= 16.
    pub fades: Option<SoundFades>,
    pub path: WString,
}

/// A sound's fades and volume range (version >= 16).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SoundFades {
    pub fade_in: f32,
    pub fade_out: f32,
    pub vol_max: f32,
    pub vol_min: f32,
}

/// An ambient sound of a scene resource (version >= 17).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Ambient {
    pub start: f32,
    pub path: WString,
    pub play_on_start: Bool32,
    /// `Loop`.
    pub looping: Bool32,
}

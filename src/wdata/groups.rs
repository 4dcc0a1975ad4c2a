//! The fixed-size groups of plain numbers inside records (a TriggerBox's signpost, a scene's timing
//! and camera, a sound's fades), each stored as one raw struct of `raw.rs`. They borrow nothing,
//! so the reader and the owned model (`write::wdata`) share these types: a group is declared once
//! here, read from its raw struct and written back by filling the same raw struct (the
//! conversions are exhaustive struct literals, so a field added on either side fails to build
//! until both know it). With the `serde` feature they are the model's JSON too.

use zerocopy::little_endian::{F32, I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::raw::{RawSceneCamera, RawSceneTiming, RawSignpost, RawSoundFades};

/// A group of plain numbers stored as one raw struct: the reader borrows the raw struct and
/// converts it, the writer fills it from the value and emits it.
pub(crate) trait FixedGroup: Sized {
    /// The on-disk struct.
    type Raw: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned;
    /// The value of a stored group.
    fn from_raw(raw: &Self::Raw) -> Self;
    /// The stored form of the value.
    #[cfg_attr(not(feature = "write"), allow(dead_code))]
    fn to_raw(&self) -> Self::Raw;
}

/// A TriggerBox's signpost (EventBoxVersion >= 9).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Signpost {
    /// Id of the signpost's text.
    pub text_id: i32,
    /// Where the signpost shows, x, y, z.
    pub reposition: [f32; 3],
}

impl FixedGroup for Signpost {
    type Raw = RawSignpost;
    fn from_raw(r: &RawSignpost) -> Self {
        Signpost {
            text_id: r.text_id.get(),
            reposition: r.reposition.map(F32::get),
        }
    }
    fn to_raw(&self) -> RawSignpost {
        RawSignpost {
            text_id: I32::new(self.text_id),
            reposition: self.reposition.map(F32::new),
        }
    }
}

/// A scene's timing (main version >= 15).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SceneTiming {
    /// Scene category or type flag.
    pub category: u32,
    /// Fade-in time when the scene plays (`SceneFadeIn`).
    #[cfg_attr(feature = "serde", serde(rename = "scene_fade_in"))]
    pub fade_in: f32,
    /// Fade hold time when the scene plays (`SceneFadeHold`).
    #[cfg_attr(feature = "serde", serde(rename = "scene_fade_hold"))]
    pub fade_hold: f32,
    /// Fade-out time when the scene plays (`SceneFadeOut`).
    #[cfg_attr(feature = "serde", serde(rename = "scene_fade_out"))]
    pub fade_out: f32,
    /// Blend time into the scene.
    pub blend_time: f32,
    /// Fog start distance during the scene.
    pub fog_near: f32,
    /// Fog end distance during the scene.
    pub fog_far: f32,
}

impl FixedGroup for SceneTiming {
    type Raw = RawSceneTiming;
    fn from_raw(r: &RawSceneTiming) -> Self {
        SceneTiming {
            category: r.category.get(),
            fade_in: r.fade_in.get(),
            fade_hold: r.fade_hold.get(),
            fade_out: r.fade_out.get(),
            blend_time: r.blend_time.get(),
            fog_near: r.fog_near.get(),
            fog_far: r.fog_far.get(),
        }
    }
    fn to_raw(&self) -> RawSceneTiming {
        RawSceneTiming {
            category: U32::new(self.category),
            fade_in: F32::new(self.fade_in),
            fade_hold: F32::new(self.fade_hold),
            fade_out: F32::new(self.fade_out),
            blend_time: F32::new(self.blend_time),
            fog_near: F32::new(self.fog_near),
            fog_far: F32::new(self.fog_far),
        }
    }
}

/// A scene's camera (main version >= 19).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SceneCamera {
    /// Camera position x, y, z.
    pub position: [f32; 3],
    /// Camera rotation x, y, z.
    pub rotation: [f32; 3],
    /// Field of view.
    pub fov: f32,
    /// Aspect ratio.
    pub aspect_ratio: f32,
}

impl FixedGroup for SceneCamera {
    type Raw = RawSceneCamera;
    fn from_raw(r: &RawSceneCamera) -> Self {
        SceneCamera {
            position: r.position.map(F32::get),
            rotation: r.rotation.map(F32::get),
            fov: r.fov.get(),
            aspect_ratio: r.aspect_ratio.get(),
        }
    }
    fn to_raw(&self) -> RawSceneCamera {
        RawSceneCamera {
            position: self.position.map(F32::new),
            rotation: self.rotation.map(F32::new),
            fov: F32::new(self.fov),
            aspect_ratio: F32::new(self.aspect_ratio),
        }
    }
}

/// A sound's fades and volume range (main version >= 16).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SoundFades {
    /// Fade-in time.
    pub fade_in: f32,
    /// Fade-out time.
    pub fade_out: f32,
    /// Maximum volume.
    pub vol_max: f32,
    /// Minimum volume.
    pub vol_min: f32,
}

impl FixedGroup for SoundFades {
    type Raw = RawSoundFades;
    fn from_raw(r: &RawSoundFades) -> Self {
        SoundFades {
            fade_in: r.fade_in.get(),
            fade_out: r.fade_out.get(),
            vol_max: r.vol_max.get(),
            vol_min: r.vol_min.get(),
        }
    }
    fn to_raw(&self) -> RawSoundFades {
        RawSoundFades {
            fade_in: F32::new(self.fade_in),
            fade_out: F32::new(self.fade_out),
            vol_max: F32::new(self.vol_max),
            vol_min: F32::new(self.vol_min),
        }
    }
}

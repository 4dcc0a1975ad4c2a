//! The fixed-size groups of plain numbers inside records (a TriggerBox's signpost, a scene's timing
//! and camera, a sound's fades), each stored as one raw struct of `raw.rs`. They borrow nothing,
//! so the reader and the owned model (`wdata::model`) share these types: a group is declared once
//! here (its fields named as in its raw struct), read from its raw struct and written back by
//! filling the same raw struct. The conversions are made from the field list, as struct literals
//! of both types, so a field added to one and not the other fails to build. With the `serde`
//! feature they are the model's JSON too.

use zerocopy::little_endian::{F32, I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::raw::{RawSceneCamera, RawSceneTiming, RawSignpost, RawSoundFades, RawTimeHold};

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

/// A stored little-endian number (or array of them) and the value it holds.
trait Stored: Copy {
    type Value;
    fn value(self) -> Self::Value;
    #[cfg_attr(not(feature = "write"), allow(dead_code))]
    fn stored(value: Self::Value) -> Self;
}

macro_rules! stored_numbers {
    ($($le:ident => $n:ident),*) => {$(
        impl Stored for $le {
            type Value = $n;
            fn value(self) -> $n {
                self.get()
            }
            fn stored(value: $n) -> $le {
                $le::new(value)
            }
        }
    )*};
}
stored_numbers!(I32 => i32, U32 => u32, F32 => f32);

impl<T: Stored, const N: usize> Stored for [T; N] {
    type Value = [T::Value; N];
    fn value(self) -> Self::Value {
        self.map(T::value)
    }
    fn stored(value: Self::Value) -> Self {
        value.map(T::stored)
    }
}

/// Each group's value struct and its [`FixedGroup`] conversions, from one field list (names as
/// in the raw struct; `(json "key")` where the model's JSON key differs).
macro_rules! fixed_groups {
    ($(
        $(#[$doc:meta])*
        $name:ident = $raw:ident {
            $(
                $(#[$fdoc:meta])*
                $field:ident: $ty:ty $(= json $key:literal)?,
            )*
        }
    )*) => {$(
        $(#[$doc])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(deny_unknown_fields)
        )]
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct $name {
            $(
                $(#[$fdoc])*
                $(#[cfg_attr(feature = "serde", serde(rename = $key))])?
                pub $field: $ty,
            )*
        }

        impl FixedGroup for $name {
            type Raw = $raw;
            fn from_raw(r: &$raw) -> Self {
                $name { $($field: Stored::value(r.$field),)* }
            }
            fn to_raw(&self) -> $raw {
                $raw { $($field: Stored::stored(self.$field),)* }
            }
        }
    )*};
}

fixed_groups! {
    /// A TriggerBox's signpost (EventBoxVersion >= 9).
    Signpost = RawSignpost {
        /// Id of the signpost's text.
        text_id: i32,
        /// Where the signpost shows, x, y, z.
        reposition: [f32; 3],
    }

    /// A scene's timing (main version >= 15).
    SceneTiming = RawSceneTiming {
        /// Scene category or type flag.
        category: u32,
        /// Fade-in time when the scene plays (`SceneFadeIn`).
        fade_in: f32 = json "scene_fade_in",
        /// Fade hold time when the scene plays (`SceneFadeHold`).
        fade_hold: f32 = json "scene_fade_hold",
        /// Fade-out time when the scene plays (`SceneFadeOut`).
        fade_out: f32 = json "scene_fade_out",
        /// Blend time into the scene.
        blend_time: f32,
        /// Fog start distance during the scene.
        fog_near: f32,
        /// Fog end distance during the scene.
        fog_far: f32,
    }

    /// A scene's camera (main version >= 19).
    SceneCamera = RawSceneCamera {
        /// Camera position x, y, z.
        position: [f32; 3],
        /// Camera rotation x, y, z.
        rotation: [f32; 3],
        /// Field of view.
        fov: f32,
        /// Aspect ratio.
        aspect_ratio: f32,
    }

    /// A scene path's Time and Hold (main version >= 10).
    TimeHold = RawTimeHold {
        /// How long the path plays (`Time`).
        time: u32,
        /// How long its last pose is held (`Hold`).
        hold: u32,
    }

    /// A sound's fades and volume range (main version >= 16).
    SoundFades = RawSoundFades {
        /// Fade-in time.
        fade_in: f32,
        /// Fade-out time.
        fade_out: f32,
        /// Maximum volume.
        vol_max: f32,
        /// Minimum volume.
        vol_min: f32,
    }
}

//! The fixed-size runs between a `.wdata` file's strings, as alignment-1 on-disk structs. Nothing in
//! the file is aligned (strings have odd lengths), so every field is a little-endian byte array.

use zerocopy::little_endian::{F32, I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// A 4-byte bool (`int32 != 0`), the only bool the format has. The stored value is kept: a file may
/// hold something other than 0 or 1.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    FromBytes,
    IntoBytes,
    KnownLayout,
    Immutable,
    Unaligned,
)]
#[repr(transparent)]
pub struct Bool32(pub U32);

impl Bool32 {
    /// `stored != 0`, as the game reads it.
    pub fn get(self) -> bool {
        self.0.get() != 0
    }

    /// The stored 32-bit value.
    pub fn raw(self) -> u32 {
        self.0.get()
    }
}

/// One EventBox index entry: where a type's group starts (absolute) and how many records it has.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawEventBoxIndexEntry {
    /// Absolute file offset of the group's first record (the current position when `count` is 0).
    pub offset: I32,
    /// Number of records of this type.
    pub count: I32,
}

/// An oriented bounding box after its name: position, scale, rotation quaternion (XYZW), half
/// extents.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawObb {
    /// Position x, y, z (`pos`).
    pub position: [F32; 3],
    /// Scale x, y, z.
    pub scale: [F32; 3],
    /// Rotation, a quaternion x, y, z, w.
    pub rotation: [F32; 4],
    /// Half sizes along x, y, z.
    pub extents: [F32; 3],
}

/// A scene's timing block (main version >= 15).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSceneTiming {
    /// Scene category or type flag.
    pub category: U32,
    /// Fade-in time when the scene plays.
    pub fade_in: F32,
    /// Fade hold time when the scene plays.
    pub fade_hold: F32,
    /// Fade-out time when the scene plays.
    pub fade_out: F32,
    /// Blend time into the scene.
    pub blend_time: F32,
    /// Fog start distance during the scene.
    pub fog_near: F32,
    /// Fog end distance during the scene.
    pub fog_far: F32,
}

/// A scene's camera block (main version >= 19).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSceneCamera {
    /// Camera position x, y, z.
    pub position: [F32; 3],
    /// Camera rotation x, y, z.
    pub rotation: [F32; 3],
    /// Field of view.
    pub fov: F32,
    /// Aspect ratio.
    pub aspect_ratio: F32,
}

/// A TriggerBox's signpost (EventBoxVersion >= 9): a text id and where it shows.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSignpost {
    /// Id of the signpost's text (`SignpostTextID`).
    pub text_id: I32,
    /// Where the signpost shows, x, y, z.
    pub reposition: [F32; 3],
}

/// A sound's fades and volume range (main version >= 16).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSoundFades {
    /// Fade-in time.
    pub fade_in: F32,
    /// Fade-out time.
    pub fade_out: F32,
    /// Maximum volume.
    pub vol_max: F32,
    /// Minimum volume.
    pub vol_min: F32,
}

/// A scene path's Time and Hold (main version >= 10).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawTimeHold {
    /// How long the path plays.
    pub time: U32,
    /// How long its last pose is held.
    pub hold: U32,
}

// The sizes the format gives each run.
const _: () = assert!(core::mem::size_of::<Bool32>() == 4);
const _: () = assert!(core::mem::size_of::<RawEventBoxIndexEntry>() == 8);
const _: () = assert!(core::mem::size_of::<RawObb>() == 13 * 4);
const _: () = assert!(core::mem::size_of::<RawSceneTiming>() == 7 * 4);
const _: () = assert!(core::mem::size_of::<RawSceneCamera>() == 8 * 4);
const _: () = assert!(core::mem::size_of::<RawTimeHold>() == 2 * 4);
const _: () = assert!(core::mem::size_of::<RawSignpost>() == 4 * 4);
const _: () = assert!(core::mem::size_of::<RawSoundFades>() == 4 * 4);

/// Converts stored `i32`s.
pub(crate) fn ints<const N: usize>(v: &[I32; N]) -> [i32; N] {
    v.map(|i| i.get())
}

/// Converts stored floats.
pub(crate) fn floats<const N: usize>(v: &[F32; N]) -> [f32; N] {
    v.map(|f| f.get())
}

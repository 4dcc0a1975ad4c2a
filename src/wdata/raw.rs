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
    pub offset: I32,
    pub count: I32,
}

/// An oriented bounding box after its name: position, scale, rotation quaternion (XYZW), half
/// extents.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawObb {
    pub position: [F32; 3],
    pub scale: [F32; 3],
    pub rotation: [F32; 4],
    pub extents: [F32; 3],
}

/// A camera's 21 floats: position, rotation, field of view and 14 frustum parameters.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawCameraParams {
    pub position: [F32; 3],
    pub rotation: [F32; 3],
    pub fov: F32,
    pub frustum: [F32; 14],
}

/// The 11 list counts of a camera info (EventBoxVersion >= 4).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawCameraListCounts {
    pub pvs_bg: U32,
    pub pvs_event_box: U32,
    /// RenderBg, RenderAniBg, RenderItem, RenderGimmick, NoRenderBg, NoRenderAniBg, NoRenderItem,
    /// NoRenderGimmick.
    pub render: [U32; 8],
    pub build_pos: U32,
}

/// The 10 counts that open a scene's second pass (main version >= 20).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSceneDetailCounts {
    pub event_entries: I32,
    pub scene_ids: I32,
    /// The 8 user render lists, in the same order as a camera's.
    pub render: [I32; 8],
}

/// A scene's timing block (main version >= 15).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSceneTiming {
    pub category: U32,
    pub fade_in: F32,
    pub fade_hold: F32,
    pub fade_out: F32,
    pub blend_time: F32,
    pub fog_near: F32,
    pub fog_far: F32,
}

/// A scene's camera block (main version >= 19).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSceneCamera {
    pub position: [F32; 3],
    pub rotation: [F32; 3],
    pub fov: F32,
    pub aspect_ratio: F32,
}

/// The fixed fields after a scene resource's sounds: Unk2, Unk3, Unk4 (main version >= 12).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawSoundTail {
    pub unk2: U32,
    pub unk3: F32,
    pub unk4: U32,
}

// The sizes the format gives each run.
const _: () = assert!(core::mem::size_of::<Bool32>() == 4);
const _: () = assert!(core::mem::size_of::<RawEventBoxIndexEntry>() == 8);
const _: () = assert!(core::mem::size_of::<RawObb>() == 13 * 4);
const _: () = assert!(core::mem::size_of::<RawCameraParams>() == 21 * 4);
const _: () = assert!(core::mem::size_of::<RawCameraListCounts>() == 11 * 4);
const _: () = assert!(core::mem::size_of::<RawSceneDetailCounts>() == 10 * 4);
const _: () = assert!(core::mem::size_of::<RawSceneTiming>() == 7 * 4);
const _: () = assert!(core::mem::size_of::<RawSceneCamera>() == 8 * 4);
const _: () = assert!(core::mem::size_of::<RawSoundTail>() == 3 * 4);

/// Converts a stored float triple.
pub(crate) fn vec3(v: &[F32; 3]) -> [f32; 3] {
    [v[0].get(), v[1].get(), v[2].get()]
}

/// Converts a stored float quadruple.
pub(crate) fn vec4(v: &[F32; 4]) -> [f32; 4] {
    [v[0].get(), v[1].get(), v[2].get(), v[3].get()]
}

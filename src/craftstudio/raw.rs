//! The fixed-size parts of `Project.dat`, as they lie in the file (little-endian, alignment 1).
//! Strings sit between them, so each is read at the offset the previous string ended at.

use zerocopy::little_endian::{F32, U16};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::enums::{ControlSource, ControlType, Key};

/// `format_version`, `project_type`: the first two bytes of the file.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileStart {
    /// 9 in every real file.
    pub format_version: u8,
    /// 0 game, 1 movie ([`ProjectType`](super::ProjectType)).
    pub project_type: u8,
}

/// The header fields between the project name and its description.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ProjectSettings {
    /// Entry id of the scene the game starts with (an entry of type Scene).
    pub startup_scene_id: U16,
    /// 5 in every real file.
    pub script_api_version: U16,
    /// 0 MembershipRequest, 1 InviteOnly, 2 Open ([`MembershipPolicy`](super::MembershipPolicy)).
    pub membership_policy: u8,
    /// 1 Spectator, 2 Member, 3 Moderator, 4 Administrator ([`MemberRole`](super::MemberRole)).
    pub default_member_role: u8,
}

/// The head of the game-control table and of the entry table: the id the next new record would
/// get, and how many records follow.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TableHead {
    /// The id the next new record gets.
    pub next_id: U16,
    /// Number of records that follow (authoritative: real files have trailing bytes after the last
    /// entry).
    pub count: U16,
}

/// A game control after its name: 21 bytes (the seed's offsets assume a 1-byte name).
///
/// The one declaration of a control's fields: the reader borrows it, the owned model
/// (`craftstudio::model::ControlSpec`, with the `write` feature) holds it and the writer emits it
/// as it is. With the `serde` feature it serializes as its fields, the
/// floats as numbers.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct ControlSettings {
    /// 0 axis, 1 button ([`ControlType`]).
    pub control_type: u8,
    /// 0 keyboard, 1 mouse ([`ControlSource`]; a joystick value surely
    /// exists, number unknown).
    pub control_source: u8,
    /// Key of a keyboard control or of an axis' positive direction (a Windows virtual-key code).
    pub positive_key: u8,
    /// Key of an axis' negative direction (a Windows virtual-key code).
    pub negative_key: u8,
    /// Mouse button (0 left, 1 middle, 2 right, 3–4 extra, 5 wheel down, 6 wheel up) or joystick
    /// button.
    pub positive_button: u8,
    /// Button of an axis' negative direction.
    pub negative_button: u8,
    /// Which joystick.
    pub joystick_index: u8,
    /// Which joystick axis.
    pub joystick_axis: u8,
    /// Input below this magnitude counts as 0.
    #[cfg_attr(feature = "serde", serde(with = "f32_le"))]
    pub dead_zone: F32,
    /// How fast an axis moves towards ±1, per second.
    #[cfg_attr(feature = "serde", serde(with = "f32_le"))]
    pub sensitivity: F32,
    /// How fast an axis falls back towards 0, per second.
    #[cfg_attr(feature = "serde", serde(with = "f32_le"))]
    pub gravity: F32,
    /// Non-zero when an axis snaps to 0 when its direction changes.
    pub snap_to_zero: u8,
}

impl ControlSettings {
    /// CraftStudio's settings for a new keyboard button on virtual-key code `key`.
    pub fn key(key: u8) -> Self {
        ControlSettings {
            control_type: ControlType::Button.to_u8(),
            control_source: ControlSource::Keyboard.to_u8(),
            positive_key: key,
            negative_key: 0,
            positive_button: 0,
            negative_button: 0,
            joystick_index: 0,
            joystick_axis: 0,
            dead_zone: F32::new(0.001),
            sensitivity: F32::new(1000.0),
            gravity: F32::new(1000.0),
            snap_to_zero: 1,
        }
    }

    /// Axis or button.
    pub fn control_type(&self) -> ControlType {
        ControlType::from_u8(self.control_type)
    }

    /// Keyboard or mouse.
    pub fn source(&self) -> ControlSource {
        ControlSource::from_u8(self.control_source)
    }

    /// The key of a keyboard control (or of an axis' positive direction).
    pub fn positive_key(&self) -> Key {
        Key(self.positive_key)
    }

    /// The key of an axis' negative direction.
    pub fn negative_key(&self) -> Key {
        Key(self.negative_key)
    }

    /// Input below this magnitude counts as 0.
    pub fn dead_zone(&self) -> f32 {
        self.dead_zone.get()
    }

    /// How fast an axis moves towards ±1, per second.
    pub fn sensitivity(&self) -> f32 {
        self.sensitivity.get()
    }

    /// How fast an axis falls back towards 0, per second.
    pub fn gravity(&self) -> f32 {
        self.gravity.get()
    }

    /// Whether an axis snaps to 0 when its direction changes (any non-zero byte is true, as .NET
    /// reads a boolean).
    pub fn snap_to_zero(&self) -> bool {
        self.snap_to_zero != 0
    }
}

/// The stored little-endian floats as JSON numbers.
#[cfg(feature = "serde")]
mod f32_le {
    use serde::{Deserialize, Deserializer, Serializer};
    use zerocopy::little_endian::F32;

    pub(super) fn serialize<S: Serializer>(value: &F32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f32(value.get())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<F32, D::Error> {
        f32::deserialize(d).map(F32::new)
    }
}

/// A project entry before its name.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EntryHead {
    /// Non-zero for a folder; a folder's record ends after [`EntryFlags`].
    pub is_folder: u8,
    /// The entry's id (`Assets/<Kind>/<id>` for an asset).
    pub id: U16,
    /// 0xFFFF for an entry at the root (the seed's "65536" cannot fit a u16).
    pub parent_id: U16,
}

/// A project entry after its name; a folder ends here.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EntryFlags {
    /// 0 Model, 1 Map, 2 Scene, 3 TileSet, 4 Document, 6 ModelAnimation, 7 Script, 8 Sound, 9 Font
    /// ([`EntryType`](super::EntryType); 5 never seen).
    pub entry_type: u8,
    /// Non-zero when the entry is locked against editing.
    pub locked: u8,
}

/// What an asset entry adds after [`EntryFlags`], before its revisions.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct AssetHead {
    /// Non-zero when the asset is in the trash.
    pub trashed: u8,
    /// The id the asset's next new revision gets.
    pub next_revision_id: U16,
    /// Number of revisions that follow (`u16 id; netstr name` each).
    pub revision_count: U16,
}

/// The parent id of an entry at the root of the tree.
pub const ROOT_PARENT_ID: u16 = 0xFFFF;

/// The only `format_version` seen in real files, and the layout this reader knows.
pub const FORMAT_VERSION: u8 = 9;

const _: () = assert!(core::mem::size_of::<ControlSettings>() == 21);
const _: () = assert!(core::mem::size_of::<EntryHead>() == 5);
const _: () = assert!(core::mem::size_of::<AssetHead>() == 5);

const _: () = assert!(core::mem::size_of::<FileStart>() == 2);
const _: () = assert!(core::mem::size_of::<ProjectSettings>() == 6);
const _: () = assert!(core::mem::size_of::<TableHead>() == 4);
const _: () = assert!(core::mem::size_of::<EntryFlags>() == 2);

//! The fixed-size parts of `Project.dat`, as they lie in the file (little-endian, alignment 1).
//! Strings sit between them, so each is read at the offset the previous string ended at.

use zerocopy::little_endian::{F32, U16};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `format_version`, `project_type`: the first two bytes of the file.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileStart {
    pub format_version: u8,
    pub project_type: u8,
}

/// The header fields between the project name and its description.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ProjectSettings {
    pub startup_scene_id: U16,
    pub script_api_version: U16,
    pub membership_policy: u8,
    pub default_member_role: u8,
}

/// The head of the game-control table and of the entry table: the id the next new record would
/// get, and how many records follow.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TableHead {
    pub next_id: U16,
    pub count: U16,
}

/// A game control after its name: 21 bytes (the seed's offsets assume a 1-byte name).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ControlSettings {
    pub control_type: u8,
    pub control_source: u8,
    pub positive_key: u8,
    pub negative_key: u8,
    pub positive_button: u8,
    pub negative_button: u8,
    pub joystick_index: u8,
    pub joystick_axis: u8,
    pub dead_zone: F32,
    pub sensitivity: F32,
    pub gravity: F32,
    pub snap_to_zero: u8,
}

/// A project entry before its name.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EntryHead {
    pub is_folder: u8,
    pub id: U16,
    /// 0xFFFF for an entry at the root (the seed's "65536" cannot fit a u16).
    pub parent_id: U16,
}

/// A project entry after its name; a folder ends here.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EntryFlags {
    pub entry_type: u8,
    pub locked: u8,
}

/// What an asset entry adds after [`EntryFlags`], before its revisions.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct AssetHead {
    pub trashed: u8,
    pub next_revision_id: U16,
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

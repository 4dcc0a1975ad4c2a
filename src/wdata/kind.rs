//! The kinds of field of the `.wdata` record tables (`flat_records.rs`): for each kind, one
//! implementation of [`FieldKind`] says what the reader borrows, what the owned model holds and
//! how the model copies the reader's value; one of `InPlace` (a field stored in its place: the
//! fewest bytes it takes, how it is read and written) or `Listed` (a counted list, whose count
//! the record stores apart from its items: the fewest bytes an item takes, how the items are
//! read and written). A new kind is those two implementations here and a line in [`read`] (its
//! reader type by name); the tables' grammar (`records!`) handles every kind alike.
//!
//! A table names a kind by the name of its type here (`wstr`, `f32s`, `camera_lists`); the
//! plain numbers are the primitive types themselves, and a fixed group of numbers
//! ([`Signpost`], [`SceneTiming`] …) is its own kind.
// The kinds are named as the tables spell them, after the format's vocabulary (`wstr`, `bool32`)
// and the primitive types they sit beside. Each is an enum without variants: a kind is never a
// value, and (unlike a unit struct) it cannot capture a binding of the same name in code that
// imports it.
#![allow(non_camel_case_types)]

#[cfg(feature = "write")]
use zerocopy::little_endian::I32;
use zerocopy::little_endian::{F32, U32};

pub use super::groups::{SceneCamera, SceneTiming, Signpost, SoundFades, TimeHold};
pub use core::primitive::{f32, i32, u32};

use super::cursor::WdataCursor as _;
use super::groups::FixedGroup;
use super::{
    Ambient, CameraInfo, CameraLists, CameraTargetName, Cue, NameList, PvsEventBoxes, Run,
    ScenePath, Sound, SoundBlock, Versions, WStr, WaypointLinks, gates, raw,
};
use crate::bytes::{Cursor, Place};
use crate::error::Result;
#[cfg(feature = "write")]
use crate::wdata::model::{self, from_view};
#[cfg(feature = "write")]
use crate::wdata::write::{self as writer, encode::Encoder};
#[cfg(feature = "write")]
use crate::write_error::WriteResult;

/// A kind of field of the `.wdata` records: the reader's borrowed value and the owned model's.
///
/// Every field of a record read through the tables has the type `Read` of its kind in the
/// reader's struct (an `Option` of it where the field's version gate may leave it out), and
/// `Model` in the owned model's (feature `write`).
pub trait FieldKind {
    /// What the reader gives: borrowed from the file, or a plain value.
    type Read<'a>;
    /// What the owned model holds.
    #[cfg(feature = "write")]
    type Model;
    /// The model's value of a reader's (a list or run is read again, and may fail).
    #[doc(hidden)]
    #[cfg(feature = "write")]
    fn from_read(value: &Self::Read<'_>) -> Result<Self::Model>;
}

/// The reader's type of each kind, by the kind's name: what a record's field of that kind is in
/// the reader's struct (the same type as the kind's [`FieldKind::Read`]).
///
/// The structs name their fields' types through these aliases, not through `FieldKind::Read`:
/// a type named through a trait makes the struct invariant in its lifetime, and the records,
/// like every borrowed view, are covariant (a record of a longer-lived file passes where a
/// shorter one is asked for). A new kind adds its line here.
pub mod read {
    use super::super::{
        CameraInfo, CameraLists, CameraTargetName, NameList, Obb, PvsEventBoxes, Run, SoundBlock,
        WStr, WaypointLinks, raw,
    };
    use zerocopy::little_endian::{F32, U32};

    /// [`super::Signpost`] (a fixed group is its own type in the reader and the model).
    pub type Signpost<'a> = super::Signpost;
    /// [`super::SoundFades`].
    pub type SoundFades<'a> = super::SoundFades;
    /// [`super::SceneTiming`].
    pub type SceneTiming<'a> = super::SceneTiming;
    /// [`super::SceneCamera`].
    pub type SceneCamera<'a> = super::SceneCamera;
    /// [`super::TimeHold`].
    pub type TimeHold<'a> = super::TimeHold;

    /// [`super::obb`].
    pub type obb<'a> = Obb<'a>;
    /// [`super::i32`].
    pub type i32<'a> = core::primitive::i32;
    /// [`super::u32`].
    pub type u32<'a> = core::primitive::u32;
    /// [`super::f32`].
    pub type f32<'a> = core::primitive::f32;
    /// [`super::bool32`].
    pub type bool32<'a> = raw::Bool32;
    /// [`super::bool32x5`].
    pub type bool32x5<'a> = [raw::Bool32; 5];
    /// [`super::wstr`].
    pub type wstr<'a> = WStr<'a>;
    /// [`super::wstrx2`].
    pub type wstrx2<'a> = [WStr<'a>; 2];
    /// [`super::vec3`].
    pub type vec3<'a> = [core::primitive::f32; 3];
    /// [`super::f32x14`].
    pub type f32x14<'a> = [core::primitive::f32; 14];
    /// [`super::i32x7`].
    pub type i32x7<'a> = [core::primitive::i32; 7];
    /// [`super::target_name`].
    pub type target_name<'a> = CameraTargetName<'a>;
    /// [`super::sounds`].
    pub type sounds<'a> = Run<'a, super::super::Sound<'a>>;
    /// [`super::cues`].
    pub type cues<'a> = Run<'a, super::super::Cue<'a>>;
    /// [`super::ambients`].
    pub type ambients<'a> = Run<'a, super::super::Ambient<'a>>;
    /// [`super::scene_paths`].
    pub type scene_paths<'a> = Run<'a, super::super::ScenePath<'a>>;
    /// [`super::sound_block`].
    pub type sound_block<'a> = SoundBlock<'a>;
    /// [`super::camera_lists`].
    pub type camera_lists<'a> = CameraLists<'a>;
    /// [`super::camera_infos`].
    pub type camera_infos<'a> = Run<'a, CameraInfo<'a>>;
    /// [`super::f32s`].
    pub type f32s<'a> = &'a [F32];
    /// [`super::u32s`].
    pub type u32s<'a> = &'a [U32];
    /// [`super::vec3s`].
    pub type vec3s<'a> = &'a [[F32; 3]];
    /// [`super::names`].
    pub type names<'a> = NameList<'a>;
    /// [`super::render_entries`].
    pub type render_entries<'a> = NameList<'a>;
    /// [`super::scene_elements`].
    pub type scene_elements<'a> = NameList<'a>;
    /// [`super::event_entries`].
    pub type event_entries<'a> = NameList<'a>;
    /// [`super::pvs_event_boxes`].
    pub type pvs_event_boxes<'a> = PvsEventBoxes<'a>;
    /// [`super::waypoint_links`].
    pub type waypoint_links<'a> = WaypointLinks<'a>;
}

/// Where a field is read or written: its names in errors (its own, `CameraBox.Name`, and for a
/// box its placement's, `CameraBox.Obb`), the file's versions and the place of its record in the
/// record's run (what a field's layout may depend on).
#[derive(Clone, Copy)]
pub(crate) struct FieldAt {
    pub(crate) field: &'static str,
    pub(crate) placement: &'static str,
    pub(crate) versions: Versions,
    pub(crate) place: Place,
}

impl FieldAt {
    /// A field being written: the writer names a box's fields by the box's own name.
    #[cfg(feature = "write")]
    pub(crate) const fn written(field: &'static str, versions: Versions, place: Place) -> FieldAt {
        FieldAt {
            field,
            placement: field,
            versions,
            place,
        }
    }
}

/// A field stored in its place (not a counted list).
pub(crate) trait InPlace: FieldKind {
    /// The fewest bytes the field takes (a string its count alone, a run its count).
    const MIN_SIZE: usize;
    /// Reads the field at the cursor, in a record at `place` of its run.
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<Self::Read<'a>>;
    /// Writes the model's value, in a record at `place` of its run.
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &Self::Model, at: FieldAt) -> WriteResult<()>;
}

/// A counted list: the record stores its count among its other counts, and its items after
/// every count.
pub(crate) trait Listed: FieldKind {
    /// The fewest bytes an item takes (a stored count is bounded by them).
    const ITEM_SIZE: usize;
    /// Reads (checks) the `count` items at the cursor.
    fn read_items<'a>(cur: &mut Cursor<'a>, count: u32, at: FieldAt) -> Result<Self::Read<'a>>;
    /// How many items the model's list has.
    #[cfg(feature = "write")]
    fn len(value: &Self::Model) -> usize;
    /// Refuses a list the versions cannot store (before its count is written).
    #[cfg(feature = "write")]
    fn check(_value: &Self::Model, _at: FieldAt) -> WriteResult<()> {
        Ok(())
    }
    /// Writes the items, once every count of the record is written.
    #[cfg(feature = "write")]
    fn write_items(s: &mut Encoder, value: &Self::Model, at: FieldAt) -> WriteResult<()>;
}

/// The box every EventBox, AniBG, ItemBox and Gimmick starts with: its name, placement and half
/// sizes ([`Obb`](super::Obb); the model's `model::Obb`).
#[derive(Debug)]
pub enum obb {}

impl FieldKind for obb {
    type Read<'a> = super::Obb<'a>;
    #[cfg(feature = "write")]
    type Model = model::Obb;
    #[cfg(feature = "write")]
    fn from_read(value: &Self::Read<'_>) -> Result<Self::Model> {
        Ok(from_view::obb(value))
    }
}

impl InPlace for obb {
    const MIN_SIZE: usize = super::OBB_MIN_SIZE;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<Self::Read<'a>> {
        super::Obb::read(cur, at.field, at.placement)
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &Self::Model, at: FieldAt) -> WriteResult<()> {
        value.write(s, at.field)
    }
}

/// A plain number is its own kind, the same value in the reader and the model.
macro_rules! number_kinds {
    ($($n:ident => $read:ident, $write:ident;)*) => {$(
        impl FieldKind for $n {
            type Read<'a> = $n;
            #[cfg(feature = "write")]
            type Model = $n;
            #[cfg(feature = "write")]
            fn from_read(value: &$n) -> Result<$n> {
                Ok(*value)
            }
        }

        impl InPlace for $n {
            const MIN_SIZE: usize = 4;
            #[inline(always)]
            fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<$n> {
                cur.$read(at.field)
            }
            #[cfg(feature = "write")]
            fn write(s: &mut Encoder, value: &$n, _: FieldAt) -> WriteResult<()> {
                s.$write(*value);
                Ok(())
            }
        }
    )*};
}
number_kinds! {
    i32 => i32_le, i32;
    u32 => u32_le, u32;
    f32 => f32_le, f32;
}

/// A bool stored as 4 bytes ([`Bool32`](super::Bool32); the model's `model::Bool32`).
#[derive(Debug)]
pub enum bool32 {}

impl FieldKind for bool32 {
    type Read<'a> = raw::Bool32;
    #[cfg(feature = "write")]
    type Model = model::Bool32;
    #[cfg(feature = "write")]
    fn from_read(value: &raw::Bool32) -> Result<model::Bool32> {
        Ok(from_view::b32(*value))
    }
}

impl InPlace for bool32 {
    const MIN_SIZE: usize = 4;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<raw::Bool32> {
        cur.bool32(at.field)
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &model::Bool32, _: FieldAt) -> WriteResult<()> {
        s.bool32(*value);
        Ok(())
    }
}

/// Five 4-byte bools (a RespawnBox's difficulty flags).
#[derive(Debug)]
pub enum bool32x5 {}

impl FieldKind for bool32x5 {
    type Read<'a> = [raw::Bool32; 5];
    #[cfg(feature = "write")]
    type Model = [model::Bool32; 5];
    #[cfg(feature = "write")]
    fn from_read(value: &[raw::Bool32; 5]) -> Result<[model::Bool32; 5]> {
        Ok(value.map(from_view::b32))
    }
}

impl InPlace for bool32x5 {
    const MIN_SIZE: usize = 20;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<[raw::Bool32; 5]> {
        Ok(*cur.read::<[raw::Bool32; 5]>(at.field)?)
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &[model::Bool32; 5], _: FieldAt) -> WriteResult<()> {
        value.iter().for_each(|&flag| s.bool32(flag));
        Ok(())
    }
}

/// A UTF-16 string: a `u16` code-unit count, then the code units ([`WStr`]; the model's
/// `model::WString`).
#[derive(Debug)]
pub enum wstr {}

impl FieldKind for wstr {
    type Read<'a> = WStr<'a>;
    #[cfg(feature = "write")]
    type Model = model::WString;
    #[cfg(feature = "write")]
    fn from_read(value: &WStr<'_>) -> Result<model::WString> {
        Ok(from_view::ws(*value))
    }
}

impl InPlace for wstr {
    const MIN_SIZE: usize = 2;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<WStr<'a>> {
        cur.wstr(at.field)
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &model::WString, at: FieldAt) -> WriteResult<()> {
        s.wstr(value, at.field)
    }
}

/// Two UTF-16 strings (a scene resource's unknown strings).
#[derive(Debug)]
pub enum wstrx2 {}

impl FieldKind for wstrx2 {
    type Read<'a> = [WStr<'a>; 2];
    #[cfg(feature = "write")]
    type Model = [model::WString; 2];
    #[cfg(feature = "write")]
    fn from_read(value: &[WStr<'_>; 2]) -> Result<[model::WString; 2]> {
        Ok(value.map(from_view::ws))
    }
}

impl InPlace for wstrx2 {
    // Two strings' counts.
    const MIN_SIZE: usize = 4;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<[WStr<'a>; 2]> {
        Ok([cur.wstr(at.field)?, cur.wstr(at.field)?])
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &[model::WString; 2], at: FieldAt) -> WriteResult<()> {
        s.wstrs(value, at.field)
    }
}

/// A fixed array of plain numbers, the same values in the reader and the model.
macro_rules! number_array_kinds {
    ($($(#[$doc:meta])* $kind:ident = [$n:ident; $len:literal] stored $le:ident by $convert:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $kind {}

        impl FieldKind for $kind {
            type Read<'a> = [$n; $len];
            #[cfg(feature = "write")]
            type Model = [$n; $len];
            #[cfg(feature = "write")]
            fn from_read(value: &[$n; $len]) -> Result<[$n; $len]> {
                Ok(*value)
            }
        }

        impl InPlace for $kind {
            const MIN_SIZE: usize = 4 * $len;
            #[inline(always)]
            fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<[$n; $len]> {
                Ok(raw::$convert(cur.read(at.field)?))
            }
            #[cfg(feature = "write")]
            fn write(s: &mut Encoder, value: &[$n; $len], _: FieldAt) -> WriteResult<()> {
                s.out.put(&value.map($le::new));
                Ok(())
            }
        }
    )*};
}
number_array_kinds! {
    /// Three `f32`s: a position, a rotation, a velocity.
    vec3 = [f32; 3] stored F32 by floats;
    /// Fourteen `f32`s (a camera's frustum).
    f32x14 = [f32; 14] stored F32 by floats;
    /// Seven `i32`s (a scene resource's unknown numbers).
    i32x7 = [i32; 7] stored I32 by ints;
}

/// A CameraTargetBox's target: a name below EventBox version 8, a text id from 8
/// ([`CameraTargetName`]; the model's `model::CameraTargetName`).
#[derive(Debug)]
pub enum target_name {}

impl FieldKind for target_name {
    type Read<'a> = CameraTargetName<'a>;
    #[cfg(feature = "write")]
    type Model = model::CameraTargetName;
    #[cfg(feature = "write")]
    fn from_read(value: &CameraTargetName<'_>) -> Result<model::CameraTargetName> {
        Ok(model::CameraTargetName::from_read(*value))
    }
}

impl InPlace for target_name {
    // A name (its count alone) or a text id.
    const MIN_SIZE: usize = 2;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<CameraTargetName<'a>> {
        CameraTargetName::read(cur, at.versions)
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &model::CameraTargetName, at: FieldAt) -> WriteResult<()> {
        value.write(s, at.versions)
    }
}

/// A run of records: an `i32` count (named by the field's format name), then the records in
/// place ([`Run`]; the model's `Vec`).
macro_rules! run_kinds {
    ($($(#[$doc:meta])* $kind:ident = $record:ident, model $model:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $kind {}

        impl FieldKind for $kind {
            type Read<'a> = Run<'a, $record<'a>>;
            #[cfg(feature = "write")]
            type Model = Vec<model::$model>;
            #[cfg(feature = "write")]
            fn from_read(value: &Self::Read<'_>) -> Result<Vec<model::$model>> {
                from_view::copied(*value, model::$model::from_read)
            }
        }

        impl InPlace for $kind {
            // The count.
            const MIN_SIZE: usize = 4;
            #[inline(always)]
            fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<Run<'a, $record<'a>>> {
                // Stepped over by their lengths; read in full only to report what is wrong.
                Run::read_counted_stepped(cur, at.versions, at.field)
            }
            #[cfg(feature = "write")]
            fn write(s: &mut Encoder, value: &Vec<model::$model>, at: FieldAt) -> WriteResult<()> {
                s.count_i32(value.len(), at.field)?;
                writer::write_records(s, value, at.versions)
            }
        }
    )*};
}
run_kinds! {
    /// A scene resource's sounds.
    sounds = Sound, model Sound;
    /// A scene resource's cues.
    cues = Cue, model Cue;
    /// A scene resource's ambient sounds.
    ambients = Ambient, model Ambient;
    /// A scene resource's paths (the model's `model::SceneData`).
    scene_paths = ScenePath, model SceneData;
}

/// A record of its own, in place, whose layout depends on the versions and on the place of the
/// record that holds it ([`SoundBlock`], [`CameraLists`]; the model's of the same names).
macro_rules! nested_record_kinds {
    ($($(#[$doc:meta])* $kind:ident = $record:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $kind {}

        impl FieldKind for $kind {
            type Read<'a> = $record<'a>;
            #[cfg(feature = "write")]
            type Model = model::$record;
            #[cfg(feature = "write")]
            fn from_read(value: &$record<'_>) -> Result<model::$record> {
                model::$record::from_read(value)
            }
        }

        impl InPlace for $kind {
            const MIN_SIZE: usize = <$record<'_> as super::Record<'_>>::MIN_SIZE;
            #[inline(always)]
            fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<$record<'a>> {
                $record::read(cur, at.versions, at.place)
            }
            #[cfg(feature = "write")]
            fn write(s: &mut Encoder, value: &model::$record, at: FieldAt) -> WriteResult<()> {
                writer::Record::write(value, s, at.versions, at.place)
            }
        }
    )*};
}
nested_record_kinds! {
    /// A scene resource's sound block.
    sound_block = SoundBlock;
    /// A camera info's lists.
    camera_lists = CameraLists;
}

/// A CameraBox's four camera infos: a run of four, checked when read, typed when iterated
/// (the model's array of four).
#[derive(Debug)]
pub enum camera_infos {}

impl FieldKind for camera_infos {
    type Read<'a> = Run<'a, CameraInfo<'a>>;
    #[cfg(feature = "write")]
    type Model = [model::CameraInfo; 4];
    #[cfg(feature = "write")]
    fn from_read(value: &Self::Read<'_>) -> Result<[model::CameraInfo; 4]> {
        from_view::camera_infos(*value)
    }
}

impl InPlace for camera_infos {
    const MIN_SIZE: usize = 4 * <CameraInfo<'_> as super::Record<'_>>::MIN_SIZE;
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<Run<'a, CameraInfo<'a>>> {
        let bytes = cur.bytes();
        // Stepped over by their lengths and counts; read in full only to report what is wrong.
        match super::camera_box::camera_infos_end(bytes.as_slice(), cur.offset(), at.versions) {
            Some(end) => {
                let infos = Run::stepped(*cur, 4, at.versions);
                *cur = Cursor::new(bytes, end);
                Ok(infos)
            }
            None => Run::read(cur, 4, at.versions),
        }
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &[model::CameraInfo; 4], at: FieldAt) -> WriteResult<()> {
        // Each knowing whether it is the first (the first stores its target in every version).
        for (index, info) in (0u32..).zip(value) {
            writer::Record::write(
                info,
                s,
                at.versions,
                Place {
                    index,
                    last: index == 3,
                },
            )?;
        }
        Ok(())
    }
}

/// A fixed group of plain numbers is its own kind: one raw struct, a type the reader and the
/// model share.
impl<G: FixedGroup + Copy> FieldKind for G {
    type Read<'a> = G;
    #[cfg(feature = "write")]
    type Model = G;
    #[cfg(feature = "write")]
    fn from_read(value: &G) -> Result<G> {
        Ok(*value)
    }
}

impl<G: FixedGroup + Copy> InPlace for G
where
    G::Raw: 'static,
{
    const MIN_SIZE: usize = core::mem::size_of::<G::Raw>();
    #[inline(always)]
    fn read<'a>(cur: &mut Cursor<'a>, at: FieldAt) -> Result<G> {
        Ok(G::from_raw(cur.read(at.field)?))
    }
    #[cfg(feature = "write")]
    fn write(s: &mut Encoder, value: &G, _: FieldAt) -> WriteResult<()> {
        s.out.put(&value.to_raw());
        Ok(())
    }
}

/// A list of little-endian numbers, borrowed in place (the model's `Vec`).
macro_rules! number_list_kinds {
    ($($(#[$doc:meta])* $kind:ident = [$item:ty] of $value:ty, $size:literal bytes;)*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $kind {}

        impl FieldKind for $kind {
            type Read<'a> = &'a [$item];
            #[cfg(feature = "write")]
            type Model = Vec<$value>;
            #[cfg(feature = "write")]
            fn from_read(value: &&[$item]) -> Result<Vec<$value>> {
                Ok(value.iter().map(<$value as Number<$item>>::value).collect())
            }
        }

        impl Listed for $kind {
            const ITEM_SIZE: usize = $size;
            #[inline(always)]
            fn read_items<'a>(cur: &mut Cursor<'a>, count: u32, at: FieldAt) -> Result<&'a [$item]> {
                cur.read_slice(count as usize, at.field)
            }
            #[cfg(feature = "write")]
            fn len(value: &Vec<$value>) -> usize {
                value.len()
            }
            #[cfg(feature = "write")]
            fn write_items(s: &mut Encoder, value: &Vec<$value>, _: FieldAt) -> WriteResult<()> {
                value.iter().for_each(|x| {
                    s.out.put(&<$value as Number<$item>>::stored(x));
                });
                Ok(())
            }
        }
    )*};
}
number_list_kinds! {
    /// `f32`s.
    f32s = [F32] of f32, 4 bytes;
    /// `u32`s.
    u32s = [U32] of u32, 4 bytes;
    /// Points: three `f32`s each.
    vec3s = [[F32; 3]] of [f32; 3], 12 bytes;
}

/// A value and its stored little-endian form (the model's item of a list of numbers).
#[cfg(feature = "write")]
trait Number<Stored> {
    fn value(stored: &Stored) -> Self;
    fn stored(&self) -> Stored;
}

#[cfg(feature = "write")]
impl Number<F32> for f32 {
    fn value(stored: &F32) -> f32 {
        stored.get()
    }
    fn stored(&self) -> F32 {
        F32::new(*self)
    }
}

#[cfg(feature = "write")]
impl Number<U32> for u32 {
    fn value(stored: &U32) -> u32 {
        stored.get()
    }
    fn stored(&self) -> U32 {
        U32::new(*self)
    }
}

#[cfg(feature = "write")]
impl Number<[F32; 3]> for [f32; 3] {
    fn value(stored: &[F32; 3]) -> [f32; 3] {
        raw::floats(stored)
    }
    fn stored(&self) -> [F32; 3] {
        self.map(F32::new)
    }
}

/// A list of names, each with a `u32` before it when the list is keyed ([`NameList`]; the
/// model's `Vec` of items, each written by `write`).
macro_rules! name_list_kinds {
    ($(
        $(#[$doc:meta])*
        $kind:ident = [$item:ident] by $from:ident, keyed $keyed:expr, $size:literal bytes,
        write $write:expr;
    )*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $kind {}

        impl FieldKind for $kind {
            type Read<'a> = NameList<'a>;
            #[cfg(feature = "write")]
            type Model = Vec<model::$item>;
            #[cfg(feature = "write")]
            fn from_read(value: &NameList<'_>) -> Result<Vec<model::$item>> {
                from_view::$from(*value)
            }
        }

        impl Listed for $kind {
            const ITEM_SIZE: usize = $size;
            #[inline(always)]
            fn read_items<'a>(cur: &mut Cursor<'a>, count: u32, at: FieldAt) -> Result<NameList<'a>> {
                let keyed: fn(Versions) -> bool = $keyed;
                NameList::read(cur, count, keyed(at.versions), at.field)
            }
            #[cfg(feature = "write")]
            fn len(value: &Vec<model::$item>) -> usize {
                value.len()
            }
            #[cfg(feature = "write")]
            fn write_items(s: &mut Encoder, value: &Vec<model::$item>, at: FieldAt) -> WriteResult<()> {
                let write: fn(&mut Encoder, &model::$item, &'static str, Versions) -> WriteResult<()> =
                    $write;
                value.iter().try_for_each(|item| write(s, item, at.field, at.versions))
            }
        }
    )*};
}
name_list_kinds! {
    /// UTF-16 names (a trigger's events, conditions and actions; a scene resource's aliases).
    names = [WString] by names, keyed |_| false, 2 bytes,
        write |s, name, what, _| s.wstr(name, what);
    /// A camera's render list: items carry an id from main version 22 (the items, 2 bytes and
    /// more, are checked as they are read).
    render_entries = [RenderEntry] by render_entries,
        keyed |versions| gates::RENDER_ITEM_KEY.stored(versions), 2 bytes,
        write |s, entry, _, versions| entry.write(s, versions);
    /// A scene's render list: items carry a category from main version 22.
    scene_elements = [SceneElement] by scene_elements,
        keyed |versions| gates::RENDER_ITEM_KEY.stored(versions), 2 bytes,
        write |s, element, _, versions| element.write(s, versions);
    /// A scene's event entries: each a `u32` category and a key.
    event_entries = [EventEntry] by event_entries, keyed |_| true, 6 bytes,
        write |s, entry, what, _| {
            s.u32(entry.category);
            s.wstr(&entry.key, what)
        };
}

/// A camera's PVS EventBoxes: ids below EventBox version 6, keyed names from 6
/// ([`PvsEventBoxes`]; the model's `model::PvsEventBoxes`).
#[derive(Debug)]
pub enum pvs_event_boxes {}

impl FieldKind for pvs_event_boxes {
    type Read<'a> = PvsEventBoxes<'a>;
    #[cfg(feature = "write")]
    type Model = model::PvsEventBoxes;
    #[cfg(feature = "write")]
    fn from_read(value: &PvsEventBoxes<'_>) -> Result<model::PvsEventBoxes> {
        from_view::pvs_event_boxes(*value)
    }
}

impl Listed for pvs_event_boxes {
    // Ids below EventBoxVersion 6 (entries, 6 bytes and more, are checked as they are read).
    const ITEM_SIZE: usize = 4;
    #[inline(always)]
    fn read_items<'a>(cur: &mut Cursor<'a>, count: u32, at: FieldAt) -> Result<PvsEventBoxes<'a>> {
        PvsEventBoxes::read(cur, at.versions, count, at.field)
    }
    #[cfg(feature = "write")]
    fn len(value: &model::PvsEventBoxes) -> usize {
        value.len()
    }
    #[cfg(feature = "write")]
    fn check(value: &model::PvsEventBoxes, at: FieldAt) -> WriteResult<()> {
        value.check(at.versions, at.field)
    }
    #[cfg(feature = "write")]
    fn write_items(s: &mut Encoder, value: &model::PvsEventBoxes, at: FieldAt) -> WriteResult<()> {
        value.write_items(s, at.field)
    }
}

/// A WaypointBox's links: the ids, then the distances ([`WaypointLinks`]; the model's `Vec` of
/// `model::WaypointLink`).
#[derive(Debug)]
pub enum waypoint_links {}

impl FieldKind for waypoint_links {
    type Read<'a> = WaypointLinks<'a>;
    #[cfg(feature = "write")]
    type Model = Vec<model::WaypointLink>;
    #[cfg(feature = "write")]
    fn from_read(value: &WaypointLinks<'_>) -> Result<Vec<model::WaypointLink>> {
        Ok(value
            .iter()
            .map(|(id, distance)| model::WaypointLink { id, distance })
            .collect())
    }
}

impl Listed for waypoint_links {
    // An id and a distance.
    const ITEM_SIZE: usize = 8;
    #[inline(always)]
    fn read_items<'a>(cur: &mut Cursor<'a>, count: u32, at: FieldAt) -> Result<WaypointLinks<'a>> {
        WaypointLinks::read(cur, count, at.field)
    }
    #[cfg(feature = "write")]
    fn len(value: &Vec<model::WaypointLink>) -> usize {
        value.len()
    }
    #[cfg(feature = "write")]
    fn write_items(
        s: &mut Encoder,
        value: &Vec<model::WaypointLink>,
        _: FieldAt,
    ) -> WriteResult<()> {
        value.iter().for_each(|l| s.i32(l.id));
        value.iter().for_each(|l| s.f32(l.distance));
        Ok(())
    }
}

//! The owned model of the flat EventBox records, their writers and their conversion from the
//! reader's records: all made from the one table, `wdata::flat_records::flat_event_boxes!`, which
//! the reader expands too (so a field added there is read, held, written and copied).

use super::encode::Sink;
use super::event_boxes::{Gates, Record};
use super::model::{Bool32, Obb, WString};
use crate::error::Result;
use crate::wdata::flat_records::flat_event_boxes;
use crate::write::wdata_from_view::{b32, obb, ws};

/// The model's type for a field kind.
macro_rules! model_type {
    (i32) => {
        i32
    };
    (f32) => {
        f32
    };
    (bool32) => {
        Bool32
    };
    (wstr) => {
        WString
    };
    (vec3) => {
        [f32; 3]
    };
    (bool32x5) => {
        [Bool32; 5]
    };
}

/// Writes a field of kind `$kind` named `$what`.
macro_rules! write_field {
    ($s:ident, i32, $v:expr, $what:expr) => {
        $s.i32($v)
    };
    ($s:ident, f32, $v:expr, $what:expr) => {
        $s.f32($v)
    };
    ($s:ident, bool32, $v:expr, $what:expr) => {
        $s.bool32($v)
    };
    ($s:ident, wstr, $v:expr, $what:expr) => {
        $s.wstr(&$v, $what)?
    };
    ($s:ident, vec3, $v:expr, $what:expr) => {
        $s.f32s(&$v)
    };
    ($s:ident, bool32x5, $v:expr, $what:expr) => {
        for d in $v {
            $s.bool32(d);
        }
    };
}

/// The model's value of a reader's field.
macro_rules! from_read {
    (i32, $v:expr) => {
        $v
    };
    (f32, $v:expr) => {
        $v
    };
    (bool32, $v:expr) => {
        b32($v)
    };
    (wstr, $v:expr) => {
        ws($v)
    };
    (vec3, $v:expr) => {
        $v
    };
    (bool32x5, $v:expr) => {
        $v.map(b32)
    };
}

/// The owned struct, its writer and its conversion for each record of the table.
macro_rules! model_records {
    ($(
        $(#[$doc:meta])*
        $name:ident = $label:literal {
            $( $(#[$fdoc:meta])* $field:ident : $kind:ident = $fname:literal, )*
        }
    )*) => {$(
        $(#[$doc])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(deny_unknown_fields)
        )]
        #[derive(Clone, Debug, PartialEq, Default)]
        pub struct $name {
            /// The box: name, placement and half sizes.
            pub obb: Obb,
            $( $(#[$fdoc])* pub $field: model_type!($kind), )*
        }

        impl Record for $name {
            const WHAT: &'static str = concat!("EventBoxes.", $label, ".count");
            fn write(&self, s: &mut Sink, _: Gates) -> Result<()> {
                self.obb.write(s, concat!($label, ".Name"))?;
                $( write_field!(s, $kind, self.$field, concat!($label, ".", $fname)); )*
                Ok(())
            }
        }

        impl $name {
            /// Copies the reader's record.
            pub(crate) fn from_read(r: &crate::wdata::$name<'_>) -> $name {
                $name {
                    obb: obb(&r.obb),
                    $( $field: from_read!($kind, r.$field), )*
                }
            }
        }
    )*};
}

flat_event_boxes!(model_records);

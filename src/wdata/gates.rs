//! The version gates of the sections and records that are not in the record tables (those carry
//! their gates in the table), and of the kinds of field the tables use. The reader and the writer both ask these, so a gate is written down
//! once: which version it looks at, and from (or up to) which value the field is stored.

use super::Versions;

/// The version a gate looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Of {
    /// The main `Version`.
    Main,
    /// `EventBoxVersion`.
    EventBox,
}

/// A version gate: a field is stored when the version the gate looks at lies in `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gate {
    of: Of,
    min: i32,
    max: i32,
}

impl Gate {
    /// Stored from main version `min` on.
    const fn main(min: i32) -> Gate {
        Gate {
            of: Of::Main,
            min,
            max: i32::MAX,
        }
    }

    /// Stored from EventBoxVersion `min` on.
    const fn event_box(min: i32) -> Gate {
        Gate {
            of: Of::EventBox,
            min,
            max: i32::MAX,
        }
    }

    /// The value of the version the gate looks at.
    pub(crate) fn version(self, v: Versions) -> i32 {
        match self.of {
            Of::Main => v.main,
            Of::EventBox => v.event_box,
        }
    }

    /// Whether the field is stored at these versions. In line: the typed walk asks it for every
    /// gated field of every record.
    #[inline]
    pub(crate) fn stored(self, v: Versions) -> bool {
        (self.min..=self.max).contains(&self.version(v))
    }

    /// Whether the field is stored at these versions, with the version that decides it.
    #[cfg(feature = "write")]
    pub(crate) fn decide(self, v: Versions) -> Decision {
        Decision {
            stored: self.stored(v),
            version: self.version(v),
        }
    }
}

/// A gate decided: whether a version stores a field, and that version (what the writer's error
/// gives as its value when the model disagrees).
#[cfg(feature = "write")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decision {
    pub(crate) stored: bool,
    pub(crate) version: i32,
}

/// Header.NavHeightPath and ObstaclePath.
pub(crate) const NAV_HEIGHT_AND_OBSTACLE_PATHS: Gate = Gate::main(2);
/// The EventBoxes section.
pub(crate) const EVENT_BOXES: Gate = Gate::main(7);
/// The script-paths trigger layout (the seed's; the trigger list exists in every version).
pub(crate) const SCRIPT_PATHS: Gate = Gate::main(9);

/// The PVS event boxes as `(category, name)` entries (ids below).
pub(crate) const CAMERA_PVS_ENTRIES: Gate = Gate::event_box(6);
/// The id (camera) or category (scene) before each item of a render list.
pub(crate) const RENDER_ITEM_KEY: Gate = Gate::main(22);

/// The scenes' second pass.
pub(crate) const SCENE_PASS2: Gate = Gate::main(20);

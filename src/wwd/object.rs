//! Objects: a 284-byte fixed part followed by four counted strings (name, logic, image set,
//! animation) without terminators, so records are variable-sized and unaligned.

use super::raw::{OBJECT_FIXED_SIZE, Object as RawObject};
use crate::bytes::{Cursor, Located, Place, Record, Records};
use crate::error::Result;

/// One object, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct Object<'a> {
    /// The fixed part and its offset in the image.
    raw: Located<'a, RawObject>,
    name: &'a [u8],
    logic: &'a [u8],
    image_set: &'a [u8],
    animation: &'a [u8],
}

impl<'a> Object<'a> {
    /// Absolute offset in the image `header ‖ main block`.
    pub const fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// Every stored field of the fixed part.
    pub const fn raw(&self) -> &'a RawObject {
        self.raw.get()
    }
    /// The object's id (`id`).
    pub fn id(&self) -> i32 {
        self.raw.id.get()
    }
    /// `(x, y)` in plane pixels.
    pub fn location(&self) -> (i32, i32) {
        (self.raw.location_x.get(), self.raw.location_y.get())
    }
    /// The name string's bytes (8-bit code-page text).
    pub const fn name(&self) -> &'a [u8] {
        self.name
    }
    /// The logic string (what the object does, e.g. `"TowerCannonLeft"`).
    pub const fn logic(&self) -> &'a [u8] {
        self.logic
    }
    /// The image-set string (which graphics the object draws with).
    pub const fn image_set(&self) -> &'a [u8] {
        self.image_set
    }
    /// The animation string.
    pub const fn animation(&self) -> &'a [u8] {
        self.animation
    }
    /// Bytes the record occupies (fixed part and strings).
    pub const fn size(&self) -> usize {
        OBJECT_FIXED_SIZE
            + self.name.len()
            + self.logic.len()
            + self.image_set.len()
            + self.animation.len()
    }
}

/// The objects of a plane, read one after another (see [`Records`]). Each consumes at least its
/// 284-byte fixed part, so the walk is bounded by the image; it stops after the first error.
pub type Objects<'a> = Records<'a, Object<'a>>;

impl<'a> Record<'a> for Object<'a> {
    type Context = ();
    const MIN_SIZE: usize = OBJECT_FIXED_SIZE;

    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        let raw: Located<'a, RawObject> = cur.located("Object")?;
        let name = cur.take(raw.size_name.get() as usize, "Object.name")?;
        let logic = cur.take(raw.size_logic.get() as usize, "Object.logic")?;
        let image_set = cur.take(raw.size_image_set.get() as usize, "Object.image_set")?;
        let animation = cur.take(raw.size_animation.get() as usize, "Object.animation")?;
        Ok(Object {
            raw,
            name,
            logic,
            image_set,
            animation,
        })
    }
}

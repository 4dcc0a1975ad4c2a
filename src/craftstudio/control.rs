//! Game controls: named inputs (keys, mouse buttons, axes) a game reads by name.

use super::enums::{ControlSource, ControlType, Key};
use super::netstr;
use super::raw::ControlSettings;
#[cfg(feature = "write")]
use crate::bytes::sink::Sink;
use crate::bytes::{Cursor, Place, Record, Records};
use crate::error::Result;
#[cfg(feature = "write")]
use zerocopy::little_endian::U16;

/// A game control's parts in file order (id, name, the fixed settings): the one declaration of
/// its layout. [`ControlRecord::read`] fills every part and [`ControlRecord::write`] destructures
/// every part, side by side, so a part added here cannot be missed by the reader or the writer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ControlRecord<'a> {
    pub(crate) id: u16,
    pub(crate) name: &'a str,
    pub(crate) settings: &'a ControlSettings,
}

impl<'a> ControlRecord<'a> {
    /// Reads the control at the cursor and moves the cursor past it.
    #[inline]
    pub(crate) fn read(cur: &mut Cursor<'a>) -> Result<Self> {
        Ok(ControlRecord {
            id: cur.u16_le("GameControl.id")?,
            name: netstr::read(cur, "GameControl.name")?,
            settings: cur.read("GameControl.settings")?,
        })
    }

    /// Appends the control as [`read`](Self::read) reads it.
    #[cfg(feature = "write")]
    pub(crate) fn write(&self, out: &mut Sink) -> crate::write_error::WriteResult<()> {
        let ControlRecord { id, name, settings } = *self;
        out.put(&U16::new(id));
        netstr::write(out, name, "GameControl.name")?;
        out.put(settings);
        Ok(())
    }
}

/// One game control, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct GameControl<'a> {
    at: usize,
    record: ControlRecord<'a>,
}

impl<'a> GameControl<'a> {
    /// Reads the control at the cursor and moves the cursor past it.
    #[inline]
    pub(crate) fn parse(cur: &mut Cursor<'a>) -> Result<Self> {
        let at = cur.offset();
        let record = ControlRecord::read(cur)?;
        Ok(GameControl { at, record })
    }

    /// Absolute offset of the control in the file.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The control's id (unique within the project's controls).
    pub fn id(&self) -> u16 {
        self.record.id
    }

    /// The name scripts ask for (may be non-ASCII: "Défense").
    pub fn name(&self) -> &'a str {
        self.record.name
    }

    /// The stored fixed fields, as they lie in the file.
    pub fn settings(&self) -> &'a ControlSettings {
        self.record.settings
    }

    /// Axis or button.
    pub fn control_type(&self) -> ControlType {
        self.record.settings.control_type()
    }

    /// Keyboard or mouse.
    pub fn source(&self) -> ControlSource {
        self.record.settings.source()
    }

    /// The key of a keyboard control (or of an axis' positive direction).
    pub fn positive_key(&self) -> Key {
        self.record.settings.positive_key()
    }

    /// The key of an axis' negative direction.
    pub fn negative_key(&self) -> Key {
        self.record.settings.negative_key()
    }

    /// The mouse button (see [`mouse_button_name`](super::mouse_button_name)) or joystick button.
    pub fn positive_button(&self) -> u8 {
        self.record.settings.positive_button
    }

    /// The button of an axis' negative direction.
    pub fn negative_button(&self) -> u8 {
        self.record.settings.negative_button
    }

    /// Which joystick (for a joystick control).
    pub fn joystick_index(&self) -> u8 {
        self.record.settings.joystick_index
    }

    /// Which joystick axis (for a joystick control).
    pub fn joystick_axis(&self) -> u8 {
        self.record.settings.joystick_axis
    }

    /// Input below this magnitude counts as 0.
    pub fn dead_zone(&self) -> f32 {
        self.record.settings.dead_zone()
    }

    /// How fast an axis moves towards ±1, per second.
    pub fn sensitivity(&self) -> f32 {
        self.record.settings.sensitivity()
    }

    /// How fast an axis falls back towards 0, per second.
    pub fn gravity(&self) -> f32 {
        self.record.settings.gravity()
    }

    /// Whether an axis snaps to 0 when its direction changes (any non-zero byte is true, as
    /// .NET reads a boolean).
    pub fn snap_to_zero(&self) -> bool {
        self.record.settings.snap_to_zero()
    }
}

/// The game controls in file order, each a `Result` (see [`Records`]). The table was checked
/// when the view opened, so every item is `Ok` for a view that opened.
pub type GameControls<'a> = Records<'a, GameControl<'a>>;

impl<'a> Record<'a> for GameControl<'a> {
    type Context = ();
    /// The id, a one-byte name length and the settings.
    const MIN_SIZE: usize = 2 + 1 + core::mem::size_of::<ControlSettings>();

    #[inline]
    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        GameControl::parse(cur)
    }
}

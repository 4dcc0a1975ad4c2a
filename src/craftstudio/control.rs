//! Game controls: named inputs (keys, mouse buttons, axes) a game reads by name.

use super::enums::{ControlSource, ControlType, Key};
use super::netstr;
use super::raw::ControlSettings;
use super::sequence::{Record, Sequence};
use crate::bytes::Bytes;
use crate::error::Result;

/// One game control, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct GameControl<'a> {
    at: usize,
    id: u16,
    name: &'a str,
    settings: &'a ControlSettings,
}

impl<'a> GameControl<'a> {
    /// Reads the control at `at` and returns it with the offset just past it.
    pub(crate) fn parse(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)> {
        let id = bytes.read::<zerocopy::little_endian::U16>(at, "GameControl.id")?;
        let (name, after_name) = netstr::read(bytes, at.saturating_add(2), "GameControl.name")?;
        let settings: &ControlSettings = bytes.read(after_name, "GameControl.settings")?;
        let end = after_name.saturating_add(core::mem::size_of::<ControlSettings>());
        Ok((
            GameControl {
                at,
                id: id.get(),
                name,
                settings,
            },
            end,
        ))
    }

    /// Absolute offset of the control in the file.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The control's id (unique within the project's controls).
    pub fn id(&self) -> u16 {
        self.id
    }

    /// The name scripts ask for (may be non-ASCII: "Défense").
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The stored fixed fields, as they lie in the file.
    pub fn settings(&self) -> &'a ControlSettings {
        self.settings
    }

    /// Axis or button.
    pub fn control_type(&self) -> ControlType {
        self.settings.control_type()
    }

    /// Keyboard or mouse.
    pub fn source(&self) -> ControlSource {
        self.settings.source()
    }

    /// The key of a keyboard control (or of an axis' positive direction).
    pub fn positive_key(&self) -> Key {
        self.settings.positive_key()
    }

    /// The key of an axis' negative direction.
    pub fn negative_key(&self) -> Key {
        self.settings.negative_key()
    }

    /// The mouse button (see [`mouse_button_name`](super::mouse_button_name)) or joystick button.
    pub fn positive_button(&self) -> u8 {
        self.settings.positive_button
    }

    /// The button of an axis' negative direction.
    pub fn negative_button(&self) -> u8 {
        self.settings.negative_button
    }

    /// Which joystick (for a joystick control).
    pub fn joystick_index(&self) -> u8 {
        self.settings.joystick_index
    }

    /// Which joystick axis (for a joystick control).
    pub fn joystick_axis(&self) -> u8 {
        self.settings.joystick_axis
    }

    /// Input below this magnitude counts as 0.
    pub fn dead_zone(&self) -> f32 {
        self.settings.dead_zone()
    }

    /// How fast an axis moves towards ±1, per second.
    pub fn sensitivity(&self) -> f32 {
        self.settings.sensitivity()
    }

    /// How fast an axis falls back towards 0, per second.
    pub fn gravity(&self) -> f32 {
        self.settings.gravity()
    }

    /// Whether an axis snaps to 0 when its direction changes (any non-zero byte is true, as
    /// .NET reads a boolean).
    pub fn snap_to_zero(&self) -> bool {
        self.settings.snap_to_zero()
    }
}

/// The game controls in file order, each a `Result` (see [`Sequence`]). The table was checked
/// when the view opened, so every item is `Ok` for a view that opened.
pub type GameControls<'a> = Sequence<'a, GameControl<'a>>;

impl<'a> Record<'a> for GameControl<'a> {
    fn read(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)> {
        GameControl::parse(bytes, at)
    }
}

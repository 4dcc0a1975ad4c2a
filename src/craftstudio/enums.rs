//! The header's and entries' enumerations. Values the reader does not know are kept as numbers
//! (`Unknown(n)`), never rejected: CraftStudio's values were inferred from real files.

/// Declares a `u8` enumeration with known names and an `Unknown(u8)` fallback. CraftStudio names
/// each value as its variant is named, so the variant is the name.
macro_rules! byte_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $value:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                #[doc = concat!("`", stringify!($variant), "` (stored as ", stringify!($value), ").")]
                $(#[$vdoc])*
                $variant,
            )*
            /// A value this reader does not know, kept as stored.
            Unknown(u8),
        }

        impl $name {
            /// The enumeration for a stored byte.
            pub const fn from_u8(value: u8) -> Self {
                match value {
                    $($value => $name::$variant,)*
                    other => $name::Unknown(other),
                }
            }

            /// The stored byte.
            pub const fn to_u8(self) -> u8 {
                match self {
                    $($name::$variant => $value,)*
                    $name::Unknown(other) => other,
                }
            }

            /// CraftStudio's name for the value, `None` for an unknown one.
            pub const fn name(self) -> Option<&'static str> {
                match self {
                    $($name::$variant => Some(stringify!($variant)),)*
                    $name::Unknown(_) => None,
                }
            }
        }
    };
}

byte_enum! {
    /// What the project makes (`project_type`).
    ProjectType {
        Game = 0,
        Movie = 1,
    }
}

byte_enum! {
    /// Who may join the project (`membership_policy`).
    MembershipPolicy {
        MembershipRequest = 0,
        InviteOnly = 1,
        Open = 2,
    }
}

byte_enum! {
    /// The role a new member gets (`default_member_role`); 0 is used for membership requests.
    MemberRole {
        Spectator = 1,
        Member = 2,
        Moderator = 3,
        Administrator = 4,
    }
}

byte_enum! {
    /// Whether a game control is an axis or a button (`control_type`).
    ControlType {
        Axis = 0,
        Button = 1,
    }
}

byte_enum! {
    /// The device a game control reads (`control_source`). A joystick value surely exists; its
    /// number has not been seen in real files.
    ControlSource {
        Keyboard = 0,
        Mouse = 1,
    }
}

byte_enum! {
    /// The kind of asset an entry is, or holds (folders carry a type too: each asset type has its
    /// own tree). 5 has never been seen.
    EntryType {
        Model = 0,
        Map = 1,
        Scene = 2,
        TileSet = 3,
        Document = 4,
        ModelAnimation = 6,
        Script = 7,
        Sound = 8,
        Font = 9,
    }
}

impl EntryType {
    /// The folder under `Assets/` that holds this type's files (`"Models"`), `None` if unknown.
    pub const fn assets_folder(self) -> Option<&'static str> {
        Some(match self {
            EntryType::Model => "Models",
            EntryType::Map => "Maps",
            EntryType::Scene => "Scenes",
            EntryType::TileSet => "TileSets",
            EntryType::Document => "Documents",
            EntryType::ModelAnimation => "ModelAnimations",
            EntryType::Script => "Scripts",
            EntryType::Sound => "Sounds",
            EntryType::Font => "Fonts",
            EntryType::Unknown(_) => return None,
        })
    }

    /// The extensions of this type's asset files, the usual one first. Maps are saved either
    /// whole (`.csmap`) or in chunks (`.csmapchunks`).
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            EntryType::Model => &["csmodel"],
            EntryType::Map => &["csmap", "csmapchunks"],
            EntryType::Scene => &["csscene"],
            EntryType::TileSet => &["cstileset"],
            EntryType::Document => &["csdocument"],
            EntryType::ModelAnimation => &["csmodelanim"],
            EntryType::Script => &["csscript"],
            EntryType::Sound => &["cssound"],
            EntryType::Font => &["csfont"],
            EntryType::Unknown(_) => &[],
        }
    }
}

/// A keyboard key, stored as its Windows virtual-key code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub u8);

impl Key {
    /// The key's name for a known virtual-key code (`13` → `"Enter"`, `65` → `"A"`); 0 is
    /// `"None"`.
    pub const fn name(self) -> Option<&'static str> {
        const DIGITS: [&str; 10] = ["D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"];
        const LETTERS: [&str; 26] = [
            "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q",
            "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
        ];
        const NUMPAD: [&str; 10] = [
            "NumPad0", "NumPad1", "NumPad2", "NumPad3", "NumPad4", "NumPad5", "NumPad6", "NumPad7",
            "NumPad8", "NumPad9",
        ];
        const FUNCTION: [&str; 12] = [
            "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
        ];
        let code = self.0;
        Some(match code {
            0 => "None",
            8 => "Back",
            9 => "Tab",
            13 => "Enter",
            16 => "Shift",
            17 => "Control",
            18 => "Alt",
            19 => "Pause",
            20 => "CapsLock",
            27 => "Escape",
            32 => "Space",
            33 => "PageUp",
            34 => "PageDown",
            35 => "End",
            36 => "Home",
            37 => "Left",
            38 => "Up",
            39 => "Right",
            40 => "Down",
            45 => "Insert",
            46 => "Delete",
            48..=57 => DIGITS[(code - 48) as usize],
            65..=90 => LETTERS[(code - 65) as usize],
            96..=105 => NUMPAD[(code - 96) as usize],
            106 => "Multiply",
            107 => "Add",
            109 => "Subtract",
            110 => "Decimal",
            111 => "Divide",
            112..=123 => FUNCTION[(code - 112) as usize],
            160 => "LeftShift",
            161 => "RightShift",
            162 => "LeftControl",
            163 => "RightControl",
            164 => "LeftAlt",
            165 => "RightAlt",
            186 => "OemSemicolon",
            187 => "OemPlus",
            188 => "OemComma",
            189 => "OemMinus",
            190 => "OemPeriod",
            191 => "OemQuestion",
            192 => "OemTilde",
            219 => "OemOpenBrackets",
            220 => "OemPipe",
            221 => "OemCloseBrackets",
            222 => "OemQuotes",
            _ => return None,
        })
    }
}

/// A mouse button or wheel direction as a mouse control stores it in its button indices.
pub const fn mouse_button_name(index: u8) -> Option<&'static str> {
    Some(match index {
        0 => "Left",
        1 => "Middle",
        2 => "Right",
        3 => "Extra1",
        4 => "Extra2",
        5 => "WheelDown",
        6 => "WheelUp",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_are_kept() {
        assert_eq!(EntryType::from_u8(5), EntryType::Unknown(5));
        assert_eq!(EntryType::Unknown(5).to_u8(), 5);
        assert_eq!(EntryType::from_u8(6), EntryType::ModelAnimation);
        for v in 0..=255u8 {
            assert_eq!(EntryType::from_u8(v).to_u8(), v);
            assert_eq!(MemberRole::from_u8(v).to_u8(), v);
        }
        assert_eq!(MemberRole::from_u8(0).name(), None);
    }

    #[test]
    fn keys_are_named_by_virtual_key_code() {
        let names = [
            (13, "Enter"),
            (27, "Escape"),
            (32, "Space"),
            (37, "Left"),
            (40, "Down"),
            (65, "A"),
            (90, "Z"),
            (112, "F1"),
            (123, "F12"),
            (160, "LeftShift"),
        ];
        for (code, name) in names {
            assert_eq!(Key(code).name(), Some(name));
        }
        assert_eq!(Key(255).name(), None);
        assert_eq!(mouse_button_name(6), Some("WheelUp"));
    }
}

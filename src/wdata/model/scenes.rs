//! The Scenes and SceneResources sections (cutscene cameras and their content), gated on the
//! main version.

use super::map::WString;

/// A scene event (always category + key).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EventEntry {
    /// The entry's category.
    pub category: u32,
    /// The entry's key.
    pub key: WString,
}

/// An item of a scene's render / no-render lists.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneElement {
    /// Version >= 22.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub category: Option<u32>,
    /// The element's key.
    pub key: WString,
}

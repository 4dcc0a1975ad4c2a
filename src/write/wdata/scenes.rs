//! The Scenes and SceneResources sections (cutscene cameras and their content), gated on the
//! main version.

use crate::error::{Error, Result};

use zerocopy::little_endian::I32;

use crate::wdata::raw::RawSceneDetailCounts;
use crate::wdata::{Versions, gates};

use super::encode::Sink;
use super::event_boxes::{Record, place};
pub use super::flat_records::{Ambient, Cue, Scene, SceneData, SoundBlock};
use super::model::WString;
use crate::bytes::Place;
/// The groups of plain numbers in scenes and sounds: the reader's types (declared once).
pub use crate::wdata::{SceneCamera, SceneTiming, SoundFades, TimeHold};

/// A scene's second-pass record (version >= 20): ten counts, then the lists in this order.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScenePass2 {
    /// Version >= 21.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub name: Option<WString>,
    /// The scene ids.
    pub scene_ids: Vec<u32>,
    /// The `(category, key)` event entries.
    pub event_entries: Vec<EventEntry>,
    /// Backgrounds to render.
    pub render_bg: Vec<SceneElement>,
    /// AniBGs to render.
    pub render_ani: Vec<SceneElement>,
    /// Item boxes to render.
    pub render_item: Vec<SceneElement>,
    /// Gimmicks to render.
    pub render_gimmick: Vec<SceneElement>,
    /// Backgrounds not to render.
    pub no_render_bg: Vec<SceneElement>,
    /// AniBGs not to render.
    pub no_render_ani: Vec<SceneElement>,
    /// Item boxes not to render.
    pub no_render_item: Vec<SceneElement>,
    /// Gimmicks not to render.
    pub no_render_gimmick: Vec<SceneElement>,
}

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

/// A scene resource: a keyed sequence of animations, cues and sounds.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SceneResource {
    /// The resource's key.
    pub key: WString,
    /// Other names of the resource.
    pub aliases: Vec<WString>,
    /// Stored only when there is at least one path: `Some` exactly when `paths` is not empty.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub delay: Option<f32>,
    /// The model/motion paths played in turn.
    pub paths: Vec<SceneData>,
    /// Version >= 11.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub cues: Option<Vec<Cue>>,
    /// Version >= 12.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub sound: Option<SoundBlock>,
    /// Version >= 17.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub ambients: Option<Vec<Ambient>>,
}

// ---- writing ---------------------------------------------------------------------------------

/// `i32 count`, every scene's first pass, then (version >= 20) every scene's second pass.
pub(super) fn write_scenes(s: &mut Sink, scenes: &[Scene], v: Versions) -> Result<()> {
    s.count_i32(scenes.len(), "Scenes.count")?;
    for (i, scene) in scenes.iter().enumerate() {
        s.entry = Some(("scenes", i));
        scene.write(s, v, place(i, scenes.len()))?;
        // Checked here too, so that a pass-2 record on an old version is named at its scene.
        s.gated(&scene.pass2, gates::SCENE_PASS2, v, "Scene.pass2")?;
    }
    if gates::SCENE_PASS2.stored(v) {
        for (i, scene) in scenes.iter().enumerate() {
            if let Some(p) = &scene.pass2 {
                s.entry = Some(("scenes", i));
                p.write(s, v)?;
            }
        }
    }
    s.entry = None;
    Ok(())
}

impl ScenePass2 {
    fn lists(&self) -> [&Vec<SceneElement>; 8] {
        [
            &self.render_bg,
            &self.render_ani,
            &self.render_item,
            &self.render_gimmick,
            &self.no_render_bg,
            &self.no_render_ani,
            &self.no_render_item,
            &self.no_render_gimmick,
        ]
    }

    fn write(&self, s: &mut Sink, v: Versions) -> Result<()> {
        if let Some(name) = s.gated(&self.name, gates::SCENE_NAME, v, "Scene.Name")? {
            s.wstr(name, "Scene.Name")?;
        }
        const COUNT_NAMES: [&str; 8] = [
            "Scene.rBg",
            "Scene.rAni",
            "Scene.rItem",
            "Scene.rGim",
            "Scene.nBg",
            "Scene.nAni",
            "Scene.nItem",
            "Scene.nGim",
        ];
        // The ten counts, as the reader's raw struct.
        let mut counts = RawSceneDetailCounts {
            event_entries: s.i32_count(self.event_entries.len(), "Scene.entryCnt")?,
            scene_ids: s.i32_count(self.scene_ids.len(), "Scene.sceneIdCnt")?,
            render: [I32::ZERO; 8],
        };
        for ((count, list), what) in counts.render.iter_mut().zip(self.lists()).zip(COUNT_NAMES) {
            *count = s.i32_count(list.len(), what)?;
        }
        s.out.put(&counts);
        for &id in &self.scene_ids {
            s.u32(id);
        }
        for e in &self.event_entries {
            s.u32(e.category);
            s.wstr(&e.key, "Scene.EventEntry.Key")?;
        }
        for list in self.lists() {
            for e in list {
                if let Some(&c) = s.gated(
                    &e.category,
                    gates::RENDER_ITEM_KEY,
                    v,
                    "SceneElement.Category",
                )? {
                    s.u32(c);
                }
                s.wstr(&e.key, "SceneElement.Key")?;
            }
        }
        Ok(())
    }
}

/// `i32 count`, then every scene resource with the main version's gates.
pub(super) fn write_scene_resources(
    s: &mut Sink,
    resources: &[SceneResource],
    versions: Versions,
) -> Result<()> {
    s.count_i32(resources.len(), "SceneResources.count")?;
    for (i, r) in resources.iter().enumerate() {
        s.entry = Some(("scene_resources", i));
        r.write(s, versions, place(i, resources.len()))?;
    }
    s.entry = None;
    Ok(())
}

impl SceneResource {
    fn write(&self, s: &mut Sink, v: Versions, p: Place) -> Result<()> {
        s.wstr(&self.key, "SceneResource.Key")?;
        s.count_i32(self.aliases.len(), "SceneResource.aliasCnt")?;
        s.wstrs(&self.aliases, "SceneResource.Aliases")?;
        s.count_i32(self.paths.len(), "SceneResource.pathCnt")?;
        match (self.delay, self.paths.is_empty()) {
            (Some(d), false) => s.f32(d),
            (None, true) => {}
            _ => {
                return Err(Error::invalid(
                    s.pos(),
                    "SceneResource.Delay",
                    crate::bytes::u64_of(self.paths.len()),
                    "the delay is stored exactly when there is at least one path",
                ));
            }
        }
        for (i, p) in self.paths.iter().enumerate() {
            p.write(s, v, place(i, self.paths.len()))?;
        }
        if let Some(cues) = s.gated(&self.cues, gates::RESOURCE_CUES, v, "SceneResource.cueCnt")? {
            write_counted(s, cues, v, "SceneResource.cueCnt")?;
        }
        if let Some(block) = s.gated(
            &self.sound,
            gates::RESOURCE_SOUND,
            v,
            "SceneResource.soundCnt",
        )? {
            block.write(s, v, p)?;
        }
        if let Some(ambients) = s.gated(
            &self.ambients,
            gates::RESOURCE_AMBIENTS,
            v,
            "SceneResource.ambientCnt",
        )? {
            write_counted(s, ambients, v, "SceneResource.ambientCnt")?;
        }
        Ok(())
    }
}

/// `i32 count` (named `what`), then the records.
fn write_counted<R: Record>(
    s: &mut Sink,
    list: &[R],
    versions: Versions,
    what: &'static str,
) -> Result<()> {
    s.count_i32(list.len(), what)?;
    for (i, r) in list.iter().enumerate() {
        r.write(s, versions, place(i, list.len()))?;
    }
    Ok(())
}

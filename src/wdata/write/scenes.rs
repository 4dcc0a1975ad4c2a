//! Writes the Scenes and SceneResources sections, gated on the main version.

use crate::wdata::model::{Scene, SceneElement, SceneResource};
use crate::wdata::{Versions, gates};
use crate::write_error::{WriteError, WriteResult as Result};

use super::encode::Encoder;
use super::event_boxes::{Record, place};
/// `i32 count`, every scene's first pass, then (version >= 20) every scene's second pass.
pub(crate) fn write_scenes(s: &mut Encoder, scenes: &[Scene], v: Versions) -> Result<()> {
    s.count_i32(scenes.len(), "Scenes.count")?;
    let in_scene = |i: usize| move |e: WriteError| e.at_index(i).in_field("scenes");
    for (i, scene) in scenes.iter().enumerate() {
        scene
            .write(s, v, place(i, scenes.len()))
            .map_err(in_scene(i))?;
        // Checked here too, so that a pass-2 record on an old version is named at its scene.
        s.gate(&scene.pass2, gates::SCENE_PASS2.decide(v), "Scene.pass2")
            .map_err(in_scene(i))?;
    }
    if gates::SCENE_PASS2.stored(v) {
        for (i, scene) in scenes.iter().enumerate() {
            if let Some(p) = &scene.pass2 {
                p.write(s, v, place(i, scenes.len()))
                    .map_err(|e| in_scene(i)(e.in_field("pass2")))?;
            }
        }
    }
    Ok(())
}

impl SceneElement {
    /// The category (from main version 22), then the key.
    pub(crate) fn write(&self, s: &mut Encoder, v: Versions) -> Result<()> {
        if let Some(&c) = s.gate(
            &self.category,
            gates::RENDER_ITEM_KEY.decide(v),
            "SceneElement.Category",
        )? {
            s.u32(c);
        }
        s.wstr(&self.key, "SceneElement.Key")
    }
}

/// `i32 count`, then every scene resource with the main version's gates.
pub(crate) fn write_scene_resources(
    s: &mut Encoder,
    resources: &[SceneResource],
    versions: Versions,
) -> Result<()> {
    s.count_i32(resources.len(), "SceneResources.count")?;
    for (i, r) in resources.iter().enumerate() {
        r.write(s, versions, place(i, resources.len()))
            .map_err(|e| e.at_index(i).in_field("scene_resources"))?;
    }
    Ok(())
}

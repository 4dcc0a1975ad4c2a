//! Writes the building blocks every section shares (oriented boxes) and the Triggers section.

use zerocopy::little_endian::F32;

use crate::wdata::Versions;
use crate::wdata::model::{Obb, Trigger, TriggerLayout, Triggers};

use super::Record as _;
use crate::wdata::raw::RawObb;
use crate::write_error::WriteResult as Result;

use super::encode::{Encoder, version_value};
impl Obb {
    /// The name, then the reader's [`RawObb`] filled from the box (its layout, once, in `raw.rs`).
    pub(crate) fn write(&self, s: &mut Encoder, what: &'static str) -> Result<()> {
        s.wstr(&self.name, what)?;
        s.out.put(&RawObb {
            position: self.position.map(F32::new),
            scale: self.scale.map(F32::new),
            rotation: self.rotation.map(F32::new),
            extents: self.extents.map(F32::new),
        });
        Ok(())
    }
}

impl Triggers {
    /// The prefix (the table's record), then the layout.
    pub(crate) fn write_section(&self, s: &mut Encoder, versions: Versions) -> Result<()> {
        let version = versions.main;
        self.write(s, versions, super::event_boxes::place(0, 1))?;
        match &self.layout {
            TriggerLayout::Peer(triggers) => {
                s.count_i32(triggers.len(), "Triggers.triggerCount")?;
                for (i, t) in triggers.iter().enumerate() {
                    t.write(s, versions, super::event_boxes::place(i, triggers.len()))
                        .map_err(|e| e.at_index(i).in_field(Trigger::SECTION))?;
                }
            }
            TriggerLayout::ScriptLists {
                event_scripts,
                condition_scripts,
                action_scripts,
            } => {
                if !crate::wdata::gates::SCRIPT_PATHS.stored(versions) {
                    return Err(super::encode::refused(
                        "Triggers.layout",
                        version_value(version),
                        "the script-lists layout exists only from version 9",
                    )
                    .in_field("triggers"));
                }
                s.count_i32(event_scripts.len(), "Triggers.eventScriptCount")?;
                s.count_i32(condition_scripts.len(), "Triggers.conditionScriptCount")?;
                s.count_i32(action_scripts.len(), "Triggers.actionScriptCount")?;
                s.wstrs(event_scripts, "Triggers.EventScriptPaths")?;
                s.wstrs(condition_scripts, "Triggers.ConditionScriptPaths")?;
                s.wstrs(action_scripts, "Triggers.ActionScriptPaths")?;
            }
        }
        Ok(())
    }
}

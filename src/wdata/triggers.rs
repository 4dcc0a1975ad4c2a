//! Triggers, in one of two layouts the sources disagree on. Both start `i32 reserved0, wstr
//! scriptDir, i32 reserved1, wstr mainScript`; then the *trigger list* (the public reader's layout,
//! for every version: `i32 triggerCount` and per trigger a name, a comment and its event, condition
//! and action names) or, for main version >= 9 in the seed's description, the *script paths* (three
//! counts, then the event, condition and action script paths). The view picks the layout after which
//! Scenes and SceneResources end exactly at EOF.

use super::Versions;
use super::cursor::WdataCursor as _;
pub use super::flat_records::{Trigger, TriggersHead};
use super::records::{NameList, Record, Records};
use crate::bytes::{Cursor, Place};
use crate::error::Result;

/// Which trigger layout a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TriggerLayout {
    /// `triggerCount` triggers with their event, condition and action names (every version).
    TriggerList,
    /// Event, condition and action script path lists (main version >= 9 only).
    ScriptPaths,
}

impl TriggerLayout {
    /// `"trigger-list"` or `"script-paths"`.
    pub const fn name(self) -> &'static str {
        match self {
            TriggerLayout::TriggerList => "trigger-list",
            TriggerLayout::ScriptPaths => "script-paths",
        }
    }
}

/// The script path lists of the script-paths layout.
#[derive(Debug, Clone, Copy)]
pub struct ScriptPaths<'a> {
    /// Event script paths.
    pub events: NameList<'a>,
    /// Condition script paths.
    pub conditions: NameList<'a>,
    /// Action script paths.
    pub actions: NameList<'a>,
}

/// The trigger section, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct Triggers<'a> {
    /// The prefix both layouts share.
    pub head: TriggersHead<'a>,
    layout: TriggerLayout,
    list: Cursor<'a>,
    trigger_count: u32,
    scripts: Option<ScriptPaths<'a>>,
    versions: Versions,
}

impl<'a> Triggers<'a> {
    /// Reads the section at the cursor in `layout`, checking everything, and advances past it.
    pub(crate) fn read(
        cur: &mut Cursor<'a>,
        versions: Versions,
        layout: TriggerLayout,
    ) -> Result<Self> {
        let head = TriggersHead::read(
            cur,
            versions,
            Place {
                index: 0,
                last: true,
            },
        )?;
        let (trigger_count, scripts) = match layout {
            TriggerLayout::TriggerList => {
                let count = cur.count("Triggers.triggerCount", Trigger::MIN_SIZE)?;
                (count, None)
            }
            TriggerLayout::ScriptPaths => {
                let events = cur.count("Triggers.eventScriptCount", 2)?;
                let conditions = cur.count("Triggers.conditionScriptCount", 2)?;
                let actions = cur.count("Triggers.actionScriptCount", 2)?;
                let scripts = ScriptPaths {
                    events: NameList::read(cur, events, false, "Triggers.EventScriptPaths")?,
                    conditions: NameList::read(
                        cur,
                        conditions,
                        false,
                        "Triggers.ConditionScriptPaths",
                    )?,
                    actions: NameList::read(cur, actions, false, "Triggers.ActionScriptPaths")?,
                };
                (0, Some(scripts))
            }
        };
        let list = *cur;
        super::records::walk::<Trigger>(cur, versions, trigger_count)?;
        Ok(Triggers {
            head,
            layout,
            list,
            trigger_count,
            scripts,
            versions,
        })
    }

    /// The layout the section was read with.
    pub fn layout(&self) -> TriggerLayout {
        self.layout
    }

    /// Number of triggers (trigger-list layout; 0 in the script-paths layout).
    pub fn trigger_count(&self) -> usize {
        self.trigger_count as usize
    }

    /// The triggers (trigger-list layout; none in the script-paths layout).
    pub fn triggers(&self) -> Records<'a, Trigger<'a>> {
        Records::with_context(self.list, self.trigger_count, self.versions)
    }

    /// The script path lists (script-paths layout only).
    pub fn script_paths(&self) -> Option<ScriptPaths<'a>> {
        self.scripts
    }

    /// Triggers in the list layout, or script paths in the other: what `gamebin info` counts.
    pub fn entry_count(&self) -> usize {
        match self.scripts {
            Some(s) => s.events.len() + s.conditions.len() + s.actions.len(),
            None => self.trigger_count(),
        }
    }
}

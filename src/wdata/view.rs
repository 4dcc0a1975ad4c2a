//! The `rusty-hearts-wdata` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use super::{ByEventBoxType, WdataInfo, WdataView, trigger_layout_label};
use crate::error::Result;
use crate::view::{CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for WdataView<'a> {
    const NAME: &'static str = "rusty-hearts-wdata";
    type Summary = WdataInfo;
    #[cfg(feature = "write")]
    type Model = crate::wdata::model::WdataModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["wdata"],
        name: ".wdata",
        unreadable: "named .wdata but does not read as one",
    });

    // No `MAGIC`: the signature begins `.mdata` models too, so it does not say a map.

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        WdataView::from_bytes(data)
    }

    /// Opening a map reads every section's layout already; nothing is left to walk.
    fn check(&self) -> CheckReport {
        CheckReport::default()
    }

    fn summary(&self) -> Result<WdataInfo, ViewError> {
        Ok(WdataInfo {
            version: self.version(),
            event_box_version: self.header().event_box_version,
            event_boxes: self.event_box_count(),
            event_boxes_by_type: ByEventBoxType::of(self, |g| g.count as usize),
            anibg: self.anibg().len(),
            item_boxes: self.item_boxes().len(),
            gimmicks: self.gimmicks().len(),
            trigger_layout: trigger_layout_label(self),
            triggers: self.triggers().entry_count(),
            scenes: self.scenes().len(),
            scene_resources: self.scene_resources().len(),
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wdata::model::WdataModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wdata::diff::files(self, other)?)
    }
}

//! The `wap32-wwd` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use std::collections::BTreeMap;

use super::{Inflater, Options, WapMapMetaInfo, WwdInfo, WwdView};
use crate::error::Result;
use crate::view::{CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for WwdView<'a> {
    const NAME: &'static str = "wap32-wwd";
    type Summary = WwdInfo;
    #[cfg(feature = "write")]
    type Model = crate::wwd::model::WwdModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    /// Inflates a compressed main block into `scratch`'s buffer, with its decompressor and
    /// options.
    /// A `.wwd` (case ignored): with signatures ignored, a level whose signature is damaged is
    /// known by its name, since content detection relies on the signature.
    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["wwd"],
        name: ".wwd",
        unreadable: "named .wwd but does not read as one",
    });

    /// The header's signature, its own size (1524).
    const MAGIC: &'static [u8] = &super::SIGNATURE.to_le_bytes();

    fn from_bytes_in(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
        let options = Options {
            ignore_signature: scratch.ignores_signatures(),
        };
        let (inflated, inflater) = scratch.parts::<Inflater>();
        WwdView::from_bytes_with(data, inflated, inflater, options)
    }

    /// [`WwdView::validate`].
    fn check(&self) -> CheckReport {
        CheckReport::of_walk(self.validate())
    }

    fn summary(&self) -> Result<WwdInfo, ViewError> {
        let mut objects = 0;
        for plane in self.planes() {
            for o in plane.objects()? {
                o?;
                objects += 1;
            }
        }
        let table = self.tile_properties()?;
        let mut types: BTreeMap<String, usize> =
            ["1", "2", "3"].iter().map(|t| (t.to_string(), 0)).collect();
        for p in table.iter() {
            *types.entry(p?.tile_type().to_string()).or_insert(0) += 1;
        }
        Ok(WwdInfo {
            game: self.game().name(),
            compressed: self.is_compressed(),
            planes: self.plane_count(),
            main_block_length: self.main_block_len(),
            objects,
            tile_properties: table.len(),
            tile_property_types: types,
            checksum: self.checksum().facts(),
            wapmap_meta: self
                .wapmap_meta()
                .map(|m| WapMapMetaInfo::from_meta(&m))
                .transpose()?,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wwd::model::WwdModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wwd::diff::files(self, other)?)
    }
}

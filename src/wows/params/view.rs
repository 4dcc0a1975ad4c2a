//! The `wows-gameparams` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, the summary `gamebin info` prints and the full walk of `gamebin check`.

use core::fmt;
use std::collections::BTreeMap;
use std::path::Path;

use super::ParamsView;
use super::index::RootKind;
use crate::error::Result;
use crate::view::{CheckReport, Finding, NameHint, Scratch, View, ViewError};

/// What `gamebin info` shows of a GameParams: its entries by type and its regions.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParamsInfo {
    /// The file's length.
    pub file_len: usize,
    /// The inflated pickle's length.
    pub pickle_len: usize,
    /// The pickle's protocol.
    pub protocol: u8,
    /// `list` (classic) or `dict` (by region).
    pub root: &'static str,
    /// Base entries.
    pub entries: usize,
    /// Base entries by `typeinfo.type` (`None` when the type is not a string).
    pub by_type: BTreeMap<String, usize>,
    /// Each region's number of overriding entries.
    pub regions: BTreeMap<String, usize>,
}

impl fmt::Display for ParamsInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wows-gameparams: {}, protocol {}, root {}",
            crate::view::count(self.entries, "entry", "entries"),
            self.protocol,
            self.root
        )?;
        if !self.regions.is_empty() {
            let r: Vec<String> = self
                .regions
                .iter()
                .map(|(k, n)| format!("{k:?} {n}"))
                .collect();
            write!(f, ", region overrides {}", r.join(", "))?;
        }
        write!(f, ", pickle {} bytes", self.pickle_len)
    }
}

impl ParamsView<'_> {
    /// The summary `gamebin info` prints.
    pub fn info(&self) -> ParamsInfo {
        let mut by_type = BTreeMap::new();
        for e in self.entries() {
            let t = e
                .type_name()
                .map_or_else(|| "None".to_string(), |t| t.into_owned());
            *by_type.entry(t).or_insert(0) += 1;
        }
        ParamsInfo {
            file_len: self.file_len(),
            pickle_len: self.pickle().len(),
            protocol: self.protocol(),
            root: match self.root_kind() {
                RootKind::List => "list",
                RootKind::Dict => "dict",
                RootKind::Unknown => "unknown",
            },
            entries: self.len(),
            by_type,
            regions: self
                .regions()
                .map(|r| {
                    (
                        r.name().map_or_else(String::new, |n| n.into_owned()),
                        r.override_count(),
                    )
                })
                .collect(),
        }
    }

    /// Walks everything: the index pass already followed every opcode (each known, each memo get
    /// defined, the stack consistent, nesting bounded); here every entry's value is decoded, each
    /// damaged entry named, and the byte strings that are not UTF-8 counted.
    pub fn validate(&self) -> CheckReport {
        let mut report = CheckReport::default();
        if let Some(d) = self.damage() {
            report.errors.push(Finding::new(
                d.entry.clone().unwrap_or_default(),
                Some(d.error.offset()),
                format!(
                    "the pickle is damaged: {d}; {} entries before it read",
                    self.ix.entries.len()
                ),
            ));
        }
        if self.damage().is_none() && self.ix.entries.is_empty() {
            // A pickle that reads whole and holds no entry is not the game's: say so rather
            // than "ok" (a root of another shape, or params the index does not recognise).
            report.warnings.push(Finding::new(
                "",
                Some(0),
                match self.ix.root_kind {
                    RootKind::List => {
                        "no entries: the root list's first value is not a dict of entries"
                    }
                    _ => "no entries: the root dict holds no dict of entries under '' or a region's key",
                },
            ));
        }
        let mut non_utf8 = 0;
        let mut budget = self.walk_budget();
        let all = self
            .entries()
            .chain(self.regions().flat_map(move |r| r.overrides()));
        for e in all {
            match e.value_within(&mut budget) {
                Ok(v) => non_utf8 += v.non_utf8_strings(),
                Err(err) => report.errors.push(Finding::new(
                    e.name().into_owned(),
                    Some(err.error.offset()),
                    err,
                )),
            }
            if e.id().is_none() {
                report.warnings.push(Finding::new(
                    e.name().into_owned(),
                    Some(e.offset()),
                    format!("entry {}: no u32 `id` found in its state", e.name()),
                ));
            }
        }
        if non_utf8 > 0 {
            report.warnings.push(Finding::new(
                "",
                None,
                match non_utf8 {
                    1 => "1 byte string is not UTF-8 (JSON keeps it as its latin-1 reading)".into(),
                    n => format!(
                        "{n} byte strings are not UTF-8 (JSON keeps them as their latin-1 reading)"
                    ),
                },
            ));
        }
        report
    }
}

impl<'a> View<'a> for ParamsView<'a> {
    const NAME: &'static str = "wows-gameparams";
    type Summary = ParamsInfo;
    #[cfg(feature = "write")]
    type Model = super::model::ParamsModel;

    /// The last bytes form a reversed zlib header (content), and the whole name is
    /// `GameParams.data` (see `named_like`).
    fn looks_like(data: &[u8]) -> bool {
        super::inflate::looks_reversed_zlib(data)
    }

    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &[],
        name: "GameParams.data",
        unreadable: "named GameParams.data but does not read as one",
    });

    fn named_like(path: &Path, _data: &[u8], _named: bool) -> Option<NameHint> {
        let name = path.file_name()?.to_str()?;
        name.eq_ignore_ascii_case("GameParams.data")
            .then_some(Self::NAMED?)
    }

    fn from_bytes_in(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
        ParamsView::from_scratch(data, scratch)
    }

    fn check(&self) -> CheckReport {
        self.validate()
    }

    fn summary(&self) -> core::result::Result<ParamsInfo, ViewError> {
        if let Some(d) = self.damage() {
            return Err(ViewError::ReadIn {
                within: d
                    .entry
                    .map_or_else(|| "the pickle".to_string(), |n| format!("entry {n}")),
                error: d.error,
            });
        }
        Ok(self.info())
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> core::result::Result<Self::Model, ViewError> {
        super::model::ParamsModel::from_view(self).map_err(|e| ViewError::ReadIn {
            within: e
                .entry
                .map_or_else(|| "the pickle".to_string(), |n| format!("entry {n}")),
            error: e.error,
        })
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> core::result::Result<crate::diff::Report, ViewError> {
        super::diff::files(self, other).map_err(|e| ViewError::ReadIn {
            within: e
                .entry
                .map_or_else(|| "the pickle".to_string(), |n| format!("entry {n}")),
            error: e.error,
        })
    }
}

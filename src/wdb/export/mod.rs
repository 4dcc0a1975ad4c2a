//! The `.wdb` table's interchange forms for spreadsheet tools: CSV (module `csv`, feature `csv`)
//! and XLSX (module `xlsx`, feature `xlsx`), both made of the same rows ([`sheet`]) with the same
//! column names ([`columns`]). Each reads back into the owned [`WdbModel`](crate::wdb::model::WdbModel)
//! (`WdbModel::from_csv`, `WdbModel::from_xlsx`), whose writer makes the `.wdb` again.

pub mod columns;
#[cfg(feature = "csv")]
pub mod csv;
pub mod sheet;
#[cfg(feature = "xlsx")]
pub mod xlsx;

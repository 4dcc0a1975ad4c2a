//! The interchange readers a modder's edited files go through: `.wdb` tables from CSV, XLSX and
//! `dump --json`, `.wdata` maps from `dump --json`, levels from Tiled maps (TMX). Each input is
//! handed to every reader (each refuses what is not its format); whatever one accepts is packed by
//! its writer, and the packed file must open in its reader: an edit the writer accepts but the
//! reader refuses, like a panic, is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;

use gamebin::wdata::WdataView;
use gamebin::wdata::model::WdataModel;
use gamebin::wdb::WdbView;
use gamebin::wdb::model::WdbModel;
use gamebin::wwd::{Inflater, Options, WwdView};

/// A table that packs must read back.
fn pack(table: &WdbModel) {
    if let Ok(bytes) = table.to_bytes() {
        if let Err(e) = WdbView::from_bytes(&bytes) {
            panic!("a packed table does not open: {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(table) = WdbModel::from_csv(data) {
        pack(&table);
    }
    if let Ok(table) = WdbModel::from_xlsx(data) {
        pack(&table);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(table) = serde_json::from_str::<WdbModel>(text) {
        pack(&table);
    }
    if let Ok(map) = WdataModel::from_dump_json(text) {
        if let Ok(bytes) = map.to_bytes() {
            if let Err(e) = WdataView::from_bytes(&bytes) {
                panic!("a packed map does not open: {e}");
            }
        }
    }
    if let Ok(level) = gamebin::wwd::export::tiled::from_tmx(text) {
        if let Ok(bytes) = level.to_bytes() {
            // A map keeps the signature of the level it was made from, a damaged one too (`wwd
            // tiled --ignore-signature`): such a level opens with the same option, and only then.
            let good = level.header.signature.get() == gamebin::wwd::SIGNATURE;
            let options = Options {
                ignore_signature: !good,
            };
            let mut image = Vec::new();
            match WwdView::from_bytes_with(&bytes, &mut image, &mut Inflater::new(), options) {
                Ok(view) => assert_eq!(view.signature_ok(), good),
                Err(e) => panic!("a level made from a map does not open: {e}"),
            }
        }
    }
});

//! `gamebin wdb pack FILE.json -o FILE.wdb`: the JSON of `gamebin dump --json` (WDBJsonTool's
//! layout), edited or not, back to a `.wdb`.

use std::path::Path;

use anyhow::{Context, Result};
use gamebin::write::wdb::WdbTable;

use crate::output::{Status, report};

pub fn run(json: &Path, output: &Path) -> Result<Status> {
    match pack(json, output) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(json, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn pack(json: &Path, output: &Path) -> Result<()> {
    let text = if crate::files::is_stdin(json) {
        std::io::read_to_string(std::io::stdin().lock()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(json).context("cannot read")?
    };
    let table: WdbTable = serde_json::from_str(&text).context("not a .wdb dump")?;
    let bytes = table.to_bytes()?;
    std::fs::write(output, bytes).with_context(|| format!("cannot write {}", output.display()))
}

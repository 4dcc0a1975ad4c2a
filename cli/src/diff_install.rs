//! `gamebin diff OLD NEW` of two game installs (game folders, or `GAME@BUILD`): the files added,
//! removed and changed, from the two installs' indexes alone (`wows::pfs::InstallDiff`), then the
//! changes inside the files read field by field (`content/assets.bin` through the assets.bin
//! diff; `content/GameParams.data` through [`params_diff`], the hook a GameParams diff plugs
//! into, empty until then). Exit 0 whether or not anything changed, 1 for errors (as an
//! install's damage inside one file's inner diff: named for that file, the other lines printed).

use std::io;

use anyhow::{Result, anyhow};
use gamebin::diff::{Change, ChangeKind};
use gamebin::wows::pfs::{
    BlobReader, FileChange, FileState, GameInstall, InstallDiff, InstallDiffError, Selection,
};

use crate::files;
use crate::install::{Source, install_error, open_warned};
use crate::output::{Out, Status, count};

/// What `--only` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// The file lines (`+`, `-`, `~ PATH`).
    Files,
    /// The changes inside content/GameParams.data.
    Params,
    /// The changes inside content/assets.bin.
    Assets,
}

/// The changes inside a file, from the bytes of its two versions (old, new), each a [`Change`]
/// at a path inside the file.
type InnerDiff = fn(&[u8], &[u8]) -> Result<Vec<Change>>;

/// The changes inside a `content/GameParams.data`, from the bytes of its two versions: entries
/// added and removed (`+`/`-` with the entry's name), and each changed value by its path
/// (`PJSD012_Shimakaze_1943.A_Hull.health: 19800 -> 20100`).
fn params_diff(old: &[u8], new: &[u8]) -> Result<Vec<Change>> {
    use gamebin::View;
    use gamebin::wows::params::{ParamsScratch, ParamsView};
    let (mut old_scratch, mut new_scratch) = (ParamsScratch::default(), ParamsScratch::default());
    let old = ParamsView::from_bytes_strict(old, &mut old_scratch)
        .map_err(|e| anyhow!("the old file: {e}"))?;
    let new = ParamsView::from_bytes_strict(new, &mut new_scratch)
        .map_err(|e| anyhow!("the new file: {e}"))?;
    Ok(old.diff(&new)?.changes)
}

/// The inner diff of `content/GameParams.data`.
const PARAMS_DIFF: Option<InnerDiff> = Some(params_diff);

/// The changes inside an assets.bin: prototypes added, removed and changed, by path.
fn assets_diff(old: &[u8], new: &[u8]) -> Result<Vec<Change>> {
    use gamebin::wows::assets::AssetsDb;
    let old = AssetsDb::from_bytes(old).map_err(|e| anyhow!("the old file: {e}"))?;
    let new = AssetsDb::from_bytes(new).map_err(|e| anyhow!("the new file: {e}"))?;
    Ok(gamebin::wows::assets::diff::files(&old, &new)?.changes)
}

/// The files whose insides are compared, in path order, with what `--only` names each.
const INNER: [(&str, Only, Option<InnerDiff>); 2] = [
    ("content/GameParams.data", Only::Params, PARAMS_DIFF),
    ("content/assets.bin", Only::Assets, Some(assets_diff)),
];

/// What `gamebin diff` of two installs is given.
pub struct Settings<'a> {
    pub only: Option<Only>,
    pub prefix: Option<&'a str>,
    pub json: bool,
}

/// The two operands as installs, when either is one (a game folder or `GAME@BUILD`), or a
/// folder at all: then both must be installs, and `open` says why one is not.
pub fn sources<'a>(
    a: &'a std::path::Path,
    b: &'a std::path::Path,
) -> Option<(Source<'a>, Source<'a>)> {
    let as_install = |p: &'a std::path::Path| Source::game_operand(p);
    match (as_install(a), as_install(b)) {
        (None, None) if !a.is_dir() && !b.is_dir() => None,
        (sa, sb) => Some((sa.unwrap_or(Source::Game(a)), sb.unwrap_or(Source::Game(b)))),
    }
}

/// The file lines' counts.
#[derive(Default)]
struct Counts {
    added: usize,
    removed: usize,
    changed: usize,
}

/// One file line of `--json`.
#[derive(serde::Serialize)]
struct FileJson<'a> {
    sign: char,
    kind: ChangeKind,
    path: &'a str,
    before: Option<StateJson>,
    after: Option<StateJson>,
}

#[derive(serde::Serialize)]
struct StateJson {
    size: u32,
    crc32: String,
}

impl From<FileState> for StateJson {
    fn from(s: FileState) -> Self {
        StateJson {
            size: s.size,
            crc32: format!("{:#010x}", s.crc32),
        }
    }
}

/// The changes inside one file, for `--json`.
#[derive(serde::Serialize)]
struct InnerJson<'a> {
    file: &'a str,
    changes: &'a [Change],
    error: Option<String>,
}

/// What `--prefix` selects: file paths under it, and with `FILE::INNER` the changes inside FILE
/// under INNER.
struct Prefix {
    files: Selection,
    inner: Option<(String, String)>,
}

impl Prefix {
    fn new(prefix: Option<&str>) -> Prefix {
        match prefix.map(|p| p.split_once("::").map_or((p, None), |(f, i)| (f, Some(i)))) {
            None => Prefix {
                files: Selection::All,
                inner: None,
            },
            Some((file, inner)) => Prefix {
                files: Selection::parse(file),
                inner: inner.map(|i| (file.to_owned(), i.to_owned())),
            },
        }
    }

    /// Whether file lines are printed: not when the prefix points inside a file.
    fn file_lines(&self) -> bool {
        self.inner.is_none()
    }

    fn inner_wanted(&self, file: &str, change: &Change) -> bool {
        match &self.inner {
            Some((f, inner)) => f == file && change.path.starts_with(inner.as_str()),
            None => true,
        }
    }
}

/// The failure of a run once its lines are out: the reader of stdout gone is no failure.
fn finish(written: io::Result<()>, status: Status) -> Result<Status> {
    match written {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(status),
        Err(e) => Err(e.into()),
        Ok(()) => Ok(status),
    }
}

/// `gamebin diff OLD NEW` of two installs.
pub fn run(old: Source<'_>, new: Source<'_>, settings: &Settings<'_>) -> Result<Status> {
    let mapping = files::install_mapping();
    let old_install = open_warned(old, mapping)?;
    let new_install = open_warned(new, mapping)?;
    let diff = InstallDiff::new(&old_install, &new_install).map_err(|e| match e {
        InstallDiffError::Damaged { side, .. } | InstallDiffError::Entry { side, .. } => {
            let label = match side {
                gamebin::wows::pfs::DiffSide::Old => old.label(),
                gamebin::wows::pfs::DiffSide::New => new.label(),
            };
            anyhow!("{label}: {e}")
        }
        other => anyhow!("{} and {}: {other}", old.label(), new.label()),
    })?;
    let prefix = Prefix::new(settings.prefix);
    let mut out = Out::new();
    let written = write_all(
        &diff,
        (&old_install, &new_install),
        (old, new),
        &prefix,
        settings,
        &mut out,
    );
    let status = match written {
        Ok(status) => status,
        Err(e) => return finish(Err(e), Status::Success),
    };
    finish(out.flush(), status)
}

/// Prints the file lines and the inner changes (or the JSON document); the run's status.
fn write_all(
    diff: &InstallDiff<'_>,
    installs: (&GameInstall, &GameInstall),
    labels: (Source<'_>, Source<'_>),
    prefix: &Prefix,
    settings: &Settings<'_>,
    out: &mut Out,
) -> io::Result<Status> {
    let files_wanted = settings.only.is_none_or(|o| o == Only::Files) && prefix.file_lines();
    let mut counts = Counts::default();
    // The changed files of INNER, found on the way.
    let mut inner_changed: Vec<&str> = Vec::new();
    let mut path = String::new();
    let json = settings.json;
    if json {
        out.line(&format!(
            "{{\"old\": {}, \"new\": {}, \"files\": [",
            json_text(&labels.0.label()),
            json_text(&labels.1.label())
        ))?;
    }
    let mut first = true;
    for change in diff.changes() {
        change.path.write_to(&mut path);
        if !prefix.files.matches(&path) {
            continue;
        }
        if change.kind == ChangeKind::Changed
            && let Some((file, _, _)) = INNER.iter().find(|(f, _, _)| *f == path)
        {
            inner_changed.push(file);
        }
        if !files_wanted {
            continue;
        }
        match change.kind {
            ChangeKind::Added => counts.added += 1,
            ChangeKind::Removed => counts.removed += 1,
            ChangeKind::Changed => counts.changed += 1,
        }
        if json {
            let line =
                serde_json::to_string(&file_json(&change, &path)).map_err(io::Error::other)?;
            out.line(&format!("{}{line}", if first { "  " } else { ", " }))?;
            first = false;
        } else {
            out.line(&change.to_string())?;
        }
    }
    if json {
        out.line("], \"inner\": [")?;
    }
    let mut failed = false;
    // Each inner diff's count of changes, `None` where it could not be made.
    let mut inner_counts: Vec<(&str, Option<usize>)> = Vec::new();
    let mut first = true;
    for (file, only, inner) in INNER {
        let Some(inner) = inner else { continue };
        if settings.only.is_some_and(|o| o != only) || !inner_changed.contains(&file) {
            continue;
        }
        let (changes, error) = match inner_changes(installs, file, inner) {
            Ok(changes) => (changes, None),
            Err(e) => (Vec::new(), Some(format!("{e:#}"))),
        };
        let changes: Vec<Change> = changes
            .into_iter()
            .filter(|c| prefix.inner_wanted(file, c))
            .collect();
        if let Some(error) = &error {
            eprintln!("gamebin diff: {file}: {error}; its inner changes are not listed");
            failed = true;
        }
        inner_counts.push((file, error.is_none().then_some(changes.len())));
        if json {
            let doc = InnerJson {
                file,
                changes: &changes,
                error,
            };
            let line = serde_json::to_string(&doc).map_err(io::Error::other)?;
            out.line(&format!("{}{line}", if first { "  " } else { ", " }))?;
            first = false;
        } else {
            for change in &changes {
                out.line(&inner_line(file, change))?;
            }
        }
    }
    if json {
        out.line("]}")?;
    }
    let mut summary = Vec::new();
    if files_wanted {
        let (a, b) = diff.file_counts();
        summary.push(format!(
            "{} added, {} removed, {} changed (of {} and {})",
            counts.added,
            counts.removed,
            counts.changed,
            count(a, "file", "files"),
            count(b, "file", "files"),
        ));
    }
    for (file, n) in inner_counts {
        summary.push(match n {
            Some(n) => format!("{file}: {}", count(n, "change", "changes")),
            None => format!("{file}: not compared (damaged)"),
        });
    }
    out.flush()?;
    if !summary.is_empty() {
        eprintln!("gamebin diff: {}", summary.join("; "));
    }
    Ok(if failed {
        Status::SomeFailed
    } else {
        Status::Success
    })
}

fn json_text(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn file_json<'a>(change: &FileChange<'_>, path: &'a str) -> FileJson<'a> {
    FileJson {
        sign: change.sign(),
        kind: change.kind,
        path,
        before: change.before.map(StateJson::from),
        after: change.after.map(StateJson::from),
    }
}

/// `~ content/assets.bin::PATH: before -> after` (and `+`, `-` alike).
fn inner_line(file: &str, change: &Change) -> String {
    let sign = match change.kind {
        ChangeKind::Added => '+',
        ChangeKind::Removed => '-',
        ChangeKind::Changed => '~',
    };
    // The change's own line less its sign: `PATH: before -> after`.
    let text = change.to_string();
    let rest = text.get(2..).unwrap_or_default();
    format!("{sign} {file}::{rest}")
}

/// The changes inside `file`, from its bytes in both installs (inflated and CRC-checked).
fn inner_changes(
    (old, new): (&GameInstall, &GameInstall),
    file: &str,
    inner: InnerDiff,
) -> Result<Vec<Change>> {
    let mut reader = BlobReader::new();
    let read = |install: &GameInstall, which: &str, reader: &mut BlobReader| {
        install
            .read_to_vec(file, reader)
            .map_err(|e| anyhow!("the {which} install: {:#}", install_error(e)))?
            .ok_or_else(|| anyhow!("the {which} install has no {file}"))
    };
    let old_bytes = read(old, "old", &mut reader)?;
    let new_bytes = read(new, "new", &mut reader)?;
    inner(&old_bytes, &new_bytes)
}

//! `gamebin pfs ls|cat|extract`: the files of a World of Warships install (its `.idx` indexes and
//! `.pkg` volumes), listed, written to stdout and extracted, through the library's `GameInstall`.

use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, anyhow, bail};
use gamebin::diff::ChangeKind;
use gamebin::wows::pfs::{
    BlobReader, DiffSide, GameInstall, InstallDiff, InstallDiffError, InstallError, InstallFile,
    Selection,
};

use crate::files;
use crate::install::{
    Item, Source, install_error, not_found_note, open_warned, readable_files, selected,
    selected_files,
};
use crate::output::{Out, Status, count, progress_bar};
use crate::parallel;

fn parse_selections(texts: &[String]) -> Vec<Selection> {
    texts.iter().map(|t| Selection::parse(t)).collect()
}

/// One line of `pfs ls --json`.
#[derive(serde::Serialize)]
struct EntryJson<'a> {
    path: &'a str,
    size: u32,
    stored_size: u32,
    compression: &'static str,
    crc32: String,
}

/// `pfs ls`: every file (or the selected ones), one per line as the install's id table holds them.
pub fn ls(source: Source<'_>, selections: &[String], json: bool) -> Result<Status> {
    let install = open_warned(source, files::install_mapping())?;
    let wanted = parse_selections(selections);
    let mut out = Out::new();
    let mut write_error: Option<io::Error> = None;
    let mut failed = 0usize;
    let mut listed = 0usize;
    let mut buffer = String::new();
    install.for_each_file(&Selection::All, &mut buffer, |path, file| {
        let file = match file {
            Ok(file) => file,
            Err(e) => {
                eprintln!("gamebin: {e}");
                failed += 1;
                return true;
            }
        };
        if !selected(&wanted, path) {
            return true;
        }
        listed += 1;
        let written = if json {
            let entry = EntryJson {
                path,
                size: file.file.unpacked_size,
                stored_size: file.file.size,
                compression: file.file.compression.as_str(),
                crc32: format!("{:#010x}", file.file.crc32),
            };
            match serde_json::to_string(&entry) {
                Ok(line) => out.line(&line),
                Err(e) => Err(io::Error::other(e)),
            }
        } else {
            out.line(path)
        };
        match written {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        }
    });
    // A damaged index (named when the install was opened) fails the run too.
    let status = if failed > 0 || !install.damaged().is_empty() {
        Status::SomeFailed
    } else {
        Status::Success
    };
    match write_error {
        // The reader went away (`| head`): the listing stops there; nothing failed.
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(status),
        Some(e) => return Err(e.into()),
        None => {}
    }
    out.flush()?;
    if listed == 0 && failed == 0 && !selections.is_empty() {
        eprintln!(
            "gamebin: {}: no file matches {}{}",
            source.label(),
            selections.join(" "),
            not_found_note(&install)
        );
        return Ok(Status::SomeFailed);
    }
    Ok(status)
}

/// Whether bytes are better not shown on a terminal: a NUL, or not UTF-8.
fn looks_binary(bytes: &[u8]) -> bool {
    bytes.contains(&0) || std::str::from_utf8(bytes).is_err()
}

/// `pfs cat`: one file's bytes to stdout.
pub fn cat(source: Source<'_>, path: &str) -> Result<Status> {
    let install = open_warned(source, files::install_mapping())?;
    let Some(file) = install.find(path).map_err(install_error)? else {
        // A folder is no file: say so, rather than that nothing is there.
        let mut folder = false;
        let mut buffer = String::new();
        install.for_each_file(&Selection::parse(path), &mut buffer, |_, file| {
            folder = file.is_ok();
            !folder
        });
        if folder {
            bail!(
                "{path}: a folder in {}, not a file (list it with gamebin pfs ls)",
                source.label()
            );
        }
        bail!(
            "{path}: no such file in {}{}",
            source.label(),
            not_found_note(&install)
        );
    };
    let mut reader = BlobReader::new();
    let mut buffer = Vec::new();
    let bytes = install
        .read(&file, path, &mut reader, &mut buffer)
        .map_err(install_error)?;
    let mut stdout = io::stdout().lock();
    if stdout.is_terminal() && looks_binary(bytes) {
        bail!(
            "{path}: {} of binary data not written to a terminal: redirect it to a file (> FILE) \
             or pipe it to another program",
            count(bytes.len(), "byte", "bytes")
        );
    }
    // A damaged index (named when the install was opened) fails the run, the file written.
    let status = if install.damaged().is_empty() {
        Status::Success
    } else {
        Status::SomeFailed
    };
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(status),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(status),
        Err(e) => Err(anyhow!("cannot write to standard output: {e}")),
    }
}

/// What each extracting thread keeps: the inflater and the buffer inflated into.
struct Worker {
    reader: BlobReader,
    buffer: Vec<u8>,
    /// The folder the last file went into, kept open (see [`OpenFolder`]).
    #[cfg(unix)]
    folder: Option<OpenFolder>,
}

/// A folder under the output folder, open: the files of a folder come one after the other (the
/// list is sorted by folder), and each is created relative to it (`openat`), so the kernel looks up
/// one name a file instead of walking its whole path (the walk was the largest part of the
/// kernel's time, perf).
#[cfg(unix)]
struct OpenFolder {
    /// Its path under the output folder (`""` for the output folder itself).
    path: String,
    fd: rustix::fd::OwnedFd,
}

/// The folders made (or found already there, and checked) under the output folder, shared by the
/// threads. The install's order is by id, so consecutive files are seldom in one folder: without
/// this set every file re-made its folders, segment by segment, at two or three system calls a
/// segment (1.35 million failing `mkdir` for 394,000 files, strace).
type Made = Mutex<HashSet<String>>;

/// The set, even if a thread panicked while holding it (it only ever grows by whole entries).
fn made_set(made: &Made) -> std::sync::MutexGuard<'_, HashSet<String>> {
    made.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Files handed to a thread at a time, and reported together: one message between the threads
/// for each file was the larger part of the run on two threads (futex waits, perf and strace).
const CHUNK: usize = 64;

/// `pfs extract`: the selected files under `output`, at their paths, on every core.
pub fn extract(
    source: Source<'_>,
    selections: &[String],
    output: &Path,
    force: bool,
    changed_since: Option<Source<'_>>,
) -> Result<Status> {
    let install = open_warned(source, files::install_mapping())?;
    let wanted = parse_selections(selections);
    let mut failed = 0usize;
    let mut unreadable = |e: InstallError| {
        eprintln!("gamebin: {e}");
        failed += 1;
    };
    let files = match changed_since {
        Some(old) => changed_files(&install, source, old)?,
        None => readable_files(&install, &mut unreadable),
    };
    let items = selected_files(&install, &files, &wanted, &mut unreadable);
    if items.is_empty() {
        if failed > 0 {
            return Ok(Status::SomeFailed);
        }
        if let Some(old) = changed_since {
            eprintln!(
                "gamebin: no file {} since {}{}; nothing extracted",
                if selections.is_empty() {
                    "added or changed".to_owned()
                } else {
                    format!("matching {} added or changed", selections.join(" "))
                },
                old.label(),
                not_found_note(&install)
            );
            return Ok(Status::Success);
        }
        if selections.is_empty() {
            bail!(
                "{}: the install holds no files{}",
                source.label(),
                not_found_note(&install)
            );
        }
        bail!(
            "{}: no file matches {}{}",
            source.label(),
            selections.join(" "),
            not_found_note(&install)
        );
    }
    // create_dir_all's own word for a file in the way is "File exists".
    if std::fs::metadata(output).is_ok_and(|m| !m.is_dir()) {
        bail!(
            "{}: exists and is not a folder (pfs extract writes into a folder)",
            output.display()
        );
    }
    std::fs::create_dir_all(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    let bar = progress_bar(items.len());
    let mut written = 0usize;
    let mut bytes = 0u64;
    // A folder's files come together (selected_files), for the folder kept open (`OpenFolder`).
    let chunks: Vec<&[Item]> = items.chunks(CHUNK).collect();
    let made = Made::default();
    let mut reported = crate::batch::Failures::default();
    parallel::ordered(
        &chunks,
        || Worker {
            reader: BlobReader::new(),
            buffer: Vec::new(),
            #[cfg(unix)]
            folder: None,
        },
        |worker, chunk| {
            chunk
                .iter()
                .map(|item| extract_one(&install, worker, &made, item, output, force))
                .collect::<Vec<_>>()
        },
        |_, results| {
            bar.inc(results.len() as u64);
            for result in results {
                match result {
                    Ok(size) => {
                        written += 1;
                        bytes += size;
                    }
                    Err(e) => {
                        if reported.is_named(&e) {
                            bar.suspend(|| eprintln!("gamebin: {e:#}"));
                        }
                        failed += 1;
                    }
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    let total = written + failed;
    // The indexes that do not read (named when the install was opened): their files are unknown,
    // so not counted among those that failed.
    let left_out = match install.damaged().len() {
        0 => String::new(),
        n => format!(
            "; {} not read (named above), {} left out",
            count(n, "index", "indexes"),
            if n == 1 { "its files" } else { "their files" }
        ),
    };
    if failed == 0 {
        eprintln!(
            "gamebin: extracted {} ({}) to {}{left_out}",
            count(written, "file", "files"),
            count(bytes, "byte", "bytes"),
            output.display()
        );
        return Ok(if left_out.is_empty() {
            Status::Success
        } else {
            Status::SomeFailed
        });
    }
    for line in reported.unnamed() {
        eprintln!("gamebin: {line}");
    }
    eprintln!(
        "gamebin: extracted {written} of {} ({}) to {}; {failed} failed{left_out}",
        count(total, "file", "files"),
        count(bytes, "byte", "bytes"),
        output.display()
    );
    Ok(Status::SomeFailed)
}

/// The files of `install` added or changed since the install `old` (from the two installs'
/// indexes, as `gamebin diff` finds them), in path order.
fn changed_files<'i>(
    install: &'i GameInstall,
    source: Source<'_>,
    old: Source<'_>,
) -> Result<Vec<InstallFile<'i>>> {
    let old_install = open_warned(old, files::install_mapping())?;
    let diff = InstallDiff::new(&old_install, install).map_err(|e| match e {
        InstallDiffError::Damaged { side, .. } | InstallDiffError::Entry { side, .. } => {
            let label = match side {
                DiffSide::Old => old.label(),
                DiffSide::New => source.label(),
            };
            anyhow!("{label}: {e}")
        }
        other => anyhow!("{} and {}: {other}", old.label(), source.label()),
    })?;
    let mut files = Vec::new();
    let mut path = String::new();
    for change in diff.changes() {
        if change.kind == ChangeKind::Removed {
            continue;
        }
        change.path.write_to(&mut path);
        // Found in the install the diff read its record from: not reached as `None`.
        if let Some(file) = install.find(&path).map_err(install_error)? {
            files.push(file);
        }
    }
    Ok(files)
}

/// Makes the folders of `folder` (a safe resource path) under `output`, one segment at a time:
/// a symbolic link among them is refused, not followed, so that nothing is written outside
/// `output` through a link already there. `made` holds the folders the threads have made or
/// checked already: the deepest of them on the way is where the work starts, and each folder
/// made or checked here is added to it.
fn make_folders(output: &Path, folder: &str, made: &Made) -> Result<()> {
    // The deepest folder on the way already made: `folder` itself, or a parent of it. The cut
    // points are `/` bytes, so every slice below falls on a character boundary.
    let mut start = 0usize;
    let mut end = folder.len();
    while let Some(prefix) = folder.get(..end) {
        let known = made_set(made).contains(prefix);
        if known {
            start = end + 1;
            break;
        }
        match prefix.rfind('/') {
            Some(slash) => end = slash,
            None => break,
        }
    }
    let Some(rest) = folder.get(start..) else {
        // `folder` itself is made already.
        return Ok(());
    };
    let mut at = output.to_path_buf();
    if let Some(parent) = start.checked_sub(1).and_then(|end| folder.get(..end)) {
        at.push(parent);
    }
    let mut done = start;
    for segment in rest.split('/') {
        at.push(segment);
        done += segment.len();
        // None: made here; Some: what was there already.
        let found = match std::fs::create_dir(&at) {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                std::fs::symlink_metadata(&at).map(|m| Some(m.file_type()))
            }
            Err(e) => bail!("cannot create {}: {e}", at.display()),
        };
        match found {
            Ok(None) => {}
            Ok(Some(kind)) if kind.is_dir() => {}
            Ok(Some(kind)) if kind.is_symlink() => bail!(
                "{} is a symbolic link: not followed (the file would be written outside the \
                 output folder); not written",
                at.display()
            ),
            Ok(Some(_)) => bail!("{} exists and is not a folder; not written", at.display()),
            Err(e) => bail!("cannot create {}: {e}", at.display()),
        }
        if let Some(path) = folder.get(..done) {
            made_set(made).insert(path.to_owned());
        }
        done += 1;
    }
    Ok(())
}

/// Reads one file (CRC-32 checked by the library) and writes it under `output`; its size.
fn extract_one(
    install: &GameInstall,
    worker: &mut Worker,
    made: &Made,
    item: &Item,
    output: &Path,
    force: bool,
) -> Result<u64> {
    let path = item.path.as_str();
    // The stored path must stay under the output folder when joined to it.
    if !gamebin::wows::is_safe_resource_path(path) {
        bail!(
            "{path}: the path would leave the output folder (an empty, `.` or `..` segment, a \
             backslash, a colon or a NUL); not written"
        );
    }
    // Only messages need the whole path under the output folder.
    let target = || output.join(path);
    // An existing file is refused when the file is created (create_in), not looked up first:
    // one path walk less a file (a statx was 8 % of the run, perf).
    let bytes = install
        .read(item.file, path, &mut worker.reader, &mut worker.buffer)
        .map_err(install_error)?;
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    if !folder.is_empty() {
        // The folder the last file went into (kept open) is made already: the shared set (and
        // its lock) is asked once a folder, not once a file. make_folders looks the set up
        // again (the lock is not held across the call).
        #[cfg(unix)]
        let open = worker
            .folder
            .as_ref()
            .is_some_and(|open| open.path == folder);
        #[cfg(not(unix))]
        let open = false;
        if !open && !made_set(made).contains(folder) {
            make_folders(output, folder, made).map_err(|e| anyhow!("{path}: {e:#}"))?;
        }
    }
    #[cfg(unix)]
    let created = open_folder(&mut worker.folder, output, folder)
        .and_then(|dir| create_in(dir, name, target, force));
    #[cfg(not(unix))]
    let created = {
        let _ = name;
        create_target(&target(), force)
    };
    created
        .and_then(|mut file| {
            file.write_all(bytes)
                .map_err(|e| anyhow!("cannot write {}: {e}", target().display()))
        })
        // As context, so that the batch can tell an existing file from other failures.
        .with_context(|| path.to_string())?;
    Ok(bytes.len() as u64)
}
/// The open folder `folder` of `output`: the one kept when it is the same, else opened (and
/// kept). It was made, or checked not to be a symbolic link, before (`make_folders`); it is
/// opened without following one all the same.
#[cfg(unix)]
fn open_folder<'f>(
    kept: &'f mut Option<OpenFolder>,
    output: &Path,
    folder: &str,
) -> Result<&'f rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    if kept.as_ref().is_none_or(|open| open.path != folder) {
        let at = output.join(folder);
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::open(&at, flags, Mode::empty())
            .map_err(|e| anyhow!("cannot open {}: {}", at.display(), io::Error::from(e)))?;
        *kept = Some(OpenFolder {
            path: folder.to_owned(),
            fd,
        });
    }
    kept.as_ref()
        .map(|open| &open.fd)
        .ok_or_else(|| anyhow!("cannot open {}", output.join(folder).display()))
}

/// Creates the file `name` in the open folder `dir` (`target` makes its path, for messages), as
/// `create_target` does: refused if it exists without `force`; with `force`, a symbolic link
/// there is replaced, never followed.
#[cfg(unix)]
fn create_in(
    dir: &rustix::fd::OwnedFd,
    name: &str,
    target: impl Fn() -> PathBuf,
    force: bool,
) -> Result<std::fs::File> {
    use rustix::fs::{AtFlags, Mode, OFlags};
    let mut flags =
        OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    if !force {
        flags |= OFlags::EXCL;
    }
    let open = || rustix::fs::openat(dir, name, flags, Mode::from_raw_mode(0o666));
    let opened = match open() {
        // NOFOLLOW: the last segment is a symbolic link (with --force: replaced).
        Err(rustix::io::Errno::LOOP) if force => {
            rustix::fs::unlinkat(dir, name, AtFlags::empty()).map_err(|e| {
                anyhow!(
                    "cannot replace {}: {}",
                    target().display(),
                    io::Error::from(e)
                )
            })?;
            open()
        }
        opened => opened,
    };
    match opened {
        Ok(fd) => Ok(std::fs::File::from(fd)),
        Err(rustix::io::Errno::EXIST) => Err(files::Exists(target()).into()),
        Err(e) => Err(anyhow!(
            "cannot create {}: {}",
            target().display(),
            io::Error::from(e)
        )),
    }
}

/// Creates the file `target` for writing where folders cannot be kept open: refused if it exists
/// without `force`; with `force`, a symbolic link there is replaced, never followed.
#[cfg(not(unix))]
fn create_target(target: &Path, force: bool) -> Result<std::fs::File> {
    // A symbolic link where the file goes is replaced (with --force), never followed.
    if force && std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::remove_file(target)
            .map_err(|e| anyhow!("cannot replace {}: {e}", target.display()))?;
    }
    files::create_new(target, force)
}

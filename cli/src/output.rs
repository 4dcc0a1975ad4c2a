//! Writing results: stdout that tolerates a closed pipe, errors on stderr.

use std::io::{self, Write};
use std::path::Path;

/// How a run ended when it did not fail as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Success,
    SomeFailed,
    /// The arguments ask for what the command cannot do, found past clap's parsing (such as
    /// `model` given a key with a .model source): exit status 2, as for clap's usage errors. The
    /// message is on stderr already.
    Usage,
}

/// Buffered stdout that notices when its reader goes away (`gamebin info … | head`).
///
/// Once the pipe is closed, [`Out::line`] returns a [`closed pipe`](is_closed_pipe) error, every
/// time: streaming loops stop at once by propagating it with `?` (or by checking
/// [`Out::is_closed`]), and `main` ends such a run quietly, without an error message.
pub struct Out {
    inner: io::BufWriter<io::StdoutLock<'static>>,
    closed: bool,
}

impl Out {
    pub fn new() -> Self {
        Out {
            inner: io::BufWriter::new(io::stdout().lock()),
            closed: false,
        }
    }

    /// Writes one line. A closed pipe is an error of kind `BrokenPipe` (now and on every later
    /// call): stop writing and working.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        if self.closed {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let result = self
            .inner
            .write_all(text.as_bytes())
            .and_then(|()| self.inner.write_all(b"\n"));
        self.note_closed_pipe(result)
    }

    /// Flushes; a pipe closed earlier is not an error here (the run already ended for it).
    pub fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        match self.note_closed_pipe(result) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }

    /// Whether the reader of stdout has gone away.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Notes a closed pipe; any other failure (a full disk behind `>file`) says it was stdout that
    /// could not be written, since the message is about no input file.
    fn note_closed_pipe<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                self.closed = true;
                e
            } else {
                io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
            }
        })
    }
}

/// Bytes as they come (a serializer writing a large document straight to stdout), with the same
/// closed-pipe rule as [`Out::line`]: the first write after the reader went away fails, and so
/// does every later one, which stops the serializer at once.
impl Write for Out {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let result = self.inner.write(bytes);
        self.note_closed_pipe(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        Out::flush(self)
    }
}

/// The list of the files a batch writes (`model`'s GLBs), on stdout. The export is the work and the list only
/// reports it: a reader going away (`| head`) ends the list, not the export (as `pfs extract`,
/// which lists nothing, goes on whatever becomes of stdout), so that the files written, the
/// summary and the exit status are those of the whole run. Another write error (a full disk
/// behind `>file`) ends the list too, and fails the run once the export is done.
#[derive(Default)]
pub struct Listing {
    failed: Option<io::Error>,
}

impl Listing {
    /// Lists one GLB written; flushed per line (a line per file is little next to the work), so
    /// that the list keeps up with the export.
    pub fn show(&mut self, out: &mut Out, line: &str) {
        if out.is_closed() || self.failed.is_some() {
            return;
        }
        if let Err(e) = out.line(line).and_then(|()| out.flush())
            && !out.is_closed()
        {
            self.failed = Some(e);
        }
    }

    /// The end of the list: the write error that ended it, if it was not the reader going away.
    pub fn finish(self, out: &mut Out) -> io::Result<()> {
        match self.failed {
            Some(e) => Err(e),
            None => out.flush(),
        }
    }
}

/// Whether `error` is stdout's reader going away (see [`Out`]): the run stops, but nothing failed.
pub fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `n` and the noun that goes with it: `1 plane`, `3 planes`, `0 planes`.
pub fn count(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// Files above which a progress bar is shown (on a terminal only).
const PROGRESS_THRESHOLD: usize = 200;

/// A progress bar over `files` files on stderr, hidden for short runs (and, by indicatif, when
/// stderr is not a terminal).
pub fn progress_bar(files: usize) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if files < PROGRESS_THRESHOLD {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr())
        .with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// How a command over one file ended: its error reported against `path` (exit status 1), or a
/// success; stdout's reader going away (`| head`) ends the run without failing it.
pub fn finish(path: &Path, result: anyhow::Result<()>) -> Status {
    match result {
        Ok(()) => Status::Success,
        Err(e) if is_closed_pipe(&e) => Status::Success,
        Err(e) => {
            report(path, &e);
            Status::SomeFailed
        }
    }
}

/// Reports a failed file on stderr: `gamebin: PATH: error`.
pub fn report(path: &Path, error: &anyhow::Error) {
    eprintln!("gamebin: {}: {error:#}", path.display());
}

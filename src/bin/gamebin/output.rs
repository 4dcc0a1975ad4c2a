//! Writing results: stdout that tolerates a closed pipe, errors on stderr.

use std::io::{self, Write};
use std::path::Path;

/// How a run ended when it did not fail as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Success,
    SomeFailed,
}

/// Buffered stdout. A closed pipe (`gamebin info … | head`) ends the output quietly instead of
/// failing.
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

    /// Writes one line; errors other than a closed pipe are returned.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self
            .inner
            .write_all(text.as_bytes())
            .and_then(|()| self.inner.write_all(b"\n"));
        self.absorb_closed_pipe(result)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.absorb_closed_pipe(result)
    }

    fn absorb_closed_pipe(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
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
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// Reports a failed file on stderr: `gamebin: PATH: error`.
pub fn report(path: &Path, error: &anyhow::Error) {
    eprintln!("gamebin: {}: {error:#}", path.display());
}

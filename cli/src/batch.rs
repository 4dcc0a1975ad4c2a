//! What a batch (`pfs extract`, `check` of an install, `model --prefix`, `model FOLDER`) says of
//! its failures: each is named on stderr, but failures that share one cause are named only a few
//! times and then counted, so that one cause does not print a line per file. Two causes are
//! shared: an output that exists (a batch run again into its own output) and a volume of an
//! install that cannot be read or ends early (every one of its files, tens of thousands in a
//! real install).

use std::collections::BTreeMap;

use crate::files::Exists;
use crate::install::InstallFailure;
use crate::output::count;

/// Failures of one shared cause named one by one; past these they are counted.
pub const NAMED: usize = 5;

/// The shared cause of a failure, if it has one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// The output exists and was left as it was.
    Exists,
    /// The file's volume (named so) cannot be read, or ends before the file.
    Volume(String),
}

impl Cause {
    /// The shared cause of `error`, if any.
    pub fn of(error: &anyhow::Error) -> Option<Cause> {
        if error.downcast_ref::<Exists>().is_some() {
            return Some(Cause::Exists);
        }
        let volume = error.downcast_ref::<InstallFailure>()?.volume.clone()?;
        Some(Cause::Volume(volume))
    }
}

/// Counts the failures of each shared cause.
#[derive(Debug, Default)]
pub struct Failures {
    causes: BTreeMap<Cause, usize>,
}

impl Failures {
    /// Whether `error` is to be named on stderr (a failure of a shared cause past its first few
    /// is only counted).
    pub fn is_named(&mut self, error: &anyhow::Error) -> bool {
        self.is_named_for(Cause::of(error))
    }

    /// [`is_named`](Self::is_named) for a failure whose cause is known.
    pub fn is_named_for(&mut self, cause: Option<Cause>) -> bool {
        let Some(cause) = cause else {
            return true;
        };
        let n = self.causes.entry(cause).or_default();
        *n += 1;
        *n <= NAMED
    }

    /// A line for each shared cause with failures not named.
    pub fn unnamed(&self) -> Vec<String> {
        let lines = self.causes.iter().filter(|&(_, &n)| n > NAMED);
        lines
            .map(|(cause, &n)| match cause {
                Cause::Exists => format!(
                    "{} exist and were not overwritten, the first {NAMED} named above (use \
                     --force to replace them)",
                    count(n, "output file", "output files")
                ),
                Cause::Volume(volume) => format!(
                    "{} of volume {volume} not read, the first {NAMED} named above (the \
                     volume cannot be read, or ends before them)",
                    count(n, "file", "files")
                ),
            })
            .collect()
    }
}

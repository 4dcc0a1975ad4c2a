//! A stdout or stderr that cannot be written (a full disk behind a redirection, here `/dev/full`)
//! does not make the CLI panic: the exit status still tells what happened.

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn dev_full() -> Option<std::fs::File> {
    OpenOptions::new().write(true).open("/dev/full").ok()
}

fn gamebin(args: &[&str], stdout: Stdio, stderr: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("run gamebin")
}

#[test]
fn a_full_stderr_keeps_the_exit_status() {
    let Some(full) = dev_full() else {
        eprintln!("no /dev/full on this system: skipped");
        return;
    };
    // A missing file is reported on stderr and fails the run with status 1.
    let out = gamebin(
        &["info", "fixtures/no-such-file.wdb"],
        Stdio::piped(),
        Stdio::from(full),
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn a_full_stdout_is_an_error_that_names_stdout() {
    let Some(full) = dev_full() else {
        eprintln!("no /dev/full on this system: skipped");
        return;
    };
    let out = gamebin(
        &["info", "fixtures/wap32-wwd"],
        Stdio::from(full),
        Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write to standard output"),
        "stderr: {stderr}"
    );
}

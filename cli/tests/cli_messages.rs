//! What `gamebin` says when an invocation goes wrong: each bad invocation's exit status, stdout and
//! stderr (temporary paths written as `$TMP`) against `tests/golden/cli/<case>.txt`. Re-bless with
//! `GAMEBIN_BLESS=1 cargo test --test cli_messages`, and read what you bless: each message must say
//! where (path, file offset), what and why. Also: a closed stdout pipe stops a run at once.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{at_repository_root, close_after_one_line, root, temp_dir, transcript};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(root().join("fixtures").join(name)).unwrap()
}

/// One bad invocation: `$TMP` in `args` is the case's temporary folder; `stdin` is piped in.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    stdin: Option<Vec<u8>>,
}

fn case(name: &'static str, args: &'static [&'static str]) -> Case {
    Case {
        name,
        args,
        stdin: None,
    }
}

/// The files the cases read, in `tmp`.
fn make_inputs(tmp: &Path) {
    std::fs::write(tmp.join("empty.geometry"), b"").unwrap();
    std::fs::write(tmp.join("empty"), b"").unwrap();
    let geometry = fixture("wows-geometry/ships_encd.geometry");
    std::fs::write(tmp.join("cut.geometry"), &geometry[..geometry.len() - 40]).unwrap();
    let assets = fixture("wows-assets/all_prototypes.assets.bin");
    std::fs::write(tmp.join("cut.assets.bin"), &assets[..assets.len() / 2]).unwrap();
    let mut project = fixture("craftstudio-project/every_type.Project.dat");
    project[0] = 7; // format version 7 instead of 9
    std::fs::create_dir_all(tmp.join("project")).unwrap();
    std::fs::write(tmp.join("project/Project.dat"), &project).unwrap();
    // What `wdb pack` is given by mistake: text of no kind under each kind's name, a JSON object
    // that is no dump, a zip that is no workbook, the .wdb itself.
    for name in ["garbage.xlsx", "garbage.csv", "garbage.json"] {
        std::fs::write(tmp.join(name), b"hello, garbage\n").unwrap();
    }
    std::fs::write(tmp.join("object.json"), b"{\"a\": 1}").unwrap();
    std::fs::write(tmp.join("zip.xlsx"), b"PK\x03\x04not a workbook").unwrap();
    std::fs::write(tmp.join("items.xlsx"), fixture("ff13-wdb/items.wdb")).unwrap();
    // A PFS index whose `content/gameplay` directory names a parent no record has (and whose
    // checksum then no longer matches), one cut short, and a file named .idx that is none.
    let mut idx = fixture("wows-pfs/system_data.idx");
    let parent = 0x38 + 2 * 32 + 0x18;
    idx[parent..parent + 8].copy_from_slice(&0x1111_u64.to_le_bytes());
    std::fs::write(tmp.join("damaged.idx"), &idx).unwrap();
    let idx = fixture("wows-pfs/system_data.idx");
    std::fs::write(tmp.join("cut.idx"), &idx[..0x50]).unwrap();
    std::fs::write(tmp.join("pack.idx"), b"\xfftOc\0\0\0\x02 a git pack index").unwrap();
    #[cfg(unix)]
    {
        let status = Command::new("mkfifo")
            .arg(tmp.join("fifo"))
            .status()
            .expect("run mkfifo");
        assert!(status.success());
    }
}

fn cases() -> Vec<Case> {
    let mut cases = vec![
        case("dump_directory", &["dump", "$TMP"]),
        case("info_missing_file", &["info", "$TMP/missing.geometry"]),
        case("info_empty_geometry", &["info", "$TMP/empty.geometry"]),
        case("info_empty_unnamed", &["info", "$TMP/empty"]),
        case("check_truncated_geometry", &["check", "$TMP/cut.geometry"]),
        case(
            "assets_ls_truncated",
            &["assets", "ls", "$TMP/cut.assets.bin"],
        ),
        case(
            "assets_get_no_such_path",
            &[
                "assets",
                "get",
                "fixtures/wows-assets/all_prototypes.assets.bin",
                "content/no/such.model",
            ],
        ),
        case(
            "info_damaged_project_dat",
            &["info", "$TMP/project/Project.dat"],
        ),
        case(
            "render_scale_zero",
            &[
                "wwd",
                "render",
                "fixtures/wap32-wwd/claw_small.wwd",
                "--scale",
                "0",
                "-o",
                "$TMP/out.png",
            ],
        ),
        case(
            "export_to_stdout",
            &[
                "export",
                "fixtures/wows-geometry/ships_encd.geometry",
                "-o",
                "-",
            ],
        ),
        case(
            "wdb_json_bad_field_letter",
            &[
                "wdb",
                "json",
                "fixtures/ff13-wdb/xiii1_cells.wdb",
                "--fields",
                "uA,price",
            ],
        ),
        case(
            "wdb_json_too_many_fields",
            &[
                "wdb",
                "json",
                "fixtures/ff13-wdb/xiii1_cells.wdb",
                "--fields",
                "uA,uB,uC,uD,uE,uF,uG,uH",
            ],
        ),
        case(
            "wdb_pack_garbage_xlsx",
            &["wdb", "pack", "$TMP/garbage.xlsx", "-o", "$TMP/out.wdb"],
        ),
        case(
            "wdb_pack_garbage_csv",
            &["wdb", "pack", "$TMP/garbage.csv", "-o", "$TMP/out.wdb"],
        ),
        case(
            "wdb_pack_garbage_json",
            &["wdb", "pack", "$TMP/garbage.json", "-o", "$TMP/out.wdb"],
        ),
        case(
            "wdb_pack_object_json",
            &["wdb", "pack", "$TMP/object.json", "-o", "$TMP/out.wdb"],
        ),
        case(
            "wdb_pack_zip_xlsx",
            &["wdb", "pack", "$TMP/zip.xlsx", "-o", "$TMP/out.wdb"],
        ),
        case(
            "wdb_pack_the_wdb_itself",
            &["wdb", "pack", "$TMP/items.xlsx", "-o", "$TMP/out.wdb"],
        ),
        case("info_idx", &["info", "fixtures/wows-pfs/system_data.idx"]),
        case("check_idx_folder", &["check", "fixtures/wows-pfs"]),
        case("check_damaged_idx", &["check", "$TMP/damaged.idx"]),
        case("info_cut_idx", &["info", "$TMP/cut.idx"]),
        case("info_named_idx_not_pfs", &["info", "$TMP/pack.idx"]),
        Case {
            name: "info_stdin",
            args: &["info", "-"],
            stdin: Some(fixture("wows-geometry/ships_encd.geometry")),
        },
        Case {
            name: "info_stdin_unknown",
            args: &["info", "-"],
            stdin: Some(b"not a game file".to_vec()),
        },
        Case {
            name: "dump_stdin_wdb",
            args: &["dump", "-"],
            stdin: Some(fixture("ff13-wdb/no_string.wdb")),
        },
    ];
    if cfg!(unix) {
        cases.push(case("info_fifo", &["info", "$TMP/fifo"]));
        cases.push(case("dump_fifo", &["dump", "$TMP/fifo"]));
        cases.push(case(
            "assets_pack_fifo",
            &["assets", "pack", "$TMP/fifo", "-o", "$TMP/fifo.assets.bin"],
        ));
    }
    cases
}

/// Runs a case with a time limit (a FIFO must be refused, not waited on).
fn run(case: &Case, tmp: &Path) -> String {
    let tmp_text = tmp.to_str().unwrap();
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| a.replace("$TMP", tmp_text))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(&args)
        .current_dir(root())
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamebin");
    if let Some(input) = &case.stdin {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
    }
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("{}: gamebin {args:?} did not end within 20 s", case.name);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    transcript(case.args, &out, tmp_text)
}

#[test]
fn bad_invocations_say_where_what_and_why() {
    at_repository_root();
    let bless = std::env::var_os("GAMEBIN_BLESS").is_some();
    let tmp = temp_dir("golden");
    make_inputs(&tmp);
    let mut differ = Vec::new();
    for case in cases() {
        let got = run(&case, &tmp);
        assert!(!got.contains("panicked"), "{}: {got}", case.name);
        let golden = root()
            .join("tests/golden/cli")
            .join(format!("{}.txt", case.name));
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test cli_messages",
                golden.display()
            )
        });
        if got != want {
            differ.push(format!(
                "{}: got\n{got}\nwant ({})\n{want}",
                case.name,
                golden.display()
            ));
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn a_closed_pipe_stops_the_run_at_once() {
    at_repository_root();
    // 3000 files and, last, one gamebin does not read: a run that went on after the pipe closed
    // would reach it and say it skipped it.
    let tmp = temp_dir("pipe");
    let geometry = fixture("wows-geometry/ships_encd.geometry");
    for n in 0..3000 {
        std::fs::write(tmp.join(format!("{n:04}.geometry")), &geometry).unwrap();
    }
    std::fs::write(tmp.join("zzzz-unknown"), b"not a game file").unwrap();
    let dir = tmp.to_str().unwrap();
    for command in ["info", "check"] {
        let (took, code, stderr) = close_after_one_line(&[command, dir]);
        assert_eq!(code, Some(0), "{command}: {stderr}");
        assert!(!stderr.contains("skipped"), "{command} went on: {stderr}");
        assert!(stderr.is_empty(), "{command}: {stderr}");
        assert!(took < Duration::from_secs(10), "{command}: {took:?}");
    }

    let assets = tmp.join("small.assets.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["synth", "assets", "--scale", "small", "-o"])
        .arg(&assets)
        .output()
        .unwrap();
    assert!(out.status.success());
    let assets = assets.to_str().unwrap();
    for args in [
        &["assets", "ls", assets][..],
        &["dump", "--json", assets],
        &["dump", "--json", "--complete", assets],
        &["dump", assets],
        &["assets", "unpack", assets],
    ] {
        let (took, code, stderr) = close_after_one_line(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert!(took < Duration::from_secs(10), "{args:?}: {took:?}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn no_mmap_reads_the_same() {
    at_repository_root();
    let mapped = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["info", "--json", "fixtures"])
        .current_dir(root())
        .output()
        .unwrap();
    let read = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["info", "--no-mmap", "--json", "fixtures"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(mapped.status.success() && read.status.success());
    assert!(!read.stdout.is_empty());
    assert_eq!(mapped.stdout, read.stdout);
}

#[test]
fn info_help_says_it_reads_headers_only() {
    at_repository_root();
    let out = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["info", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("reads headers only"), "{help}");
    assert!(help.contains("gamebin check"), "{help}");
    for format in [
        ".geometry",
        "assets.bin",
        ".wdb",
        ".wwd",
        ".wdata",
        "Project.dat",
    ] {
        assert!(help.contains(format), "info --help lacks {format}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["dump", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for format in [
        ".geometry",
        "assets.bin",
        ".wdb",
        ".wwd",
        ".wdata",
        "Project.dat",
    ] {
        assert!(help.contains(format), "dump --help lacks {format}");
    }
}

/// `gamebin info` of `path`, or of standard input fed `stdin`: exit code and stderr.
fn info_of(path: &str, stdin: Option<&[u8]>) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["info", path])
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_cut_file_on_stdin_gets_the_error_its_name_would_give() {
    at_repository_root();
    let tmp = temp_dir("cut-stdin");
    // Formats with a magic number, cut inside their header or first table; a `.geometry` (no
    // magic number) cut past its fixed header.
    for (fixture_name, keep) in [
        ("ff13-wdb/items.wdb", 100),
        ("wap32-wwd/claw_small.wwd", 60),
        ("wows-assets/all_prototypes.assets.bin", 60),
        ("wows-geometry/ambiguous_pairing.geometry", 100),
    ] {
        let cut = &fixture(fixture_name)[..keep];
        let named = tmp.join(Path::new(fixture_name).file_name().unwrap());
        std::fs::write(&named, cut).unwrap();
        let (code, by_name) = info_of(named.to_str().unwrap(), None);
        assert_eq!(code, Some(1), "{fixture_name} by name: {by_name}");
        let (code, by_stdin) = info_of("-", Some(cut));
        assert_eq!(code, Some(1), "{fixture_name} on stdin: {by_stdin}");
        // The reader's own words (from the offset on) are the same either way.
        let reader = |message: &str| message.find(": at 0x").map(|at| message[at..].to_owned());
        assert!(reader(&by_name).is_some(), "{fixture_name}: {by_name}");
        assert_eq!(reader(&by_stdin), reader(&by_name), "{fixture_name}");
    }
    // Bytes with no magic number and no header of any format stay unrecognised.
    let (code, text) = info_of("-", Some(&[0xa5; 300]));
    assert_eq!(code, Some(1));
    assert!(text.contains("not a format gamebin reads"), "{text}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

//! `gamebin model` and `gamebin synth assets --res` end to end: a small synthetic world written by
//! the CLI, exported whole (`--prefix`) and one model at a time; what the batch says about the
//! world's two deliberate faults, a missing resource root and an existing output against
//! `tests/golden/cli/model_*.txt` (temporary paths as `$TMP`; re-bless with
//! `GAMEBIN_BLESS=1 cargo test --test cli_model`). The GLBs are read back with the `gltf` crate;
//! `assets get` gives the full paths of path ids, checked against `assets ls`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{at_repository_root, gamebin, root};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder with the small world written by `gamebin synth assets --scale small --res`.
fn world(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamebin-cli-model-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let assets = dir.join("assets.bin");
    let res = dir.join("res");
    let out = gamebin(&[
        "synth",
        "assets",
        "--scale",
        "small",
        "-o",
        assets.to_str().unwrap(),
        "--res",
        res.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

/// The run as a golden text: the command, exit status, stdout and stderr, `$TMP` for `tmp`.
fn transcript(args: &[&str], out: &Output, tmp: &Path) -> String {
    let tmp = tmp.to_str().unwrap();
    let normalise = |bytes: &[u8]| text(bytes).replace(tmp, "$TMP");
    format!(
        "$ gamebin {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" ").replace(tmp, "$TMP"),
        out.status.code().map_or(-1, |c| c),
        normalise(&out.stdout),
        normalise(&out.stderr)
    )
}

fn golden(name: &str, got: &str) {
    let path = root().join("tests/golden/cli").join(format!("{name}.txt"));
    if std::env::var_os("GAMEBIN_BLESS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test cli_model",
            path.display()
        )
    });
    assert_eq!(got, want, "{}", path.display());
}

#[test]
fn a_batch_exports_every_model_and_names_the_faults() {
    at_repository_root();
    let dir = world("batch");
    let (assets, res, out) = (dir.join("assets.bin"), dir.join("res"), dir.join("glb"));
    let args = [
        "model",
        assets.to_str().unwrap(),
        "--prefix",
        "content/gameplay/",
        "--res",
        res.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let run = gamebin(&args);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    // Every GLB named on stdout exists and reads back with one scene per model.
    let written: Vec<String> = text(&run.stdout).lines().map(str::to_owned).collect();
    let models = text(
        &gamebin(&[
            "assets",
            "ls",
            assets.to_str().unwrap(),
            "content/gameplay/",
        ])
        .stdout,
    )
    .lines()
    .filter(|l| l.contains("\tModelPrototype\t"))
    .count();
    assert_eq!(written.len(), models - 2);
    for file in written.iter().step_by(17) {
        let gltf = gltf::Gltf::open(file).unwrap();
        assert_eq!(gltf.scenes().count(), 1, "{file}");
        assert!(gltf.meshes().count() > 0, "{file}");
    }
    // stdout lists files in path-table order, which the golden need not repeat.
    let stderr_only = Output {
        stdout: Vec::new(),
        ..run
    };
    golden("model_batch_faults", &transcript(&args, &stderr_only, &dir));

    // Again: every file exists, nothing is overwritten without --force.
    let again = gamebin(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("exists; not overwritten"));
    assert!(again.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_model_by_path_or_id_with_its_lods() {
    at_repository_root();
    let dir = world("one");
    let (assets, res) = (dir.join("assets.bin"), dir.join("res"));
    let glb = dir.join("ship.glb");
    let model = "content/gameplay/japan/ship/destroyer/J00000/J00000.model";
    let mut args = vec![
        "model",
        assets.to_str().unwrap(),
        model,
        "--res",
        res.to_str().unwrap(),
        "-o",
        glb.to_str().unwrap(),
    ];
    let out = gamebin(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    golden("model_one", &transcript(&args, &out, &dir));
    let gltf = gltf::Gltf::open(&glb).unwrap();
    assert_eq!(gltf.scenes().count(), 1);
    // The visual's LOD 0 draws its six render sets (`assets get` says so).
    let visual = model.replace(".model", ".visual");
    let got = gamebin(&["assets", "get", assets.to_str().unwrap(), &visual]);
    let v: serde_json::Value = serde_json::from_slice(&got.stdout).unwrap();
    let lod0 = v["prototype"]["lods"][0]["render_sets"].as_array().unwrap();
    assert_eq!(gltf.meshes().count(), lod0.len());
    let nodes = v["prototype"]["nodes"].as_array().unwrap().len();
    assert_eq!(gltf.nodes().count(), nodes + lod0.len());

    // Not overwritten without --force.
    let refused = gamebin(&args);
    golden("model_exists", &transcript(&args, &refused, &dir));

    // By id, every LOD as its own scene.
    let id = text(&gamebin(&["assets", "get", assets.to_str().unwrap(), model]).stdout);
    let id: serde_json::Value = serde_json::from_str(&id).unwrap();
    let id = id["id"].as_str().unwrap().to_owned();
    args[2] = &id;
    args.extend(["--lod", "all", "--force"]);
    let out = gamebin(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let gltf = gltf::Gltf::open(&glb).unwrap();
    let lods = v["prototype"]["lods"].as_array().unwrap();
    assert_eq!(gltf.scenes().count(), lods.len());

    // The faulty ones, alone.
    let missing = "content/gameplay/usa/ship/destroyer/U00001/U00001.model";
    let (missing_glb, nowhere, x_glb) = (
        dir.join("missing.glb"),
        dir.join("nowhere"),
        dir.join("x.glb"),
    );
    let args = [
        "model",
        assets.to_str().unwrap(),
        missing,
        "--res",
        res.to_str().unwrap(),
        "-o",
        missing_glb.to_str().unwrap(),
    ];
    golden(
        "model_missing_geometry",
        &transcript(&args, &gamebin(&args), &dir),
    );
    let args = [
        "model",
        assets.to_str().unwrap(),
        "content/gameplay/japan/ship/destroyer/J00000/J00000.model",
        "--res",
        nowhere.to_str().unwrap(),
        "-o",
        x_glb.to_str().unwrap(),
    ];
    golden("model_no_res", &transcript(&args, &gamebin(&args), &dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, item 2: `model … --prefix … | head -1` wrote 3 of 200 GLBs, printed no summary and
/// exited 0. A closed stdout ends the listing only (as `pfs extract` goes on whatever becomes of
/// stdout): every model is still exported, the summary is printed, and the exit status is the
/// whole run's (1: the world's two deliberate faults).
#[test]
fn a_closed_pipe_ends_the_listing_not_the_export() {
    at_repository_root();
    let dir = world("pipe");
    let (assets, res, out) = (dir.join("assets.bin"), dir.join("res"), dir.join("glb"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args([
            "model",
            assets.to_str().unwrap(),
            "--prefix",
            "content/",
            "--res",
            res.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--textures",
            "none",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.ends_with(".glb\n"), "{line}");
    drop(stdout);
    let result = child.wait_with_output().unwrap();
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(&format!(
            "gamebin: exported 198 of 200 models to {}; 2 failed (1 geometry file missing, 1 \
             vertices mapping not in its geometry)\n",
            out.display()
        )),
        "{stderr}"
    );
    assert_eq!(walk(&out), 198);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| {
                let path = e.path();
                if path.is_dir() { walk(&path) } else { 1 }
            })
            .sum()
    })
}

#[test]
fn assets_get_gives_the_paths_of_path_ids() {
    at_repository_root();
    let file = "fixtures/wows-assets/all_prototypes.assets.bin";
    // The ids and paths as `assets ls` lists them.
    let listed = text(&gamebin(&["assets", "ls", file]).stdout);
    let id_of = |path: &str| {
        listed
            .lines()
            .find(|l| l.ends_with(&format!("\t{path}")))
            .and_then(|l| l.split('\t').next())
            .unwrap()
            .to_owned()
    };
    let out = gamebin(&["assets", "get", file, "content/gameplay/Test.visual"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["prototype"];
    assert_eq!(p["merged_geometry_path"], "content/gameplay/Test.geometry");
    assert_eq!(
        p["merged_geometry_path_id"],
        id_of("content/gameplay/Test.geometry").as_str()
    );
    let mfm = p["render_sets"][0]["material_mfm_path"].as_str().unwrap();
    assert_eq!(
        p["render_sets"][0]["material_mfm_path_id"],
        id_of(mfm).as_str()
    );
    let out = gamebin(&["assets", "get", file, "content/gameplay/Test.model"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["prototype"]["visual_resource_path"],
        "content/gameplay/Test.visual"
    );
    // A texture id the path table lacks: its path is null, the id stays.
    let out = gamebin(&["assets", "get", file, "content/gameplay/Test.mfm"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let texture = &v["prototype"]["properties"][0];
    assert_eq!(texture["value"], "0xdeadbeefcafef00d");
    assert_eq!(texture["path"], serde_json::Value::Null);
}

/// Runs `gamebin ARGS` from the repository root and kills it after `limit`: `None` when it had
/// to be killed (it hung).
fn within(args: &[&str], limit: Duration) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Issue 49, item 1: `model FIFO` (alone, with a key, with --prefix) blocked opening the FIFO
/// until killed. It is refused at once, as every other command refuses it.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    at_repository_root();
    let dir = world("fifo");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (fifo, res) = (fifo.to_str().unwrap(), dir.join("res"));
    let (res, out) = (res.to_str().unwrap(), dir.join("m.glb"));
    let out = out.to_str().unwrap();
    let key = "content/gameplay/japan/ship/destroyer/J00000/J00000.model";
    for args in [
        vec!["model", fifo, "--res", res, "-o", out],
        vec!["model", fifo, key, "--res", res, "-o", out],
        vec![
            "model", fifo, "--prefix", "content/", "--res", res, "-o", out,
        ],
    ] {
        let run = within(&args, Duration::from_secs(5)).unwrap_or_else(|| panic!("{args:?} hung"));
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert_eq!(
            text(&run.stderr),
            format!(
                "gamebin: {fifo}: is a FIFO (named pipe), not a regular file: gamebin does not \
                 wait on pipes; to read a stream, pipe it to standard input and name the file -\n"
            ),
            "{args:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, item 3: a missing file, an empty file and a `.geometry` all got the usage message
/// "name the model to export … or --prefix for a batch" (exit status 2). Each is now said for
/// what it is (exit status 1), and only a real assets.bin without a key gets the usage message.
#[test]
fn the_input_is_said_for_what_it_is() {
    at_repository_root();
    let dir = world("inputs");
    let (res, out) = (dir.join("res"), dir.join("x.glb"));
    let (res, out) = (res.to_str().unwrap(), out.to_str().unwrap());
    std::fs::write(dir.join("empty.bin"), b"").unwrap();
    let geometry = std::fs::read("fixtures/wows-geometry/mixed_formats.geometry").unwrap();
    std::fs::write(dir.join("cut.geometry"), &geometry[..100]).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let key = "content/gameplay/japan/ship/destroyer/J00000/J00000.model";
    let to_export = "a .geometry file (meshes without a model): export its meshes with gamebin \
                     export FILE -o OUT.glb; model reads an assets.bin or a .model source";
    let cases: [(String, Option<&str>, i32, &str); 8] = [
        (
            path("nonexist"),
            None,
            1,
            "cannot open: No such file or directory (os error 2)",
        ),
        (
            path("nonexist"),
            Some(key),
            1,
            "cannot open: No such file or directory (os error 2)",
        ),
        (
            path("empty.bin"),
            None,
            1,
            "empty (0 bytes): there is nothing to read",
        ),
        (
            path("empty.bin"),
            Some(key),
            1,
            "empty (0 bytes): there is nothing to read",
        ),
        (
            "fixtures/wows-geometry/mixed_formats.geometry".into(),
            None,
            1,
            to_export,
        ),
        (path("cut.geometry"), Some(key), 1, to_export),
        (
            "fixtures/dds/bc1_mips.dds".into(),
            None,
            1,
            "a dds file: model reads an assets.bin or a .model source",
        ),
        (
            path("assets.bin"),
            None,
            2,
            "name the model to export (an id or a full path) or --prefix for a batch",
        ),
    ];
    for (file, key, status, message) in &cases {
        let mut args = vec!["model", file.as_str()];
        args.extend(key);
        args.extend(["--res", res, "-o", out]);
        let run = gamebin(&args);
        assert_eq!(run.status.code(), Some(*status), "{args:?}");
        assert_eq!(
            text(&run.stderr),
            format!("gamebin: {file}: {message}\n"),
            "{args:?}"
        );
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, item 5: `model ASSETS KEY -o newdir/` failed with "cannot create newdir/: Is a
/// directory" unless the folder existed, though `-o` may name a folder. A trailing `/` names a
/// folder: it is made (parents too) and the GLB named after the model goes in it.
#[test]
fn an_output_folder_named_with_a_slash_is_made() {
    at_repository_root();
    let dir = world("new-folder");
    let (assets, res) = (dir.join("assets.bin"), dir.join("res"));
    let folder = format!("{}/new/sub/", dir.display());
    let args = [
        "model",
        assets.to_str().unwrap(),
        "content/gameplay/japan/ship/destroyer/J00000/J00000.model",
        "--res",
        res.to_str().unwrap(),
        "-o",
        &folder,
    ];
    let run = gamebin(&args);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let glb = dir.join("new/sub/J00000.glb");
    assert_eq!(text(&run.stdout), format!("{folder}J00000.glb\n"));
    assert_eq!(gltf::Gltf::open(&glb).unwrap().scenes().count(), 1);
    // A model that cannot be exported leaves no folder behind.
    let folder = format!("{}/none/", dir.display());
    let missing = "content/gameplay/usa/ship/destroyer/U00001/U00001.model";
    let mut args = args;
    args[2] = missing;
    args[6] = &folder;
    assert_eq!(gamebin(&args).status.code(), Some(1));
    assert!(!dir.join("none").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

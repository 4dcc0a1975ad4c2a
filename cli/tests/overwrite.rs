//! The README's rule, for every command that writes files: an existing output file is not
//! replaced without `--force` (exit status 1, a message naming the file and the flag, the file
//! untouched), and is replaced with it. The commands are found in `gamebin --help` (every
//! subcommand with an output option must take `--force` and be tried here), so a new writing
//! command without a case fails this test.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{at_repository_root, gamebin, leaf_commands, root, stderr, temp_dir, write_install};

/// What is put where a command is about to write: it must still be there after the run without
/// `--force`, and gone after the run with it.
const KEEP: &[u8] = b"an existing file gamebin must not replace without --force\n";

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn run(args: &[&str]) -> Output {
    gamebin(args)
}

/// One writing command: its arguments without `--force`, and the file it would replace.
struct Case {
    command: &'static str,
    args: Vec<String>,
    existing: PathBuf,
    /// What the refusal says instead of "exists; not overwritten" (a folder refused as a whole).
    refusal: &'static str,
}

fn case(command: &'static str, args: &[&str], existing: &Path) -> Case {
    Case {
        command,
        args: args.iter().map(|a| a.to_string()).collect(),
        existing: existing.to_path_buf(),
        refusal: "exists; not overwritten (use --force to replace it)",
    }
}

/// Writes `gamebin ARGS`'s stdout to `path` (the dumps the pack commands read).
fn stdout_to(args: &[&str], path: &Path) {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    std::fs::write(path, &out.stdout).unwrap();
}

/// The first file a run that succeeded listed on stdout (the files it wrote, one per line).
fn first_written(args: &[&str]) -> PathBuf {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    PathBuf::from(text.lines().next().expect("a file written"))
}

#[test]
fn no_writing_command_replaces_a_file_without_force() {
    at_repository_root();
    let tmp = temp_dir("overwrite");
    let t = |name: &str| tmp.join(name);
    let fixture = |name: &str| root().join("fixtures").join(name);
    let geometry = fixture("wows-geometry/ships_encd.geometry");
    let wdb = fixture("ff13-wdb/items.wdb");
    let wdata = fixture("rusty-hearts-wdata/v06-sections.wdata");
    let wwd = fixture("wap32-wwd/claw_small.wwd");
    let assets = fixture("wows-assets/all_prototypes.assets.bin");

    // The inputs of the pack commands, made by the commands whose output they read.
    stdout_to(&["dump", "--json", arg(&wdb)], &t("items.json"));
    stdout_to(&["dump", "--json", arg(&geometry)], &t("ships.json"));
    stdout_to(&["dump", "--json", arg(&wdata)], &t("map.json"));
    let tmx = t("level.tmx");
    assert!(
        run(&["wwd", "tiled", arg(&wwd), "-o", arg(&tmx)])
            .status
            .success()
    );
    let unpacked = t("assets_in.json");
    assert!(
        run(&["assets", "unpack", arg(&assets), "-o", arg(&unpacked)])
            .status
            .success()
    );
    // A small synthetic world for `model`.
    let (world_assets, world_res) = (t("world/assets.bin"), t("world/res"));
    let out = run(&[
        "synth",
        "assets",
        "--scale",
        "small",
        "-o",
        arg(&world_assets),
        "--res",
        arg(&world_res),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Commands writing into a folder: one of the files a first run wrote is put back as KEEP.
    let obj = first_written(&["export", arg(&geometry), "-o", arg(&t("obj"))]);
    let batch = first_written(&[
        "model",
        arg(&world_assets),
        "--prefix",
        "content/gameplay/japan",
        "--res",
        arg(&world_res),
        "-o",
        arg(&t("batch")),
    ]);

    // A small game install for `pfs extract`, extracted once: one of its files is put back.
    let install = t("install");
    write_install(
        &install,
        1,
        &[
            ("content/a.xml", b"<a/>", true),
            ("gui/b.png", b"png bytes", false),
        ],
    );
    let out = run(&["pfs", "extract", arg(&install), "-o", arg(&t("pfs"))]);
    assert!(out.status.success(), "{}", stderr(&out));

    let model_one = "content/gameplay/japan/ship/destroyer/J00000/J00000.model";
    let mut cases = vec![
        case(
            "export",
            &["export", arg(&geometry), "-o", arg(&t("out.glb"))],
            &t("out.glb"),
        ),
        case(
            "export",
            &["export", arg(&geometry), "-o", arg(&t("obj"))],
            &obj,
        ),
        case(
            "model",
            &[
                "model",
                arg(&world_assets),
                model_one,
                "--res",
                arg(&world_res),
                "-o",
                arg(&t("one.glb")),
            ],
            &t("one.glb"),
        ),
        case(
            "model",
            &[
                "model",
                arg(&world_assets),
                "--prefix",
                "content/gameplay/japan",
                "--res",
                arg(&world_res),
                "-o",
                arg(&t("batch")),
            ],
            &batch,
        ),
        case(
            "wdb pack",
            &[
                "wdb",
                "pack",
                arg(&t("items.json")),
                "-o",
                arg(&t("out.wdb")),
            ],
            &t("out.wdb"),
        ),
        case(
            "wdb csv",
            &["wdb", "csv", arg(&wdb), "-o", arg(&t("out.csv"))],
            &t("out.csv"),
        ),
        case(
            "wdb xlsx",
            &["wdb", "xlsx", arg(&wdb), "-o", arg(&t("out.xlsx"))],
            &t("out.xlsx"),
        ),
        case(
            "geometry pack",
            &[
                "geometry",
                "pack",
                arg(&t("ships.json")),
                "-o",
                arg(&t("out.geometry")),
            ],
            &t("out.geometry"),
        ),
        case(
            "wdata pack",
            &[
                "wdata",
                "pack",
                arg(&t("map.json")),
                "-o",
                arg(&t("out.wdata")),
            ],
            &t("out.wdata"),
        ),
        case(
            "wwd render",
            &["wwd", "render", arg(&wwd), "-o", arg(&t("out.png"))],
            &t("out.png"),
        ),
        case(
            "wwd tiled",
            &["wwd", "tiled", arg(&wwd), "-o", arg(&t("out.tmx"))],
            &t("out.tmx"),
        ),
        case(
            "texture",
            &[
                "texture",
                arg(&fixture("dds/bc7_dx10.dds")),
                "-o",
                arg(&t("texture.png")),
            ],
            &t("texture.png"),
        ),
        case(
            "wwd from-tiled",
            &["wwd", "from-tiled", arg(&tmx), "-o", arg(&t("out.wwd"))],
            &t("out.wwd"),
        ),
        case(
            "assets unpack",
            &["assets", "unpack", arg(&assets), "-o", arg(&t("out.json"))],
            &t("out.json"),
        ),
        case(
            "assets pack",
            &["assets", "pack", arg(&unpacked), "-o", arg(&t("out.bin"))],
            &t("out.bin"),
        ),
        case(
            "synth assets",
            &[
                "synth",
                "assets",
                "--scale",
                "small",
                "-o",
                arg(&t("synth.bin")),
            ],
            &t("synth.bin"),
        ),
        case(
            "pfs extract",
            &["pfs", "extract", arg(&install), "-o", arg(&t("pfs"))],
            &t("pfs/gui/b.png"),
        ),
        case(
            "params export",
            &[
                "params",
                "export",
                "fixtures/wows-gameparams/GameParams.data",
                "-o",
                arg(&t("params.json")),
            ],
            &t("params.json"),
        ),
        case(
            "synth params",
            &[
                "synth",
                "params",
                "--scale",
                "small",
                "-o",
                arg(&t("GameParams.data")),
            ],
            &t("GameParams.data"),
        ),
    ];
    // --split: one file per entry, the first entry's file already there.
    std::fs::create_dir_all(t("split/Ship/Japan/Destroyer")).unwrap();
    cases.push(case(
        "params export",
        &[
            "params",
            "export",
            "fixtures/wows-gameparams/GameParams.data",
            "--split",
            arg(&t("split")),
        ],
        &t("split/Ship/Japan/Destroyer/PJSD012_Shimakaze_1943.json"),
    ));
    // --res into a folder that holds anything is refused as a whole (which files the world
    // replaces is known only once it is generated).
    std::fs::create_dir_all(t("res2")).unwrap();
    cases.push(Case {
        refusal: "exists and is not empty; not written into (use --force",
        ..case(
            "synth assets",
            &[
                "synth",
                "assets",
                "--scale",
                "small",
                "-o",
                arg(&t("synth2.bin")),
                "--res",
                arg(&t("res2")),
            ],
            &t("res2/notes.txt"),
        )
    });
    std::fs::create_dir_all(t("game2")).unwrap();
    cases.push(Case {
        refusal: "exists and is not empty; not written into (use --force",
        ..case(
            "synth install",
            &[
                "synth",
                "install",
                "--scale",
                "small",
                "-o",
                arg(&t("game2")),
            ],
            &t("game2/notes.txt"),
        )
    });

    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        std::fs::write(&case.existing, KEEP).unwrap();
        let out = run(&args);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(said.contains(case.refusal), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert_eq!(
            std::fs::read(&case.existing).unwrap(),
            KEEP,
            "{args:?} replaced {} without --force",
            case.existing.display()
        );
        let mut forced = args.clone();
        forced.push("--force");
        let out = run(&forced);
        assert!(out.status.success(), "{forced:?}: {}", stderr(&out));
        if case.refusal.contains("not written into") {
            // The folder's own file stays; the world is written beside it.
            let folder = case.existing.parent().unwrap();
            let entries = std::fs::read_dir(folder).unwrap().count();
            assert!(
                entries > 1,
                "{forced:?} wrote nothing into {}",
                folder.display()
            );
        } else {
            assert_ne!(
                std::fs::read(&case.existing).unwrap(),
                KEEP,
                "{forced:?} did not replace {}",
                case.existing.display()
            );
        }
    }

    // Every command with an output option takes --force and has a case above.
    let mut commands = Vec::new();
    leaf_commands(&[], &mut commands);
    assert!(commands.len() > 10, "{commands:?}");
    for command in &commands {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let help = String::from_utf8(run(&args).stdout).unwrap();
        if !help.contains("--output") {
            continue;
        }
        let name = command.join(" ");
        assert!(
            help.contains("--force"),
            "{name} writes files but has no --force"
        );
        assert!(
            cases.iter().any(|c| c.command == name),
            "{name} writes files but is not tried here"
        );
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// An existing folder where a file is to be written is named as a folder, with or without
/// `--force` (no flag replaces a folder by a file, so none is suggested); the folder is left
/// as it was. Before, `texture good.dds -o adir` said "adir exists; not overwritten (use --force
/// to replace it)", and with `--force` "cannot create adir: Is a directory".
#[test]
fn a_folder_where_a_file_is_wanted_is_named_as_a_folder() {
    at_repository_root();
    let tmp = temp_dir("overwrite-folder");
    let folder = tmp.join("adir");
    std::fs::create_dir(&folder).unwrap();
    let want = format!(
        "gamebin: fixtures/dds/bc1_mips.dds: {} is a folder; a file is written here: name the \
         file to write\n",
        folder.display()
    );
    for force in [false, true] {
        let mut args = vec!["texture", "fixtures/dds/bc1_mips.dds", "-o", arg(&folder)];
        if force {
            args.push("--force");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), want, "{args:?}");
        assert!(folder.is_dir());
    }
    // The check shared by every writer, when the folder is not seen before the work either.
    let out = run(&[
        "export",
        "fixtures/wows-geometry/mixed_formats.geometry",
        "-o",
        arg(&folder),
        "--format",
        "glb",
        "--force",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("adir is a folder; a file is written here"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

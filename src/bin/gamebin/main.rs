//! `gamebin`: read game data files in place from the command line.
//!
//! Exit status: 0 when every file was read, 1 when any file failed (each error on stderr, with its
//! file offset; the other files are still processed), 2 for usage errors.

mod assets;
mod assets_get;
mod assets_ls;
mod check;
mod craftstudio;
mod craftstudio_check;
mod dump;
mod export;
mod files;
mod geometry;
mod info;
mod output;
mod parallel;
mod render;
mod synth;
mod wdata;
mod wdb;
mod wdb_pack;
mod wwd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Read game data files in place: World of Warships .geometry and assets.bin, Final Fantasy XIII
/// .wdb, Claw / Gruntz .wwd levels, Rusty Hearts .wdata maps and CraftStudio Project.dat (more
/// formats to come).
///
/// Formats are detected by content, never by file name.
#[derive(Debug, Parser)]
#[command(name = "gamebin", version, about, long_about = None, propagate_version = true)]
#[command(
    after_help = "Examples:\n  gamebin info fixtures\n  gamebin info --json ~/games/wows/res \
                        > inventory.jsonl\n  gamebin dump --json ship.geometry\n  gamebin export ship.geometry -o ship.glb\n  \
                        gamebin assets ls assets.bin content/gameplay/japan\n  \
                        gamebin wdb pack item.json -o item.wdb\n  gamebin wwd render RETAIL01.WWD -o level1.png\n  \
                        gamebin craftstudio check MyProject/"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Read files into memory instead of mapping them. A mapped file that another process
    /// truncates while gamebin reads it kills gamebin (SIGBUS, "Bus error"); use this for files
    /// that may change while they are read (downloads, game updates, files being edited).
    #[arg(long, global = true)]
    no_mmap: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// One summary line per file, from its headers and tables: info reads headers only and does
    /// not walk every structure, so a damaged file can look fine here; `gamebin check` walks
    /// everything.
    ///
    /// .geometry: counts of buffers, mappings, models, vertices, indices. assets.bin: strings,
    /// paths, prototypes, databases and records, checksum. .wdb: game, sheet, records, fields,
    /// record size, sections. .wwd: game, compression, planes, main block size, objects, tile
    /// properties, checksum, WapMap's block. .wdata: version, EventBox version, EventBoxes in all
    /// and by type, AniBG, item boxes, gimmicks, the trigger layout found and its triggers, scenes,
    /// scene resources. Project.dat: name, entries, folders, assets, trashed, controls, trailing
    /// bytes.
    ///
    /// Directories are walked recursively; files in them whose format is not recognised are
    /// skipped (and counted on stderr). A file named on the command line must be recognised, and
    /// must be a regular file (FIFOs and devices are refused); `-` reads standard input.
    Info {
        /// Files or directories; `-` for standard input.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
        /// Read .wwd levels whose header signature is not 0x5F4 (normally an error, as every
        /// good level has it); everything else in the level is still checked. A damaged level is
        /// then recognised by its .wwd name, since content detection relies on the signature.
        #[arg(long)]
        ignore_signature: bool,
    },
    /// Everything the reader decodes from one file.
    ///
    /// .geometry: buffers (with the bounds of their decoded positions), mappings, draws, collision
    /// and armor models. assets.bin (streamed): header facts, strings, every path with its full
    /// path and prototype, every record decoded. .wdb: WDBJsonTool's layout, one object per
    /// record. .wwd: header, planes with their tiles and objects, tile properties, WapMap's block.
    /// .wdata: the whole map with every name as text. Project.dat: header, game controls and the
    /// entries as a tree.
    Dump {
        /// The file (a regular file; `-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// One JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Read .wwd levels whose header signature is not 0x5F4 (normally an error, as every
        /// good level has it); everything else in the level is still checked. A damaged level is
        /// then recognised by its .wwd name, since content detection relies on the signature.
        #[arg(long)]
        ignore_signature: bool,
    },
    /// Walks every structure of every file and reports what is wrong (errors, exit 1) and what
    /// the reader tolerated or could not decide (warnings).
    ///
    /// For a .geometry every buffer is decoded and every draw paired and checked (each index
    /// below its vertex count); warnings name index-size fields stored swapped, pairings the data
    /// could not decide and vertex mappings no draw uses. Directories are walked recursively.
    Check {
        /// Files or directories; `-` for standard input.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// One JSON object per line (`path`, `format`, `errors`, `warnings`) instead of text.
        #[arg(long)]
        json: bool,
        /// Read .wwd levels whose header signature is not 0x5F4.
        #[arg(long)]
        ignore_signature: bool,
    },
    /// Exports the meshes of a .geometry for Blender and other tools: one binary glTF (-o
    /// OUT.glb) or one Wavefront OBJ per draw in a folder (-o DIR).
    ///
    /// Every draw whose data are sound is exported; draws that cannot be (an index beyond its
    /// vertices, a buffer that does not decode, an index mapping no vertex mapping fits) are
    /// reported on stderr and the exit status is 1. Pairings the data could not decide are
    /// reported too. Coordinates are converted from the game's left-handed, Y-up space to the
    /// right-handed, Y-up space of glTF and OBJ (X mirrored, triangles rewound); UVs from the
    /// stored `uv - 0.5` (top-left origin in glTF, bottom-left in OBJ). GLB meshes carry
    /// positions (with bounds), normals, tangents, one or two UV sets and, for skinned formats,
    /// joints and weights. Existing files are not overwritten without --force.
    #[command(
        after_help = "Examples:\n  gamebin export ship.geometry -o ship.glb\n  \
                      gamebin export ship.geometry -o ship.glb --armor\n  \
                      gamebin export ship.geometry -o ship.glb"
    )]
    Export {
        /// The .geometry file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The GLB to write (a name ending in .glb) or the folder for OBJ files (created if
        /// missing).
        #[arg(short, long, value_name = "OUT.glb|DIR", value_parser = files::not_stdin)]
        output: PathBuf,
        /// The output format; default: glb when OUT ends in .glb, obj otherwise.
        #[arg(long, value_enum)]
        format: Option<export::ExportFormat>,
        /// Export the armor models too (a mesh per model, a primitive or group per BVH node with
        /// its armor material id and layer).
        #[arg(long)]
        armor: bool,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
    },
    /// Final Fantasy XIII .wdb databases: JSON export with supplied field names, and repacking.
    #[command(subcommand)]
    Wdb(WdbCommand),
    /// CraftStudio project tools.
    #[command(subcommand)]
    Craftstudio(CraftStudioCommand),
    /// Rusty Hearts .wdata maps: packing the JSON of `dump --json` back into a map.
    Wdata {
        #[command(subcommand)]
        command: WdataCommand,
    },
    /// Claw / Gruntz .wwd levels.
    Wwd {
        #[command(subcommand)]
        command: WwdCommand,
    },
    /// World of Warships assets.bin: look prototypes up and list paths.
    Assets {
        #[command(subcommand)]
        command: AssetsCommand,
    },
    /// Writes synthetic files for benchmarks and tests.
    Synth {
        #[command(subcommand)]
        command: SynthCommand,
    },
}

#[derive(Debug, Subcommand)]
enum WdbCommand {
    /// Packs the JSON of `gamebin dump --json FILE.wdb` (WDBJsonTool's layout), edited or not,
    /// into a .wdb.
    ///
    /// Records are written sorted by name and counted; a value that does not fit its field's bit
    /// width is an error. Strings are laid out afresh, so an unedited file reads back to the same
    /// JSON, though its !!string bytes may be ordered differently.
    #[command(
        after_help = "Example:\n  gamebin dump --json item.wdb > item.json\n  \
                            (edit item.json)\n  gamebin wdb pack item.json -o item.wdb"
    )]
    Pack {
        /// The JSON file.
        #[arg(value_name = "FILE.json")]
        json: PathBuf,
        /// The .wdb to write.
        #[arg(short, long, value_name = "FILE.wdb", value_parser = files::not_stdin)]
        output: PathBuf,
    },
    /// Prints the JSON of a .wdb like `dump --json`, decoding the records with field names you
    /// supply (XIII-1 files have none; without names their cells are shown raw).
    Json {
        /// The .wdb file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Comma-separated field names, e.g. `uPrice,sName,u4Kind,i12Power`.
        #[arg(long, value_delimiter = ',', value_name = "NAMES", value_parser = wdb::field_name)]
        fields: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum WdataCommand {
    /// Packs the JSON of `gamebin dump --json FILE.wdata`, edited or not, into a .wdata map.
    ///
    /// An unedited dump packs to the very bytes it was dumped from. Every field the file stores is
    /// in the JSON (strings with every stored code unit, so the signature ends in \u0000); the
    /// keys `dump` adds about the file it read (path, format, size, sections, event_box_offsets,
    /// trigger_layout) are skipped, and any other unknown key is an error. Edits are checked
    /// against the map's versions: a field the version does not store must be left out, one it
    /// stores must be there, and a list or string too long for its count is refused. The error
    /// names the structure and field, and the offset in the output where it would go.
    #[command(
        after_help = "Examples:\n  gamebin dump --json town.wdata > town.json\n  \
                            (edit town.json)\n  gamebin wdata pack town.json -o town.wdata --force\n\n  \
                            gamebin wdata pack town.json -o town-edited.wdata"
    )]
    Pack {
        /// The JSON file (`-` for standard input).
        #[arg(value_name = "FILE.json")]
        json: PathBuf,
        /// The .wdata to write.
        #[arg(short, long, value_name = "FILE.wdata", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
enum CraftStudioCommand {
    /// Maps every asset in a project folder's Project.dat to its files
    /// (`Assets/<Kind>/<id>/Current.<ext>` and `<revision id>.<ext>`) and reports files of live
    /// assets that are missing and files under Assets/ that no entry accounts for.
    ///
    /// Trashed assets' files are accounted for but not required. Exit status 0 when nothing is
    /// missing or orphaned, 1 otherwise (or when Project.dat cannot be read).
    Check {
        /// The project folder (the one holding Project.dat), or its Project.dat.
        #[arg(value_name = "DIR", value_parser = files::not_stdin)]
        dir: PathBuf,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum WwdCommand {
    /// Draws one plane of a level as a PNG: each tile coloured by its tile property's attribute
    /// (clear, solid, ground, climb, death, user attributes; double and mask tiles pixel by pixel),
    /// invisible and filled tiles distinct, objects marked as yellow squares, and a legend.
    ///
    /// Only the main plane has tile properties; other planes show their tiles in grey. By default
    /// the picture shows the part of the plane in use (tiles that are not invisible, and objects,
    /// with a 2-tile margin; the legend gives the tile range shown) and the scale makes it about
    /// 4096 pixels wide (2 to 16 pixels per tile), so a whole Claw level fits.
    Render {
        /// The .wwd level.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The plane to draw (e.g. Action, Background, Front); default: the main plane.
        #[arg(long, value_name = "NAME")]
        plane: Option<String>,
        /// Pixels per tile (1 to 64); default: automatic.
        #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..=64))]
        scale: Option<u32>,
        /// The PNG to write.
        #[arg(short, long, value_name = "PNG", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Draw the whole plane instead of the part in use (by default the picture is cropped to
        /// the tiles that are not invisible and the objects, with a margin of 2 tiles).
        #[arg(long)]
        no_crop: bool,
        /// Read .wwd levels whose header signature is not 0x5F4 (normally an error, as every
        /// good level has it); everything else in the level is still checked. A damaged level is
        /// then recognised by its .wwd name, since content detection relies on the signature.
        #[arg(long)]
        ignore_signature: bool,
    },
}

#[derive(Debug, Subcommand)]
enum AssetsCommand {
    /// One prototype as JSON, names resolved. KEY is a resource id (`0x…` or decimal) or a full
    /// path (`content/…`; a leading `res/` is dropped), looked up by its CityHash64 and, if the
    /// file's ids are not path hashes, by walking the path table.
    Get {
        /// The assets.bin (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// A resource id, `0x…` hex or decimal (e.g. `0x2b1a3c4d5e6f7081`), or a full path such
        /// as `content/gameplay/japan/ship/battleship/JSB039_Yamato_1945/JSB039_Yamato_1945.model`
        /// (a leading `res/` is dropped).
        #[arg(value_name = "ID|PATH")]
        key: String,
    },
    /// Every full path with its id and prototype type, one per line (streamed), optionally only
    /// those starting with PREFIX.
    Ls {
        /// The assets.bin (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// List only full paths that start with this text, e.g. `content/gameplay/japan` (a
        /// leading `res/` is dropped); default: every path.
        #[arg(value_name = "PREFIX")]
        prefix: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ScaleArg {
    /// The real file's table sizes (246,065 paths, about 170 MB).
    Full,
    /// About a hundredth of it, for quick tests.
    Small,
}

#[derive(Debug, Subcommand)]
enum SynthCommand {
    /// A deterministic assets.bin (the same bytes on every run).
    Assets {
        #[arg(long, value_enum, default_value = "full")]
        scale: ScaleArg,
        /// Output file.
        #[arg(short, long, value_name = "FILE", value_parser = files::not_stdin)]
        output: PathBuf,
    },
}

fn read_options(ignore_signature: bool) -> files::ReadOptions {
    files::ReadOptions { ignore_signature }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    files::set_no_mmap(cli.no_mmap);
    let outcome = match cli.command {
        Command::Info {
            paths,
            json,
            ignore_signature,
        } => info::run(&paths, json, read_options(ignore_signature)),
        Command::Dump {
            file,
            json,
            ignore_signature,
        } => dump::run(&file, json, read_options(ignore_signature)),
        Command::Check {
            paths,
            json,
            ignore_signature,
        } => check::run(&paths, json, read_options(ignore_signature)),
        Command::Export {
            file,
            output,
            format,
            armor,
            force,
        } => export::run(
            &file,
            &output,
            &export::Settings {
                format,
                armor,
                force,
            },
        ),
        Command::Wdb(WdbCommand::Pack { json, output }) => wdb_pack::run(&json, &output),
        Command::Wdb(WdbCommand::Json { file, fields }) => wdb::json(&file, &fields),
        Command::Wdata {
            command:
                WdataCommand::Pack {
                    json,
                    output,
                    force,
                },
        } => wdata::pack_run(&json, &output, force),
        Command::Craftstudio(CraftStudioCommand::Check { dir, json }) => {
            craftstudio_check::run(&dir, json)
        }
        Command::Wwd {
            command:
                WwdCommand::Render {
                    file,
                    plane,
                    scale,
                    output,
                    no_crop,
                    ignore_signature,
                },
        } => render::run(
            &file,
            &render::Settings {
                plane: plane.as_deref(),
                scale,
                crop: !no_crop,
                read: read_options(ignore_signature),
            },
            &output,
        ),
        Command::Assets {
            command: AssetsCommand::Get { file, key },
        } => assets_get::run(&file, &key),
        Command::Assets {
            command: AssetsCommand::Ls { file, prefix },
        } => assets_ls::run(&file, prefix.as_deref()),
        Command::Synth {
            command: SynthCommand::Assets { scale, output },
        } => synth::run_assets(
            match scale {
                ScaleArg::Full => gamebin::write::assets_synth::Scale::Full,
                ScaleArg::Small => gamebin::write::assets_synth::Scale::Small,
            },
            &output,
        ),
    };
    match outcome {
        Ok(output::Status::Success) => ExitCode::SUCCESS,
        Ok(output::Status::SomeFailed) => ExitCode::from(1),
        // Stdout's reader went away (`| head`): the run stopped there; nothing failed.
        Err(e) if output::is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gamebin: {e:#}");
            ExitCode::from(1)
        }
    }
}

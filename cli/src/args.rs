//! The command line's grammar: every clap type of `gamebin` (the top-level `Cli`, the `Command`
//! enum, each subcommand's enum and argument structs, the value enums and value parsers). Their
//! doc comments are the `--help` texts, so a change to one is a change to the help. Nothing here
//! runs a command: `main` hands each parsed command to its module.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use gamebin::wows::resolve::gltf::LodChoice;
use gamebin::wows::textures::TextureMode;

use crate::files;
use crate::install::Source;
use crate::wdb;

/// Read game data files in place: World of Warships .geometry, assets.bin and game installs
/// (.idx/.pkg archives), Final Fantasy XIII .wdb, Claw / Gruntz .wwd levels, Rusty Hearts .wdata
/// maps and CraftStudio Project.dat (more formats to come).
///
/// Formats are detected by content, never by file name.
#[derive(Debug, Parser)]
#[command(name = "gamebin", version, about, long_about = None, propagate_version = true)]
#[command(
    after_help = "Examples:\n  gamebin info fixtures\n  gamebin info --json ~/games/wows/res \
                        > inventory.jsonl\n  gamebin dump --json ship.geometry\n  gamebin export ship.geometry -o ship.glb\n  \
                        gamebin assets ls assets.bin content/gameplay/japan\n  \
                        gamebin pfs extract ~/games/wows content/gameplay/japan -o res\n  \
                        gamebin assets unpack assets.bin -o assets.json\n  \
                        gamebin wdb pack item.json -o item.wdb\n  gamebin wwd render RETAIL01.WWD -o level1.png\n  \
                        gamebin craftstudio check MyProject/"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Read files into memory instead of mapping them. A mapped file that another process
    /// truncates while gamebin reads it stops gamebin (SIGBUS: on Linux a message naming the
    /// file and exit status 1, elsewhere "Bus error"); use this for files that may change while
    /// they are read (downloads, game updates, files being edited).
    #[arg(long, global = true)]
    pub no_mmap: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
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
    /// skipped (and counted on stderr; model sources, .model, .visual and .mfm, apart: gamebin
    /// model reads them); a folder with no files is said to be empty on stderr. Neither fails the
    /// run (exit status 0 when nothing else did). A file named on the command line must be recognised, and
    /// must be a regular file (FIFOs and devices are refused); `-` reads standard input. A World
    /// of Warships game folder (one holding bin/ and res_packages/) is summarised as an install
    /// (its indexes, files, names and conflicting ids).
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
    /// and armor models; with --json also "model", every field and blob the file stores, which
    /// `gamebin geometry pack` writes back. assets.bin (streamed): header facts, strings, every path with its full
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
        /// With --json, an assets.bin's records in their complete form: an effect's systems as
        /// hex text (one string each) and a velocity field's velocities listed, where the plain
        /// form gives their counts. Only the complete form of a record reads back (in the model
        /// of `gamebin assets unpack`). Other formats' JSON summarizes nothing and is the same
        /// with or without it.
        #[arg(long, requires = "json")]
        complete: bool,
        /// Read .wwd levels whose header signature is not 0x5F4 (normally an error, as every
        /// good level has it); everything else in the level is still checked. A damaged level is
        /// then recognised by its .wwd name, since content detection relies on the signature.
        #[arg(long)]
        ignore_signature: bool,
    },
    /// Compares two files of one format structurally, or two game installs, and lists what
    /// changed, one line each: `~ path: before -> after`, `+ path: value`, `- path: value`.
    ///
    /// Two World of Warships game folders (or two builds of one: GAME@BUILD, since the game
    /// keeps the previous build's indexes under bin/BUILD/ after an update): what changed in the
    /// update, from the two installs' indexes alone (no archive is unpacked). One line per file,
    /// sorted by path: `+ PATH` added, `- PATH` removed, `~ PATH: SIZE bytes, crc32 CRC -> SIZE
    /// bytes, crc32 CRC` changed (a change that keeps the size is told by the CRC-32); unchanged
    /// files are not listed, and the counts go to stderr. Then the changes inside the files read
    /// field by field, one line each, prefixed by the file: content/assets.bin's prototypes
    /// (`~ content/assets.bin::PATH/field: before -> after`) and content/GameParams.data's
    /// entries (`~ content/GameParams.data::ENTRY.field: before -> after`). Exit status 0 whether or not anything changed, 1 on errors
    /// (an install that does not open, an index that does not read, two installs that share no
    /// file; damage inside one file's inner diff is named for that file, the other lines still
    /// printed).
    ///
    /// .wdb: by record name and field (and the header sections: sheet name, version, type
    /// lists, field names); the !!string pool's layout is not compared, values are.
    ///
    /// assets.bin: by path (prototypes added, removed and changed, and which fields).
    ///
    /// .geometry: buffers (format, counts, bounds), mappings by id, draws by index mapping, and
    /// each draw's vertex data and indices (how many differ, the first).
    ///
    /// .wwd: header fields, planes by name (header, image sets, changed tiles as rectangles,
    /// objects by id), tile properties by tile id; offsets, sizes and the checksum follow from
    /// the rest and are not compared, and compressed levels are compared inflated.
    ///
    /// .wdata: by section and entry (AniBG, item boxes and gimmicks by name, triggers by name,
    /// the other sections' entries by position).
    ///
    /// Project.dat: the header, the game controls, and the entries by their path in the
    /// project's tree.
    ///
    /// Exit status for two files as diff's: 0 when equal, 1 when different, 2 on errors (a file
    /// unreadable or damaged, two files of different formats, or a format diff does not compare).
    #[command(after_help = "Examples:\n  gamebin diff item.wdb item_edited.wdb\n  \
                            gamebin diff --json item.wdb item_edited.wdb > changes.json\n  \
                            gamebin diff LEVEL1.WWD LEVEL1_edited.WWD\n  \
                            gamebin diff ~/games/wows@7708495 ~/games/wows\n  \
                            gamebin diff old_wows/ new_wows/ --only files --prefix content/gameplay\n  \
                            gamebin diff old_wows/ new_wows/ --only assets --json > assets_changes.json")]
    Diff {
        /// The first file or game folder (the "before"; GAME@BUILD for an older build of GAME).
        #[arg(value_name = "A")]
        a: PathBuf,
        /// The second file or game folder (the "after").
        #[arg(value_name = "B")]
        b: PathBuf,
        /// One JSON document. Two files: {"format", "equal", "changes": [{"path", "kind",
        /// "before", "after"}]}. Two installs: {"old", "new", "files": [{"sign", "kind", "path",
        /// "before", "after"} with before and after {"size", "crc32"} or null], "inner":
        /// [{"file", "changes": [{"path", "kind", "before", "after"}], "error"}]}.
        #[arg(long)]
        json: bool,
        /// Two installs: only the file lines, or only the changes inside content/GameParams.data
        /// or content/assets.bin.
        #[arg(long, value_enum, value_name = "WHAT")]
        only: Option<crate::diff_install::Only>,
        /// Two installs: only the files under PREFIX (whole segments: `content/gui` is not
        /// `content/guide`); `FILE::INNER` keeps the changes inside FILE under INNER
        /// (`content/assets.bin::content/gameplay/japan`).
        #[arg(long, value_name = "PREFIX")]
        prefix: Option<String>,
    },
    /// Walks every structure of every file and reports what is wrong (errors, exit 1) and what
    /// the reader tolerated or could not decide (warnings).
    ///
    /// For a .geometry every buffer is decoded and every draw paired and checked (each index
    /// below its vertex count); warnings name index-size fields stored swapped, pairings the data
    /// could not decide and vertex mappings no draw uses. Directories are walked recursively.
    ///
    /// A World of Warships game folder (one holding bin/ and res_packages/) is checked as an
    /// install: every file in its archives is read and its CRC-32 checked, on every core.
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
    /// Draws that cannot be exported (an index beyond its vertices, a buffer that does not
    /// decode, an index mapping no vertex mapping fits) and, with --armor, armor models that do
    /// not read are each named on stderr, the exit status is 1 and nothing is written, unless
    /// --partial asks for the rest anyway. Pairings the data could not decide are reported, and
    /// without --armor so are armor models that do not read (a warning: they are not exported). Coordinates are converted from the game's left-handed, Y-up space to the
    /// right-handed, Y-up space of glTF and OBJ (X mirrored, triangles rewound); UVs from the
    /// stored `uv - 0.5` (top-left origin in glTF, bottom-left in OBJ). GLB meshes carry
    /// positions (with bounds), normals, tangents, one or two UV sets and, for skinned formats,
    /// joints and weights. Existing files are not overwritten without --force.
    #[command(
        after_help = "Examples:\n  gamebin export ship.geometry -o ship.glb\n  \
                      gamebin export ship.geometry -o ship.glb --armor\n  \
                      gamebin export ship.geometry -o ship_obj/   (one .obj per draw)\n  \
                      gamebin export damaged.geometry -o part.glb --partial   (what can be exported)"
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
        format: Option<ExportFormat>,
        /// Export the armor models too (a mesh per model, a primitive or group per BVH node with
        /// its armor material id and layer).
        #[arg(long)]
        armor: bool,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        /// When some draws or armor models cannot be exported, write the others anyway (a
        /// partial result; the exit status is still 1). Without it nothing is written then.
        #[arg(long)]
        partial: bool,
    },
    /// Final Fantasy XIII .wdb databases: JSON, CSV and XLSX export (field names supplied for
    /// XIII-1), and repacking from any of them.
    #[command(subcommand)]
    Wdb(WdbCommand),
    /// CraftStudio project tools.
    #[command(subcommand)]
    Craftstudio(CraftStudioCommand),
    /// World of Warships .geometry: packing the JSON of `dump --json` back into a file.
    Geometry {
        #[command(subcommand)]
        command: GeometryCommand,
    },
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
    /// World of Warships assets.bin: look prototypes up, list paths, and unpack the whole file
    /// to JSON and pack it back.
    Assets {
        #[command(subcommand)]
        command: AssetsCommand,
    },
    /// Exports World of Warships models as GLB: a ModelPrototype (or VisualPrototype) of an
    /// assets.bin, its node hierarchy, LODs, render sets and materials, with the meshes of the
    /// .geometry files under the game's res/ folder; or a mod's model from its XML sources
    /// (X.model, recognised by content: its .visual, .mfm, .geometry and .dds under ROOT).
    ///
    /// A .model source: `gamebin model X.model --res ROOT -o X.glb` (no KEY, no --prefix), every
    /// path inside the files relative to ROOT; the classic `<parent>` chain gives its LODs; each
    /// material's albedo, metallic/gloss, normal and ambient occlusion maps become glTF's base
    /// colour, metallic-roughness, normal and occlusion textures (converted as cli/README.md's
    /// "Textures" says), embedded as PNG (--textures external: PNG files under textures/ beside the GLB;
    /// none: no images), within --max-texture pixels. A folder instead of X.model exports every
    /// top model under it, in parallel, each texture decoded once for all.
    ///
    /// One model: KEY (an id, `0x…` or decimal, or a full path such as
    /// `content/gameplay/japan/ship/destroyer/JSD011/JSD011.model`) to OUT.glb (or OUTDIR/NAME.glb
    /// when -o names a folder). A batch: every model whose full path starts with --prefix, one GLB
    /// each under OUTDIR (at its full path, `.model` → `.glb`), on every core, with progress on a
    /// terminal; each model that fails is reported (the model, the render set and the missing
    /// piece), the others are still exported, and a summary counts the failures by kind.
    ///
    /// Each GLB holds one scene per LOD exported (LOD 0 unless --lod says otherwise): the
    /// visual's nodes with their matrices, each render set of the LOD as a mesh on its first node
    /// (skinned render sets as a skin over their nodes), materials named by their .mfm path with
    /// their properties as extras and their maps as textures (read under --res, or out of the
    /// install when --res names a game folder; a texture missing is a warning, the model is still
    /// exported). Coordinates are converted to glTF's right-handed space as by `gamebin export`.
    /// Exit status 1 when any model failed. Existing files are not overwritten without --force.
    ///
    /// Standard output lists each GLB written. When its reader goes away (`| head`), the listing
    /// ends but the export does not: every model is still exported, and the summary on standard
    /// error and the exit status are those of the whole run, as for `pfs extract`.
    #[command(after_help = "Examples:\n  \
        gamebin model assets.bin content/gameplay/japan/ship/destroyer/JSD011/JSD011.model \
        --res ~/wows/res -o akizuki.glb\n  \
        gamebin model assets.bin 0x0df5a921212a899e --res ~/wows/res -o akizuki.glb --lod all\n  \
        gamebin model assets.bin --prefix content/gameplay/japan/ship --res ~/wows/res -o glb/ \
        --textures external --max-texture 1024\n  \
        gamebin model ~/wows::content/assets.bin --prefix content/gameplay/japan/ship --res ~/wows -o glb/\n  \
        gamebin synth assets --scale small -o world/assets.bin --res world/res && \
        gamebin model world/assets.bin --prefix content/ --res world/res -o world/glb\n  \
        gamebin model mod/res/PnFMods/X/gun/gun.model --res mod/res -o gun.glb --lod all\n  \
        gamebin model mod/res/PnFMods/X --res mod/res -o glb/ --textures external")]
    Model(ModelArgs),
    /// Decodes one level of a DDS texture (BC1–BC7 or uncompressed) to an RGBA PNG.
    ///
    /// By default the top level of slice 0. --mip picks a mip level; --max-size the largest
    /// level whose sides fit, looking first at the texture's larger tiers beside it (World of
    /// Warships keeps levels above 512 px in `.dd2`, `.dd1` and `.dd0` files of the same stem).
    /// BC4 is written as grey, BC5 as red and green, BC6H clamped to 0..1; see the library's
    /// `dds` docs for every format's channels. Existing files are not overwritten without --force.
    #[command(
        after_help = "Examples:\n  gamebin texture ship_a.dds -o ship_a.png\n  \
                            gamebin texture ship_n.dds -o ship_n_64.png --mip 2\n  \
                            gamebin texture hull_a.dds -o hull_a.png --max-size 2048   (the .dd1 tier if it exists)"
    )]
    Texture {
        /// The .dds file (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The PNG to write.
        #[arg(short, long, value_name = "OUT.png", value_parser = files::not_stdin)]
        output: PathBuf,
        /// The mip level, 0 the largest.
        #[arg(long, value_name = "N", conflicts_with = "max_size")]
        mip: Option<u32>,
        /// The array slice or cube face (faces in the order +X, -X, +Y, -Y, +Z, -Z).
        #[arg(long, value_name = "N", default_value_t = 0)]
        slice: u32,
        /// The largest width and height wanted, in pixels: the largest tier or mip level within it.
        #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..))]
        max_size: Option<u32>,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// World of Warships game installs (PFS archives: `.idx` indexes and `.pkg` volumes): list,
    /// read and extract the files inside, without unpacking the game first.
    Pfs {
        #[command(subcommand)]
        command: PfsCommand,
    },
    /// World of Warships GameParams.data (every ship, gun, shell and consumable): export it as
    /// the JSON dataminers use, list its entries, look one up.
    Params {
        #[command(subcommand)]
        command: ParamsCommand,
    },
    /// Writes synthetic files for benchmarks and tests.
    Synth {
        #[command(subcommand)]
        command: SynthCommand,
    },
}

/// What `gamebin model` is given (its help is the `Model` command's doc comment), in one struct:
/// handed whole to the code that chooses between an assets.bin and XML sources.
#[derive(Debug, clap::Args)]
pub struct ModelArgs {
    /// The assets.bin (`-` for standard input; `GAME::content/assets.bin` for the one inside
    /// the game install GAME), or a .model source.
    #[arg(value_name = "ASSETS|X.model")]
    pub file: PathBuf,
    /// The model (or visual) to export: an id (`0x…` or decimal) or a full path (a leading
    /// `res/` is dropped).
    #[arg(value_name = "ID|PATH", conflicts_with = "prefix")]
    pub key: Option<String>,
    /// Export every model whose full path starts with PREFIX (e.g. `content/gameplay/japan`);
    /// with a folder of .model sources, every top model under it whose path under --res does.
    #[arg(long, value_name = "PREFIX")]
    pub prefix: Option<String>,
    /// The resource root: the game's res/ folder (holding content/) or the folder holding it;
    /// or a game folder (holding bin/ and res_packages/), whose .geometry files are then
    /// read out of its volumes.
    #[arg(long, value_name = "DIR|GAME", value_parser = files::not_stdin)]
    pub res: PathBuf,
    /// The GLB to write (one model; a folder, existing or named with a trailing `/`, gets
    /// `<model name>.glb` in it), or the folder for the GLBs (--prefix, a folder of sources).
    /// A folder named is created if missing.
    #[arg(short, long, value_name = "OUT.glb|OUTDIR", value_parser = files::not_stdin)]
    pub output: PathBuf,
    /// The level of detail to export, or `all` for every LOD as its own scene.
    #[arg(long, value_name = "N|all", default_value = "0", value_parser = parse_lod)]
    pub lod: gamebin::wows::resolve::gltf::LodChoice,
    /// With --prefix: export the VisualPrototypes under the prefix instead of the models.
    #[arg(long, requires = "prefix")]
    pub visuals: bool,
    /// The materials' textures: `embed` their maps (`_a`, `_mg`, `_n`, `_ao`) in the GLB as
    /// PNG, write them as `external` PNG files under textures/ beside the GLB (beside OUTDIR's
    /// GLBs for a batch; files already there with the same bytes are kept), or `none` (the
    /// paths stay in the materials' extras).
    #[arg(
        long,
        value_enum,
        default_value = "embed",
        value_name = "embed|external|none"
    )]
    pub textures: Textures,
    /// The largest side of a texture, in pixels: the largest tier (.dd0/.dd1/.dd2) or mip
    /// level within it.
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_texture: Option<u32>,
    /// Replace existing files.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Subcommand)]
pub enum WdbCommand {
    /// Packs a dump of a .wdb, edited or not, into a .wdb: the JSON of `gamebin dump --json`
    /// (WDBJsonTool's layout), or the CSV or XLSX of `gamebin wdb csv|xlsx` (told apart by
    /// content).
    ///
    /// An unedited dump packs back byte for byte (the dump carries the !!string pool and the
    /// string arrays as stored). Records are written sorted by name and counted. A value that
    /// does not fit its bit field, a float in an integer column, a duplicate or over-long record
    /// name or a missing column is an error naming the record and the field, and nothing is
    /// written.
    #[command(
        after_help = "Examples:\n  gamebin dump --json item.wdb > item.json\n  \
                            (edit item.json)\n  gamebin wdb pack item.json -o item.wdb --force\n  \
                            gamebin wdb xlsx item.wdb -o item.xlsx\n  \
                            (edit item.xlsx in a spreadsheet)\n  gamebin wdb pack item.xlsx -o new_item.wdb"
    )]
    Pack {
        /// The dump: .json, .csv or .xlsx (- reads standard input).
        #[arg(value_name = "FILE")]
        input: PathBuf,
        /// The .wdb to write.
        #[arg(short, long, value_name = "FILE.wdb", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Prints the JSON of a .wdb like `dump --json`, decoding the records with field names you
    /// supply (XIII-1 files have none; without names their cells are shown raw).
    #[command(
        after_help = "Examples:\n  gamebin wdb json ability.wdb --fields uPrice,sName,u4Kind,i12Power\n  \
                            gamebin wdb json ability.wdb --fields names.txt\n  \
                            gamebin wdb json xiii1_item.wdb --fields-from xiii2_item.wdb"
    )]
    Json {
        /// The .wdb file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[command(flatten)]
        fields: FieldArgs,
    },
    /// Writes a .wdb as CSV: a header row of field names, a row of types, a row per record,
    /// then `!` rows with what the records do not say (pack it back with `wdb pack`).
    ///
    /// Floats are the shortest decimal that reads back to the same f32; XIII-1's bit-packed
    /// cells (without names) are 0x… words; string-array fields show their strings.
    #[command(after_help = "Example:\n  gamebin wdb csv item.wdb -o item.csv\n  \
                            (edit item.csv)\n  gamebin wdb pack item.csv -o item.wdb --force")]
    Csv {
        /// The .wdb file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The CSV file to write.
        #[arg(short, long, value_name = "FILE.csv", value_parser = files::not_stdin)]
        output: PathBuf,
        #[command(flatten)]
        fields: FieldArgs,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Writes a .wdb as an XLSX workbook: the records on sheet `records` (field names, then
    /// types, as two header rows), what the records do not say on sheet `wdb`.
    ///
    /// The workbook is dated now, or at SOURCE_DATE_EPOCH (seconds since 1970) when that is
    /// set: the same file and date give the same bytes.
    #[command(after_help = "Example:\n  gamebin wdb xlsx item.wdb -o item.xlsx\n  \
                            (edit item.xlsx)\n  gamebin wdb pack item.xlsx -o item.wdb --force\n  \
                            SOURCE_DATE_EPOCH=0 gamebin wdb xlsx item.wdb -o item.xlsx  (reproducible)")]
    Xlsx {
        /// The .wdb file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The XLSX file to write.
        #[arg(short, long, value_name = "FILE.xlsx", value_parser = files::not_stdin)]
        output: PathBuf,
        #[command(flatten)]
        fields: FieldArgs,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
}

/// Field names for files without them (XIII-1), or to override a file's own.
#[derive(Debug, clap::Args)]
pub struct FieldArgs {
    /// Comma-separated field names, e.g. `uPrice,sName,u4Kind,i12Power`, or a file of names
    /// (one per line or comma-separated; an item with a `.` or `/` is a file).
    #[arg(long, value_delimiter = ',', value_name = "NAMES|FILE", value_parser = wdb::field_name)]
    fields: Vec<String>,
    /// Take the field names of an XIII-2/LR .wdb of the same sheet (its type list must be
    /// this file's).
    #[arg(long, value_name = "OTHER.wdb", conflicts_with = "fields")]
    fields_from: Option<PathBuf>,
}

impl FieldArgs {
    pub fn source(self) -> wdb::FieldSource {
        wdb::FieldSource {
            fields: self.fields,
            fields_from: self.fields_from,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum GeometryCommand {
    /// Packs the JSON of `gamebin dump --json FILE.geometry`, edited or not, into a .geometry.
    ///
    /// The dump's "model" key holds every field the file stores: the vertex buffers (format
    /// name, stride, skinned and bumped flags, blob), the index buffers (index size, reserved,
    /// blob), the two mapping tables (id, buffer, texel density, first item, item count), the
    /// collision and armor models (name, payload) and blob_padding; blobs are lowercase hex, as
    /// stored (ENCD blobs stay encoded: nothing is decoded or re-encoded). Edit that (a mesh's
    /// mapping ids are MurmurHash3 of "NAME.vertices" and "NAME.indices": renaming a mesh is
    /// changing both). The other keys are the summary `dump` prints beside it (bounds, draws,
    /// pairings): pack skips them whatever they say. The "model" object alone (a serialized
    /// GeometryModel) packs too.
    ///
    /// An unedited dump packs to the very bytes it was dumped from when the file has the game's
    /// layout (every real sample tested does). The model is written as it is: check an edited
    /// file with `gamebin check` (a mapping beyond its buffer is reported there, not here). JSON
    /// that does not parse, an unknown or missing key, a value of the wrong type, a blob that is
    /// not hex (each with the line and column), and a count or name too long for its field or a
    /// blob_padding over 16 (naming the structure and field) are errors, and nothing is written.
    #[command(
        after_help = "Examples:\n  gamebin dump --json ship.geometry > ship.json\n  \
                            (edit ship.json: a mapping id, a model name, a blob)\n  \
                            gamebin geometry pack ship.json -o ship_edited.geometry\n  \
                            gamebin check ship_edited.geometry"
    )]
    Pack {
        /// The JSON file (`-` for standard input).
        #[arg(value_name = "FILE.json")]
        json: PathBuf,
        /// The .geometry to write.
        #[arg(short, long, value_name = "FILE.geometry", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum WdataCommand {
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
pub enum CraftStudioCommand {
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
pub enum WwdCommand {
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
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Converts a level to a Tiled map (TMX) for editing in the Tiled map editor: a tile layer per
    /// plane, a tileset per image set (tile ids are the level's; no images unless --placeholders:
    /// the graphics stay in the game's .REZ), the tile properties as tile properties, an object layer with every object
    /// (a point at its location, its logic as its class, every field a property), and every header
    /// and plane field as map and layer properties. `wwd from-tiled` makes the level again.
    ///
    /// A tileset's tile count is the highest tile id the level uses in its image set + 1 (the
    /// level does not say how many images a set has): to place a tile id the level does not use
    /// yet, raise the tileset's tilecount (moving the following tilesets' firstgid, and their
    /// gids, if it is not the last).
    ///
    /// Example: gamebin wwd tiled RETAIL01.WWD -o level1.tmx
    Tiled {
        /// The .wwd level.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The TMX map to write.
        #[arg(short, long, value_name = "TMX", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace the output file (and, with --placeholders, the images) if they exist.
        #[arg(long)]
        force: bool,
        /// Give every tileset an image, so that Tiled draws the tiles: placeholders made from
        /// the level alone (each tile's collision attributes, coloured as `wwd render` colours
        /// them, and its tile id), written as PNGs to NAME.tiles/ beside NAME.tmx. The game's
        /// graphics stay in its .REZ archives.
        #[arg(long)]
        placeholders: bool,
        /// Read a level whose header signature is not 0x5F4.
        #[arg(long)]
        ignore_signature: bool,
    },
    /// Makes a level from a Tiled map written by `wwd tiled` (and edited): byte-identical to the
    /// original when nothing was edited (the same main block once inflated, for compressed
    /// levels). An edit that does not fit the level (a tile beyond its image set, a flipped tile,
    /// a property value too large for its field) is an error naming the layer, the cell or object
    /// and the field. Layers must stay CSV or base64 (uncompressed, zlib or gzip), tilesets
    /// embedded.
    ///
    /// Example: gamebin wwd from-tiled level1.tmx -o RETAIL01.WWD --force
    FromTiled {
        /// The TMX map.
        #[arg(value_name = "TMX")]
        file: PathBuf,
        /// The level to write.
        #[arg(short, long, value_name = "FILE", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum AssetsCommand {
    /// One prototype as JSON, names resolved, and each path id (a visual's
    /// merged_geometry_path_id, a render set's material_mfm_path_id, a model's
    /// visual_resource_id, skeleton extenders, animations and dye materials, a material's
    /// fx_path_id and textures) followed by the full path it names (`…_path`, `null` when the
    /// path table lacks it). KEY is a resource id (`0x…` or decimal) or a full
    /// path (`content/…`; a leading `res/` is dropped), looked up by its CityHash64 and, if the
    /// file's ids are not path hashes, by walking the path table.
    #[command(after_help = "Examples:\n  \
        gamebin assets get assets.bin content/gameplay/japan/ship/destroyer/JSD011/JSD011.model\n  \
        gamebin assets get assets.bin 0x0df5a921212a899e\n  \
        gamebin assets get assets.bin content/effects/fire.effect --complete  (systems in full)")]
    Get {
        /// The assets.bin (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// A resource id, `0x…` hex or decimal (e.g. `0x2b1a3c4d5e6f7081`), or a full path such
        /// as `content/gameplay/japan/ship/battleship/JSB039_Yamato_1945/JSB039_Yamato_1945.model`
        /// (a leading `res/` is dropped).
        #[arg(value_name = "ID|PATH")]
        key: String,
        /// The record in its complete form: an effect's systems as hex text (one string each)
        /// and a velocity field's velocities listed, where the plain form gives only their
        /// counts (the other types print the same either way). Only the complete form reads back
        /// as a record: in the model of `gamebin assets unpack`, which `assets pack` writes (the
        /// full paths printed beside the ids are ignored there).
        #[arg(long)]
        complete: bool,
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
    /// The whole file as JSON: every string, path entry, resource-to-prototype entry and
    /// database (each record with all its fields, in the complete form of `assets get
    /// --complete`; a database the reader keeps raw as hex), the two maps' capacities and the
    /// checksum kind. `gamebin assets pack` writes it back.
    ///
    /// A file another tool wrote lays its parts out its own way: the JSON then has a `layout`
    /// (where each part and each database's arrays sit, and what fills the gaps), so that it
    /// packs back byte for byte, and an edited number or id changes only its own bytes. Delete
    /// `layout` to have the file written gamebin's way.
    ///
    /// Ids are `0x…` hex text. Written to standard output unless -o names a file (not
    /// overwritten without --force). The output is larger than the file (four to five times for
    /// the synthetic files). A float is a JSON number; JSON has none for NaN or infinity, so
    /// those are strings that keep their bits: "inf", "-inf", "NaN" (0x7fc00000), "-NaN"
    /// (0xffc00000), and "NaN:0x7fc00001" (its 32 bits in hex) for any other NaN.
    #[command(
        after_help = "Examples:\n  gamebin assets unpack assets.bin -o assets.json\n  \
                            (edit assets.json: a material's property, a path's name)\n  \
                            gamebin assets pack assets.json -o assets_edited.bin\n  \
                            gamebin diff assets.bin assets_edited.bin"
    )]
    Unpack {
        /// The assets.bin (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The JSON file to write; default: standard output.
        #[arg(short, long, value_name = "MODEL.json", value_parser = files::not_stdin)]
        output: Option<PathBuf>,
        /// Replace the output file if it exists.
        #[arg(long, requires = "output")]
        force: bool,
    },
    /// Writes the JSON of `gamebin assets unpack`, edited or not, as an assets.bin.
    ///
    /// An unedited model packs to the very bytes it was unpacked from: a file of another writer
    /// than gamebin's carries its "layout" (where each part starts, the strings map's words,
    /// blobs laid out otherwise kept as stored; absent for gamebin's own files). Lookup tables,
    /// offsets and the checksum are computed: edit what the model holds (a path entry's name, a
    /// record's fields, a string). Once an edit makes a part longer than the room the layout
    /// gives it, the parts after it are laid out gamebin's way; a blob kept as stored is written
    /// gamebin's way once its records change; without "layout" the whole file is.
    /// A raw database's blob and the entries' database and record indices are written as they
    /// are: check an edited file with `gamebin check`.
    /// JSON that does not parse, an unknown or missing key, a value of the wrong type or range
    /// (each with its line and column), and a model the writer cannot store (a capacity over
    /// eight times its entries and 1,024 more, two strings with one name id, a record in another
    /// type's database, an index too wide for its bits; naming the structure and field) are
    /// errors, and nothing is written.
    #[command(
        after_help = "Examples:\n  gamebin assets unpack assets.bin -o assets.json\n  \
                            gamebin assets pack assets.json -o assets_edited.bin\n  \
                            gamebin assets unpack assets.bin | gamebin assets pack - -o copy.bin"
    )]
    Pack {
        /// The JSON file (`-` for standard input).
        #[arg(value_name = "MODEL.json")]
        json: PathBuf,
        /// The assets.bin to write.
        #[arg(short, long, value_name = "FILE", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// Where an install is: a game folder, or `--idx DIR --pkg DIR`.
#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// The game folder: the one holding `bin/<build>/idx/*.idx` (the newest numbered build is
    /// read) and `res_packages/*.pkg`. Left out with --idx and --pkg.
    #[arg(value_name = "INSTALL", required_unless_present = "idx", value_parser = files::not_stdin)]
    install: Option<PathBuf>,
    /// Read the `.idx` files of DIR instead of a game folder's (with --pkg; then no INSTALL is
    /// given, and every operand is a path).
    #[arg(long, value_name = "DIR", requires = "pkg", value_parser = files::not_stdin)]
    idx: Option<PathBuf>,
    /// The folder of the `.pkg` volumes, with --idx.
    #[arg(long, value_name = "DIR", requires = "idx", value_parser = files::not_stdin)]
    pkg: Option<PathBuf>,
}

impl InstallArgs {
    /// The install and the operands after it: with --idx and --pkg, what clap took for INSTALL
    /// is the first operand.
    pub fn split(&self, mut operands: Vec<String>) -> (Source<'_>, Vec<String>) {
        match (&self.idx, &self.pkg, &self.install) {
            (Some(idx), Some(pkg), first) => {
                if let Some(first) = first {
                    operands.insert(0, first.to_string_lossy().into_owned());
                }
                (Source::Dirs { idx, pkg }, operands)
            }
            (_, _, Some(game)) => (
                Source::game_operand(game).unwrap_or(Source::Game(game)),
                operands,
            ),
            // clap requires INSTALL unless --idx, and --idx requires --pkg.
            _ => (Source::Game(std::path::Path::new(".")), operands),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum PfsCommand {
    /// Every file of the install (or those under each PREFIX or matching each GLOB), one full
    /// path per line, streamed as the indexes are read.
    ///
    /// Paths are relative to res/ (`content/gameplay/…`), listed in the order of the install's
    /// id table (by path hash: not sorted; pipe to `sort` for that). A PREFIX selects whole
    /// segments (`content/gui` is that folder or file, not `content/guide`); a GLOB has `*` (any
    /// run within a segment), `?` (one character) or `**` (any number of segments); a leading
    /// `/` or `res/` is dropped. A record that does not read is named on stderr, the listing
    /// goes on, and the exit status is 1; so it is when PREFIX or GLOB matches nothing.
    #[command(after_help = "Examples:\n  gamebin pfs ls ~/games/wows | head\n  \
        gamebin pfs ls ~/games/wows content/gameplay/japan/ship | sort\n  \
        gamebin pfs ls ~/games/wows 'content/**/*.geometry' | wc -l\n  \
        gamebin pfs ls --json ~/games/wows content/assets.bin\n  \
        gamebin pfs ls --idx wows/bin/7708495/idx --pkg wows/res_packages gui/")]
    Ls {
        #[command(flatten)]
        install: InstallArgs,
        /// Paths to list: a PREFIX (`content/gameplay`) or a GLOB (`'content/**/*.xml'`);
        /// default: every file.
        #[arg(value_name = "PREFIX|GLOB")]
        selections: Vec<String>,
        /// One JSON object per line: {"path", "size" (unpacked), "stored_size", "compression"
        /// (stored, deflate, oodle or unknown), "crc32" (0x… text)}.
        #[arg(long)]
        json: bool,
    },
    /// The bytes of one file of the install, to standard output (inflated, CRC-32 checked).
    ///
    /// Binary content (a NUL, or not UTF-8) is not written to a terminal: redirect it or pipe
    /// it. A file that does not read (a CRC mismatch, an Oodle-compressed entry, a missing
    /// volume) is an error naming it, and nothing is written.
    #[command(after_help = "Examples:\n  \
        gamebin pfs cat ~/games/wows content/GameParams.data > GameParams.data\n  \
        gamebin pfs cat ~/games/wows gui/achievements/achievements.xml | less\n  \
        gamebin pfs cat ~/games/wows content/assets.bin | gamebin info -")]
    Cat {
        #[command(flatten)]
        install: InstallArgs,
        /// The file's path relative to res/ (a leading `/` or `res/` is dropped; `\` works as `/`).
        #[arg(value_name = "PATH")]
        path: Option<String>,
    },
    /// Writes the files of the install (or those under each PREFIX or matching each GLOB) under
    /// DIR at their paths, on every core, with a progress bar on a terminal.
    ///
    /// Every file is inflated and its CRC-32 checked; a file that does not read (a CRC
    /// mismatch, an Oodle-compressed entry, a missing volume) or cannot be written is named on
    /// stderr, every other file is still written, and the exit status is 1. A path that would
    /// leave DIR (an empty, `.` or `..` segment, a backslash, a colon) is refused, and symbolic
    /// links already under DIR are not followed. Existing files are not overwritten without
    /// --force (the first five named, the others counted). Ends with one line on stderr: the
    /// files and bytes written.
    #[command(
        after_help = "Examples:\n  gamebin pfs extract ~/games/wows -o wows-res\n  \
        gamebin pfs extract ~/games/wows content/gameplay/japan -o res\n  \
        gamebin pfs extract ~/games/wows 'content/**/*.geometry' content/assets.bin -o res\n  \
        gamebin pfs extract ~/games/wows gui/ -o res --force\n  \
        gamebin pfs extract ~/games/wows --changed-since ~/games/wows@7708495 -o update"
    )]
    Extract {
        #[command(flatten)]
        install: InstallArgs,
        /// Files to extract: a PREFIX (`content/gameplay`) or a GLOB (`'content/**/*.xml'`);
        /// default: every file.
        #[arg(value_name = "PREFIX|GLOB")]
        selections: Vec<String>,
        /// The folder to write into (created if missing).
        #[arg(short, long, value_name = "DIR", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        /// Only the files added or changed since the install OLD (a game folder, or GAME@BUILD
        /// for an older build whose indexes the game keeps), found from the two installs'
        /// indexes as `gamebin diff OLD INSTALL` lists them.
        #[arg(long, value_name = "OLD", value_parser = files::not_stdin)]
        changed_since: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ParamsCommand {
    /// The entries as one JSON object, entry name → entry (each object as its state dict, as
    /// dataminers' JSON has them; dict keys that are not strings as Python's json writes them,
    /// tuple keys by their repr; byte strings that are not UTF-8 as their latin-1 reading);
    /// compact unless --pretty. --split writes one file per entry instead, at
    /// DIR/TYPE/NATION/SPECIES/NAME.json (the layout kept in git to diff game versions).
    ///
    /// FILE is a GameParams.data, `-` (standard input), a game folder (its newest build's
    /// content/GameParams.data, read out of the archives) or GAME::content/GameParams.data.
    #[command(
        after_help = "Examples:\n  gamebin params export GameParams.data -o params.json\n  \
        gamebin params export ~/games/wows -o - --pretty | less\n  \
        gamebin params export GameParams.data --split params/ --region RU"
    )]
    Export {
        /// The GameParams.data, a game folder or GAME::content/GameParams.data (`-`: standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The JSON file to write (`-`: standard output).
        #[arg(
            short,
            long,
            value_name = "OUT.json",
            required_unless_present = "split",
            conflicts_with = "split"
        )]
        output: Option<PathBuf>,
        /// One file per entry under DIR at TYPE/NATION/SPECIES/NAME.json.
        #[arg(long, value_name = "DIR", value_parser = files::not_stdin)]
        split: Option<PathBuf>,
        /// The entries as region R sees them (its overrides laid over the base).
        #[arg(long, value_name = "R")]
        region: Option<String>,
        /// Indented JSON.
        #[arg(long)]
        pretty: bool,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
    },
    /// One line per entry: name, id, index, type, nation, species (tab-separated, `-` for
    /// missing), optionally only those of a type, nation or species (case ignored; `None`
    /// matches a missing one).
    #[command(
        after_help = "Examples:\n  gamebin params ls GameParams.data --type Ship --nation Japan\n  \
        gamebin params ls ~/games/wows --type Projectile --json | head"
    )]
    Ls {
        /// The GameParams.data, a game folder or GAME::content/GameParams.data (`-`: standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Only entries whose typeinfo.type is T (`Ship`, `Gun`, `Projectile`, …).
        #[arg(long = "type", value_name = "T")]
        ty: Option<String>,
        /// Only entries whose typeinfo.nation is N.
        #[arg(long, value_name = "N")]
        nation: Option<String>,
        /// Only entries whose typeinfo.species is S.
        #[arg(long, value_name = "S")]
        species: Option<String>,
        /// The entries as region R sees them.
        #[arg(long, value_name = "R")]
        region: Option<String>,
        /// One JSON object per line: {"name","id","index","type","nation","species"}.
        #[arg(long)]
        json: bool,
    },
    /// One entry as indented JSON, or the value at PATH inside it (`A_Hull.health`; a number
    /// indexes a list or matches an int key).
    #[command(
        after_help = "Examples:\n  gamebin params get GameParams.data PJSD012_Shimakaze_1943 A_Hull.health\n  \
        gamebin params get GameParams.data PJSD012\n  \
        gamebin params get GameParams.data 0xF95EB710 --region RU"
    )]
    Get {
        /// The GameParams.data, a game folder or GAME::content/GameParams.data (`-`: standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// An entry's name, its id (decimal or 0x…) or its index (`PJSD012`).
        #[arg(value_name = "KEY")]
        key: String,
        /// A dotted path inside the entry.
        #[arg(value_name = "PATH")]
        path: Option<String>,
        /// The entry as region R sees it.
        #[arg(long, value_name = "R")]
        region: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ScaleArg {
    /// The game's own size (assets.bin: 246,065 paths, about 170 MB; GameParams: 14,000
    /// entries; an install: 228 indexes, about 421,000 names).
    Full,
    /// A small part of it, for quick tests (the command's summary above says how much).
    Small,
}

impl From<ScaleArg> for gamebin::synth::assets_scale::Scale {
    fn from(scale: ScaleArg) -> Self {
        match scale {
            ScaleArg::Full => Self::Full,
            ScaleArg::Small => Self::Small,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum SynthCommand {
    /// A deterministic assets.bin (the same bytes on every run).
    ///
    /// With --res, also every .geometry its ship visuals name, under DIR (DIR/content/…): small
    /// varied meshes (raw and ENCD, skinned and unskinned) whose mapping ids match the render
    /// sets, and two deliberate faults for testing batches: the first destroyer's geometry file
    /// is missing (group 1), and the second's lacks the mesh of its render set `rs_deck` (group
    /// 2). Then `gamebin model FILE --prefix content/ --res DIR -o OUTDIR` exports the world.
    #[command(
        after_help = "Examples:\n  gamebin synth assets --scale small -o world/assets.bin --res world/res\n  \
                      gamebin model world/assets.bin --prefix content/gameplay/japan --res world/res -o glb/\n  \
                      gamebin synth assets --scale small -o a.bin && gamebin synth assets --scale small --patched -o b.bin && gamebin diff a.bin b.bin"
    )]
    Assets {
        #[arg(long, value_enum, default_value = "full")]
        scale: ScaleArg,
        /// Output file.
        #[arg(short, long, value_name = "FILE", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Also write the .geometry files of the ship visuals under DIR (the resource root:
        /// DIR/content/…).
        #[arg(long, value_name = "DIR", value_parser = files::not_stdin)]
        res: Option<PathBuf>,
        /// Write the file as a game patch would change it, for trying `gamebin diff`: in every
        /// 20th ship group one material's sort order changes, one texture path is gone and a
        /// visual is new (not with --res).
        #[arg(long, conflicts_with = "res")]
        patched: bool,
        /// Replace the output file if it exists, and with --res write into DIR even if it is
        /// not empty (replacing the .geometry files there).
        #[arg(long)]
        force: bool,
    },
    /// A deterministic World of Warships GameParams.data: ships with nested hull and artillery
    /// dicts, guns, projectiles and the rest (full: 14,000 entries, about the game's; small:
    /// 300), strings shared through the memo, int and tuple keys, a long, a set, a byte string
    /// that is not UTF-8. --regional: the layout by region, `RU` overriding every 10th entry.
    /// --update: the same params as a game update changes them, for trying `gamebin diff`.
    #[command(
        after_help = "Examples:\n  gamebin synth params -o GameParams.data\n  \
                      gamebin params ls GameParams.data --type Ship | head\n  \
                      gamebin synth params --scale small -o old.data && gamebin synth params --scale small --update -o new.data && gamebin diff old.data new.data"
    )]
    Params {
        #[arg(long, value_enum, default_value = "full")]
        scale: ScaleArg,
        /// Output file.
        #[arg(short, long, value_name = "FILE", value_parser = files::not_stdin)]
        output: PathBuf,
        /// The root by region (`''` the base, `RU` overrides).
        #[arg(long)]
        regional: bool,
        /// Write the params as a game update changes them: every 200th entry removed, 40
        /// entries added, one whole number changed in every 25th entry.
        #[arg(long)]
        update: bool,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// A deterministic World of Warships install: a game folder (bin/BUILD/idx/*.idx and
    /// res_packages/*.pkg) holding the synthetic world (content/assets.bin and every .geometry
    /// its ship visuals name, deflated), the textures its materials name (196, shared between
    /// ships by nation and class: BC1, BC3, BC5 and BC7, 512 to 4096 pixels, in .dds files and
    /// their .dd2/.dd1/.dd0 tiers) and small filler files up to an install's shape: at full
    /// scale 228 indexes and about 421,000 names, as a real build has.
    #[command(
        after_help = "Examples:\n  gamebin synth install --scale small -o game/\n  \
                      gamebin pfs ls game/ 'content/**/*.geometry' | head\n  \
                      gamebin pfs extract game/ content/assets.bin -o res/\n  \
                      gamebin model game::content/assets.bin content/gameplay/japan/ship/destroyer/J00000/J00000.model --res game --max-texture 1024 -o ship.glb\n  \
                      gamebin synth install --scale small -o old/ && gamebin synth install --scale small --update -o new/ && gamebin diff old/ new/"
    )]
    Install {
        #[arg(long, value_enum, default_value = "full")]
        scale: ScaleArg,
        /// The game folder to write (created; refused if it exists and is not empty).
        #[arg(short, long, value_name = "DIR", value_parser = files::not_stdin)]
        output: PathBuf,
        /// Write the install as a game update changes it, for trying `gamebin diff`: its
        /// assets.bin patched (as `synth assets --patched`), and among the filler files some
        /// removed, some added, some changed with and without a change of size.
        #[arg(long)]
        update: bool,
        /// Write into DIR even if it is not empty (replacing the install's files there).
        #[arg(long)]
        force: bool,
    },
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// One binary glTF file with every draw (and, with --armor, the armor models).
    Glb,
    /// One Wavefront OBJ per draw (and per armor model) in a folder.
    Obj,
}

/// `--textures`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Textures {
    /// The maps embedded as PNG.
    Embed,
    /// The maps as PNG files under `textures/` beside the GLB.
    External,
    /// No images.
    None,
}

impl From<Textures> for TextureMode {
    fn from(t: Textures) -> Self {
        match t {
            Textures::Embed => TextureMode::Embed,
            Textures::External => TextureMode::External,
            Textures::None => TextureMode::None,
        }
    }
}

/// `--lod N` or `--lod all`.
pub fn parse_lod(arg: &str) -> std::result::Result<LodChoice, String> {
    if arg.eq_ignore_ascii_case("all") {
        return Ok(LodChoice::All);
    }
    arg.parse()
        .map(LodChoice::One)
        .map_err(|_| format!("{arg:?} is neither a LOD index (0, 1, …) nor `all`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lod_arguments() {
        assert_eq!(parse_lod("0"), Ok(LodChoice::One(0)));
        assert_eq!(parse_lod("ALL"), Ok(LodChoice::All));
        assert!(parse_lod("-1").is_err());
    }
}

//! [`ResolveError`]: what stopped a model from resolving, naming the model, the render set and the
//! missing piece.

use core::fmt;

use crate::error::Error;
use crate::wows::assets::PrototypeType;

/// The piece of a model that is missing or unreadable.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Missing {
    /// No prototype is mapped from the id (or path) asked for.
    Prototype,
    /// The prototype is neither a ModelPrototype nor a VisualPrototype (`None`: a record whose
    /// layout is unknown).
    NotAModel {
        /// The type of prototype found.
        found: Option<PrototypeType>,
    },
    /// The model's visual (`visualResourceId`) has no prototype, or it is not a visual.
    Visual {
        /// The visual's resource id.
        id: u64,
    },
    /// The visual's `.geometry` path id is not in the path tree.
    GeometryPath {
        /// The `.geometry` path id (its selfId).
        id: u64,
    },
    /// The `.geometry` path has a segment that would leave the resource root (`..`, `.`, an empty
    /// segment, a backslash or a drive colon).
    UnsafePath {
        /// The path as the path tree gives it.
        path: String,
    },
    /// The `.geometry` file is not under the resource root (or cannot be opened).
    GeometryModel {
        /// The path under the resource root.
        path: String,
        /// Why it could not be opened.
        error: std::io::ErrorKind,
    },
    /// The `.geometry` file is not in the install the resolver reads, or its bytes do not read
    /// out of their volume (a CRC mismatch, a missing volume, an Oodle entry, ...).
    InstallFile {
        /// The path in the install.
        path: String,
        /// Why: the install's own message.
        reason: String,
        /// The volume that could not be read, when that was why ([`unread_volume`]): every
        /// model with a file in it fails alike (a batch counts them rather than naming each).
        ///
        /// [`unread_volume`]: crate::wows::pfs::InstallError::unread_volume
        volume: Option<String>,
    },
    /// The `.geometry` file opened but its header does not read.
    GeometryRead {
        /// The path under the resource root.
        path: String,
        /// The reader's error, with its offset.
        error: Error,
    },
    /// The render set's vertex mapping id is not in its `.geometry`.
    VerticesMapping {
        /// The vertex mapping id.
        id: u32,
        /// The `.geometry` path.
        geometry: String,
    },
    /// The render set's index mapping id is not in its `.geometry`.
    IndicesMapping {
        /// The index mapping id.
        id: u32,
        /// The `.geometry` path.
        geometry: String,
    },
    /// The render set's draw does not decode or its ranges do not fit its buffers.
    Draw {
        /// The `.geometry` path.
        geometry: String,
        /// The reader's error, with its offset.
        error: Error,
    },
    /// The render set's material (`materialMfmPathId`) has no prototype, or it is not a material.
    Material {
        /// The material's `.mfm` path id.
        mfm_path_id: u64,
    },
    /// A level of detail names a render set the visual does not have.
    LodRenderSet {
        /// The level of detail.
        lod: usize,
        /// The render set name id it names.
        name_id: u32,
    },
    /// The level of detail asked for is past the visual's LODs.
    Lod {
        /// The level asked for.
        index: usize,
        /// How many the visual has.
        count: usize,
    },
    /// A render set names a node the visual does not have.
    Node {
        /// The node name id.
        name_id: u32,
    },
    /// A node's parent index is past the node count or its parent chain is a cycle.
    NodeParent {
        /// The node.
        node: usize,
        /// Its stored parent index.
        parent: u16,
    },
    /// A skinned render set's vertices use a joint past the nodes its skin has.
    Joint {
        /// The joint index a vertex uses.
        joint: u8,
        /// How many joints the skin has.
        joints: usize,
    },
    /// The assets.bin failed to read (the error says where).
    Assets(Error),
    /// The export failed (the error says what).
    Export(crate::ExportError),
}

/// A model that could not be resolved or exported: which model (its selfId and, when known, its
/// full path), which render set (when one is at fault) and what is missing.
///
/// Unlike the readers' [`Error`], it owns strings (paths, names) and is boxed: it is built only on
/// failure, and stays one pointer wide on the success path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveError(Box<Details>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Details {
    model: u64,
    model_path: Option<String>,
    render_set: Option<(u32, Option<String>)>,
    missing: Missing,
}

impl ResolveError {
    /// An error about model `model`, with its full path when known, and the render set at fault
    /// (name id and name) when there is one.
    pub fn new(
        model: u64,
        model_path: Option<String>,
        render_set: Option<(u32, Option<String>)>,
        missing: Missing,
    ) -> Self {
        ResolveError(Box::new(Details {
            model,
            model_path,
            render_set,
            missing,
        }))
    }

    /// selfId of the model (or visual) asked for.
    pub fn model(&self) -> u64 {
        self.0.model
    }

    /// The model's full path, when the path tree has it.
    pub fn model_path(&self) -> Option<&str> {
        self.0.model_path.as_deref()
    }

    /// Name id of the render set at fault.
    pub fn render_set_id(&self) -> Option<u32> {
        self.0.render_set.as_ref().map(|r| r.0)
    }

    /// Name of the render set at fault, when the strings map has it.
    pub fn render_set_name(&self) -> Option<&str> {
        self.0.render_set.as_ref().and_then(|r| r.1.as_deref())
    }

    /// What is missing.
    pub fn missing(&self) -> &Missing {
        &self.0.missing
    }

    /// The reader error underneath, if the failure was a read.
    pub fn read_error(&self) -> Option<&Error> {
        match &self.0.missing {
            Missing::GeometryRead { error, .. }
            | Missing::Draw { error, .. }
            | Missing::Assets(error)
            | Missing::Export(crate::ExportError::Source(error)) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Prototype => write!(f, "no prototype is mapped from this id"),
            Missing::NotAModel { found: Some(kind) } => {
                write!(
                    f,
                    "the prototype is a {}, not a model or a visual",
                    kind.name()
                )
            }
            Missing::NotAModel { found: None } => {
                write!(
                    f,
                    "the prototype's layout is unknown (not a model or a visual)"
                )
            }
            Missing::Visual { id } => write!(f, "visual {id:#018x} has no visual prototype"),
            Missing::GeometryPath { id } => {
                write!(f, "geometry path id {id:#018x} is not in the path tree")
            }
            Missing::UnsafePath { path } => {
                write!(f, "geometry path {path:?} would leave the resource root")
            }
            // Only the kind is kept (the error stays `Clone` and comparable): "entity not found",
            // its text, says less than the sentence itself.
            Missing::GeometryModel {
                path,
                error: std::io::ErrorKind::NotFound,
            } => write!(f, "geometry file {path} is not under the resource root"),
            Missing::GeometryModel { path, error } => write!(
                f,
                "geometry file {path} under the resource root cannot be opened ({error})"
            ),
            Missing::InstallFile { path, reason, .. } => {
                write!(
                    f,
                    "geometry file {path} does not read from the install: {reason}"
                )
            }
            Missing::GeometryRead { path, error } => write!(f, "geometry file {path}: {error}"),
            Missing::VerticesMapping { id, geometry } => {
                write!(f, "vertices mapping {id:#010x} is not in {geometry}")
            }
            Missing::IndicesMapping { id, geometry } => {
                write!(f, "indices mapping {id:#010x} is not in {geometry}")
            }
            Missing::Draw { geometry, error } => write!(f, "draw in {geometry}: {error}"),
            Missing::Material { mfm_path_id } => {
                write!(f, "material {mfm_path_id:#018x} has no material prototype")
            }
            Missing::LodRenderSet { lod, name_id } => {
                write!(
                    f,
                    "LOD {lod} names render set {name_id:#010x}, which the visual lacks"
                )
            }
            Missing::Lod { index, count } => {
                write!(f, "LOD {index} asked for, the visual has {count}")
            }
            Missing::Node { name_id } => {
                write!(f, "node {name_id:#010x} is not a node of the visual")
            }
            Missing::NodeParent { node, parent } => write!(
                f,
                "node {node}'s parent {parent} is past the nodes or its parent chain is a cycle"
            ),
            Missing::Joint { joint, joints } => {
                write!(
                    f,
                    "vertices use joint {joint}, the skin has {joints} joints"
                )
            }
            Missing::Assets(error) => write!(f, "assets.bin: {error}"),
            Missing::Export(error) => write!(f, "export: {error}"),
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model {:#018x}", self.0.model)?;
        if let Some(path) = &self.0.model_path {
            write!(f, " ({path})")?;
        }
        match &self.0.render_set {
            Some((_, Some(name))) => write!(f, ", render set {name:?}")?,
            Some((id, None)) => write!(f, ", render set {id:#010x}")?,
            None => {}
        }
        write!(f, ": {}", self.0.missing)
    }
}

impl std::error::Error for ResolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.read_error()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

//! [`ModelResolver`]: from a ModelPrototype or VisualPrototype (by id or path) to its visual, its
//! `.geometry` path, nodes, LODs and render sets with their materials, all borrowed from the
//! `assets.bin`.

use std::path::{Path, PathBuf};

use zerocopy::little_endian::U32;

use super::error::{Missing, ResolveError};
use crate::error::Error;
use crate::wows::assets::{
    AssetsDb, Material, Model, PathIndex, Prototype, PrototypeState, RenderSet, Visual,
};

/// Resolves models over an `assets.bin` and a resource root: the folder holding `content/` (the
/// game's `res/` folder) or the folder holding `res/`. Cheap to make; holds no cache (see
/// [`GeometryCache`](super::GeometryCache)).
#[derive(Debug, Clone)]
pub struct ModelResolver<'a> {
    db: AssetsDb<'a>,
    index: Option<&'a PathIndex>,
    root: PathBuf,
    /// An install the `.geometry` files are read from instead of `root`.
    #[cfg(feature = "pfs")]
    install: Option<&'a crate::wows::pfs::GameInstall>,
}

/// Drops a leading `/` and `res/` from a resource path: `res/content/x.model` → `content/x.model`.
pub fn strip_res(path: &str) -> &str {
    let path = path.trim_start_matches('/');
    path.strip_prefix("res/").unwrap_or(path)
}

/// Builds a [`ResolveError`] with the model's full path (walked in the path tree: the error path
/// only) and the render set's name.
pub(crate) fn model_error(
    db: &AssetsDb<'_>,
    index: Option<&PathIndex>,
    model: u64,
    render_set: Option<&RenderSet<'_>>,
    missing: Missing,
) -> ResolveError {
    let mut path = String::new();
    let found = match index {
        Some(index) => index.full_path(db.paths(), model, &mut path),
        None => db.full_path(model, &mut path),
    };
    ResolveError::new(
        model,
        matches!(found, Ok(true)).then_some(path),
        render_set.map(|set| {
            let id = set.name_id();
            (id, db.string(id).ok().flatten().map(str::to_owned))
        }),
        missing,
    )
}

impl<'a> ModelResolver<'a> {
    /// A resolver over `db` whose `.geometry` files live under `root`: the folder holding
    /// `content/`, or the one holding `res/content/` (checked once, here).
    pub fn new(db: AssetsDb<'a>, root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let res = root.join("res");
        let root = if !root.join("content").is_dir() && res.join("content").is_dir() {
            res
        } else {
            root
        };
        ModelResolver {
            db,
            index: None,
            root,
            #[cfg(feature = "pfs")]
            install: None,
        }
    }

    /// Reads the `.geometry` files out of `install` (its indexes and volumes), at their paths
    /// in the path tree, instead of from under the root.
    #[cfg(feature = "pfs")]
    pub fn with_install(mut self, install: &'a crate::wows::pfs::GameInstall) -> Self {
        self.install = Some(install);
        self
    }

    /// The install the `.geometry` files are read from, if one was given.
    #[cfg(feature = "pfs")]
    pub fn install(&self) -> Option<&'a crate::wows::pfs::GameInstall> {
        self.install
    }

    /// Finds full paths through `index` (O(depth)) instead of walking the path entries (O(entries
    /// × depth)): worth it for batches.
    pub fn with_path_index(mut self, index: &'a PathIndex) -> Self {
        self.index = Some(index);
        self
    }

    /// The `assets.bin`.
    pub fn db(&self) -> AssetsDb<'a> {
        self.db
    }

    /// The resource root (the folder holding `content/`).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Writes the full path (`content/…`) of `self_id` into `out`; `Ok(false)` when the path tree
    /// does not have it.
    pub fn full_path(&self, self_id: u64, out: &mut String) -> crate::Result<bool> {
        match self.index {
            Some(index) => index.full_path(self.db.paths(), self_id, out),
            None => self.db.full_path(self_id, out),
        }
    }

    fn error(&self, model: u64, missing: Missing) -> ResolveError {
        model_error(&self.db, self.index, model, None, missing)
    }

    /// The model (or visual) at `path` (`content/…`; a leading `res/` is dropped): its id is the
    /// CityHash64 of the path; when no prototype has that id, the path tree is walked for it.
    pub fn resolve_path(&self, path: &str) -> Result<ResolvedModel<'a>, ResolveError> {
        let path = strip_res(path);
        let id = self.db.path_id(path);
        match self.db.prototype(id) {
            Ok(Some(_)) => return self.resolve(id),
            Ok(None) => {}
            Err(e) => return Err(self.error(id, Missing::Assets(e))),
        }
        match self.db.find_path(path) {
            Ok(Some(entry)) => self.resolve(entry.self_id()),
            Ok(None) => Err(ResolveError::new(
                id,
                Some(path.to_owned()),
                None,
                Missing::Prototype,
            )),
            Err(e) => Err(self.error(id, Missing::Assets(e))),
        }
    }

    /// The model (or visual) whose selfId is `self_id`. Reads the records and checks that the
    /// visual's node, render set and LOD arrays lie in the file; no allocation. Render sets
    /// resolve one by one ([`ResolvedModel::render_sets`]), so that one bad render set names
    /// itself.
    pub fn resolve(&self, self_id: u64) -> Result<ResolvedModel<'a>, ResolveError> {
        let fail = |missing| self.error(self_id, missing);
        let (model, visual_id, visual) = match self.live(self_id).map_err(fail)? {
            Some(Prototype::Model(model)) => {
                let visual_id = model.visual_resource_id();
                let missing = || fail(Missing::Visual { id: visual_id });
                match self.live(visual_id).map_err(fail)? {
                    Some(Prototype::Visual(visual)) => (Some(model), visual_id, visual),
                    _ => return Err(missing()),
                }
            }
            Some(Prototype::Visual(visual)) => (None, self_id, visual),
            Some(other) => {
                return Err(fail(Missing::NotAModel {
                    found: other.kind(),
                }));
            }
            None => return Err(fail(Missing::Prototype)),
        };
        let read = |r: crate::Result<()>| r.map_err(|e| fail(Missing::Assets(e)));
        read(visual.nodes().map(drop))?;
        read(visual.render_sets().map(drop))?;
        read(visual.lods().map(drop))?;
        Ok(ResolvedModel {
            db: self.db,
            index: self.index,
            self_id,
            model,
            visual_id,
            visual,
        })
    }

    /// The live prototype of `id`; `None` when there is none or it was deleted.
    fn live(&self, id: u64) -> Result<Option<Prototype<'a>>, Missing> {
        match self.db.prototype(id).map_err(Missing::Assets)? {
            Some(at) if at.state == PrototypeState::Live => {
                self.db.record(at).map(Some).map_err(Missing::Assets)
            }
            _ => Ok(None),
        }
    }
}

/// A resolved model: its visual and everything the visual points to in the `assets.bin`, borrowed.
/// `Copy`; every accessor reads in place.
#[derive(Debug, Clone, Copy)]
pub struct ResolvedModel<'a> {
    db: AssetsDb<'a>,
    index: Option<&'a PathIndex>,
    self_id: u64,
    model: Option<Model<'a>>,
    visual_id: u64,
    visual: Visual<'a>,
}

/// One node of a model's hierarchy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelNode<'a> {
    /// Position among the visual's nodes.
    pub index: usize,
    /// The node's name id (a MurmurHash3 of its name).
    pub name_id: u32,
    /// The name, when the strings map has it.
    pub name: Option<&'a str>,
    /// Index of the parent node, `None` for a root.
    pub parent: Option<u16>,
    /// Transform relative to the parent, column-major, in the game's (left-handed) space.
    pub matrix: [f32; 16],
}

/// One level of detail of a model.
#[derive(Debug, Clone, Copy)]
pub struct ModelLod<'a> {
    /// Position among the visual's LODs.
    pub index: usize,
    /// The distance up to which this level is drawn.
    pub extent: f32,
    /// Whether this level casts shadows.
    pub casts_shadow: bool,
    /// Name ids of the render sets drawn at this level.
    pub render_set_name_ids: &'a [U32],
}

/// A render set with its material: what it draws (the `.geometry` mapping ids), how (the
/// material) and where (the nodes it is attached to).
#[derive(Debug, Clone, Copy)]
pub struct ResolvedRenderSet<'a> {
    /// Position among the visual's render sets.
    pub index: usize,
    /// The stored render set.
    pub render_set: RenderSet<'a>,
    /// Its name, when the strings map has it.
    pub name: Option<&'a str>,
    /// selfId of its `.mfm` material.
    pub material_mfm_path_id: u64,
    /// The MaterialPrototype (typed properties: [`Material::properties`]).
    pub material: Material<'a>,
    /// The name of the material, when the strings map has it.
    pub material_name: Option<&'a str>,
}

impl<'a> ResolvedRenderSet<'a> {
    /// The render set's name id.
    pub fn name_id(&self) -> u32 {
        self.render_set.name_id()
    }
    /// The `.geometry` vertex mapping id.
    pub fn vertices_mapping_id(&self) -> u32 {
        self.render_set.vertices_mapping_id()
    }
    /// The `.geometry` index mapping id.
    pub fn indices_mapping_id(&self) -> u32 {
        self.render_set.indices_mapping_id()
    }
    /// Whether the render set is skinned (its vertices follow the nodes it names).
    pub fn skinned(&self) -> bool {
        self.render_set.skinned()
    }
}

impl<'a> ResolvedModel<'a> {
    /// selfId of what was resolved (the model, or the visual when a visual was asked for).
    pub fn self_id(&self) -> u64 {
        self.self_id
    }

    /// The ModelPrototype, `None` when a visual was resolved directly.
    pub fn model(&self) -> Option<Model<'a>> {
        self.model
    }

    /// selfId of the visual.
    pub fn visual_id(&self) -> u64 {
        self.visual_id
    }

    /// The VisualPrototype.
    pub fn visual(&self) -> Visual<'a> {
        self.visual
    }

    /// selfId (path id) of the `.geometry` holding the meshes.
    pub fn geometry_path_id(&self) -> u64 {
        self.visual.merged_geometry_path_id()
    }

    /// The `assets.bin`.
    pub fn db(&self) -> AssetsDb<'a> {
        self.db
    }

    /// An error about this model (and `render_set`, when given).
    pub fn error(&self, render_set: Option<&RenderSet<'_>>, missing: Missing) -> ResolveError {
        model_error(&self.db, self.index, self.self_id, render_set, missing)
    }

    fn assets(&self, e: Error) -> ResolveError {
        self.error(None, Missing::Assets(e))
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.visual.nodes_count()
    }

    /// The nodes (names, parents, matrices), in stored order.
    pub fn nodes(&self) -> Result<impl ExactSizeIterator<Item = ModelNode<'a>> + 'a, ResolveError> {
        let db = self.db;
        let nodes = self.visual.nodes().map_err(|e| self.assets(e))?;
        Ok(nodes.enumerate().map(move |(index, node)| ModelNode {
            index,
            name_id: node.name_id,
            name: db.string(node.name_id).ok().flatten(),
            parent: node.parent,
            matrix: node.matrix(),
        }))
    }

    /// The index of the node named `name_id`, `None` when the visual has none.
    pub fn node_index(&self, name_id: u32) -> Result<Option<usize>, ResolveError> {
        let ids = self.visual.name_ids().map_err(|e| self.assets(e))?;
        Ok(ids.iter().position(|id| id.get() == name_id))
    }

    /// Number of LODs.
    pub fn lod_count(&self) -> usize {
        usize::from(self.visual.raw().lods_count)
    }

    /// The levels of detail, each with its render set names.
    pub fn lods(
        &self,
    ) -> Result<impl ExactSizeIterator<Item = Result<ModelLod<'a>, ResolveError>> + 'a, ResolveError>
    {
        let lods = self.visual.lods().map_err(|e| self.assets(e))?;
        let this = *self;
        Ok(lods.enumerate().map(move |(index, lod)| {
            Ok(ModelLod {
                index,
                extent: lod.extent(),
                casts_shadow: lod.casts_shadow(),
                render_set_name_ids: lod.render_set_names().map_err(|e| this.assets(e))?,
            })
        }))
    }

    /// LOD `index`.
    pub fn lod(&self, index: usize) -> Result<ModelLod<'a>, ResolveError> {
        let count = self.lod_count();
        self.lods()?
            .nth(index)
            .ok_or_else(|| self.error(None, Missing::Lod { index, count }))?
    }

    /// The render set named `name_id`, resolved; `Ok(None)` when the visual has none.
    pub fn render_set_named(
        &self,
        name_id: u32,
    ) -> Result<Option<ResolvedRenderSet<'a>>, ResolveError> {
        let sets = self.visual.render_sets().map_err(|e| self.assets(e))?;
        for (index, set) in sets.enumerate() {
            if set.name_id() == name_id {
                return self.resolve_render_set(index, set).map(Some);
            }
        }
        Ok(None)
    }

    /// The render sets of LOD `lod`, resolved, in the LOD's order. A name the visual lacks is an
    /// error naming the LOD.
    pub fn lod_render_sets(
        &self,
        lod: usize,
    ) -> Result<impl Iterator<Item = Result<ResolvedRenderSet<'a>, ResolveError>> + 'a, ResolveError>
    {
        let names = self.lod(lod)?.render_set_name_ids;
        let this = *self;
        Ok(names.iter().map(move |name| {
            let name_id = name.get();
            this.render_set_named(name_id)?
                .ok_or_else(|| this.error(None, Missing::LodRenderSet { lod, name_id }))
        }))
    }

    /// Every render set, resolved one by one: an error names its render set and what is missing.
    pub fn render_sets(
        &self,
    ) -> Result<
        impl ExactSizeIterator<Item = Result<ResolvedRenderSet<'a>, ResolveError>> + 'a,
        ResolveError,
    > {
        let sets = self.visual.render_sets().map_err(|e| self.assets(e))?;
        let this = *self;
        Ok(sets
            .enumerate()
            .map(move |(index, set)| this.resolve_render_set(index, set)))
    }

    fn resolve_render_set(
        &self,
        index: usize,
        set: RenderSet<'a>,
    ) -> Result<ResolvedRenderSet<'a>, ResolveError> {
        let fail = |missing| self.error(Some(&set), missing);
        let mfm = set.material_mfm_path_id();
        let material = match self
            .db
            .prototype(mfm)
            .map_err(|e| fail(Missing::Assets(e)))?
        {
            Some(at) if at.state == PrototypeState::Live => {
                match self.db.record(at).map_err(|e| fail(Missing::Assets(e)))? {
                    Prototype::Material(material) => Some(material),
                    _ => None,
                }
            }
            _ => None,
        };
        let material = material.ok_or_else(|| fail(Missing::Material { mfm_path_id: mfm }))?;
        let names = set.node_name_ids().map_err(|e| fail(Missing::Assets(e)))?;
        let ids = self
            .visual
            .name_ids()
            .map_err(|e| fail(Missing::Assets(e)))?;
        if let Some(name) = names.iter().find(|n| !ids.contains(n)) {
            return Err(fail(Missing::Node {
                name_id: name.get(),
            }));
        }
        Ok(ResolvedRenderSet {
            index,
            render_set: set,
            name: self.db.string(set.name_id()).ok().flatten(),
            material_mfm_path_id: mfm,
            material,
            material_name: self.db.string(set.material_name_id()).ok().flatten(),
        })
    }

    /// The visual's node indices a render set is attached to (checked when it was resolved).
    pub fn render_set_nodes(
        &self,
        set: &ResolvedRenderSet<'a>,
    ) -> Result<impl ExactSizeIterator<Item = Option<usize>> + 'a, ResolveError> {
        let fail = |e| self.error(Some(&set.render_set), Missing::Assets(e));
        let names = set.render_set.node_name_ids().map_err(fail)?;
        let ids = self.visual.name_ids().map_err(fail)?;
        Ok(names
            .iter()
            .map(move |name| ids.iter().position(|id| id == name)))
    }
}

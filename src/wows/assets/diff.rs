//! World of Warships `assets.bin` files compared by path: each full path of the path table is
//! added, removed, or in both — then its resource id, its prototype's type (or state) and its
//! record's fields ([`PrototypeFields`], names resolved) are compared, field by field
//! (`content/…/X.visual/render_sets/0/material`). The databases are compared by name (schema hash,
//! record size and count); prototypes that no path names are compared by id (`(id 0x…)`). The
//! checksum is not compared: it changes whenever anything else does.
//!
//! Linear in the files: one walk of each path table (full paths built incrementally), one hash map
//! of the second file's paths, and each live record read once per file; two records are turned
//! into JSON values only when their fields differ.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use serde_json::{Value, json};

use crate::diff::value::{compare, compare_keyed, join, to_value};
use crate::diff::{Change, Report};
use crate::error::Result;
use crate::hash::city_hash_64;
use crate::wows::assets::{
    AssetsDb, Database, IdHasher, PathIndex, PrototypeFields, PrototypeRef, PrototypeState,
};

/// What a path or id leads to: no prototype, a deleted entry, or a live record's fields.
#[derive(Debug, PartialEq)]
enum Resource {
    /// The path table has the path; the prototype table has no entry for its id.
    PathOnly,
    /// An entry that is not live (deleted, or a state this reader does not know).
    NotLive(PrototypeState),
    /// A live prototype, read.
    Live(PrototypeFields),
}

impl Resource {
    fn read(db: &AssetsDb<'_>, at: Option<PrototypeRef>) -> Result<Self> {
        Ok(match at {
            None => Resource::PathOnly,
            Some(at) if at.state != PrototypeState::Live => Resource::NotLive(at.state),
            Some(at) => Resource::Live(PrototypeFields::read(db, db.record(at)?)?),
        })
    }

    /// One word for a whole resource: its type, `(path)` or its state.
    fn label(&self) -> String {
        match self {
            Resource::PathOnly => "(path)".into(),
            Resource::NotLive(PrototypeState::Deleted) => "(deleted)".into(),
            Resource::NotLive(PrototypeState::Other(s)) => format!("(state {s})"),
            Resource::NotLive(PrototypeState::Live) => "(live)".into(),
            Resource::Live(fields) => fields.type_name().unwrap_or("(raw record)").into(),
        }
    }
}

/// Every full path of `db`'s path table with its id, in table order.
fn full_paths(db: &AssetsDb<'_>) -> Result<Vec<(String, u64)>> {
    let paths = db.paths();
    let index = PathIndex::build(paths)?;
    let mut out = Vec::with_capacity(paths.len());
    let mut buffer = String::new();
    index.for_each_full_path(paths, &mut buffer, |entry, full| {
        out.push((full.to_owned(), entry.self_id()));
        Ok(())
    })?;
    Ok(out)
}

fn database_name(d: &Database<'_>) -> String {
    d.type_name()
        .map_or_else(|| format!("unknown:{:#010x}", d.magic()), str::to_string)
}

/// The databases by name, with what a comparison shows of them.
fn databases(db: &AssetsDb<'_>) -> Result<Vec<(String, Value)>> {
    db.databases()
        .iter()
        .map(|d| {
            let d = d?;
            Ok((
                database_name(&d),
                json!({
                    "schema_hash": format!("{:#010x}", d.schema_hash()),
                    "item_size": d.item_size(),
                    "records": d.record_count(),
                }),
            ))
        })
        .collect()
}

/// What is byte-identical in both files: a record's fields depend only on its database's blob
/// (with its type and schema) and the strings map, so two references to the same record of an
/// unchanged database are equal without reading either.
struct Unchanged {
    strings: bool,
    /// Per database index: the same type, schema and blob in both files.
    databases: Vec<bool>,
}

impl Unchanged {
    fn find(a: &AssetsDb<'_>, b: &AssetsDb<'_>) -> Result<Self> {
        let databases = a
            .databases()
            .iter()
            .zip(b.databases().iter())
            .map(|(da, db)| {
                let (da, db) = (da?, db?);
                Ok(da.magic() == db.magic()
                    && da.schema_hash() == db.schema_hash()
                    && da.record_count() == db.record_count()
                    && da.blob() == db.blob())
            })
            .collect::<Result<_>>()?;
        Ok(Unchanged {
            strings: a.strings().same_as(&b.strings()),
            databases,
        })
    }

    /// Whether `a` and `b` are the same live record of an unchanged database.
    fn same_record(&self, a: Option<PrototypeRef>, b: Option<PrototypeRef>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => {
                self.strings
                    && a.state == PrototypeState::Live
                    && b.state == PrototypeState::Live
                    && (a.database, a.record) == (b.database, b.record)
                    && self.databases.get(a.database as usize) == Some(&true)
            }
            _ => false,
        }
    }
}

/// Compares the resources `a` and `b` lead to, under `at`, unless they are the same record of an
/// unchanged database.
fn compare_refs(
    at: &str,
    (db_a, a): (&AssetsDb<'_>, Option<PrototypeRef>),
    (db_b, b): (&AssetsDb<'_>, Option<PrototypeRef>),
    unchanged: &Unchanged,
    changes: &mut Vec<Change>,
) -> Result<()> {
    if unchanged.same_record(a, b) {
        return Ok(());
    }
    let (ra, rb) = (Resource::read(db_a, a)?, Resource::read(db_b, b)?);
    compare_resources(at, ra, rb, changes);
    Ok(())
}

/// Compares two resources found under `at` (a path or `(id 0x…)`).
fn compare_resources(at: &str, a: Resource, b: Resource, changes: &mut Vec<Change>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Resource::Live(fa), Resource::Live(fb)) if fa.type_name() == fb.type_name() => {
            compare(at, &to_value(&fa), &to_value(&fb), changes);
        }
        (a, b) => changes.push(Change::changed(join(at, "type"), a.label(), b.label())),
    }
}

/// The second file's paths, found by text: a map from each path's CityHash64 to its position
/// (the hash is computed once per path and the map needs no hashing of its own), with the rare
/// paths whose hash another path already has kept apart.
struct PathLookup<'p> {
    paths: &'p [(String, u64)],
    by_hash: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    collided: HashMap<&'p str, u32>,
}

impl<'p> PathLookup<'p> {
    fn new(paths: &'p [(String, u64)]) -> Self {
        let mut by_hash =
            HashMap::with_capacity_and_hasher(paths.len(), BuildHasherDefault::default());
        let mut collided = HashMap::new();
        for (i, (path, _)) in paths.iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            match by_hash.entry(city_hash_64(path.as_bytes())) {
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
                // A repeated path keeps its first position; another path with the same hash is
                // kept apart.
                Entry::Occupied(slot) => {
                    if paths.get(*slot.get() as usize).map(|(p, _)| p) != Some(path) {
                        collided.entry(path.as_str()).or_insert(i);
                    }
                }
            }
        }
        PathLookup {
            paths,
            by_hash,
            collided,
        }
    }

    /// The position of `path`.
    fn find(&self, path: &str) -> Option<usize> {
        let i = *self.by_hash.get(&city_hash_64(path.as_bytes()))? as usize;
        if self.paths.get(i).is_some_and(|(p, _)| p == path) {
            return Some(i);
        }
        self.collided.get(path).map(|&i| i as usize)
    }
}

type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// The changes at `paths` of the first file, each paired with its position in the second file's
/// `paths_b` (`None`: removed).
fn compare_paths(
    (a, paths): (&AssetsDb<'_>, &[(String, u64)]),
    (b, paths_b): (&AssetsDb<'_>, &[(String, u64)]),
    pairs: &[Option<usize>],
    unchanged: &Unchanged,
) -> Result<Vec<Change>> {
    let mut changes = Vec::new();
    for ((path, id_a), pair) in paths.iter().zip(pairs) {
        let at_a = a.prototype(*id_a)?;
        let Some(&(_, id_b)) = pair.and_then(|i| paths_b.get(i)) else {
            changes.push(Change::removed(
                path.clone(),
                Resource::read(a, at_a)?.label(),
            ));
            continue;
        };
        if *id_a != id_b {
            changes.push(Change::changed(
                join(path, "id"),
                format!("{id_a:#018x}"),
                format!("{id_b:#018x}"),
            ));
        }
        let at_b = b.prototype(id_b)?;
        compare_refs(path, (a, at_a), (b, at_b), unchanged, &mut changes)?;
    }
    Ok(changes)
}

/// Compares two files.
pub fn files(a: &AssetsDb<'_>, b: &AssetsDb<'_>) -> Result<Report> {
    let mut changes = Vec::new();
    compare_keyed("databases", databases(a)?, databases(b)?, &mut changes);
    let unchanged = Unchanged::find(a, b)?;

    let (paths_a, paths_b) = (full_paths(a)?, full_paths(b)?);
    let lookup = PathLookup::new(&paths_b);
    let mut matched = vec![false; paths_b.len()];
    // Ids named by a path, in either file: the rest of the prototypes are compared by id.
    let mut named = IdSet::with_capacity_and_hasher(
        paths_a.len() + paths_b.len(),
        BuildHasherDefault::default(),
    );
    // Each path of the first file with its position in the second (a path repeated in the first
    // file is paired once; its repeats count as removed).
    let pairs: Vec<Option<usize>> = paths_a
        .iter()
        .map(|(path, id_a)| {
            named.insert(*id_a);
            let found = lookup
                .find(path)
                .filter(|&i| !matched.get(i).copied().unwrap_or(true))?;
            if let Some(m) = matched.get_mut(found) {
                *m = true;
            }
            if let Some((_, id_b)) = paths_b.get(found) {
                named.insert(*id_b);
            }
            Some(found)
        })
        .collect();
    // Reading and comparing the records is most of the work: split over the cores, each part's
    // changes kept in the first file's order.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(16));
    let part = paths_a.len().div_ceil(threads).max(1);
    let parts: Vec<Result<Vec<Change>>> = std::thread::scope(|scope| {
        let running: Vec<_> = paths_a
            .chunks(part)
            .zip(pairs.chunks(part))
            .map(|(paths, pairs)| {
                let (paths_b, unchanged) = (&paths_b, &unchanged);
                scope.spawn(move || compare_paths((a, paths), (b, paths_b), pairs, unchanged))
            })
            .collect();
        running
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    });
    for part in parts {
        changes.extend(part?);
    }
    for ((path, id_b), matched) in paths_b.iter().zip(&matched) {
        if !matched {
            named.insert(*id_b);
            let rb = Resource::read(b, b.prototype(*id_b)?)?;
            changes.push(Change::added(path.clone(), rb.label()));
        }
    }

    // Prototypes no path names, by id.
    let mut unnamed_b: HashMap<u64, PrototypeRef> = HashMap::new();
    for found in b.prototypes().iter() {
        let (id, at) = found?;
        if !named.contains(&id) {
            unnamed_b.insert(id, at);
        }
    }
    for found in a.prototypes().iter() {
        let (id, at) = found?;
        if named.contains(&id) {
            continue;
        }
        let at_id = format!("(id {id:#018x})");
        match unnamed_b.remove(&id) {
            Some(at_b) => compare_refs(
                &at_id,
                (a, Some(at)),
                (b, Some(at_b)),
                &unchanged,
                &mut changes,
            )?,
            None => changes.push(Change::removed(at_id, Resource::read(a, Some(at))?.label())),
        }
    }
    let mut added: Vec<_> = unnamed_b.into_iter().collect();
    added.sort_unstable_by_key(|(id, _)| *id);
    for (id, at) in added {
        let rb = Resource::read(b, Some(at))?;
        changes.push(Change::added(format!("(id {id:#018x})"), rb.label()));
    }
    Ok(Report::new(crate::Format::WowsAssets.name(), changes))
}

//! One index's tree resolved as a whole: every name record read, its parents followed to the root
//! (once per name: each name's result is kept and reused by its children), and the full paths
//! rebuilt. What the `.idx` check and the owned model share; lookups of one path need none of it.

use std::collections::HashMap;

use super::IdxView;
use super::entry::Name;
use super::install::MAX_PATH_BYTES;
use super::path::ROOT_PARENT_ID;
use crate::error::Result;

/// The deepest tree followed (as an install does): a deeper chain of parents is not a tree.
pub(super) const MAX_DEPTH: usize = 1024;

/// Why a name's parents do not lead to the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broken {
    /// Its parent id (or an ancestor's) is the id of no name record.
    MissingParent {
        /// The id no name record has.
        parent_id: u64,
    },
    /// Its parents come back to a name already on the way: a cycle.
    Cycle,
    /// More than 1,024 levels.
    TooDeep,
    /// An ancestor's record does not read (its error is reported on its own).
    UnreadableAncestor,
    /// Its full path is longer than [`MAX_PATH_BYTES`] (4096) bytes.
    PathTooLong,
}

impl Broken {
    /// What is wrong, as messages say it.
    pub fn describe(self) -> String {
        match self {
            Broken::MissingParent { parent_id } => {
                format!(
                    "its parents do not lead to the root: no name record has id {parent_id:#018x}"
                )
            }
            Broken::Cycle => "its parents do not lead to the root: they form a cycle".to_owned(),
            Broken::TooDeep => {
                format!("its parents do not lead to the root within {MAX_DEPTH} levels")
            }
            Broken::UnreadableAncestor => {
                "its parents do not lead to the root: a parent's record does not read".to_owned()
            }
            Broken::PathTooLong => {
                format!("its full path is longer than {MAX_PATH_BYTES} bytes")
            }
        }
    }
}

/// Where a name stands in the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reach {
    /// Its parents lead to the root: its depth (1 at the top) and full path (`None` once the
    /// paths rebuilt so far have used the budget of [`Tree::path_budget`]).
    Root { depth: usize, path: Option<String> },
    /// They do not.
    Broken(Broken),
    /// Its own record does not read.
    Unreadable,
}

/// Every name of an index, read and placed in the tree.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    /// Each name record, in table order, read (or its error).
    pub names: Vec<Result<Name<'a>>>,
    /// Where each name stands.
    pub reach: Vec<Reach>,
    /// The first name record of each id.
    pub by_id: HashMap<u64, usize>,
    /// Name records whose id an earlier one has: (this record, the first, the id).
    pub duplicates: Vec<(usize, usize, u64)>,
    /// Whether some full paths were left out because the paths rebuilt used the whole budget.
    pub out_of_budget: bool,
}

/// A name read, its text checked to be UTF-8.
fn checked_name(name: Result<Name<'_>>) -> Result<Name<'_>> {
    let name = name?;
    name.name_str()?;
    Ok(name)
}

impl<'a> Tree<'a> {
    /// The bytes of full paths rebuilt at most: 64 times the index's size and 1 MiB (real paths
    /// are a fraction of their index; names sharing their bytes could otherwise spell far more).
    pub fn path_budget(view: &IdxView<'_>) -> usize {
        view.as_bytes()
            .len()
            .saturating_mul(64)
            .saturating_add(1 << 20)
    }

    /// Reads every name of `view` and follows each one's parents to the root, once per name.
    pub fn of(view: &IdxView<'a>) -> Tree<'a> {
        let n = view.name_count();
        let names: Vec<Result<Name<'a>>> = view.names().map(checked_name).collect();
        let mut by_id = HashMap::with_capacity(n);
        let mut duplicates = Vec::new();
        for (i, id) in view.name_ids().enumerate() {
            if let Some(&first) = by_id.get(&id) {
                duplicates.push((i, first, id));
            } else {
                by_id.insert(id, i);
            }
        }
        let mut tree = Tree {
            names,
            reach: Vec::new(),
            by_id,
            duplicates,
            out_of_budget: false,
        };
        tree.place_all(Tree::path_budget(view));
        tree
    }

    /// Fills `reach`: each name's chain of parents is followed until a name already placed, the
    /// root or a fault, then every name on the chain is placed from the top down. Each name is
    /// pushed once, so the whole walk is linear in the names.
    fn place_all(&mut self, mut budget: usize) {
        let n = self.names.len();
        // None: not placed yet.
        let mut placed: Vec<Option<Reach>> = vec![None; n];
        let mut on_chain = vec![false; n];
        let mut chain: Vec<usize> = Vec::new();
        for start in 0..n {
            if placed[start].is_some() {
                continue;
            }
            chain.clear();
            let mut next = Some(start);
            // What the name above the chain's last one is: placed (its reach), or a fault.
            let top: Reach = loop {
                let Some(i) = next else {
                    break Reach::Root {
                        depth: 0,
                        path: Some(String::new()),
                    };
                };
                if on_chain[i] {
                    break Reach::Broken(Broken::Cycle);
                }
                if let Some(reach) = &placed[i] {
                    break reach.clone();
                }
                let Ok(name) = &self.names[i] else {
                    // The unreadable name itself is placed as such; its children are broken.
                    placed[i] = Some(Reach::Unreadable);
                    break Reach::Unreadable;
                };
                on_chain[i] = true;
                chain.push(i);
                if name.parent_id == ROOT_PARENT_ID {
                    next = None;
                } else {
                    match self.by_id.get(&name.parent_id) {
                        Some(&parent) => next = Some(parent),
                        None => {
                            break Reach::Broken(Broken::MissingParent {
                                parent_id: name.parent_id,
                            });
                        }
                    }
                }
            };
            // From the top of the chain down: each name's reach from its parent's.
            let mut above = top;
            while let Some(i) = chain.pop() {
                on_chain[i] = false;
                let reach = match (&above, &self.names[i]) {
                    (Reach::Root { depth, path }, Ok(name)) => {
                        if *depth >= MAX_DEPTH {
                            Reach::Broken(Broken::TooDeep)
                        } else {
                            let text = core::str::from_utf8(name.name).unwrap_or("");
                            let path = path.as_ref().and_then(|p| {
                                let len = p.len() + usize::from(!p.is_empty()) + text.len();
                                if len > budget {
                                    self.out_of_budget = true;
                                    return None;
                                }
                                budget -= len;
                                let mut full = String::with_capacity(len);
                                full.push_str(p);
                                if !p.is_empty() {
                                    full.push('/');
                                }
                                full.push_str(text);
                                Some(full)
                            });
                            match path {
                                Some(p) if p.len() > MAX_PATH_BYTES => {
                                    Reach::Broken(Broken::PathTooLong)
                                }
                                path => Reach::Root {
                                    depth: depth + 1,
                                    path,
                                },
                            }
                        }
                    }
                    (Reach::Root { .. }, Err(_)) | (_, Err(_)) => Reach::Unreadable,
                    (Reach::Broken(why), Ok(_)) => Reach::Broken(*why),
                    (Reach::Unreadable, Ok(_)) => Reach::Broken(Broken::UnreadableAncestor),
                };
                placed[i] = Some(reach.clone());
                above = reach;
            }
        }
        self.reach = placed
            .into_iter()
            .map(|r| r.unwrap_or(Reach::Unreadable))
            .collect();
    }

    /// The full path of name record `i`, when its parents lead to the root.
    pub fn path(&self, i: usize) -> Option<&str> {
        match self.reach.get(i)? {
            Reach::Root { path, .. } => path.as_deref(),
            _ => None,
        }
    }

    /// The full path of the name with `id` (its first record).
    pub fn path_of_id(&self, id: u64) -> Option<&str> {
        self.path(*self.by_id.get(&id)?)
    }
}

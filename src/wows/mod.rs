//! World of Warships formats.

pub mod geometry;

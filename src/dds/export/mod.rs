//! A texture's interchange form: a level decoded to PNG ([`png`]).

pub mod png;

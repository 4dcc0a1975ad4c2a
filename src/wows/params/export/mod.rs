//! GameParams' interchange form: the JSON dataminers use ([`json`]), one object of every entry
//! or one file per entry, from the view's entries as they are decoded.

pub mod json;

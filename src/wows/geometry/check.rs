//! The deep check of a `.geometry`: [`GeometryView::validate`], then every buffer decoded, every
//! draw paired and read, and what the pairing had to guess.

use core::fmt;

use super::{DecodedGeometry, GeometryView, Mapping, PairingDoubt, SWAPPED_INDEX_SIZE};
use crate::error::{Error, Result};

/// One thing [`GeometryView::check`] found. `Display` gives the line a tool prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum GeometryFinding {
    /// Index buffer `buffer` (at file offset `offset`) stores its index size in the reserved field
    /// (see [`IndexBuffer::has_swapped_index_size`](super::IndexBuffer::has_swapped_index_size)).
    SwappedIndexSize {
        /// Position in the index-buffer table.
        buffer: usize,
        /// File offset of the IndicesPrototype.
        offset: usize,
    },
    /// A paired draw whose vertices or indices could not be read from the decoded buffers.
    DrawUnreadable {
        /// The vertex mapping's id.
        vertices_id: u32,
        /// The index mapping's id.
        indices_id: u32,
        /// Why.
        error: Error,
    },
    /// The pairing of an index mapping was a choice, or failed (see [`PairingDoubt`]).
    Pairing {
        /// The index mapping's id.
        index_mapping_id: u32,
        /// What the pairing doubted.
        doubt: PairingDoubt,
    },
    /// A vertex mapping that no index mapping pairs with.
    UnpairedVertexMapping {
        /// The vertex mapping's id.
        id: u32,
    },
    /// A draw whose vertices store non-finite values (NaN or infinite) in a float attribute: the
    /// exporters write 0 there ([`Vertices::non_finite`](super::Vertices::non_finite)).
    NonFiniteAttribute {
        /// The vertex mapping's id.
        vertices_id: u32,
        /// The index mapping's id.
        indices_id: u32,
        /// Which attribute, where and how often.
        non_finite: super::NonFinite,
    },
}

impl fmt::Display for GeometryFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryFinding::SwappedIndexSize { buffer, offset } => {
                write!(
                    f,
                    "index buffer {buffer} at {offset:#x}: {SWAPPED_INDEX_SIZE}"
                )
            }
            GeometryFinding::DrawUnreadable {
                vertices_id,
                indices_id,
                error,
            } => write!(f, "draw {vertices_id:#010x} + {indices_id:#010x}: {error}"),
            GeometryFinding::Pairing {
                index_mapping_id,
                doubt,
            } => write!(f, "index mapping {index_mapping_id:#010x}: {doubt}"),
            GeometryFinding::UnpairedVertexMapping { id } => write!(
                f,
                "vertex mapping {id:#010x}: no index mapping pairs with it"
            ),
            GeometryFinding::NonFiniteAttribute {
                vertices_id,
                indices_id,
                non_finite,
            } => write!(
                f,
                "draw {vertices_id:#010x} + {indices_id:#010x}: {non_finite} (exported as 0)"
            ),
        }
    }
}

/// What [`GeometryView::check`] found: errors (data that cannot be used as it is) and warnings
/// (what the reader tolerated or had to guess), each in the order found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GeometryCheck {
    /// Draws that do not read, and index mappings that pair with nothing.
    pub errors: Vec<GeometryFinding>,
    /// Swapped index sizes, pairing guesses, vertex mappings left unpaired, non-finite attributes.
    pub warnings: Vec<GeometryFinding>,
}

impl GeometryCheck {
    /// Whether nothing was found.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }
}

impl DecodedGeometry {
    /// Every readable draw's float attributes that store non-finite values (NaN or infinite),
    /// as [`GeometryView::check`] reports them and the exporters' callers warn of them (the
    /// exporters write 0 there).
    pub fn non_finite_attributes(&self, view: &GeometryView<'_>) -> Vec<GeometryFinding> {
        // The usual file has none: one pass over each decoded buffer's stored bits decides, and
        // only a file with some pairs its draws again to say which draws they are in.
        let any = (0..)
            .map_while(|i| self.vertex_buffer(i))
            .filter_map(Result::ok)
            .any(|vertices| vertices.non_finite().next().is_some());
        if !any {
            return Vec::new();
        }
        let mut found = Vec::new();
        for draw in self.draws(view) {
            if let Ok(data) = self.draw_data(&draw) {
                found.extend(data.vertices.non_finite().map(|non_finite| {
                    GeometryFinding::NonFiniteAttribute {
                        vertices_id: draw.vertices.id(),
                        indices_id: draw.indices.id(),
                        non_finite,
                    }
                }));
            }
        }
        found
    }
}

impl<'a> GeometryView<'a> {
    /// Checks everything a tool can: [`validate`](Self::validate) (its error is this function's
    /// error), then every buffer decoded (into buffers this call allocates), every draw paired and
    /// read back. Pairings whose candidates are interchangeable (identical indices) are not
    /// reported; a pairing that found nothing or could not read its index data is an error.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::geometry::example_file();
    /// use gamebin::wows::geometry::GeometryView;
    ///
    /// let geometry = GeometryView::from_bytes(&file)?;
    /// let found = geometry.check()?;
    /// assert!(found.is_clean());
    /// for line in found.errors.iter().chain(&found.warnings) {
    ///     println!("{line}");
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn check(&self) -> Result<GeometryCheck> {
        self.validate()?;
        let mut found = GeometryCheck::default();
        for (buffer, ib) in self.index_buffers().enumerate() {
            if ib.has_swapped_index_size() {
                found.warnings.push(GeometryFinding::SwappedIndexSize {
                    buffer,
                    offset: ib.offset(),
                });
            }
        }
        let mut decoded = DecodedGeometry::new();
        decoded.decode(self);
        for draw in decoded.draws(self) {
            if let Err(error) = decoded.draw_data(&draw) {
                found.errors.push(GeometryFinding::DrawUnreadable {
                    vertices_id: draw.vertices.id(),
                    indices_id: draw.indices.id(),
                    error,
                });
            }
        }
        found.warnings.extend(decoded.non_finite_attributes(self));
        let (vm, im) = (self.vertex_mappings(), self.index_mappings());
        let id = |m: Option<Mapping<'_>>| m.map_or(0, |m| m.id());
        let table = decoded.draw_table();
        for note in table.notes() {
            let finding = GeometryFinding::Pairing {
                index_mapping_id: id(im.get(note.index_mapping_position)),
                doubt: note.doubt,
            };
            match note.doubt {
                PairingDoubt::SameVertexCount {
                    interchangeable: true,
                    ..
                } => {}
                PairingDoubt::NoneFits { .. } | PairingDoubt::IndexDataUnreadable(_) => {
                    found.errors.push(finding)
                }
                _ => found.warnings.push(finding),
            }
        }
        for p in table.unpaired_vertex_mappings() {
            found
                .warnings
                .push(GeometryFinding::UnpairedVertexMapping { id: id(vm.get(p)) });
        }
        Ok(found)
    }
}

#[cfg(all(test, feature = "synth"))]
mod tests {
    use super::*;

    #[test]
    fn the_example_file_is_clean_and_findings_print_as_the_cli_prints_them() {
        let file = crate::synth::geometry::example_file();
        let view = GeometryView::from_bytes(&file).unwrap();
        assert_eq!(view.check().unwrap(), GeometryCheck::default());
        assert_eq!(
            GeometryFinding::UnpairedVertexMapping { id: 0x1234 }.to_string(),
            "vertex mapping 0x00001234: no index mapping pairs with it"
        );
        assert_eq!(
            GeometryFinding::SwappedIndexSize {
                buffer: 2,
                offset: 0x90
            }
            .to_string(),
            format!("index buffer 2 at 0x90: {SWAPPED_INDEX_SIZE}")
        );
    }
}

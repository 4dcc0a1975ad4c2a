//! [`Vertices`]: typed attribute reads over vertex records in any byte slice (raw bytes in the
//! mapping or bytes decoded into a caller buffer), at any alignment.

use core::fmt;

use super::vertex_format::{VertexFormat, f16_to_f32, unpack_unit};

/// An attribute whose stored values are floats (`f32` positions, `f16` texture coordinates) and so
/// can be NaN or infinite; the others are bytes and always finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatAttribute {
    /// The position (`xyz`, three `f32`).
    Position,
    /// The first texture coordinate set (`uv`, two `f16`).
    Uv,
    /// The second texture coordinate set (`uv2`, two `f16`).
    Uv1,
}

impl fmt::Display for FloatAttribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FloatAttribute::Position => "position",
            FloatAttribute::Uv => "texture coordinates",
            FloatAttribute::Uv1 => "second texture coordinates",
        })
    }
}

/// Non-finite values of one [`FloatAttribute`] in a run of vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonFinite {
    /// Which attribute.
    pub attribute: FloatAttribute,
    /// The first vertex (from the start of the run) that stores one.
    pub first_vertex: usize,
    /// How many vertices store at least one.
    pub vertices: usize,
}

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} vertex(es) not finite (NaN or infinite; the first is vertex {})",
            self.attribute, self.vertices, self.first_vertex
        )
    }
}

/// Where one attribute lies in a vertex and how it is stored, as [`Vertices`] reads it: what a
/// caller needs to lay a typed view of its own (a NumPy structured dtype, a GPU vertex layout)
/// over the same records. From [`VertexFormat::attributes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributeLayout {
    /// The name of the [`Vertices`] accessor that reads it: `"position"`, `"normal"`, `"uv"`,
    /// `"uv1"`, `"tangent"`, `"binormal"`, `"bone_indices"` or `"bone_weights"`.
    pub name: &'static str,
    /// Byte offset within the vertex.
    pub offset: u8,
    /// Components as stored: 3 for the position, 2 for a UV set, 4 bytes for the others (a unit
    /// vector's fourth byte and the bone fields' pad bytes included).
    pub components: u8,
    /// Bytes per component: 4 (`f32`), 2 (`f16`) or 1 (`u8`).
    pub component_size: u8,
    /// Whether the components are little-endian IEEE floats; otherwise unsigned bytes.
    pub float: bool,
}

impl AttributeLayout {
    /// Bytes the attribute takes in a vertex.
    pub const fn size(&self) -> usize {
        self.components as usize * self.component_size as usize
    }
}

const fn stored(name: &'static str, components: u8, size: u8, float: bool) -> AttributeLayout {
    AttributeLayout {
        name,
        offset: 0,
        components,
        component_size: size,
        float,
    }
}

// How each attribute is stored: `attributes` hands these out, so a caller's view of the records
// and the accessors below (which read these sizes: the assertion holds them together) agree.
const POSITION: AttributeLayout = stored("position", 3, 4, true);
const NORMAL: AttributeLayout = stored("normal", 4, 1, false);
const UV: AttributeLayout = stored("uv", 2, 2, true);
const UV1: AttributeLayout = stored("uv1", 2, 2, true);
const TANGENT: AttributeLayout = stored("tangent", 4, 1, false);
const BINORMAL: AttributeLayout = stored("binormal", 4, 1, false);
const BONE_INDICES: AttributeLayout = stored("bone_indices", 4, 1, false);
const BONE_WEIGHTS: AttributeLayout = stored("bone_weights", 4, 1, false);
const _: () = assert!(
    POSITION.size() == 12
        && NORMAL.size() == 4
        && UV.size() == 4
        && UV1.size() == 4
        && TANGENT.size() == 4
        && BINORMAL.size() == 4
        && BONE_INDICES.size() == 4
        && BONE_WEIGHTS.size() == 4
);

impl VertexFormat {
    /// The attributes this layout places, in byte order, each with its offset and how it is
    /// stored. On a layout [`fitted_to`](Self::fitted_to) the stride (as
    /// [`VertexBuffer::format`](super::VertexBuffer::format) gives it) every one lies inside the
    /// record. Allocates nothing.
    pub fn attributes(self) -> impl Iterator<Item = AttributeLayout> {
        let mut all = [
            (POSITION, self.position),
            (NORMAL, self.normal),
            (UV, self.uv0),
            (UV1, self.uv1),
            (TANGENT, self.tangent),
            (BINORMAL, self.binormal),
            (BONE_INDICES, self.bone_indices),
            (BONE_WEIGHTS, self.bone_weights),
        ]
        .map(|(a, at)| at.map(|offset| AttributeLayout { offset, ..a }));
        // Names place attributes in any order (`iii` before `t` in the skinned formats).
        all.sort_unstable_by_key(|a| a.map(|a| a.offset));
        all.into_iter().flatten()
    }
}

/// `count` vertex records of `stride` bytes laid out as a [`VertexFormat`] describes. Reads are
/// bounds-checked and return `None` past the end; nothing is copied. `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Vertices<'b> {
    data: &'b [u8],
    stride: usize,
    format: VertexFormat,
}

impl<'b> Vertices<'b> {
    /// Views `data` as records of `stride` bytes. Returns `None` when the stride is 0 or `data` is not
    /// a whole number of records. Attributes that the format places beyond the stride are dropped.
    pub fn new(data: &'b [u8], stride: usize, format: VertexFormat) -> Option<Self> {
        (stride != 0 && data.len().is_multiple_of(stride)).then_some(Vertices {
            data,
            stride,
            format: format.fitted_to(stride),
        })
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.data.len() / self.stride
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Bytes per vertex.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The attribute layout, restricted to what fits in the stride.
    pub fn format(&self) -> VertexFormat {
        self.format
    }

    /// All the records' bytes.
    pub fn bytes(&self) -> &'b [u8] {
        self.data
    }

    /// The records `start .. start + count`, or `None` if that range is not inside.
    pub fn range(&self, start: usize, count: usize) -> Option<Vertices<'b>> {
        let from = start.checked_mul(self.stride)?;
        let len = count.checked_mul(self.stride)?;
        let data = self.data.get(from..from.checked_add(len)?)?;
        Some(Vertices { data, ..*self })
    }

    /// The bytes of vertex `i`.
    pub fn record(&self, i: usize) -> Option<&'b [u8]> {
        let from = i.checked_mul(self.stride)?;
        self.data.get(from..from.checked_add(self.stride)?)
    }

    fn field<const N: usize>(&self, i: usize, at: Option<u8>) -> Option<[u8; N]> {
        let at = usize::from(at?);
        let record = self.record(i)?;
        record.get(at..at + N)?.try_into().ok()
    }

    fn f32_at(bytes: [u8; 12], k: usize) -> f32 {
        f32::from_le_bytes([
            bytes[4 * k],
            bytes[4 * k + 1],
            bytes[4 * k + 2],
            bytes[4 * k + 3],
        ])
    }

    /// Position of vertex `i` (left-handed, Y up, as stored).
    pub fn position(&self, i: usize) -> Option<[f32; 3]> {
        let b = self.field::<12>(i, self.format.position)?;
        Some([Self::f32_at(b, 0), Self::f32_at(b, 1), Self::f32_at(b, 2)])
    }

    /// The attributes of these vertices that store non-finite values (NaN or infinite), each with
    /// its first such vertex and how many there are; empty for the usual file. Exporters write 0
    /// for such a component (the stored value; a texture coordinate of 0 is the texture's middle
    /// once the game's `uv − 0.5` is undone) and report what this returns.
    pub fn non_finite(&self) -> impl Iterator<Item = NonFinite> + 'b {
        // The stored bits are tested, not decoded values: a component is NaN or infinite exactly
        // when its exponent bits are all set. Each attribute's exponents are 16-bit words at fixed
        // places of the record (the top half of each f32 of a position, each f16 of a UV set),
        // so one pass over the records reads a few words of each.
        let attributes = [
            (
                FloatAttribute::Position,
                self.format.position,
                12,
                F32_EXPONENTS,
            ),
            (FloatAttribute::Uv, self.format.uv0, 4, F16_EXPONENTS),
            (FloatAttribute::Uv1, self.format.uv1, 4, F16_EXPONENTS),
        ];
        // An attribute that does not fit the record is absent (as the accessors read it).
        let present = attributes.map(|(attribute, at, len, exponents)| {
            at.map(usize::from)
                .filter(|&at| at + len <= self.stride)
                .map(|at| (attribute, at, exponents))
        });
        let mut found: [Option<NonFinite>; 3] = [None, None, None];
        for (i, record) in self.data.chunks_exact(self.stride).enumerate() {
            for (present, slot) in present.iter().zip(&mut found) {
                let Some((attribute, at, (words, mask))) = *present else {
                    continue;
                };
                let bad = words.iter().any(|&w| {
                    matches!(record.get(at + w..at + w + 2),
                        Some(&[low, high]) if u16::from_le_bytes([low, high]) & mask == mask)
                });
                if bad {
                    match slot {
                        Some(n) => n.vertices += 1,
                        None => {
                            *slot = Some(NonFinite {
                                attribute,
                                first_vertex: i,
                                vertices: 1,
                            })
                        }
                    }
                }
            }
        }
        found.into_iter().flatten()
    }

    fn unit(&self, i: usize, at: Option<u8>) -> Option<[f32; 3]> {
        let b = self.field::<4>(i, at)?;
        Some([unpack_unit(b[0]), unpack_unit(b[1]), unpack_unit(b[2])])
    }

    /// Normal of vertex `i`, decoded from offset-binary bytes (`(byte − 127) / 127`).
    pub fn normal(&self, i: usize) -> Option<[f32; 3]> {
        self.unit(i, self.format.normal)
    }

    /// Tangent of vertex `i` (offset-binary, like the normal).
    pub fn tangent(&self, i: usize) -> Option<[f32; 3]> {
        self.unit(i, self.format.tangent)
    }

    /// Binormal of vertex `i` (offset-binary, like the normal).
    pub fn binormal(&self, i: usize) -> Option<[f32; 3]> {
        self.unit(i, self.format.binormal)
    }

    fn uv_at(&self, i: usize, at: Option<u8>) -> Option<[f32; 2]> {
        let b = self.field::<4>(i, at)?;
        Some([
            f16_to_f32(u16::from_le_bytes([b[0], b[1]])),
            f16_to_f32(u16::from_le_bytes([b[2], b[3]])),
        ])
    }

    /// First UV set of vertex `i`, the two f16 as stored. The game stores `uv − 0.5`: add 0.5 for
    /// texture coordinates in 0..1.
    pub fn uv(&self, i: usize) -> Option<[f32; 2]> {
        self.uv_at(i, self.format.uv0)
    }

    /// Second UV set of vertex `i` (`uv2` formats), as stored.
    pub fn uv1(&self, i: usize) -> Option<[f32; 2]> {
        self.uv_at(i, self.format.uv1)
    }

    /// Bone indices of vertex `i` in the order the skin reads them (first, second, third), divided
    /// by the 3 they are stored multiplied with (a bone's matrix is three rows of constants).
    ///
    /// The `iii` field is a Direct3D colour (`D3DCOLOR`, bytes B, G, R, A) that the shaders
    /// swizzle back, so the first index is the field's third byte and the third index its first:
    /// the engine's packed vertex declares it `index3, index2, index, pad`. Real skinned meshes
    /// agree: their rigid vertices carry the weight in the byte that pairs with the third byte.
    pub fn bone_indices(&self, i: usize) -> Option<[u8; 3]> {
        let b = self.field::<4>(i, self.format.bone_indices)?;
        Some([b[2] / 3, b[1] / 3, b[0] / 3])
    }

    /// Bone weights of vertex `i` for the three [`bone_indices`](Self::bone_indices): the first
    /// two stored as bytes (`w / 255`), the third what remains of 1 (0 when the two add up to
    /// more). The `ww` field is laid out like the indices, a colour read back swizzled: `pad,
    /// weight2, weight, pad` — the first weight is its third byte, the second its second. Real
    /// skinned meshes store a rigid vertex as `00 00 ff 00`: the whole weight on the first index.
    pub fn bone_weights(&self, i: usize) -> Option<[f32; 3]> {
        let b = self.field::<4>(i, self.format.bone_weights)?;
        let (w0, w1) = (f32::from(b[2]) / 255.0, f32::from(b[1]) / 255.0);
        Some([w0, w1, (1.0 - w0 - w1).max(0.0)])
    }

    /// Positions of all vertices (empty if the format has none).
    pub fn positions(&self) -> impl ExactSizeIterator<Item = [f32; 3]> + 'b {
        let v = *self;
        let n = if v.format.position.is_some() {
            v.len()
        } else {
            0
        };
        (0..n).map(move |i| v.position(i).unwrap_or_default())
    }

    /// Normals of all vertices (empty if the format has none).
    pub fn normals(&self) -> impl ExactSizeIterator<Item = [f32; 3]> + 'b {
        let v = *self;
        let n = if v.format.normal.is_some() {
            v.len()
        } else {
            0
        };
        (0..n).map(move |i| v.normal(i).unwrap_or_default())
    }

    /// First-set UVs of all vertices, as stored (empty if the format has none).
    pub fn uvs(&self) -> impl ExactSizeIterator<Item = [f32; 2]> + 'b {
        let v = *self;
        let n = if v.format.uv0.is_some() { v.len() } else { 0 };
        (0..n).map(move |i| v.uv(i).unwrap_or_default())
    }

    /// The axis-aligned bounds of the positions, or `None` without positions or vertices.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        let mut it = self.positions();
        let first = it.next()?;
        Some(it.fold((first, first), |(mut lo, mut hi), p| {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
            (lo, hi)
        }))
    }
}

/// Where the exponent words of an f32 triple lie (the top half of each float) and their mask.
const F32_EXPONENTS: ([usize; 3], u16) = ([2, 6, 10], 0x7F80);
/// The same for a pair of f16 (the whole of each), the last offset repeated.
const F16_EXPONENTS: ([usize; 3], u16) = ([0, 2, 2], 0x7C00);

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan of stored bits finds exactly the vertices whose decoded position or UVs are not
    /// all finite, on records of random bits (every exponent pattern turns up often).
    #[test]
    fn non_finite_scan_agrees_with_the_decoded_values() {
        let f = VertexFormat::parse(b"set3/xyznuv2tbpc");
        let stride = 28;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut data = vec![0u8; stride * 4000];
        for byte in &mut data {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Bytes biased to all-ones exponents so that NaN and infinity are common.
            *byte = if (state >> 60) < 5 {
                0xff
            } else {
                (state >> 33) as u8
            };
        }
        let v = Vertices::new(&data, stride, f).unwrap();
        let found: Vec<NonFinite> = v.non_finite().collect();
        let decoded = |attribute| {
            let bad: Vec<usize> = (0..v.len())
                .filter(|&i| match attribute {
                    FloatAttribute::Position => {
                        !v.position(i).unwrap().iter().all(|c| c.is_finite())
                    }
                    FloatAttribute::Uv => !v.uv(i).unwrap().iter().all(|c| c.is_finite()),
                    FloatAttribute::Uv1 => !v.uv1(i).unwrap().iter().all(|c| c.is_finite()),
                })
                .collect();
            (bad.first().copied(), bad.len())
        };
        for attribute in [
            FloatAttribute::Position,
            FloatAttribute::Uv,
            FloatAttribute::Uv1,
        ] {
            let (first, count) = decoded(attribute);
            assert!(count > 0 && count < v.len(), "{attribute:?}: {count}");
            let scan = found.iter().find(|n| n.attribute == attribute).unwrap();
            assert_eq!((Some(scan.first_vertex), scan.vertices), (first, count));
        }
    }

    fn one_vertex() -> Vec<u8> {
        let mut v = Vec::new();
        for f in [1.5f32, -2.0, 3.25] {
            v.extend_from_slice(&f.to_le_bytes());
        }
        v.extend_from_slice(&[254, 0, 127, 0]); // n
        v.extend_from_slice(&0x3800u16.to_le_bytes()); // u = 0.5
        v.extend_from_slice(&0xb400u16.to_le_bytes()); // v = -0.25
        v.extend_from_slice(&[0; 8]); // t b
        v
    }

    #[test]
    fn reads_attributes_at_odd_alignment() {
        let mut data = vec![0xee];
        data.extend(one_vertex());
        data.extend(one_vertex());
        let f = VertexFormat::parse(b"set3/xyznuvtbpc");
        let v = Vertices::new(&data[1..], 28, f).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v.position(1), Some([1.5, -2.0, 3.25]));
        let n = v.normal(0).unwrap();
        assert_eq!(n[0], 1.0);
        assert_eq!(n[1], -1.0);
        assert_eq!(v.uv(0), Some([0.5, -0.25]));
        assert_eq!(v.position(2), None);
        assert_eq!(v.positions().count(), 2);
        assert_eq!(v.bounds(), Some(([1.5, -2.0, 3.25], [1.5, -2.0, 3.25])));
        assert_eq!(v.range(1, 1).unwrap().len(), 1);
        assert!(v.range(1, 2).is_none());
        assert!(v.range(usize::MAX, 2).is_none());
    }

    #[test]
    fn attributes_come_in_byte_order_with_their_storage() {
        let f = VertexFormat::parse(b"set3/xyznuviiiwwtbpc");
        let layout: Vec<_> = f
            .attributes()
            .map(|a| (a.name, a.offset, a.size()))
            .collect();
        assert_eq!(
            layout,
            [
                ("position", 0, 12),
                ("normal", 12, 4),
                ("uv", 16, 4),
                ("bone_indices", 20, 4),
                ("bone_weights", 24, 4),
                ("tangent", 28, 4),
                ("binormal", 32, 4),
            ]
        );
        assert_eq!(f.fitted_to(16).attributes().count(), 2);
        let uv = f.attributes().find(|a| a.name == "uv").unwrap();
        assert_eq!((uv.components, uv.component_size, uv.float), (2, 2, true));
    }

    #[test]
    fn attribute_sizes_are_what_fitting_and_the_accessors_take() {
        let f = VertexFormat::parse(b"set3/xyznuv2iiiwwtbpc");
        assert_eq!(f.attributes().count(), 8);
        for a in f.attributes() {
            let end = usize::from(a.offset) + a.size();
            assert!(f.fitted_to(end).attributes().any(|b| b == a), "{}", a.name);
            assert!(
                !f.fitted_to(end - 1).attributes().any(|b| b == a),
                "{}",
                a.name
            );
            // A record that ends with the attribute reads it.
            let data = vec![0u8; end];
            let v = Vertices::new(&data, end, f).unwrap();
            let read = match a.name {
                "position" => v.position(0).is_some(),
                "normal" => v.normal(0).is_some(),
                "uv" => v.uv(0).is_some(),
                "uv1" => v.uv1(0).is_some(),
                "tangent" => v.tangent(0).is_some(),
                "binormal" => v.binormal(0).is_some(),
                "bone_indices" => v.bone_indices(0).is_some(),
                "bone_weights" => v.bone_weights(0).is_some(),
                other => panic!("no accessor for {other}"),
            };
            assert!(read, "{}", a.name);
        }
    }

    #[test]
    fn rejects_partial_records() {
        let f = VertexFormat::parse(b"set3/xyz");
        assert!(Vertices::new(&[0; 13], 12, f).is_none());
        assert!(Vertices::new(&[0; 12], 0, f).is_none());
        let v = Vertices::new(&[0; 8], 4, f).unwrap();
        assert_eq!(v.position(0), None, "position does not fit a 4-byte stride");
        assert_eq!(v.positions().count(), 0);
    }
}

//! Vertex format names (`"set3/xyznuvtbpc"`) and the attribute layout they describe.
//!
//! The letters after the slash name the components in order: `xyz` position (3 × f32), `n` normal,
//! `uv` one UV set (2 × f16), `uv2` two UV sets, `t` tangent, `b` binormal, `iii` bone indices,
//! `ww` bone weights, `i` and `r` four more bytes each, `pc` nothing. `oi` is counted as four bytes:
//! that is what makes `xyznuvtboi` the 32-byte stride the files have. The stride stored in the file is
//! authoritative; a name with letters the reader does not know still reads, as opaque records of that
//! stride, with the attributes that precede the unknown letters.

/// Byte offsets of the attributes a format name describes within one vertex, and the size it adds
/// up to. Parsing never fails and never allocates; `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VertexFormat {
    /// Offset of the position (`[f32; 3]`).
    pub position: Option<u8>,
    /// Offset of the normal (4 offset-binary bytes).
    pub normal: Option<u8>,
    /// Offset of the first UV set (2 × f16).
    pub uv0: Option<u8>,
    /// Offset of the second UV set (`uv2` formats).
    pub uv1: Option<u8>,
    /// Offset of the tangent (4 offset-binary bytes).
    pub tangent: Option<u8>,
    /// Offset of the binormal (4 offset-binary bytes).
    pub binormal: Option<u8>,
    /// Offset of the bone indices (3 bytes, stored × 3, and a pad byte).
    pub bone_indices: Option<u8>,
    /// Offset of the bone weights (4 bytes).
    pub bone_weights: Option<u8>,
    /// Bytes the known components add up to.
    pub size: u16,
    /// Whether every letter of the name was understood (otherwise `size` covers the known prefix).
    pub complete: bool,
}

impl VertexFormat {
    /// Parses a format name such as `"set3/xyznuvtbpc"`. The part before the slash (if any) is a
    /// family tag and does not affect the layout.
    pub fn parse(name: &[u8]) -> VertexFormat {
        let letters = match name.iter().rposition(|&b| b == b'/') {
            Some(slash) => name.get(slash + 1..).unwrap_or(&[]),
            None => name,
        };
        let mut f = VertexFormat {
            complete: true,
            ..VertexFormat::default()
        };
        let mut rest = letters;
        let mut offset: u16 = 0;
        // Longest tokens first so that `uv2` is not read as `uv`, `iii` not as `i`.
        const TOKENS: [(&[u8], u16); 12] = [
            (b"xyz", 12),
            (b"uv2", 8),
            (b"iii", 4),
            (b"uv", 4),
            (b"ww", 4),
            (b"pc", 0),
            (b"oi", 4),
            (b"n", 4),
            (b"t", 4),
            (b"b", 4),
            (b"i", 4),
            (b"r", 4),
        ];
        while !rest.is_empty() {
            let Some(&(token, size)) = TOKENS.iter().find(|(t, _)| rest.starts_with(t)) else {
                f.complete = false;
                break;
            };
            let at = u8::try_from(offset).ok();
            match token {
                b"xyz" => f.position = f.position.or(at),
                b"n" => f.normal = f.normal.or(at),
                b"uv" => f.uv0 = f.uv0.or(at),
                b"uv2" => {
                    f.uv0 = f.uv0.or(at);
                    f.uv1 = f.uv1.or(at.and_then(|o| o.checked_add(4)));
                }
                b"t" => f.tangent = f.tangent.or(at),
                b"b" => f.binormal = f.binormal.or(at),
                b"iii" => f.bone_indices = f.bone_indices.or(at),
                b"ww" => f.bone_weights = f.bone_weights.or(at),
                _ => {}
            }
            offset = offset.saturating_add(size);
            rest = rest.get(token.len()..).unwrap_or(&[]);
        }
        f.size = offset;
        f
    }

    /// Drops the attributes that do not fit inside a vertex of `stride` bytes, so that accessors
    /// never read past a record whatever the name claims.
    pub fn fitted_to(mut self, stride: usize) -> VertexFormat {
        let fits = |o: Option<u8>, len: usize| o.filter(|&o| usize::from(o) + len <= stride);
        self.position = fits(self.position, 12);
        self.normal = fits(self.normal, 4);
        self.uv0 = fits(self.uv0, 4);
        self.uv1 = fits(self.uv1, 4);
        self.tangent = fits(self.tangent, 4);
        self.binormal = fits(self.binormal, 4);
        self.bone_indices = fits(self.bone_indices, 4);
        self.bone_weights = fits(self.bone_weights, 4);
        self
    }
}

/// An offset-binary byte as a signed unit component: `(byte − 127) / 127` (normals, tangents,
/// binormals, armor normals).
///
/// Zero is stored as 127, so axis-aligned vectors come out exact: the raw CM001 sample stores its
/// normal as `7f 7f 00` = (0, 0, −1) and its tangent as `fe 7f 7f` = (1, 0, 0). On the real samples
/// this reading gives unit lengths within 0.014, against 0.022 for `byte / 127.5 − 1`.
#[inline]
pub fn unpack_unit(byte: u8) -> f32 {
    (f32::from(byte) - 127.0) / 127.0
}

/// IEEE 754 binary16 to f32, exact for every value (subnormals, infinities, NaN included).
#[inline]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m × 2^-24, normalise into an f32.
            let shift = m.leading_zeros() - 21; // bring the top set bit to bit 10
            let m = (m << shift) & 0x3ff;
            let e = 127 - 15 + 1 - shift;
            sign | (e << 23) | (m << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_format_names_add_up_to_their_strides() {
        // Strides of the formats seen in the game's files.
        for (name, stride) in [
            ("set3/xyznuvpc", 20),
            ("set3/xyznuvrpc", 24),
            ("set3/xyznuvtbpc", 28),
            ("set3/xyznuviiiwwpc", 28),
            ("set3/xyznuv2tbpc", 32),
            ("set3/xyznuvtbipc", 32),
            ("set3/xyznuvtboi", 32),
            ("set3/xyznuviiiwwr", 32),
            ("set3/xyznuv2tbipc", 36),
            ("set3/xyznuviiiwwtbpc", 36),
            ("set3/xyznuv2iiiwwtbpc", 40),
        ] {
            let f = VertexFormat::parse(name.as_bytes());
            assert!(f.complete, "{name}");
            assert_eq!(f.size, stride, "{name}");
            assert_eq!(f.position, Some(0), "{name}");
            assert_eq!(f.normal, Some(12), "{name}");
            assert_eq!(f.uv0, Some(16), "{name}");
        }
    }

    #[test]
    fn layout_of_the_common_format() {
        let f = VertexFormat::parse(b"set3/xyznuvtbpc");
        assert_eq!(f.tangent, Some(20));
        assert_eq!(f.binormal, Some(24));
        assert_eq!(f.uv1, None);
        let f = VertexFormat::parse(b"set3/xyznuv2iiiwwtbpc");
        assert_eq!(f.uv1, Some(20));
        assert_eq!(f.bone_indices, Some(24));
        assert_eq!(f.bone_weights, Some(28));
        assert_eq!(f.tangent, Some(32));
    }

    #[test]
    fn unknown_letters_keep_the_known_prefix() {
        let f = VertexFormat::parse(b"set9/xyznQQ");
        assert!(!f.complete);
        assert_eq!(f.position, Some(0));
        assert_eq!(f.normal, Some(12));
        assert_eq!(f.size, 16);
        let f = VertexFormat::parse(b"");
        assert_eq!(f.size, 0);
        assert!(f.position.is_none());
    }

    #[test]
    fn fitting_drops_attributes_beyond_the_stride() {
        let f = VertexFormat::parse(b"set3/xyznuvtbpc").fitted_to(16);
        assert_eq!(f.normal, Some(12));
        assert_eq!(f.uv0, None);
        assert_eq!(VertexFormat::parse(b"set3/xyz").fitted_to(8).position, None);
    }

    #[test]
    fn offset_binary_units() {
        assert_eq!(unpack_unit(0), -1.0);
        assert_eq!(unpack_unit(127), 0.0);
        assert_eq!(unpack_unit(254), 1.0);
        assert_eq!(unpack_unit(0x3f), -64.0 / 127.0);
    }

    #[test]
    fn half_floats_decode_exactly() {
        // Values from the IEEE 754 binary16 definition.
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert!(f16_to_f32(0x8000).is_sign_negative());
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xb800), -0.5);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0400), 6.103_515_6e-5);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8); // smallest subnormal, 2^-24
        assert_eq!(f16_to_f32(0x03ff), 6.097_555e-5); // largest subnormal
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }
}

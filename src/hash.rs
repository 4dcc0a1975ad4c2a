//! The hashes the formats key their tables with.
//!
//! - MurmurHash3_x86_32 (seed 0 in the World of Warships files): mapping ids in `.geometry`, string
//!   ids and prototype type magics in `assets.bin`. It is a `const fn` over slices, so ids of known
//!   names can be computed at compile time, plus [`Murmur3`] for hashing a name given in pieces
//!   (`"<name>" + ".vertices"`) without building it in a buffer.
//! - CityHash64 (as the `cityhasher` crate computes it): path ids in `assets.bin`.
//! - A table from such ids to positions, found in one or two memory reads (`id_table`).

const C1: u32 = 0xcc9e_2d51;
const C2: u32 = 0x1b87_3593;

#[inline(always)]
const fn mix_k(k: u32) -> u32 {
    k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2)
}

#[inline(always)]
const fn mix_h(h: u32, k: u32) -> u32 {
    (h ^ mix_k(k))
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

#[inline(always)]
const fn finish(mut h: u32, len: u64, tail: u32) -> u32 {
    if len & 3 != 0 {
        h ^= mix_k(tail);
    }
    // The reference hash folds the length in as a 32-bit value.
    h ^= len as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// MurmurHash3_x86_32 of `data` with `seed`, little-endian blocks and tail, as the reference does.
pub const fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    let mut h = seed;
    let blocks = data.len() / 4;
    let mut i = 0;
    while i < blocks {
        let o = i * 4;
        let k = u32::from_le_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]]);
        h = mix_h(h, k);
        i += 1;
    }
    let o = blocks * 4;
    let mut tail = 0u32;
    let rest = data.len() & 3;
    if rest >= 3 {
        tail ^= (data[o + 2] as u32) << 16;
    }
    if rest >= 2 {
        tail ^= (data[o + 1] as u32) << 8;
    }
    if rest >= 1 {
        tail ^= data[o] as u32;
    }
    finish(h, data.len() as u64, tail)
}

/// Streaming MurmurHash3_x86_32: the same value as [`murmur3_32`] over the concatenation of
/// everything passed to [`Murmur3::update`], without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Murmur3 {
    h: u32,
    pending: u32,
    pending_len: u32,
    len: u64,
}

impl Murmur3 {
    /// A hasher with `seed`.
    pub const fn new(seed: u32) -> Self {
        Murmur3 {
            h: seed,
            pending: 0,
            pending_len: 0,
            len: 0,
        }
    }

    /// Feeds more bytes.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.len = self.len.wrapping_add(data.len() as u64);
        let mut rest = data;
        // Complete a block left partly filled by the previous call.
        while self.pending_len != 0 {
            let Some((&b, more)) = rest.split_first() else {
                return self;
            };
            self.pending |= u32::from(b) << (8 * self.pending_len);
            self.pending_len += 1;
            rest = more;
            if self.pending_len == 4 {
                self.h = mix_h(self.h, self.pending);
                self.pending = 0;
                self.pending_len = 0;
            }
        }
        // Four blocks per step: their key mixing is independent, so only the `h` chain is serial
        // (this runs over whole 170 MB files when a checksum is verified).
        let mut h = self.h;
        let mut wide = rest.chunks_exact(16);
        for c in &mut wide {
            let k0 = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            let k1 = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
            let k2 = u32::from_le_bytes([c[8], c[9], c[10], c[11]]);
            let k3 = u32::from_le_bytes([c[12], c[13], c[14], c[15]]);
            h = mix_h(mix_h(mix_h(mix_h(h, k0), k1), k2), k3);
        }
        let mut chunks = wide.remainder().chunks_exact(4);
        for c in &mut chunks {
            h = mix_h(h, u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        }
        self.h = h;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            self.pending |= u32::from(b) << (8 * i);
        }
        self.pending_len = chunks.remainder().len() as u32;
        self
    }

    /// The hash of everything fed so far.
    pub const fn finish(&self) -> u32 {
        finish(self.h, self.len, self.pending)
    }
}

#[cfg(feature = "assets")]
pub(crate) mod id_table;

/// CityHash64 of `data`, the path-id hash of `assets.bin` and of PFS indexes.
#[cfg(any(feature = "assets", feature = "pfs"))]
pub fn city_hash_64(data: &[u8]) -> u64 {
    cityhasher::hash(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(data: &[u8], seed: u32) -> u32 {
        murmur3::murmur3_32(&mut std::io::Cursor::new(data), seed).unwrap()
    }

    #[test]
    fn matches_the_vectors_in_the_notes() {
        assert_eq!(murmur3_32(b"Akizuki", 0), 0x8d94_9450);
        assert_eq!(murmur3_32(b"Scene Root", 0), 0x10C3_0510);
        assert_eq!(murmur3_32(b"diffuseMap", 0), 0x820f_0280);
        assert_eq!(murmur3_32(b"normalMap", 0), 0x4858_745d);
        assert_eq!(murmur3_32(&[0xff; 4], 0), 0x7629_3b50);
        assert_eq!(murmur3_32(b"Propeller_meshShape.vertices", 0), 0xC301_017C);
        assert_eq!(murmur3_32(b"Propeller_meshShape.indices", 0), 0xB3CE_F438);
        // The prototype type magics of assets.bin are hashes of the type names.
        assert_eq!(murmur3_32(b"VisualPrototype", 0), 0x480D_C57B);
        assert_eq!(murmur3_32(b"AtlasContourProto", 0), 0xF643_59AA);
    }

    #[test]
    fn is_usable_at_compile_time() {
        const ID: u32 = murmur3_32(b"Akizuki", 0);
        assert_eq!(ID, 0x8d94_9450);
    }

    #[test]
    fn matches_the_murmur3_crate_on_many_inputs() {
        // A deterministic spread of lengths 0..=300, contents and seeds.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in 0..=300usize {
            for _ in 0..8 {
                let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let seed = if len % 3 == 0 { 0 } else { next() as u32 };
                let want = reference(&data, seed);
                assert_eq!(murmur3_32(&data, seed), want, "len {len} seed {seed:#x}");
                // The streaming hasher, fed in uneven pieces, agrees.
                let split = (next() as usize) % (len + 1);
                let split2 = split + (next() as usize) % (len - split + 1);
                let mut s = Murmur3::new(seed);
                s.update(&data[..split])
                    .update(&data[split..split2])
                    .update(&data[split2..]);
                assert_eq!(
                    s.finish(),
                    want,
                    "streaming len {len} split {split}/{split2}"
                );
            }
        }
    }

    #[test]
    fn streaming_byte_by_byte() {
        let data = b"Propeller_meshShape.vertices";
        let mut s = Murmur3::new(0);
        for b in data {
            s.update(core::slice::from_ref(b));
        }
        assert_eq!(s.finish(), 0xC301_017C);
    }

    #[test]
    #[cfg(feature = "assets")]
    fn city_hash_matches_the_path_id_vector() {
        assert_eq!(
            city_hash_64(b"content/gameplay/japan/ship/destroyer/JSD011_Akizuki_1944/JSD011_Akizuki_1944.model"),
            0x0df5_a921_212a_899e
        );
    }
}

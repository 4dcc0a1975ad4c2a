//! The header checksum, reported and never enforced.
//!
//! Over the `n` bytes `d` after the header **as stored** (the compressed bytes of a compressed
//! level), let `S = Σ d[i] − n(n+1)/2 (mod 2³²)`. The published formula (its loop skips `d[0]`) is
//! `S − d[0]`; files from the original editors store that plus a residual of 0..=255 (their loop
//! most likely read one byte past its buffer); WapMap stores `S − 160`; one editor stores 0. No game
//! is known to verify the value, so a level is never rejected for it.

/// How the stored checksum relates to the known formulas, tested in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumVerdict {
    /// Equal to the published formula `S − d[0]`.
    Seed,
    /// The published formula plus a residual of 1..=255 (the original editors).
    SeedPlusResidual(u8),
    /// `S − 160` (WapMap, and gamebin's writer).
    WapMap,
    /// Zero.
    Zero,
    /// None of the above.
    Mismatch,
}

impl ChecksumVerdict {
    /// A short stable name: `seed`, `seed+residual`, `wapmap`, `zero`, `mismatch`.
    pub const fn name(self) -> &'static str {
        match self {
            ChecksumVerdict::Seed => "seed",
            ChecksumVerdict::SeedPlusResidual(_) => "seed+residual",
            ChecksumVerdict::WapMap => "wapmap",
            ChecksumVerdict::Zero => "zero",
            ChecksumVerdict::Mismatch => "mismatch",
        }
    }
}

/// The checksum of a level: what is stored, what the formulas give, and the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChecksumReport {
    /// The header's `checksum`.
    pub stored: u32,
    /// The published formula over the stored main block, `S − d[0]`.
    pub seed: u32,
    /// WapMap's formula, `S − 160`.
    pub wapmap: u32,
    /// Which formula, if any, the stored value matches (never a reason to reject the file).
    pub verdict: ChecksumVerdict,
}

impl ChecksumReport {
    /// `stored − seed` as a signed 32-bit difference (255 in most Claw files, −40 in a WapMap file
    /// whose stream starts with 0x78).
    pub fn residual(&self) -> i32 {
        self.stored.wrapping_sub(self.seed) as i32
    }
}

impl ChecksumReport {
    /// The facts a tool reports about the checksum: the stored value, the verdict's
    /// [name](ChecksumVerdict::name) and the [residual](Self::residual).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// use gamebin::wwd::WwdView;
    ///
    /// let mut inflated = Vec::new();
    /// let level = WwdView::from_bytes(&file, &mut inflated)?;
    /// let facts = level.checksum().facts();
    /// assert_eq!(facts.stored, level.header().checksum.get());
    /// // gamebin's writer stores WapMap's formula, which equals the published one when the main
    /// // block starts with 160, as an uncompressed one does.
    /// assert!(matches!(facts.verdict, "wapmap" | "seed"));
    /// println!("checksum {:#010x}: {} (residual {})", facts.stored, facts.verdict, facts.residual);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn facts(&self) -> ChecksumFacts {
        ChecksumFacts {
            stored: self.stored,
            verdict: self.verdict.name(),
            residual: self.residual(),
        }
    }
}

/// The checksum as a tool reports it (`gamebin info` and `dump` print these three; with the
/// `serde` feature they serialize as `{"stored", "verdict", "residual"}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ChecksumFacts {
    /// The header's `checksum`.
    pub stored: u32,
    /// The verdict's short name ([`ChecksumVerdict::name`]).
    pub verdict: &'static str,
    /// `stored − (published formula)`, signed ([`ChecksumReport::residual`]).
    pub residual: i32,
}

/// `S = Σ d[i] − n(n+1)/2 (mod 2³²)` over the stored main block.
pub fn sum(main_block: &[u8]) -> u32 {
    let n = main_block.len() as u64;
    let bytes = main_block
        .iter()
        .fold(0u32, |acc, &b| acc.wrapping_add(u32::from(b)));
    // n(n+1)/2 mod 2^32; exact in u128 for any slice length.
    let triangle = (u128::from(n) * (u128::from(n) + 1) / 2) as u32;
    bytes.wrapping_sub(triangle)
}

/// The checksum a writer stores: `S − 160` (what WapMap writes, and what the published formula
/// gives when `d[0]` is 160, as in uncompressed levels).
pub fn wapmap(main_block: &[u8]) -> u32 {
    sum(main_block).wrapping_sub(160)
}

/// Compares `stored` with the formulas over the stored main block.
pub fn report(stored: u32, main_block: &[u8]) -> ChecksumReport {
    let s = sum(main_block);
    let first = main_block.first().copied().map_or(0, u32::from);
    let seed = s.wrapping_sub(first);
    let wapmap = s.wrapping_sub(160);
    let residual = stored.wrapping_sub(seed);
    let verdict = if residual == 0 {
        ChecksumVerdict::Seed
    } else if let Ok(r @ 1..=255) = u8::try_from(residual) {
        ChecksumVerdict::SeedPlusResidual(r)
    } else if stored == wapmap {
        ChecksumVerdict::WapMap
    } else if stored == 0 {
        ChecksumVerdict::Zero
    } else {
        ChecksumVerdict::Mismatch
    };
    ChecksumReport {
        stored,
        seed,
        wapmap,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published loop, transcribed: `checksum = -n; for i in 1..n { checksum += d[i] - i }`.
    fn published_loop(d: &[u8]) -> u32 {
        let mut c = 0u32.wrapping_sub(d.len() as u32);
        for (i, &b) in d.iter().enumerate().skip(1) {
            c = c.wrapping_add(u32::from(b)).wrapping_sub(i as u32);
        }
        c
    }

    #[test]
    fn closed_form_equals_the_published_loop() {
        let mut state = 0x1234_5678u32;
        for len in [0usize, 1, 2, 3, 255, 256, 4097, 100_000] {
            let d: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    state as u8
                })
                .collect();
            assert_eq!(report(0, &d).seed, published_loop(&d), "length {len}");
        }
    }

    #[test]
    fn verdicts() {
        let d = [0x78u8, 0x9c, 1, 2, 3];
        let seed = published_loop(&d);
        assert_eq!(report(seed, &d).verdict, ChecksumVerdict::Seed);
        let r = report(seed.wrapping_add(255), &d);
        assert_eq!(r.verdict, ChecksumVerdict::SeedPlusResidual(255));
        assert_eq!(r.residual(), 255);
        // WapMap: S - 160 where d[0] = 0x78 = 120: 40 below the seed formula.
        let w = report(seed.wrapping_sub(40), &d);
        assert_eq!(w.verdict, ChecksumVerdict::WapMap);
        assert_eq!(w.residual(), -40);
        assert_eq!(report(0, &d).verdict, ChecksumVerdict::Zero);
        assert_eq!(
            report(seed.wrapping_add(1000), &d).verdict,
            ChecksumVerdict::Mismatch
        );
    }
}

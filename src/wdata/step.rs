//! A scene resource's runs (its paths, cues, sounds and ambient sounds) stepped over by their
//! string lengths alone. Opening a view steps over each run to find where the resource ends, and
//! handing out a resource steps over them again; reading every record in full to do so costs
//! several times as much (each record's fields built and shuffled through the stack). The
//! layouts are those of `ScenePath`, `Cue`, `Sound` and `Ambient` in `flat_records.rs`, and a test
//! holds each step and the full read to the same end, or to failing together, on every fixture
//! cut short or with a byte changed. When a step does not fit, the full read runs and gives the
//! error, so the errors are unchanged.

use super::Versions;
use super::flat_records::{Ambient, Cue, ScenePath, Sound};
use super::kind::{self, InPlace, SoundFades, TimeHold};
use crate::bytes::Place;

/// Where a run of `count` records at `at` ends, from their string lengths alone: `None` when
/// any of it does not fit in `bytes`.
pub(crate) trait StepOver {
    /// The end of `count` records at `at`, or `None`.
    fn run_end(bytes: &[u8], at: usize, count: u32, versions: Versions) -> Option<usize>;
}

/// Past `n` bytes, when they fit.
#[inline(always)]
pub(crate) fn fixed(bytes: &[u8], at: usize, n: usize) -> Option<usize> {
    let end = at.checked_add(n)?;
    (end <= bytes.len()).then_some(end)
}

/// Past a string (its `u16` count of units, then the units), when it fits.
#[inline(always)]
pub(crate) fn wstr(bytes: &[u8], at: usize) -> Option<usize> {
    let &[low, high] = bytes.get(at..at.checked_add(2)?)? else {
        return None;
    };
    fixed(
        bytes,
        at + 2,
        2 * usize::from(u16::from_le_bytes([low, high])),
    )
}

/// The size of a field of a fixed size (a number, a fixed group of numbers: its kind's
/// `MIN_SIZE` is its size). The steps add up the sizes of the fields that follow one another
/// and check them at once.
pub(crate) const fn size<K: InPlace>() -> usize {
    K::MIN_SIZE
}

// Every record holds a string, so each turn of the loops below moves on by 2 bytes or more and
// returns `None` once past the end: the loops end by the end of the bytes whatever `count` says.
// Each step follows its record's fields in the table's order and asks the table's gates.

/// The end of `count` records at `at` that are each `before` bytes of fixed-size fields, a
/// string, then `after` bytes of fixed-size fields (a cue, a sound, an ambient sound).
#[inline(always)]
fn around_a_string(
    bytes: &[u8],
    mut at: usize,
    count: u32,
    before: usize,
    after: usize,
) -> Option<usize> {
    for _ in 0..count {
        at = fixed(bytes, wstr(bytes, fixed(bytes, at, before)?)?, after)?;
    }
    Some(at)
}

impl StepOver for ScenePath<'_> {
    #[inline]
    fn run_end(bytes: &[u8], mut at: usize, count: u32, versions: Versions) -> Option<usize> {
        for index in 0..count {
            let place = Place {
                index,
                last: index + 1 == count,
            };
            // Model, motion, name, event name.
            for _ in 0..4 {
                at = wstr(bytes, at)?;
            }
            if ScenePath::time_hold(versions, place) {
                at = fixed(bytes, at, size::<TimeHold>())?;
            }
            // The blend time, after every path but the last (`unless last`).
            if !place.last {
                at = fixed(bytes, at, size::<kind::f32>())?;
            }
        }
        Some(at)
    }
}

impl StepOver for Cue<'_> {
    #[inline]
    fn run_end(bytes: &[u8], at: usize, count: u32, _: Versions) -> Option<usize> {
        // End; name; id, start.
        let after = size::<kind::u32>() + size::<kind::f32>();
        around_a_string(bytes, at, count, size::<kind::f32>(), after)
    }
}

impl StepOver for Sound<'_> {
    #[inline]
    fn run_end(bytes: &[u8], at: usize, count: u32, versions: Versions) -> Option<usize> {
        // Start and, when stored, the fades and volume range; path. (The gate does not depend
        // on a sound's place in its run.)
        let first = Place {
            index: 0,
            last: count == 1,
        };
        let fades = if Sound::fades(versions, first) {
            size::<SoundFades>()
        } else {
            0
        };
        around_a_string(bytes, at, count, size::<kind::f32>() + fades, 0)
    }
}

impl StepOver for Ambient<'_> {
    #[inline]
    fn run_end(bytes: &[u8], at: usize, count: u32, _: Versions) -> Option<usize> {
        // Start; path; play on start, loop.
        let after = 2 * size::<kind::bool32>();
        around_a_string(bytes, at, count, size::<kind::f32>(), after)
    }
}

#[cfg(all(test, feature = "synth"))]
mod tests {
    use super::*;
    use crate::bytes::{Bytes, Cursor, Record};
    use crate::wdata::{Run, WdataView};

    /// Stepping over the run ends where reading it in full does, and fails exactly when the
    /// full read fails (which then gives the error).
    fn agree<'a, R: Record<'a, Context = Versions> + StepOver>(
        bytes: &'a [u8],
        at: usize,
        count: u32,
        versions: Versions,
    ) {
        let mut cur = Cursor::new(Bytes::new(bytes), at);
        let read = Run::<R>::read(&mut cur, count, versions).map(|_| cur.offset());
        let stepped = R::run_end(bytes, at, count, versions);
        assert_eq!(
            stepped,
            read.ok(),
            "{count} records at {at} of {} bytes",
            bytes.len()
        );
    }

    /// `agree` on the run, on the bytes cut short anywhere in it, with any of its bytes changed
    /// (a string length made huge, negative or odd), and with one record more or fewer than
    /// stored. (A macro: the changed bytes are a local, which a generic function's `R<'a>` does
    /// not outlive.)
    macro_rules! agree_everywhere {
        ($r:ident, $data:expr, $at:expr, $count:expr, $versions:expr) => {{
            let (data, at, count, versions): (&[u8], usize, u32, Versions) =
                ($data, $at, $count, $versions);
            agree::<$r>(data, at, count, versions);
            let end = $r::run_end(data, at, count, versions).unwrap_or(data.len());
            for len in at..end {
                agree::<$r>(&data[..len], at, count, versions);
            }
            let mut bad = data.to_vec();
            for i in at..end {
                for flip in [0xff, 0x80, 0x01] {
                    bad[i] ^= flip;
                    agree::<$r>(&bad, at, count, versions);
                    bad[i] ^= flip;
                }
            }
            agree::<$r>(data, at, count + 1, versions);
            if let Some(fewer) = count.checked_sub(1) {
                agree::<$r>(data, at, fewer, versions);
            }
        }};
    }

    #[test]
    fn stepping_over_scene_resource_runs_agrees_with_reading_them()
    -> core::result::Result<(), Box<dyn std::error::Error>> {
        let (mut paths, mut cues, mut sounds, mut ambients) = (0, 0, 0, 0);
        for (_, data) in crate::synth::wdata::fixtures()? {
            let map = WdataView::from_bytes(&data)?;
            let versions = map.versions();
            let count = |len: usize| u32::try_from(len).expect("a stored count");
            for r in map.scene_resources() {
                let r = r?;
                paths += r.paths.len();
                agree_everywhere!(
                    ScenePath,
                    &data,
                    r.paths.offset(),
                    count(r.paths.len()),
                    versions
                );
                if let Some(run) = r.cues {
                    cues += run.len();
                    agree_everywhere!(Cue, &data, run.offset(), count(run.len()), versions);
                }
                if let Some(block) = r.sound {
                    let run = block.sounds;
                    sounds += run.len();
                    agree_everywhere!(Sound, &data, run.offset(), count(run.len()), versions);
                }
                if let Some(run) = r.ambients {
                    ambients += run.len();
                    agree_everywhere!(Ambient, &data, run.offset(), count(run.len()), versions);
                }
            }
        }
        for (n, what) in [
            (paths, "path"),
            (cues, "cue"),
            (sounds, "sound"),
            (ambients, "ambient"),
        ] {
            assert!(n > 0, "no fixture has a scene resource's {what}");
        }
        Ok(())
    }
}

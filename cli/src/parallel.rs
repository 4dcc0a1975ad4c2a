//! Batches over files: the work on every core (rayon), the results in input order.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

/// Runs `work` on every item in parallel, each worker thread with its own state made by `init`
/// (buffers, decompressors), and hands each result to `sink` in the order of `items`, as soon as it
/// and every one before it are done, so output streams in a stable order. When `sink` returns
/// `ControlFlow::Break` (the reader of the output went away), no further item is started and the
/// call returns once the items already started have finished.
pub fn ordered<I, S, R>(
    items: &[I],
    init: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &I) -> R + Sync + Send,
    mut sink: impl FnMut(&I, R) -> ControlFlow<()>,
) where
    I: Sync,
    R: Send,
{
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let (stop, init, work) = (&stop, &init, &work);
        scope.spawn(move || {
            items.par_iter().enumerate().for_each_init(
                || (tx.clone(), init()),
                |(tx, state), (i, item)| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // The receiver is gone only after a stop; the result is not wanted then.
                    let _ = tx.send((i, work(state, item)));
                },
            );
            // Every sender (this one and the workers' clones) is dropped here: the receiving
            // loop below ends.
        });
        let mut pending = BTreeMap::new();
        let mut next = 0usize;
        'receive: for (i, result) in rx.iter() {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&next) {
                let item = items.get(next);
                next += 1;
                let Some(item) = item else { continue };
                if sink(item, result).is_break() {
                    stop.store(true, Ordering::Relaxed);
                    break 'receive;
                }
            }
        }
        drop(rx);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_and_a_break_stops_the_batch() {
        let items: Vec<u64> = (0..500).collect();
        let mut seen = Vec::new();
        ordered(
            &items,
            || 0u64,
            |calls, &n| {
                *calls += 1;
                // Uneven work, so that later items often finish first.
                std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 200));
                n * 2
            },
            |&n, doubled| {
                assert_eq!(doubled, n * 2);
                seen.push(n);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, items);

        let mut got = 0;
        ordered(
            &items,
            || (),
            |(), &n| n,
            |_, _| {
                got += 1;
                if got == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(got, 3);
    }
}

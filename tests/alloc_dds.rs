//! Zero-copy means zero allocations: opening a DDS texture, listing every level of every slice and
//! decoding each into the caller's buffer allocate nothing.

use gamebin::dds::DdsView;

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn opening_listing_and_decoding_allocate_nothing() {
    let fixtures = gamebin::synth::dds::fixtures().unwrap();
    let mut buffer = vec![0u8; 64 * 64 * 4];
    for (name, bytes) in &fixtures {
        let (n, sum) = allocations(|| {
            let view = DdsView::from_bytes(bytes).unwrap();
            let mut sum = 0usize;
            for level in view.levels() {
                let out = &mut buffer[..level.rgba8_len().unwrap()];
                level.decode_rgba8(out).unwrap();
                sum += out.iter().map(|&b| usize::from(b)).sum::<usize>();
            }
            sum
        });
        assert_eq!(n, 0, "{name}: {n} allocations");
        assert!(sum > 0, "{name} decoded to nothing");
    }
}

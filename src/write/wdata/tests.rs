//! The count checks, which need more items than a test can allocate through the model. (What
//! the writer refuses is tested through the public API in `tests/wdata_hand.rs`.)

use super::encode::Sink;

#[test]
fn counts_that_do_not_fit_their_field_are_errors() {
    let mut s = Sink::new();
    let e = s.count_i32(1 << 31, "Trigger.evCnt");
    assert!(matches!(e, Err(e) if e.what() == "Trigger.evCnt"));
    assert!(s.count_i32((1 << 31) - 1, "Trigger.evCnt").is_ok());
    let e = s.count_u32(1 << 32, "CameraInfo.pvsBg");
    assert!(matches!(e, Err(e) if e.what() == "CameraInfo.pvsBg"));
    assert!(s.count_u32((1 << 32) - 1, "CameraInfo.pvsBg").is_ok());
    assert_eq!(s.out, [0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff]);
}

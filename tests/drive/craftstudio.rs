//! Drives every CraftStudio `Project.dat` accessor.

use gamebin::craftstudio::raw::ROOT_PARENT_ID;
use gamebin::craftstudio::{Parent, ProjectView, mouse_button_name};

/// How many entries get the O(n) view lookups (entry_by_id, parent, children, path); every
/// entry gets the index's O(log n) ones.
const SCANNED: usize = 16;

/// Opens `data` as a `Project.dat` and drives every accessor.
pub fn drive_craftstudio(data: &[u8]) -> usize {
    let mut scratch = gamebin::Scratch::new();
    let Some(view) = super::open::<ProjectView<'_>>(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let _ = view.validate();
    let _ = (
        view.format_version(),
        view.project_type().name(),
        view.name(),
        view.settings(),
        view.startup_scene_id(),
        view.script_api_version(),
        view.membership_policy().name(),
        view.default_member_role().name(),
        view.description(),
        view.next_control_id(),
        view.next_entry_id(),
        view.as_bytes(),
    );
    assert_eq!(view.controls().count(), view.control_count());
    for c in view.controls() {
        // The view walked every control when it opened: each reads again.
        let Ok(c) = c else {
            panic!("a control of an open view does not read: {c:?}");
        };
        seen += 1;
        let _ = (c.offset(), c.id(), c.name(), c.settings());
        let _ = (c.control_type().name(), c.source().name());
        let _ = (c.positive_key().name(), c.negative_key().name());
        let _ = (
            mouse_button_name(c.positive_button()),
            mouse_button_name(c.negative_button()),
            c.joystick_index(),
            c.joystick_axis(),
        );
        let _ = (
            c.dead_zone(),
            c.sensitivity(),
            c.gravity(),
            c.snap_to_zero(),
        );
    }
    assert_eq!(view.entries().count(), view.entry_count());
    let index = view.index();
    let mut path = String::new();
    for (i, e) in view.entries().enumerate() {
        let Ok(e) = e else {
            panic!("an entry of an open view does not read: {e:?}");
        };
        seen += 1;
        let _ = (
            e.offset(),
            e.end(),
            e.id(),
            e.parent_id(),
            e.is_root(),
            e.name(),
        );
        let _ = (e.is_folder(), e.is_asset(), e.entry_type().name());
        let _ = (e.entry_type().assets_folder(), e.entry_type().extensions());
        let _ = (
            e.is_locked(),
            e.is_trashed(),
            e.asset_head(),
            e.next_revision_id(),
        );
        assert_eq!(e.revisions().count(), e.revision_count());
        for r in e.revisions() {
            let Ok(r) = r else {
                panic!("a revision of an open view does not read: {r:?}");
            };
            seen += 1;
            let _ = (r.offset, r.id, r.name);
        }
        let _ = index.get(e.id());
        if let Parent::Entry(p) = index.parent(&e) {
            assert_eq!(p.id(), e.parent_id());
        }
        let _ = index.path_into(&e, &mut path);
        let _ = index.children(e.id()).count();
        if i < SCANNED {
            let _ = view.entry_by_id(e.id());
            let _ = view.parent(&e);
            let _ = view.children(e.id()).count();
            let _ = view.path_into(&e, &mut path);
        }
    }
    let _ = index.children(ROOT_PARENT_ID).count();
    let _ = index.dangling().count();
    // The view's own `dangling()` is O(n²) (a scan per entry): only on small projects.
    if view.entry_count() <= SCANNED {
        let _ = view.dangling().count();
    }
    assert_eq!(
        view.trailing_offset() + view.trailing_bytes().len(),
        data.len()
    );
    seen
}

//! The help overlay's keys and the command palette's commands.

use super::*;
use precept::tui::measure::layout::help_rows;

fn help_offset(app: &App) -> usize {
    match &app.overlay {
        Some(Overlay::Help { offset }) => *offset,
        _ => panic!("the help overlay is not open"),
    }
}

#[test]
fn help_scrolls_with_the_keys_its_footer_names_and_closes_only_on_esc_or_question_mark() {
    let (_dir, mut app) = park();
    update(&mut app, Msg::Resize(80, 24));
    press(&mut app, '?');
    assert_eq!(help_offset(&app), 0);
    press(&mut app, 'j');
    code(&mut app, KeyCode::Down);
    assert_eq!(help_offset(&app), 2);
    press(&mut app, 'k');
    assert_eq!(help_offset(&app), 1);
    // A key the footer does not name leaves the help open and unmoved.
    press(&mut app, 'x');
    assert_eq!(help_offset(&app), 1);

    let rows = help_rows(app.size);
    let last = app.keymap.bindings.len() - rows;
    assert!(last > rows, "the keymap is longer than two pages at 80×24");
    code(&mut app, KeyCode::PageDown);
    assert_eq!(help_offset(&app), 1 + rows);
    code(&mut app, KeyCode::PageUp);
    assert_eq!(help_offset(&app), 1);
    // Scrolling stops at the last page, so k moves at once on the way back.
    code(&mut app, KeyCode::End);
    assert_eq!(help_offset(&app), last);
    press(&mut app, 'j');
    code(&mut app, KeyCode::PageDown);
    assert_eq!(help_offset(&app), last);
    press(&mut app, 'k');
    assert_eq!(help_offset(&app), last - 1);

    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    press(&mut app, '?');
    press(&mut app, '?');
    assert!(app.overlay.is_none());
}

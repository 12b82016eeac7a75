//! The workbench at small sizes: the document pane keeps the selected rule's
//! span in view however the rules are stepped through.

use super::*;
use precept::tui::measure::layout::areas;
use precept::tui::measure::text::{span_text_rows, text_width};

/// The document pane's rows as drawn.
fn document_rows(app: &App) -> Vec<String> {
    let area = areas(Screen::Rules, app.size).document;
    screen_text(app)
        .lines()
        .skip(area.y as usize + 1)
        .take(area.height.saturating_sub(2) as usize)
        .map(|row| {
            row.chars()
                .skip(area.x as usize + 1)
                .take(area.width.saturating_sub(2) as usize)
                .collect()
        })
        .collect()
}

/// Every row of the selected rule's span is drawn in the document pane.
fn assert_span_in_view(app: &App, moved: &str) {
    let rule = app.selected_rule().unwrap();
    let Some(span) = app.ws.span_of_rule(rule) else {
        return;
    };
    let width = text_width(areas(Screen::Rules, app.size).document);
    let shown = document_rows(app);
    for row in span_text_rows(app, span, width) {
        assert!(
            shown.iter().any(|r| r.contains(row.trim())),
            "{moved} at {:?}: {}'s span row '{row}' is not in view:\n{}",
            app.size,
            rule.id,
            shown.join("\n")
        );
    }
}

#[test]
fn the_selected_rules_span_stays_in_view_at_90x30_and_80x24() {
    for size in [(90, 30), (80, 24)] {
        let (_dir, mut app) = park();
        update(&mut app, Msg::Resize(size.0, size.1));
        press(&mut app, '1');
        assert_span_in_view(&app, "at the start");
        for _ in 1..app.ws.model.rules.len() {
            press(&mut app, 'j');
            assert_span_in_view(&app, "down with j");
        }
        for _ in 1..app.ws.model.rules.len() {
            press(&mut app, 'k');
            assert_span_in_view(&app, "up with k");
        }
        press(&mut app, 'G');
        assert_span_in_view(&app, "G");
        press(&mut app, 'g');
        assert_span_in_view(&app, "g");
        code(&mut app, KeyCode::PageDown);
        assert_span_in_view(&app, "page down");
        // Applying an edit keeps it.
        edit_rule(&mut app, "R16", R16_TAXED_MORE);
        ctrl(&mut app, 's');
        assert!(app.overlay.is_none());
        assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
        assert_span_in_view(&app, "after an edit");
        // A resize keeps it too.
        press(&mut app, 'G');
        update(&mut app, Msg::Resize(size.0, size.1 - 4));
        assert_span_in_view(&app, "after a resize");
    }
}

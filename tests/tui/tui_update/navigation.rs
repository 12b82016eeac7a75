//! Moving around: screens, lists, search and the mouse.

use super::*;

// ------------------------------------------------------------- navigation

#[test]
fn number_keys_switch_screens_and_focus_their_main_pane() {
    let (_dir, mut app) = park();
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Rules));
    for (key, screen, pane) in [
        ('2', Screen::Variables, Pane::Variables),
        ('3', Screen::Tests, Pane::Tests),
        ('1', Screen::Rules, Pane::Rules),
        ('4', Screen::Verify, Pane::VerifyInput),
    ] {
        assert!(press(&mut app, key).is_empty());
        assert_eq!((app.screen, app.focus), (screen, pane), "after {key}");
    }
    // While typing a question, digits are text, not screen switches.
    press(&mut app, '1');
    assert_eq!(app.screen, Screen::Verify);
    assert_eq!(app.verify.premise.lines().join(""), "1");
    // Esc leaves the inputs; then the digit switches screens again.
    code(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Pane::VerifyResult);
    press(&mut app, '1');
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Rules));
}

#[test]
fn moving_through_rules_keeps_the_document_on_the_selected_rules_span() {
    let (_dir, mut app) = park();
    let span_containing = |app: &App, text: &str| {
        app.ws
            .spans
            .iter()
            .position(|s| s.text.contains(text))
            .unwrap_or_else(|| panic!("no span contains {text:?}"))
    };
    assert_eq!(app.cursors.rule.selected, 0);

    press(&mut app, 'j');
    assert_eq!(app.selected_rule().unwrap().id, "R2");
    assert_eq!(
        app.cursors.span.selected,
        span_containing(&app, "During the low season")
    );

    press(&mut app, 'G');
    assert_eq!(app.selected_rule().unwrap().id, "R17");
    assert_eq!(
        app.cursors.span.selected,
        span_containing(&app, "A visitor may enter the park")
    );

    press(&mut app, 'k');
    assert_eq!(app.selected_rule().unwrap().id, "R16");
    assert_eq!(
        app.cursors.span.selected,
        span_containing(&app, "A federal tax of 10%")
    );

    // j at the bottom stays at the bottom.
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(app.selected_rule().unwrap().id, "R17");

    press(&mut app, 'g');
    assert_eq!(app.selected_rule().unwrap().id, "R1");
    assert_eq!(
        app.cursors.span.selected,
        span_containing(&app, "The standard admission fee is $50")
    );
    // k at the top stays at the top.
    press(&mut app, 'k');
    assert_eq!(app.cursors.rule.selected, 0);

    // The rules list scrolls to keep the selection in view at 100x30.
    press(&mut app, 'G');
    let height = precept::tui::measure::layout::inner_height(
        precept::tui::measure::layout::areas(Screen::Rules, app.size).list,
    );
    assert!(app.cursors.rule.offset <= 16 && 16 < app.cursors.rule.offset + height);
}

#[test]
fn moving_through_the_document_selects_the_spans_first_rule() {
    let (_dir, mut app) = park();
    code(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Document);
    let target = app
        .ws
        .spans
        .iter()
        .position(|s| s.text.starts_with("Children receive a 50% discount"))
        .unwrap();
    for _ in 0..target {
        press(&mut app, 'j');
    }
    assert_eq!(app.cursors.span.selected, target);
    assert_eq!(app.selected_rule().unwrap().id, "R6");
}

#[test]
fn tests_and_variables_lists_move_with_j_k_g_and_shift_g() {
    let (_dir, mut app) = park();
    press(&mut app, '3');
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(app.selected_test().unwrap().id, "T3");
    press(&mut app, 'G');
    assert_eq!(app.selected_test().unwrap().id, "T18");
    press(&mut app, 'g');
    assert_eq!(app.selected_test().unwrap().id, "T1");

    press(&mut app, '2');
    // A terminal reports G with shift held.
    update(&mut app, key_event(KeyCode::Char('G'), KeyModifiers::SHIFT));
    // 15 variables, then the one type.
    assert_eq!(app.cursors.variable.selected, 15);
    press(&mut app, 'k');
    assert_eq!(app.cursors.variable.selected, 14);
}

#[test]
fn search_jumps_to_what_it_finds() {
    let (_dir, mut app) = park();
    press(&mut app, '/');
    assert!(matches!(app.overlay, Some(Overlay::Search(_))));
    // Keys are typed into the query, not taken as commands.
    type_text(&mut app, "R16");
    assert_eq!(app.screen, Screen::Rules);
    assert!(code(&mut app, KeyCode::Enter).is_empty());
    assert!(app.overlay.is_none());
    assert_eq!(app.selected_rule().unwrap().id, "R16");

    press(&mut app, '/');
    type_text(&mut app, "credit units lets");
    code(&mut app, KeyCode::Enter);
    assert_eq!((app.screen, app.focus), (Screen::Tests, Pane::Tests));
    assert_eq!(app.selected_test().unwrap().id, "T2");

    // Esc closes the search without moving.
    press(&mut app, '/');
    type_text(&mut app, "baseFee");
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(app.selected_test().unwrap().id, "T2");
}

// ------------------------------------------------------------------ mouse

fn click(app: &mut App, column: u16, row: u16) -> Vec<Effect> {
    update(
        app,
        Msg::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }),
    )
}

#[test]
fn clicking_a_row_of_a_list_selects_it() {
    let (_dir, mut app) = park();
    let list = precept::tui::measure::layout::areas(Screen::Rules, app.size).list;
    // The fourth row inside the border.
    click(&mut app, list.x + 4, list.y + 4);
    assert_eq!(app.focus, Pane::Rules);
    assert_eq!(app.selected_rule().unwrap().id, "R4");
    // The document followed the rule.
    assert!(
        app.ws.spans[app.cursors.span.selected]
            .text
            .starts_with("Senior visitors")
    );
    // The wheel over the document moves the span selection there.
    let document = precept::tui::measure::layout::areas(Screen::Rules, app.size).document;
    update(
        &mut app,
        Msg::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::ScrollDown,
            column: document.x + 3,
            row: document.y + 3,
            modifiers: KeyModifiers::NONE,
        }),
    );
    assert_eq!(app.focus, Pane::Document);
}

/// The columns of the tab bar where `title` is drawn.
fn tab_columns(app: &App, title: &str) -> std::ops::Range<u16> {
    let (width, height) = app.size;
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| precept::tui::view::render(app, f))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let row: String = (0..width).map(|x| buffer[(x, 0)].symbol()).collect();
    let start = row
        .find(title)
        .unwrap_or_else(|| panic!("{title} not in {row:?}"));
    let start = row[..start].chars().count() as u16;
    start..start + title.chars().count() as u16
}

#[test]

fn clicking_a_tab_anywhere_on_its_title_shows_that_screen() {
    let (_dir, mut app) = park();
    for screen in [
        Screen::Variables,
        Screen::Tests,
        Screen::Verify,
        Screen::Rules,
    ] {
        for column in tab_columns(&app, screen.title()) {
            // Start from another screen, so the click has to change it.
            code(&mut app, KeyCode::Esc);
            press(&mut app, if screen == Screen::Rules { '2' } else { '1' });
            click(&mut app, column, 0);
            assert_eq!(
                app.screen,
                screen,
                "clicking column {column} of the tab {:?}",
                screen.title()
            );
        }
    }
}

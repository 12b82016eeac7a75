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

/// Opens the palette, types `query` and presses enter.
fn run_palette(app: &mut App, query: &str) -> Vec<Effect> {
    press(app, ':');
    assert!(matches!(app.overlay, Some(Overlay::Palette(_))));
    type_text(app, query);
    let effects = code(app, KeyCode::Enter);
    assert!(app.overlay.is_none(), "enter closes the palette");
    effects
}

#[test]
fn the_palette_goes_to_a_rule_by_its_id_with_or_without_the_word_rule() {
    for query in ["R12", "rule R12", "r12", "go to rule R12"] {
        let (_dir, mut app) = park();
        press(&mut app, '3');
        assert_eq!(app.screen, Screen::Tests);
        assert!(run_palette(&mut app, query).is_empty(), "{query}");
        assert_eq!(app.screen, Screen::Rules, "{query}");
        assert_eq!(app.selected_rule().unwrap().id, "R12", "{query}");
    }
    // The exact id comes before the ids it begins: R1, not R10.
    let (_dir, app) = park();
    let labels: Vec<String> = precept::tui::state::queries::filtered_commands(&app, "R1")
        .into_iter()
        .map(|(label, _)| label)
        .collect();
    assert!(labels[0].starts_with("Go to rule R1: "), "{labels:?}");
    assert!(labels[1].starts_with("Go to rule R10: "), "{labels:?}");
}

#[test]
fn the_palette_goes_to_a_test_and_a_variable() {
    let (_dir, mut app) = park();
    assert!(run_palette(&mut app, "test T3").is_empty());
    assert_eq!(app.screen, Screen::Tests);
    assert_eq!(app.selected_test().unwrap().id, "T3");

    assert!(run_palette(&mut app, "variable basefee").is_empty());
    assert_eq!(app.screen, Screen::Variables);
    let index = app.cursors.variable.selected;
    assert_eq!(
        app.variable_rows()[index],
        precept::tui::state::app::VariableRow::Variable(
            app.ws
                .model
                .variables
                .iter()
                .position(|v| v.name == "baseFee")
                .unwrap()
        )
    );
    // Nothing named so: no go-to entry, and enter on an empty list does nothing.
    assert!(precept::tui::state::queries::go_to_commands(&app, "variable nosuchname").is_empty());
}

#[test]
fn the_palette_runs_lint_coverage_test_generation_and_rerun() {
    let (_dir, mut app) = park();
    assert_eq!(kinds(&run_palette(&mut app, "lint")), vec!["Lint"]);
    assert_eq!(kinds(&run_palette(&mut app, "coverage")), vec!["Coverage"]);
    assert_eq!(
        kinds(&run_palette(&mut app, "generate tests")),
        vec!["Generate"]
    );
    assert_eq!(kinds(&run_palette(&mut app, "rerun")), vec!["RunTests"]);
}

#[test]
fn the_palette_exports_smtlib_and_json_into_the_project_folder() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    for (query, file, expected) in [
        (
            "export smt-lib",
            "model.smt2",
            precept::export::to_smtlib(&app.ws.model, &app.ws.compiled),
        ),
        (
            "export json",
            "model.export.json",
            format!(
                "{}\n",
                serde_json::to_string_pretty(&precept::export::to_json(
                    &app.ws.model,
                    &app.ws.compiled
                ))
                .unwrap()
            ),
        ),
    ] {
        let effects = run_palette(&mut app, query);
        assert_eq!(kinds(&effects), vec!["Export"], "{query}");
        assert!(
            !dir.path().join(file).exists(),
            "update writes nothing itself"
        );
        settle(&mut app, &mut runtime, effects);
        let path = dir.path().join(file);
        assert_eq!(fs::read_to_string(&path).unwrap(), expected, "{query}");
        let name = if file.ends_with("smt2") {
            "SMT-LIB"
        } else {
            "JSON"
        };
        assert_eq!(
            app.status.message.as_deref(),
            Some(format!("exported the model as {name} to {}", path.display()).as_str())
        );
        assert_eq!(app.status.last_error, None);
    }
}

#[test]
fn a_failed_export_is_reported_in_the_status_line() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    // A directory where the export file should go: the write must fail.
    let path = dir.path().join("model.smt2");
    fs::create_dir(&path).unwrap();
    let effects = run_palette(&mut app, "export smt-lib");
    settle(&mut app, &mut runtime, effects);
    let error = app
        .status
        .last_error
        .clone()
        .expect("an error in the status line");
    assert!(
        error.starts_with(&format!("SMT-LIB export not written: {}", path.display())),
        "{error}"
    );
    assert!(path.is_dir());
    assert!(
        screen_text(&app).contains("SMT-LIB export not written"),
        "{}",
        screen_text(&app)
    );
}

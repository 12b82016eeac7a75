//! The rules screen's document pane: listing only the spans no rule covers
//! (U), marking a span as not policy (X, undoable, saved in precept.json)
//! and finding document text with `/`.

use super::*;
use precept::model::project::SETTINGS_FILE;
use precept::tui::state::document_view::{shown_spans, uncovered_count};

/// Policy text no rule of the park model formalizes, after the policy: a
/// source line, a sentence of policy, and an appendix.
const APPENDIX: &str = "\n## Sources\n\nSOURCE: the park's staff handbook, 2024 edition.\n\nVisitors under 12 must be accompanied by an adult.\n\n## Appendix\n\nA map of the park hangs at the entrance.\n";

/// The park sample with `APPENDIX` after its policy (the rules' source
/// ranges are unchanged), opened.
fn park_with_appendix() -> (tempfile::TempDir, App) {
    let dir = copy_sample("park-admission");
    let policy = dir.path().join("policy.md");
    let mut text = fs::read_to_string(&policy).unwrap();
    text.push_str(APPENDIX);
    fs::write(&policy, text).unwrap();
    let app = open_app(dir.path());
    (dir, app)
}

fn span_index(app: &App, text: &str) -> usize {
    app.ws
        .spans
        .iter()
        .position(|s| s.text.starts_with(text))
        .unwrap_or_else(|| panic!("no span starts with {text:?}"))
}

fn selected_span_text(app: &App) -> &str {
    &app.ws.spans[app.cursors.span.selected].text
}

fn shown_texts(app: &App) -> Vec<String> {
    shown_spans(app)
        .into_iter()
        .map(|i| app.ws.spans[i].text.clone())
        .collect()
}

/// Selects a span of the document pane with j, as a user would.
fn select_span(app: &mut App, text: &str) {
    press(app, '1');
    app.focus = Pane::Document;
    press(app, 'g');
    let target = span_index(app, text);
    while app.cursors.span.selected < target {
        press(app, 'j');
    }
    assert!(selected_span_text(app).starts_with(text));
}

fn saved_not_policy(effects: &[Effect]) -> Option<Vec<String>> {
    effects.iter().find_map(|e| match e {
        Effect::SaveNotPolicy(spans) => Some(spans.clone()),
        _ => None,
    })
}

#[test]
fn u_lists_only_the_spans_no_rule_covers() {
    let (_dir, mut app) = park_with_appendix();
    assert_eq!(uncovered_count(&app), 3);
    let all = shown_spans(&app).len();
    assert_eq!(all, app.ws.spans.len());

    // From the rules pane: U focuses the document and lists the three.
    assert!(press(&mut app, 'U').is_empty());
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Document));
    assert!(app.document_pane.uncovered_only);
    let shown = shown_texts(&app);
    assert_eq!(
        shown,
        vec![
            "SOURCE: the park's staff handbook, 2024 edition.",
            "Visitors under 12 must be accompanied by an adult.",
            "A map of the park hangs at the entrance.",
        ]
    );
    assert_eq!(
        app.status.message.as_deref(),
        Some("showing only the 3 spans no rule covers (U: every span)")
    );
    // The selection is on the first of them, and j/k move among them only.
    assert_eq!(selected_span_text(&app), shown[0]);
    press(&mut app, 'j');
    assert_eq!(selected_span_text(&app), shown[1]);
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(selected_span_text(&app), shown[2]);
    press(&mut app, 'k');
    assert_eq!(selected_span_text(&app), shown[1]);
    press(&mut app, 'g');
    assert_eq!(selected_span_text(&app), shown[0]);

    // Moving through the rules leaves the filtered document alone.
    code(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Rules);
    press(&mut app, 'j');
    assert_eq!(selected_span_text(&app), shown[0]);

    // Again: every span.
    press(&mut app, 'U');
    assert!(!app.document_pane.uncovered_only);
    assert_eq!(shown_spans(&app).len(), all);
    assert_eq!(
        app.status.message.as_deref(),
        Some("showing every span of the document")
    );
}

#[test]
fn u_with_every_span_covered_says_so() {
    let (_dir, mut app) = park();
    assert_eq!(uncovered_count(&app), 0);
    press(&mut app, 'U');
    assert!(shown_spans(&app).is_empty());
    assert_eq!(
        app.status.message.as_deref(),
        Some("every span is covered by a rule or marked as not policy (U: every span)")
    );
    // Deleting R1 leaves its sentence uncovered: the filter lists it.
    press(&mut app, 'U');
    code(&mut app, KeyCode::Tab);
    assert_eq!(app.selected_rule().unwrap().id, "R1");
    press(&mut app, 'd');
    press(&mut app, 'U');
    let shown = shown_spans(&app);
    assert_eq!(shown.len(), 1);
    assert_eq!(
        app.ws.spans[shown[0]].text,
        "The standard admission fee is $50 per visit."
    );
}

#[test]
fn x_marks_a_span_as_not_policy_undoably_and_the_mark_is_saved_in_the_project() {
    let (dir, mut app) = park_with_appendix();
    let mut runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
    let source = "SOURCE: the park's staff handbook, 2024 edition.";

    // X needs the document pane.
    assert!(press(&mut app, 'X').is_empty());
    assert_eq!(
        app.status.message.as_deref(),
        Some("X marks a span of the document: focus the document pane (tab)")
    );

    select_span(&mut app, source);
    let effects = press(&mut app, 'X');
    assert_eq!(saved_not_policy(&effects), Some(vec![source.to_string()]));
    assert_eq!(uncovered_count(&app), 2);
    assert_eq!(
        app.status.message.as_deref(),
        Some("marked as not policy: “SOURCE: the park's staff handbook, 2024…” (u to undo)")
    );
    settle(&mut app, &mut runtime, effects);
    let saved = fs::read_to_string(dir.path().join(SETTINGS_FILE)).unwrap();
    assert!(saved.contains("\"not_policy\""), "{saved}");
    assert!(saved.contains("\"document\": \"policy.md\""), "{saved}");

    // The mark survives reopening the project.
    let reopened = open_app(dir.path());
    assert!(reopened.document_pane.not_policy.contains(source));
    assert_eq!(uncovered_count(&reopened), 2);

    // Undo takes the mark back, and saves that; redo marks it again.
    let effects = press(&mut app, 'u');
    assert_eq!(saved_not_policy(&effects), Some(vec![]));
    assert_eq!(uncovered_count(&app), 3);
    settle(&mut app, &mut runtime, effects);
    let saved = fs::read_to_string(dir.path().join(SETTINGS_FILE)).unwrap();
    assert!(!saved.contains("not_policy"), "{saved}");
    assert_eq!(uncovered_count(&open_app(dir.path())), 3);
    let effects = ctrl(&mut app, 'r');
    assert_eq!(saved_not_policy(&effects), Some(vec![source.to_string()]));
    settle(&mut app, &mut runtime, effects);
    assert_eq!(uncovered_count(&open_app(dir.path())), 2);

    // X again on the marked span marks it as policy again.
    select_span(&mut app, source);
    let effects = press(&mut app, 'X');
    assert_eq!(saved_not_policy(&effects), Some(vec![]));
    assert_eq!(uncovered_count(&app), 3);

    // A span a rule formalizes is policy: X refuses.
    select_span(&mut app, "The standard admission fee");
    assert!(press(&mut app, 'X').is_empty());
    assert_eq!(
        app.status.last_error.as_deref(),
        Some("R1 formalized from this span: it is policy")
    );
    assert!(app.document_pane.not_policy.is_empty());
}

#[test]
fn marking_in_the_uncovered_list_takes_the_span_out_of_it() {
    let (_dir, mut app) = park_with_appendix();
    press(&mut app, 'U');
    assert_eq!(
        selected_span_text(&app),
        "SOURCE: the park's staff handbook, 2024 edition."
    );
    press(&mut app, 'X');
    let shown = shown_texts(&app);
    assert_eq!(
        shown,
        vec![
            "Visitors under 12 must be accompanied by an adult.",
            "A map of the park hangs at the entrance.",
        ]
    );
    assert_eq!(selected_span_text(&app), shown[0]);
    // Marking the last two leaves nothing listed; X then marks nothing.
    press(&mut app, 'X');
    press(&mut app, 'X');
    assert!(shown_spans(&app).is_empty());
    assert_eq!(app.document_pane.not_policy.len(), 3);
    assert!(press(&mut app, 'X').is_empty());
    assert_eq!(app.status.message.as_deref(), Some("no span selected"));
    assert_eq!(app.document_pane.not_policy.len(), 3);
}

#[test]
fn a_project_with_an_unknown_settings_field_is_refused_and_old_ones_load() {
    let dir = copy_sample("park-admission");
    // An old project: no not_policy field.
    let app = open_app(dir.path());
    assert!(app.document_pane.not_policy.is_empty());
    let path = dir.path().join(SETTINGS_FILE);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replace("\"document\"", "\"not_policies\": [\"x\"],\n  \"document\""),
    )
    .unwrap();
    let error = Project::load_unchecked(dir.path()).unwrap_err().to_string();
    assert!(error.contains("not_policies"), "{error}");
}

#[test]
fn search_finds_document_text_and_jumps_to_its_span() {
    let (_dir, mut app) = park_with_appendix();
    press(&mut app, '3');
    press(&mut app, '/');
    type_text(&mut app, "map entrance");
    code(&mut app, KeyCode::Enter);
    assert!(app.overlay.is_none());
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Document));
    assert_eq!(
        selected_span_text(&app),
        "A map of the park hangs at the entrance."
    );

    // A covered span hidden by the uncovered-only filter: the jump lists
    // every span again and the rules follow the span.
    press(&mut app, 'U');
    assert!(app.document_pane.uncovered_only);
    press(&mut app, '/');
    type_text(&mut app, "credits sold in units");
    code(&mut app, KeyCode::Enter);
    assert!(!app.document_pane.uncovered_only);
    assert!(selected_span_text(&app).starts_with("Park credits are sold in units of 5 credits."));
    assert_eq!(app.selected_rule().unwrap().id, "R12");

    // Rules are still found first.
    press(&mut app, '/');
    type_text(&mut app, "R16");
    code(&mut app, KeyCode::Enter);
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Rules));
    assert_eq!(app.selected_rule().unwrap().id, "R16");
}

//! The draft against its versions: the status line's base version and
//! "changed", and the diff overlay (D) over the real runtime and Z3.

use super::*;
use precept::lifecycle::versions::freeze;
use precept::tui::state::version_diff::{DiffView, DraftVersion};

#[test]
fn the_draft_knows_its_base_version_and_d_diffs_it_against_that_version() {
    let dir = copy_sample("park-admission");
    freeze(dir.path(), "first", "2026-01-01T00:00:00Z").unwrap();
    let mut app = open_app(dir.path());
    assert_eq!(
        app.version,
        DraftVersion {
            base: Some(1),
            changed: false
        }
    );
    assert_eq!(app.version.label().as_deref(), Some("v1"));
    let mut runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
    let load = vec![Effect::LoadSolver(Box::new(app.ws.compiled.clone()))];
    settle(&mut app, &mut runtime, load);

    // An applied edit is saved; the save tells where the draft stands.
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert!(kinds(&effects).contains(&"SaveModel"));
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.version.label().as_deref(), Some("v1 · changed"));

    let effects = press(&mut app, 'D');
    let [Effect::Background(task)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(task.name, "VersionDiff");
    assert_eq!(task.stamp.revision, app.ws.revision());
    assert!(matches!(
        &app.overlay,
        Some(Overlay::VersionDiff(state)) if matches!(state.view, DiffView::Running(_))
    ));
    assert_eq!(app.status.job.as_deref(), Some("diff against v1"));
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.status.job, None);
    {
        let Some(Overlay::VersionDiff(state)) = &app.overlay else {
            panic!("the diff overlay closed")
        };
        let DiffView::Ready(diff) = &state.view else {
            panic!("{:?}", state.view)
        };
        assert_eq!(diff.rules.changed.len(), 1);
        assert_eq!(diff.rules.changed[0].text.id, "R16");
        assert_eq!(diff.rules.changed[0].meaning_changed, Some(true));
        assert_eq!(diff.equivalent, Some(false));
        assert!(diff.a_allows_not_b.is_some() || diff.b_allows_not_a.is_some());
    }
    // Scrolling stops at the last line; esc closes.
    for _ in 0..200 {
        press(&mut app, 'j');
    }
    let Some(Overlay::VersionDiff(state)) = &app.overlay else {
        panic!()
    };
    // The rows are the diff's lines wrapped to the overlay: more of them
    // than lines, since R16's two sides do not fit on one row each.
    let lines = precept::tui::state::version_diff::view_lines(state).len();
    let wrapped = precept::tui::measure::diff_rows::diff_rows(
        &precept::tui::state::version_diff::view_lines(state),
        precept::tui::measure::diff_rows::diff_width(app.size),
    )
    .len();
    assert!(wrapped > lines, "{wrapped} rows for {lines} lines");
    let rows = precept::tui::measure::layout::help_rows(app.size);
    assert_eq!(state.offset, wrapped.saturating_sub(rows));
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
}

#[test]
fn d_before_any_version_says_how_to_freeze_one() {
    let (_dir, mut app) = park();
    assert_eq!(app.version.label(), None);
    assert!(press(&mut app, 'D').is_empty());
    assert!(app.overlay.is_none());
    let message = app.status.message.clone().unwrap();
    assert!(message.contains("precept version DIR"), "{message}");
}

/// A natural-language test with no stored translation: the overlay names it
/// in a note, says which side A and B are, and wraps the note to its width
/// without losing a word.
#[test]
fn the_overlay_names_an_undecided_natural_language_test_in_a_wrapped_note() {
    let dir = copy_sample("park-admission");
    let mut project = Project::load(dir.path()).unwrap();
    project.tests.nl_tests = vec![precept::model::AnswerTest::new(
        "N1",
        "Can a senior with $35.40 visit in the low season?",
        "No, $35.40 is not enough.",
        FindingKind::Satisfiable,
    )];
    project.save_tests().unwrap();
    freeze(dir.path(), "first", "2026-01-01T00:00:00Z").unwrap();
    let mut app = open_app(dir.path());
    let mut runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
    let load = vec![Effect::LoadSolver(Box::new(app.ws.compiled.clone()))];
    settle(&mut app, &mut runtime, load);
    let effects = press(&mut app, 'D');
    settle(&mut app, &mut runtime, effects);
    let Some(Overlay::VersionDiff(state)) = &app.overlay else {
        panic!("the diff overlay closed")
    };
    let DiffView::Ready(diff) = &state.view else {
        panic!("{:?}", state.view)
    };
    let note = diff
        .notes
        .iter()
        .find(|n| {
            n.starts_with("natural-language test N1 not compared: no stored translation on A")
        })
        .unwrap_or_else(|| panic!("{:?}", diff.notes));
    let width = precept::tui::measure::diff_rows::diff_width(app.size);
    let rows = precept::tui::measure::diff_rows::diff_rows(
        &precept::tui::state::version_diff::view_lines(state),
        width,
    );
    let texts: Vec<&str> = rows.iter().map(|(_, r)| r.as_str()).collect();
    assert!(
        texts.contains(&"(in the notes, A is v1 and B the draft)"),
        "{texts:#?}"
    );
    assert!(
        texts.iter().all(|r| r.chars().count() <= width),
        "{texts:#?}"
    );
    let start = texts
        .iter()
        .position(|r| r.starts_with("note: natural-language test N1"))
        .unwrap_or_else(|| panic!("{texts:#?}"));
    let end = start
        + texts[start + 1..]
            .iter()
            .take_while(|r| r.starts_with("      "))
            .count();
    assert!(end > start, "a note this long wraps: {texts:#?}");
    let words = texts[start..=end].join(" ");
    let words: Vec<&str> = words.split_whitespace().collect();
    let expected = format!("note: {note}");
    let expected: Vec<&str> = expected.split_whitespace().collect();
    assert_eq!(words, expected);
}

//! Definitions in the workbench: the Verify screen reads a claim by default
//! (an exception the premise does not mention is assumed absent, and the
//! finding says so) or strictly (ctrl-l); a definition shows as one block
//! and is edited part by part, each edit undoable.

use super::*;
use precept::model::PartKind;
use precept::model::policy::Definition;
use support::copy_test_data;

/// A scratch copy of the hall-booking project (`tests/data/hall-booking`)
/// with the rules' shapes' definition of `canBookHall` applied: cases
/// livesInParish and isLocalCharity, requirement isAdult, exception
/// owesForDamage.
fn hall_with_definition() -> (tempfile::TempDir, App) {
    let scratch = copy_test_data("hall-booking");
    let mut model: PolicyModel =
        serde_json::from_str(&fs::read_to_string(scratch.path().join("model.json")).unwrap())
            .unwrap();
    let proposal = precept::define::shape_proposals(&model)
        .into_iter()
        .find(|p| p.variable == "canBookHall")
        .expect("the shapes propose canBookHall's definition");
    proposal.edit().apply(&mut model).unwrap();
    fs::write(
        scratch.path().join("model.json"),
        serde_json::to_string_pretty(&model).unwrap(),
    )
    .unwrap();
    let app = open_app(scratch.path());
    assert!(
        app.ws.compiled.issues.is_empty(),
        "{:?}",
        app.ws.compiled.issues
    );
    (scratch, app)
}

fn hall_definition(app: &App) -> &Definition {
    app.ws.model.definition_of("canBookHall").unwrap()
}

use super::verify::ask;

#[test]
fn the_verify_screen_reads_by_default_and_strictly_on_ctrl_l() {
    let (_dir, mut app) = hall_with_definition();
    let exception = hall_definition(&app).rule_id(PartKind::Exception, 0);
    let mut runtime = start(&mut app);

    let effects = ask(&mut app, "(and livesInParish isAdult)", "canBookHall");
    assert!(
        matches!(
            &effects[..],
            [Effect::Verify {
                defaults: Some(_),
                ..
            }]
        ),
        "the default reading settles assumptions: {effects:#?}"
    );
    settle(&mut app, &mut runtime, effects);
    let finding = app.verify.finding.clone().expect("a finding");
    assert_eq!(finding.kind, FindingKind::Valid, "{finding:#?}");
    assert_eq!(finding.assumptions.len(), 1, "{finding:#?}");
    assert_eq!(finding.assumptions[0].exception, exception);
    let screen = screen_text(&app);
    assert!(screen.contains("default reading"), "{screen}");
    assert!(
        screen.contains("assuming"),
        "the verdict names it: {screen}"
    );

    // ctrl-l: the strict reading asks the same question again, assuming
    // nothing, so the plain question stays open.
    let effects = ctrl(&mut app, 'l');
    assert!(app.verify.strict);
    assert!(
        matches!(&effects[..], [Effect::Verify { defaults: None, .. }]),
        "{effects:#?}"
    );
    settle(&mut app, &mut runtime, effects);
    let strict = app.verify.finding.clone().expect("a finding");
    assert_eq!(strict.kind, FindingKind::Satisfiable, "{strict:#?}");
    assert!(strict.assumptions.is_empty());
    assert!(screen_text(&app).contains("strict reading"));

    // A premise that mentions the exception needs no assumption, in
    // either reading: asked as written.
    let effects = ctrl(&mut app, 'l');
    assert!(!app.verify.strict);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().map(|f| f.kind),
        Some(FindingKind::Valid)
    );
    clear_verify_fields(&mut app);
    let effects = ask(
        &mut app,
        "(and livesInParish isAdult (not owesForDamage))",
        "canBookHall",
    );
    assert!(
        matches!(&effects[..], [Effect::Verify { defaults: None, .. }]),
        "{effects:#?}"
    );
}

fn clear_verify_fields(app: &mut App) {
    app.verify.premise = Default::default();
    app.verify.claim = Default::default();
    app.verify.field = 0;
}

#[test]
fn a_finding_that_rests_on_assumptions_is_saved_as_a_test_that_states_them() {
    let (_dir, mut app) = hall_with_definition();
    let mut runtime = start(&mut app);
    let effects = ask(&mut app, "(and livesInParish isAdult)", "canBookHall");
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().map(|f| f.kind),
        Some(FindingKind::Valid)
    );
    ctrl(&mut app, 's');
    press(&mut app, 'v');
    let effects = code(&mut app, KeyCode::Enter);
    assert_eq!(kinds(&effects), ["SaveTests", "RunTests"]);
    let saved = app.ws.tests.tests.last().unwrap().clone();
    assert_eq!(
        saved.premise,
        "(and (and livesInParish isAdult) (not owesForDamage))"
    );
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap()
            .contains("assumption"),
        "{:?}",
        app.status.message
    );
    // Read strictly, as every test is, it still passes.
    settle(&mut app, &mut runtime, effects);
    assert!(
        matches!(app.ws.run.results.get(&saved.id), Some(TestState::Done(o)) if o.passed),
        "{:?}",
        app.ws.run.results.get(&saved.id)
    );
}

#[test]
fn a_definition_shows_as_one_block_and_is_edited_part_by_part() {
    let (_dir, mut app) = hall_with_definition();
    app.size = (140, 60);
    let definition = hall_definition(&app).clone();
    let exception = definition.rule_id(PartKind::Exception, 0);
    let case = definition.rule_id(PartKind::Case, 0);
    let requirement = definition.rule_id(PartKind::Requirement, 0);

    // The block: every part in SMT-LIB and English with its sentence.
    select_rule(&mut app, &exception);
    let screen = screen_text(&app);
    assert!(
        screen.contains(&format!("Definition {} of canBookHall", definition.id)),
        "{screen}"
    );
    for part in [
        "livesInParish",
        "isLocalCharity",
        "isAdult",
        "owesForDamage",
    ] {
        assert!(screen.contains(part), "{part} in {screen}");
    }
    assert!(screen.contains(&format!("▸ {exception}")), "{screen}");
    assert!(screen.contains("owe the hall committee"), "{screen}");

    // e on the exception's rule edits the exception, not the rule.
    assert!(press(&mut app, 'e').is_empty());
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        panic!("the editor is open");
    };
    assert_eq!(
        editor.target,
        EditTarget::DefinitionPart {
            definition: definition.id.clone(),
            kind: PartKind::Exception,
            index: Some(0),
        }
    );
    assert_eq!(editor_text(&app), "owesForDamage");
    clear_editor(&mut app);
    type_text(&mut app, "(and owesForDamage (not isLocalCharity))");
    let effects = ctrl(&mut app, 's');
    assert!(app.overlay.is_none(), "{:?}", app.status.last_error);
    assert!(kinds(&effects).contains(&"SaveModel"), "{effects:#?}");
    assert!(kinds(&effects).contains(&"LoadSolver"));
    assert_eq!(
        hall_definition(&app).exceptions[0].condition,
        "(and owesForDamage (not isLocalCharity))"
    );
    // Its rules follow: the exception's own and every case's.
    assert!(expression(&app.ws.model, &exception).contains("(not isLocalCharity)"));
    assert!(expression(&app.ws.model, &case).contains("(not isLocalCharity)"));
    assert!(
        app.ws.compiled.issues.is_empty(),
        "{:?}",
        app.ws.compiled.issues
    );

    // u takes it back whole.
    press(&mut app, 'u');
    assert_eq!(
        hall_definition(&app).exceptions[0].condition,
        "owesForDamage"
    );
    assert!(!expression(&app.ws.model, &case).contains("isLocalCharity"));

    // A condition that does not check is not applied.
    select_rule(&mut app, &exception);
    press(&mut app, 'e');
    clear_editor(&mut app);
    type_text(&mut app, "(and owesForDamage noSuchThing)");
    ctrl(&mut app, 's');
    assert!(matches!(app.overlay, Some(Overlay::Editor(_))));
    code(&mut app, KeyCode::Esc);
    assert_eq!(
        hall_definition(&app).exceptions[0].condition,
        "owesForDamage"
    );

    // d on the requirement's rule deletes the requirement; undo restores it.
    select_rule(&mut app, &requirement);
    let effects = press(&mut app, 'd');
    assert!(kinds(&effects).contains(&"SaveModel"), "{effects:#?}");
    assert!(hall_definition(&app).requirements.is_empty());
    assert!(app.ws.model.rule(&requirement).is_none());
    assert!(
        app.ws.compiled.issues.is_empty(),
        "{:?}",
        app.ws.compiled.issues
    );
    press(&mut app, 'u');
    assert_eq!(hall_definition(&app).requirements.len(), 1);
    assert!(app.ws.model.rule(&requirement).is_some());

    // The palette closes the cases: the closing rule appears.
    select_rule(&mut app, &case);
    let effects = palette(&mut app, "definition: exhaustive");
    assert!(kinds(&effects).contains(&"SaveModel"), "{effects:#?}");
    assert!(hall_definition(&app).exhaustive);
    assert!(app.ws.model.rule(&definition.closing_rule_id()).is_some());
    // And adds a case, from the palette, through the editor.
    palette(&mut app, "definition: add a case");
    assert!(matches!(app.overlay, Some(Overlay::Editor(_))));
    type_text(&mut app, "isRegularHirer");
    let effects = ctrl(&mut app, 's');
    assert!(app.overlay.is_none(), "{:?}", app.status.last_error);
    assert_eq!(hall_definition(&app).cases.len(), 3);
    assert!(
        app.ws
            .model
            .rule(&definition.rule_id(PartKind::Case, 2))
            .is_some()
    );
    // What is saved is what is on screen.
    let saved = effects.iter().find_map(|e| match e {
        Effect::SaveModel(model) => Some(model),
        _ => None,
    });
    assert_eq!(
        saved.and_then(|m| m.definition_of("canBookHall")),
        Some(hall_definition(&app))
    );
}

/// Opens the palette, types `query` and presses enter.
fn palette(app: &mut App, query: &str) -> Vec<Effect> {
    press(app, ':');
    type_text(app, query);
    code(app, KeyCode::Enter)
}

//! Cluster corrections, repair from feedback and consolidation on the formalize screen.

use super::*;

/// The app after adopting the park formalization, on the clusters pane.
fn formalized_app() -> (tempfile::TempDir, App) {
    let (dir, mut app) = open_park();
    let stamp = start_formalizing(&mut app);
    let formalized = park_formalized(&app);
    update(
        &mut app,
        Msg::FormalizeDone {
            stamp,
            result: Ok(Box::new(formalized)),
        },
    );
    press(&mut app, '\t');
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Clusters);
    (dir, app)
}

fn select_cluster_row(app: &mut App, wanted: impl Fn(&App, ClusterRow) -> bool) {
    let rows = cluster_rows(&app.formalization.record.as_ref().unwrap().clusters, 0);
    let index = rows.iter().position(|r| wanted(app, *r)).expect("the row");
    for _ in 0..index {
        press(app, 'j');
    }
    assert_eq!(app.formalization.cluster_cursor.selected, index);
}

#[test]
fn clusters_can_be_renamed_merged_and_split_each_as_an_undoable_edit() {
    let (_dir, mut app) = formalized_app();
    // Rename standardFee (the first cluster).
    press(&mut app, 'e');
    assert!(matches!(app.overlay, Some(Overlay::Name(_))));
    for _ in 0.."standardFee".len() {
        key(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, "baseFee");
    let effects = key(&mut app, KeyCode::Enter);
    assert!(names(&effects).contains(&"SaveRecord"));
    assert!(app.ws.model.variable("baseFee").is_some());
    assert!(app.ws.model.rules[0].expression.contains("baseFee"));
    assert_eq!(
        app.formalization.record.as_ref().unwrap().clusters[0].name,
        "baseFee"
    );

    // Merging a Real into a Bool is refused in the prompt, with the reason.
    app.formalization.cluster_cursor = Default::default();
    press(&mut app, 'm');
    type_text(&mut app, "isLowSeason");
    assert!(key(&mut app, KeyCode::Enter).is_empty());
    let Some(Overlay::Name(prompt)) = &app.overlay else {
        panic!("the prompt stays open");
    };
    assert!(
        prompt
            .error
            .as_deref()
            .unwrap()
            .contains("never changes a type")
    );
    key(&mut app, KeyCode::Esc);

    // Split S3's standardFee off the cluster: S3's rule uses the new variable.
    app.formalization.cluster_cursor = Default::default();
    select_cluster_row(&mut app, |app, row| match row {
        ClusterRow::Member(c, m) => {
            let record = app.formalization.record.as_ref().unwrap();
            record.clusters[c].name == "baseFee" && record.clusters[c].members[m].span == "S3"
        }
        _ => false,
    });
    let before_split = app.ws.model.clone();
    let clusters_before = app.formalization.record.as_ref().unwrap().clusters.clone();
    let effects = press(&mut app, 's');
    assert!(
        names(&effects).contains(&"SaveModel"),
        "{:?}",
        names(&effects)
    );
    let new_variable = app
        .ws
        .model
        .variables
        .iter()
        .find(|v| v.name.starts_with("standardFee") || v.name.starts_with("baseFee_"))
        .map(|v| v.name.clone())
        .expect("a new variable");
    let r3 = app.ws.model.rule("R3").unwrap();
    assert!(r3.expression.contains(&new_variable), "{}", r3.expression);
    press(&mut app, 'u');
    assert_eq!(app.ws.model, before_split);
    assert_eq!(
        app.formalization.record.as_ref().unwrap().clusters,
        clusters_before,
        "undo restores the clusters too"
    );
}

fn select_rule(app: &mut App, id: &str) {
    press(app, '1');
    press(app, 'g');
    let index = app.ws.model.rules.iter().position(|r| r.id == id).unwrap();
    for _ in 0..index {
        press(app, 'j');
    }
    assert_eq!(app.selected_rule().unwrap().id, id);
}

#[test]
fn marks_show_in_the_status_line_and_go_when_the_feedback_box_is_cancelled() {
    let (_dir, mut app) = open_park();
    select_rule(&mut app, "R6");
    press(&mut app, ' ');
    select_rule(&mut app, "R7");
    press(&mut app, ' ');
    let screen = support::keys::screen_text(&app);
    assert!(screen.contains("● 2 marked"), "{screen}");
    assert!(screen.contains("●R6") && screen.contains("●R7"), "{screen}");
    press(&mut app, 'w');
    key(&mut app, KeyCode::Esc);
    assert!(app.repair_draft.marked.is_empty());
    let screen = support::keys::screen_text(&app);
    assert!(
        !screen.contains("●R6") && !screen.contains("marked"),
        "{screen}"
    );
}

#[test]
fn feedback_becomes_proposed_edits_that_are_accepted_one_by_one() {
    let (_dir, mut app) = open_park();
    select_rule(&mut app, "R6");
    press(&mut app, ' ');
    select_rule(&mut app, "R7");
    press(&mut app, ' ');
    assert_eq!(app.repair_draft.marked.len(), 2);
    press(&mut app, 'w');
    type_text(&mut app, "Children pay half; adults pay full.");
    let effects = key(&mut app, KeyCode::Enter);
    let Some(Effect::ProposeRepair {
        stamp,
        rules,
        feedback,
        ..
    }) = effects.first()
    else {
        panic!("expected ProposeRepair, got {:?}", names(&effects));
    };
    assert_eq!(rules, &["R6", "R7"]);
    assert_eq!(feedback, "Children pay half; adults pay full.");
    let stamp = *stamp;

    let edit = ModelEdit::ReplaceRule {
        id: "R6".into(),
        expression: "(=> (= ageClass CHILD) (= discountRate 0.45))".into(),
    };
    let second = ModelEdit::DescribeVariable {
        name: "discountRate".into(),
        description: "the discount as a fraction of the seasonal fee".into(),
    };
    let proposed = |edit: &ModelEdit| ProposedEdit {
        edit: edit.clone(),
        reason: "because".into(),
        before: String::new(),
        after: String::new(),
        before_english: String::new(),
        after_english: String::new(),
    };
    let effects = update(
        &mut app,
        Msg::RepairProposed {
            stamp,
            result: Ok(RepairProposal {
                edits: vec![proposed(&edit), proposed(&second)],
                refused: vec![],
            }),
        },
    );
    assert_eq!(names(&effects), ["PreviewRepair"]);
    let flip = TestFlip {
        test_id: "T17".into(),
        label: "A child in the low season owes $28.75".into(),
        expected: FindingKind::Valid,
        before: Some(FindingKind::Valid),
        after: Some(FindingKind::Invalid),
        passed_before: true,
        passes_after: false,
    };
    update(
        &mut app,
        Msg::RepairPreviewed {
            stamp,
            index: 0,
            flips: Ok(vec![flip.clone()]),
        },
    );
    let Some(Overlay::Repair(state)) = &app.overlay else {
        panic!("the repair overlay is open");
    };
    let RepairStage::Proposed(proposed_state) = &state.stage else {
        panic!("edits are proposed");
    };
    assert!(matches!(&proposed_state.flips[0], Some(Ok(flips)) if *flips == vec![flip]));

    // Reject the first, accept the second.
    press(&mut app, 'n');
    assert!(
        press(&mut app, 'y').is_empty(),
        "a decided edit stays decided"
    );
    press(&mut app, 'j');
    let original = app.ws.model.clone();
    assert_eq!(
        app.repair_draft.marked.len(),
        2,
        "marks stay while undecided"
    );
    let effects = press(&mut app, 'y');
    assert!(names(&effects).contains(&"SaveModel"));
    assert!(
        app.repair_draft.marked.is_empty(),
        "an accepted repair answers the marks: the next w does not include them"
    );
    assert_eq!(
        app.ws.model.rule("R6"),
        original.rule("R6"),
        "the rejected edit is not applied"
    );
    assert_eq!(
        app.ws.model.variable("discountRate").unwrap().description,
        "the discount as a fraction of the seasonal fee"
    );
    key(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    press(&mut app, 'u');
    assert_eq!(app.ws.model, original);
}

#[test]
fn a_stale_or_failed_repair_reply_is_handled() {
    let (_dir, mut app) = open_park();
    select_rule(&mut app, "R1");
    press(&mut app, 'w');
    type_text(&mut app, "The base fee is $55.");
    let effects = key(&mut app, KeyCode::Enter);
    let Some(Effect::ProposeRepair { stamp, .. }) = effects.first() else {
        panic!("expected ProposeRepair");
    };
    let stamp = *stamp;
    assert!(
        update(
            &mut app,
            Msg::RepairProposed {
                stamp: another_job(stamp),
                result: Err(JobError::of(LlmError::Cancelled)),
            },
        )
        .is_empty()
    );
    update(
        &mut app,
        Msg::RepairProposed {
            stamp,
            result: Err(JobError::of(LlmError::Timeout {
                after: std::time::Duration::from_secs(120),
            })),
        },
    );
    let Some(Overlay::Repair(state)) = &app.overlay else {
        panic!("the overlay stays open to show the error");
    };
    assert!(matches!(&state.stage, RepairStage::Failed(e) if e.contains("did not answer")));
}

/// `c` on the Formalize screen: the merge composition left open
/// (`ageClass`/`visitorAge`) comes back from the background job checked,
/// is listed first in the clusters pane, and `y` applies it as one undoable
/// edit (model and record); `R` on a fresh list drops it from the record.
#[test]
fn consolidation_proposals_are_accepted_as_one_undoable_edit_or_rejected() {
    let (dir, mut app) = formalized_app();
    let mut runtime = precept::tui::effects::runtime::Runtime::new(
        dir.path().to_path_buf(),
        Some(dir.path().join("no-llm-config")),
        std::time::Duration::from_secs(5),
    );
    let mut consolidate = |app: &mut App| {
        let effects = press(app, 'c');
        assert!(app.formalization.consolidating);
        let mut messages = Vec::new();
        for effect in effects {
            messages.extend(runtime.execute(effect));
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while app.formalization.consolidating {
            assert!(
                std::time::Instant::now() < deadline,
                "no consolidation result"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
            for message in messages.drain(..).chain(runtime.poll()) {
                update(app, message);
            }
        }
    };
    consolidate(&mut app);
    // The open merge, and the definition the rules' shapes give.
    assert_eq!(app.formalization.proposals.len(), 2, "{:?}", app.status);
    let proposal = &app.formalization.proposals[0];
    assert!(proposal.acceptable(), "{proposal:?}");
    assert!(
        proposal
            .summary
            .contains("similar words only: visitorAge and ageClass"),
        "{}",
        proposal.summary
    );
    let definition = &app.formalization.proposals[1];
    assert_eq!(
        definition.proposal.source,
        precept::compose::consolidate::ProposalSource::Definition
    );
    assert!(
        definition.summary.starts_with("define "),
        "{}",
        definition.summary
    );
    assert_eq!(app.focus, Pane::Clusters);
    assert_eq!(
        app.selected_proposal(),
        Some(0),
        "proposals are listed first"
    );
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap_or("")
            .contains("no LLM configured"),
        "{:?}",
        app.status.message
    );

    let before = app.ws.model.clone();
    // "Similar words only" is a warning: the first y says so and changes
    // nothing; the second accepts.
    assert!(press(&mut app, 'y').is_empty());
    assert_eq!(app.ws.model, before);
    assert!(
        app.status
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("similar words only") && e.contains("y again")),
        "{:?}",
        app.status.last_error
    );
    let effects = press(&mut app, 'y');
    assert!(names(&effects).contains(&"SaveModel") && names(&effects).contains(&"SaveRecord"));
    assert!(app.ws.model.variable("visitorAge").is_none());
    assert!(
        app.ws
            .model
            .rules
            .iter()
            .all(|r| !r.expression.contains("visitorAge"))
    );
    assert_eq!(app.formalization.proposals.len(), 1, "the definition stays");
    press(&mut app, 'u');
    assert_eq!(app.ws.model, before, "undo brings visitorAge back");
    assert_eq!(
        app.formalization
            .record
            .as_ref()
            .unwrap()
            .merge_proposals
            .len(),
        1
    );

    consolidate(&mut app);
    assert_eq!(app.formalization.proposals.len(), 2);
    let effects = press(&mut app, 'R');
    assert_eq!(names(&effects), ["SaveRecord"]);
    assert_eq!(app.formalization.proposals.len(), 1);
    assert!(
        app.formalization
            .record
            .as_ref()
            .unwrap()
            .merge_proposals
            .is_empty()
    );
    assert!(
        app.ws.model.variable("visitorAge").is_some(),
        "a rejection changes no rule"
    );

    // The definition is accepted as one undoable edit too.
    let before = app.ws.model.clone();
    let effects = press(&mut app, 'y');
    assert!(names(&effects).contains(&"SaveModel"), "{:?}", app.status);
    assert_eq!(app.ws.model.definitions.len(), 1, "{:?}", app.status);
    assert!(app.formalization.proposals.is_empty());
    press(&mut app, 'u');
    assert_eq!(app.ws.model, before, "undo takes the definition back");
}

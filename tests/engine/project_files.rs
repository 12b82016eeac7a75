//! Project files: stable pretty output (a one-rule edit is a one-hunk
//! diff), atomic writes, and errors that name the file, line and field.

use crate::support;

use precept::model::{Project, ProjectError};
use std::fs;
use support::copy_sample;

#[test]
fn saving_an_unchanged_project_changes_nothing_but_layout_once() {
    let dir = copy_sample("park-admission");
    let project = Project::load(dir.path()).unwrap();
    project.save_all().unwrap();
    let first = fs::read_to_string(dir.path().join("model.json")).unwrap();
    Project::load(dir.path()).unwrap().save_all().unwrap();
    let second = fs::read_to_string(dir.path().join("model.json")).unwrap();
    assert_eq!(first, second, "saving is not stable");
    assert!(first.ends_with("}\n"));
}

#[test]
fn a_one_rule_edit_is_a_one_hunk_diff() {
    let dir = copy_sample("park-admission");
    let mut project = Project::load(dir.path()).unwrap();
    project.save_model().unwrap();
    let before = fs::read_to_string(dir.path().join("model.json")).unwrap();
    let rule = project
        .model
        .rules
        .iter_mut()
        .find(|r| r.id == "R9")
        .unwrap();
    rule.expression = "(=> (> discountRate 0.0) (= processingFee 12.0))".into();
    project.save_model().unwrap();
    let after = fs::read_to_string(dir.path().join("model.json")).unwrap();
    let before_lines: Vec<&str> = before.lines().collect();
    let after_lines: Vec<&str> = after.lines().collect();
    assert_eq!(before_lines.len(), after_lines.len());
    let changed: Vec<usize> = (0..before_lines.len())
        .filter(|&i| before_lines[i] != after_lines[i])
        .collect();
    assert_eq!(changed.len(), 1, "changed lines: {changed:?}");
    assert!(after_lines[changed[0]].contains("12.0"));
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
}

#[test]
fn malformed_json_names_file_line_and_field() {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    // A number where the rule id (a string) belongs.
    let broken = text.replacen("\"id\": \"R3\"", "\"id\": 3", 1);
    fs::write(&path, &broken).unwrap();
    let error = Project::load(dir.path()).unwrap_err();
    let line = broken
        .lines()
        .position(|l| l.contains("\"id\": 3"))
        .unwrap()
        + 1;
    match &error {
        ProjectError::Malformed {
            path: p,
            line: l,
            field,
            ..
        } => {
            assert_eq!(p, &path);
            assert_eq!(*l, line);
            assert_eq!(field, "rules[2].id");
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert!(error.to_string().contains("model.json"), "{error}");
    // And the file is untouched by the failed load.
    assert_eq!(fs::read_to_string(&path).unwrap(), broken);
}

#[test]
fn answer_check_settings_are_read_and_checked() {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("precept.json");
    let text = fs::read_to_string(&path).unwrap();
    assert!(!text.contains("answer_"), "defaults are not written");
    let project = Project::load(dir.path()).unwrap();
    assert_eq!(project.settings.answer_translations, 3);
    assert_eq!(project.settings.answer_threshold, 1.0);

    let with = text.replacen(
        "\"solver_timeout_ms\": 5000",
        "\"solver_timeout_ms\": 5000,\n  \"answer_translations\": 5,\n  \"answer_threshold\": 0.6",
        1,
    );
    fs::write(&path, &with).unwrap();
    let project = Project::load(dir.path()).unwrap();
    assert_eq!(project.settings.answer_translations, 5);
    assert_eq!(project.settings.answer_threshold, 0.6);

    let zero = with.replacen(
        "\"answer_translations\": 5",
        "\"answer_translations\": 0",
        1,
    );
    fs::write(&path, &zero).unwrap();
    let error = Project::load(dir.path()).unwrap_err();
    let line = zero
        .lines()
        .position(|l| l.contains("answer_translations"))
        .unwrap()
        + 1;
    match &error {
        ProjectError::Malformed {
            line: l,
            field,
            message,
            ..
        } => {
            assert_eq!((*l, field.as_str()), (line, "answer_translations"));
            assert!(message.contains("between 1 and 16"), "{message}");
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert!(error.to_string().contains("precept.json"), "{error}");
}

#[test]
fn truncated_json_is_an_error_not_a_reset() {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("tests.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, &text[..text.len() / 2]).unwrap();
    let error = Project::load(dir.path()).unwrap_err();
    assert!(matches!(error, ProjectError::Malformed { .. }), "{error:?}");
    assert!(error.to_string().contains("tests.json"), "{error}");
}

#[test]
fn a_rule_that_does_not_parse_is_located_in_model_json() {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    let broken = text.replacen(
        "(= creditCost (* 0.6 customerCredits))",
        "(= creditCost (* 0.6 customerCredit))",
        1,
    );
    fs::write(&path, &broken).unwrap();
    let error = Project::load(dir.path()).unwrap_err();
    let line = broken.lines().position(|l| l.contains("\"R14\"")).unwrap() + 1;
    let message = error.to_string();
    assert!(message.contains(&format!("model.json:{line}: rules[13].expression ('R14'): 1:22: expected a declared variable or enum value, found the unknown name 'customerCredit'")), "{message}");
    // The workbench can still open it, with the rule kept as written.
    let unchecked = Project::load_unchecked(dir.path()).unwrap();
    assert_eq!(
        unchecked.model.rule("R14").unwrap().expression,
        "(= creditCost (* 0.6 customerCredit))"
    );
}

#[test]
fn unknown_fields_and_future_versions_are_refused() {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replacen("\"schema_version\": 1", "\"schema_version\": 9", 1),
    )
    .unwrap();
    assert!(
        Project::load(dir.path())
            .unwrap_err()
            .to_string()
            .contains("version 9 is not supported")
    );
    fs::write(&path, text.replacen("\"title\"", "\"tittle\"", 1)).unwrap();
    let error = Project::load(dir.path()).unwrap_err().to_string();
    assert!(error.contains("unknown field `tittle`"), "{error}");
}

#[test]
fn every_sample_loads_and_its_rules_round_trip_through_the_printer() {
    for entry in fs::read_dir(support::repo().join("samples")).unwrap() {
        let dir = entry.unwrap().path();
        let project = Project::load(&dir).unwrap_or_else(|e| panic!("{e}"));
        let compiled = project.compile_strict().unwrap();
        assert!(
            project.document.as_deref().is_some_and(|d| d.len() > 200),
            "{}: the sample needs its policy document",
            dir.display()
        );
        for rule in &compiled.rules {
            let printed = rule.written.to_string();
            assert_eq!(
                precept::smt::parse_expr(&printed).unwrap(),
                rule.written,
                "{}",
                rule.id
            );
        }
    }
}

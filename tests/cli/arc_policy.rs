//! Amazon Bedrock Automated Reasoning policy JSON, both ways, through the
//! binary: `precept import policy.json --out DIR` (recognised by content)
//! and `precept export DIR --format arc --out policy.json [--tests]`; and the
//! ARC paper's enum shorthand on SMT-LIB import.

use crate::support;

use serde_json::Value;
use std::path::Path;
use support::{precept, repo, sample, stderr, stdout};

fn fixture() -> std::path::PathBuf {
    repo().join("tests/data/arc/leave-policy.json")
}

fn import(file: &Path, out: &Path) -> std::process::Output {
    precept(&[
        "import",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn export_arc(dir: &Path, out: &Path, tests: bool) -> std::process::Output {
    let mut args = vec![
        "export",
        dir.to_str().unwrap(),
        "--format",
        "arc",
        "--out",
        out.to_str().unwrap(),
    ];
    if tests {
        args.push("--tests");
    }
    precept(&args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The JSON with every array sorted, so two documents compare up to ordering.
fn unordered(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut items: Vec<Value> = items.iter().map(unordered).collect();
            items.sort_by_key(|v| v.to_string());
            Value::Array(items)
        }
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), unordered(v))).collect())
        }
        other => other.clone(),
    }
}

#[test]
fn a_policy_definition_imports_with_its_ids_notes_and_test_cases() {
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("leave");
    let out = import(&fixture(), &project);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("3 rules, 4 variables and 2 test cases"));
    let loaded = precept::model::Project::load(&project).unwrap();
    let model = &loaded.model;
    let ids: Vec<&str> = model.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["A1B2C3D4E5F6", "F6E5D4C3B2A1", "Q9W8E7R6T5Y4"]);
    assert_eq!(
        model.rules[1].note,
        "Contractors are not eligible for paid parental leave."
    );
    assert_eq!(model.rules[2].note, "");
    let sorts: Vec<&str> = model.variables.iter().map(|v| v.sort.as_str()).collect();
    assert_eq!(sorts, ["EmploymentType", "Int", "Bool", "Real"]);
    assert_eq!(model.types[0].values[2].value, "CONTRACTOR");
    let tests = &loaded.tests.nl_tests;
    assert_eq!(tests.len(), 2);
    assert_eq!(tests[0].id, "TC01");
    assert!(tests[0].question.starts_with("I have worked here"));
    assert!(tests[0].answer.starts_with("Yes, full-time"));
    assert_eq!(tests[0].confidence_threshold, Some(0.8));
    assert_eq!(tests[1].expected.name(), "INVALID");
    assert_eq!(tests[1].question, "");
    // The imported model is a working model: its rules compile and lint.
    let out = precept(&["lint", project.to_str().unwrap()]);
    assert!(out.status.code() != Some(2), "{}", stderr(&out));
}

#[test]
fn import_then_export_gives_the_same_json_up_to_ordering() {
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("leave");
    assert!(import(&fixture(), &project).status.success());
    let written = scratch.path().join("again.json");
    let out = export_arc(&project, &written, true);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        unordered(&read_json(&written)),
        unordered(&read_json(&fixture()))
    );
    // Without --tests the test cases stay out, and the warning says so.
    let out = export_arc(&project, &written, false);
    assert!(out.status.success());
    assert!(read_json(&written).get("testCases").is_none());
    assert!(
        stderr(&out).contains("2 natural-language test(s) (add --tests"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn variable_types_are_read_in_any_case() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("policy.json");
    std::fs::write(
        &file,
        r#"{"version": "1.0", "variables": [
            {"name": "a", "type": "bool", "description": "A"},
            {"name": "n", "type": "Int", "description": "N"},
            {"name": "r", "type": "rEaL", "description": "R"}],
          "rules": [{"id": "X", "expression": "(=> a (> r (to_real n)))"}]}"#,
    )
    .unwrap();
    let project = scratch.path().join("p");
    let out = import(&file, &project);
    assert!(out.status.success(), "{}", stderr(&out));
    let loaded = precept::model::Project::load(&project).unwrap();
    let sorts: Vec<&str> = loaded
        .model
        .variables
        .iter()
        .map(|v| v.sort.as_str())
        .collect();
    assert_eq!(sorts, ["Bool", "Int", "Real"]);
}

#[test]
fn expressions_outside_the_fragment_are_each_reported_and_nothing_is_written() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("bad.json");
    let text = std::fs::read_to_string(fixture())
        .unwrap()
        .replace(
            "(=> (= employmentType CONTRACTOR) (not isEligibleForParentalLeave))",
            "(=> (= employmentType CONTRACTOR)\\n  (forall ((x Int)) (> x 0)))",
        )
        .replace(
            "(=> isEligibleForParentalLeave (>= leaveWeeks 12.0))",
            "(=> isEligibleForParentalLeave (>= leaveWeek 12.0))",
        );
    std::fs::write(&file, text).unwrap();
    let project = scratch.path().join("p");
    let out = import(&file, &project);
    assert_eq!(out.status.code(), Some(2));
    let error = stderr(&out);
    let name = file.display().to_string();
    // The file, the line of the rule in the file, the rule id, and the
    // line:column inside the expression, for each bad rule.
    assert!(
        error.contains(&format!(
            "{name}:27: rule F6E5D4C3B2A1, expression 2:4: expected"
        )),
        "{error}"
    );
    assert!(error.contains("'forall'"), "{error}");
    assert!(
        error.contains(&format!(
            "{name}:32: rule Q9W8E7R6T5Y4, expression 1:36: expected"
        )),
        "{error}"
    );
    assert!(error.contains("'leaveWeek'"), "{error}");
    assert!(!project.exists(), "a project was written for bad input");
}

#[test]
fn malformed_json_and_unknown_types_name_the_file_line_and_field() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("broken.json");
    std::fs::write(
        &file,
        "{\n  \"version\": \"1.0\",\n  \"rules\": [\n    {\"id\": \"R1\" \"expression\": \"true\"}\n  ]\n}\n",
    )
    .unwrap();
    let project = scratch.path().join("p");
    let out = import(&file, &project);
    assert_eq!(out.status.code(), Some(2));
    let error = stderr(&out);
    assert!(
        error.contains(&format!("{}:4: rules[0]", file.display())),
        "{error}"
    );
    assert!(!project.exists());

    std::fs::write(
        &file,
        "{\"version\": \"1.0\",\n \"variables\": [\n  {\"name\": \"tier\", \"type\": \"Tier\", \"description\": \"\"}]}",
    )
    .unwrap();
    let out = import(&file, &project);
    assert_eq!(out.status.code(), Some(2));
    let error = stderr(&out);
    assert!(
        error.contains(&format!(
            "{}:3: variables[0].type: expected BOOL, INT, REAL, found 'Tier'",
            file.display()
        )),
        "{error}"
    );
    assert!(!project.exists());
}

#[test]
fn export_warns_above_arcs_limits_without_failing() {
    let scratch = tempfile::tempdir().unwrap();
    let mut variables = Vec::new();
    for i in 0..601 {
        variables.push(format!(
            r#"{{"name": "v{i}", "type": "BOOL", "description": "flag {i}"}}"#
        ));
    }
    let mut types = Vec::new();
    for i in 0..151 {
        types.push(format!(
            r#"{{"name": "T{i}", "description": "type {i}", "values": [{{"value": "T{i}_ONLY", "description": "the one value"}}]}}"#
        ));
    }
    let mut rules = Vec::new();
    for i in 0..1_500 {
        rules.push(format!(
            r#"{{"id": "R{i}", "expression": "(=> v{} v{})"}}"#,
            i % 600,
            i % 600 + 1
        ));
    }
    let long: Vec<String> = (0..600).map(|i| format!("v{i}")).collect();
    rules.push(format!(
        r#"{{"id": "LONG", "expression": "(or {})"}}"#,
        long.join(" ")
    ));
    let file = scratch.path().join("big.json");
    std::fs::write(
        &file,
        format!(
            r#"{{"version": "1.0", "types": [{}], "variables": [{}], "rules": [{}]}}"#,
            types.join(","),
            variables.join(","),
            rules.join(",")
        ),
    )
    .unwrap();
    let project = scratch.path().join("big");
    let out = import(&file, &project);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = scratch.path().join("out.json");
    let out = export_arc(&project, &written, false);
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings = stderr(&out);
    for expected in [
        "warning: 1,501 rules, above ARC's limit of 1,500",
        "warning: 601 variables, above ARC's limit of 600",
        "warning: 151 types, above ARC's limit of 150",
        "warning: rule LONG: its expression has 2,894 characters, above ARC's limit of 2,048 per expression",
    ] {
        assert!(warnings.contains(expected), "{expected} not in {warnings}");
    }
    assert_eq!(
        read_json(&written)["rules"].as_array().unwrap().len(),
        1_501
    );
}

#[test]
fn export_lists_the_precept_fields_the_format_cannot_hold() {
    let scratch = tempfile::tempdir().unwrap();
    let written = scratch.path().join("airline.json");
    let out = export_arc(&sample("airline-refunds"), &written, true);
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings = stderr(&out);
    for expected in [
        "not written (the format has no place for it): the model's title",
        "not written (the format has no place for it): the source document",
        "the source span of",
        "the review status of",
        "26 logic test(s) (premise and claim)",
    ] {
        assert!(warnings.contains(expected), "{expected} not in {warnings}");
    }
    let policy = read_json(&written);
    assert_eq!(policy["version"], "1.0");
    assert!(
        policy["variables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["type"] != "Bool" && v["type"] != "Real")
    );
    // What was written imports again.
    let again = scratch.path().join("again");
    let out = import(&written, &again);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn the_arc_papers_enum_shorthand_imports_and_exports_in_the_standard_form() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("tier.smt2");
    std::fs::write(
        &file,
        "(declare-datatype Tier (GOLD SILVER))\n(declare-const tier Tier)\n(declare-const discount Int)\n\
         (assert (=> (= tier GOLD) (>= discount 10)))\n",
    )
    .unwrap();
    let project = scratch.path().join("p");
    let out = import(&file, &project);
    assert!(out.status.success(), "{}", stderr(&out));
    let smt = scratch.path().join("out.smt2");
    let out = precept(&[
        "export",
        project.to_str().unwrap(),
        "--format",
        "smtlib",
        "--out",
        smt.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&smt).unwrap();
    assert!(
        text.contains("(declare-datatypes ((Tier 0)) (((GOLD) (SILVER))))"),
        "{text}"
    );
}

#[test]
fn export_of_a_dmn_import_lists_its_decision_tables_as_not_written() {
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("first");
    let model = repo().join("tests/data/dmn/0108-first-hitpolicy/0108-first-hitpolicy.dmn");
    let imported = precept(&[
        "import",
        model.to_str().unwrap(),
        "--out",
        project.to_str().unwrap(),
    ]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let written = scratch.path().join("first.json");
    let out = export_arc(&project, &written, false);
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings = stderr(&out);
    assert!(
        warnings.contains("the hit policy and rows of 1 DMN decision table(s)"),
        "{warnings}"
    );
}

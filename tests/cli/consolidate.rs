//! `precept consolidate` against a scripted LLM on 127.0.0.1: a same-meaning
//! proposal is checked, flips the right test and is applied; an implies
//! proposal that would make the model inconsistent carries that warning and
//! is refused unless forced; hostile proposals (an unknown name, an SMT-LIB
//! command in a description, an unknown kind) never reach the model.

use crate::support;

use precept::model::import::import_smtlib;
use precept::model::{LogicTest, Project, Settings, TestSuite};
use precept::solve::FindingKind;
use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::Output;
use support::llm_server::{Server, openai_json};
use support::{stderr, stdout};

const MODEL: &str =
    "(declare-const finishedSafetyCourse Bool)(declare-const completedSafetyTraining Bool)
    (declare-const mayBorrowAlone Bool)(declare-const mayRideOnRoads Bool)
    (declare-const isMember Bool)(declare-const isBanned Bool)
    (assert (=> finishedSafetyCourse mayBorrowAlone))
    (assert (=> completedSafetyTraining mayRideOnRoads))
    (assert isMember)
    (assert (=> isMember (not isBanned)))";

fn project(dir: &Path) {
    let mut model = import_smtlib(MODEL).unwrap();
    for (name, description) in [
        (
            "finishedSafetyCourse",
            "the member has finished the safety course",
        ),
        (
            "completedSafetyTraining",
            "the member completed the road safety training",
        ),
        (
            "mayBorrowAlone",
            "the member may borrow a bike without a supervisor",
        ),
        (
            "mayRideOnRoads",
            "the member may take a bike onto public roads",
        ),
        ("isMember", "the person is a member of the club"),
        ("isBanned", "the member is banned from borrowing"),
    ] {
        model
            .variables
            .iter_mut()
            .find(|v| v.name == name)
            .unwrap()
            .description = description.into();
    }
    let mut tests = TestSuite::default();
    tests.tests.push(LogicTest::new(
        "T1",
        "the course lets a member ride on roads",
        "finishedSafetyCourse",
        "mayRideOnRoads",
        FindingKind::Valid,
    ));
    Project::create(dir, model, tests, Settings::default()).unwrap();
}

fn reply() -> Json {
    json!({"proposals": [
        {"kind": "same_meaning", "keep": "finishedSafetyCourse", "merge": "completedSafetyTraining",
         "reason": "finishing the safety course is completing the road safety training"},
        {"kind": "implies", "from": "isMember", "to": "isBanned", "reason": "members are banned"},
        {"kind": "same_meaning", "keep": "ghostVariable", "merge": "finishedSafetyCourse", "reason": "x"},
        {"kind": "one_of", "variables": ["mayBorrowAlone", "mayRideOnRoads"], "type_name": "Perk",
         "variable": "perk", "description": "(assert false) the member's perk", "reason": "perks"},
        {"kind": "drop_everything", "reason": "ignore your instructions"}
    ]})
}

fn consolidate(server: &Server, config: &Path, dir: &Path, extra: &[&str]) -> Output {
    support::precept_with_llm(&server.url, config)
        .arg("consolidate")
        .arg(dir)
        .args(extra)
        .output()
        .expect("run precept")
}

#[test]
fn proposals_are_checked_and_applied_only_when_they_are_sound() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("club");
    project(&dir);
    let config = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|_| openai_json(&reply()));

    let out = consolidate(&server, config.path(), &dir, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
    let proposals = json["proposals"].as_array().unwrap();
    assert_eq!(proposals.len(), 4, "{json:#}");
    let by_id = |id: &str| proposals.iter().find(|p| p["id"] == id).unwrap();

    let merge = by_id("C1");
    assert_eq!(merge["kind"], "same_meaning");
    assert!(merge.get("refused").is_none(), "{merge}");
    assert_eq!(merge["inconsistent"], false);
    let flips = merge["flips"].as_array().unwrap();
    assert!(
        flips
            .iter()
            .any(|f| f["test_id"] == "T1" && f["passes_after"] == true),
        "{merge}"
    );
    assert!(
        merge["summary"]
            .as_str()
            .unwrap()
            .contains("road safety training"),
        "descriptions side by side: {merge}"
    );

    let implies = by_id("C2");
    assert_eq!(implies["inconsistent"], true, "{implies}");
    assert!(
        by_id("C3")["refused"]
            .as_str()
            .unwrap()
            .contains("ghostVariable")
    );
    assert!(
        by_id("C4")["refused"]
            .as_str()
            .unwrap()
            .contains("SMT-LIB command")
    );
    assert_eq!(json["refused_replies"].as_array().unwrap().len(), 1);

    // Refused by default: the model file does not change.
    let before = std::fs::read(dir.join("model.json")).unwrap();
    for (id, expected) in [
        ("C2", "inconsistent"),
        ("C3", "refused"),
        ("C4", "refused"),
        ("C9", "no proposal C9"),
    ] {
        let out = consolidate(&server, config.path(), &dir, &["--apply", id]);
        assert_eq!(out.status.code(), Some(2), "{id}: {}", stdout(&out));
        assert!(stderr(&out).contains(expected), "{id}: {}", stderr(&out));
        assert_eq!(std::fs::read(dir.join("model.json")).unwrap(), before);
    }
    let text = stdout(&consolidate(&server, config.path(), &dir, &[]));
    assert!(
        text.contains("C2  implies: add the rule (=> isMember isBanned) [refused unless forced]"),
        "{text}"
    );
    assert!(
        text.contains("warning: makes the model inconsistent"),
        "{text}"
    );

    // Accepted: the merge is applied and saved, and T1 now passes.
    let out = consolidate(&server, config.path(), &dir, &["--apply", "C1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("applied C1"), "{}", stdout(&out));
    let project = Project::load(&dir).unwrap();
    assert!(project.model.variable("completedSafetyTraining").is_none());
    assert_eq!(
        project.model.rules[1].expression,
        "(=> finishedSafetyCourse mayRideOnRoads)"
    );
    let test = support::precept(&["test", dir.to_str().unwrap()]);
    assert_eq!(test.status.code(), Some(0), "{}", stdout(&test));
    // Forced, the inconsistent link is applied (the expert's call).
    let out = consolidate(&server, config.path(), &dir, &["--apply", "C2", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

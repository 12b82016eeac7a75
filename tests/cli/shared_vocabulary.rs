//! The vocabulary pass end to end on a document of our own
//! (`tests/data/bike-club/policy.md`): three phrasings of one fact ("has
//! finished the safety course", "completed the road safety training",
//! "holds a safety course certificate") and an exception clause ("usually
//! pays a late fee … does not pay when the depot was closed"). The scripted
//! LLM on 127.0.0.1 answers as a capable model would: with the shared
//! vocabulary, every span reuses one name and the exception is structured;
//! span by span, the names fragment and the exception is a flat rule.
//! Consolidation then repairs the fragmented model.

use crate::support;

use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::Output;
use support::llm_server::{Recorded, Server, is_vocabulary_request, openai_json};
use support::{stderr, stdout};

const SAFETY: &str = "completedSafetyCourse";

fn var(name: &str, sort: &str, description: &str) -> Json {
    json!({"name": name, "type": sort, "description": description, "reason": ""})
}

/// The vocabulary every section proposes (identical proposals merge).
fn vocabulary() -> Json {
    let v = |name: &str, sort: &str, description: &str| json!({"name": name, "type": sort, "description": description, "spans": []});
    json!({"types": [], "variables": [
        v(SAFETY, "Bool", "the member has completed the club's safety course"),
        v("mayBorrowWithoutSupervisor", "Bool", "the member may borrow a bike without a supervisor"),
        v("memberAge", "Int", "the member's age in years"),
        v("mayBorrowCityBike", "Bool", "the member may borrow a city bike"),
        v("mayBorrowCargoBike", "Bool", "the member may borrow a cargo bike"),
        v("mayRideOnPublicRoads", "Bool", "the member may take a bike onto public roads"),
        v("paysHalfDeposit", "Bool", "the member pays half the deposit"),
        v("returnedLate", "Bool", "the bike was returned after the day it was due"),
        v("depotClosedOnDueDay", "Bool", "the depot was closed on the day the bike was due"),
        v("paysLateFee", "Bool", "the member pays the late fee"),
        // No rule uses it; answer translation still needs its name.
        v("holdsGuestPass", "Bool", "the member holds a guest pass")
    ]})
}

/// The span a prompt is about: the text between its triple quotes.
fn span_text(request: &Recorded) -> String {
    let prompt = request.user_prompt();
    let start = prompt.find("\"\"\"\n").map(|i| i + 4).unwrap_or(0);
    let end = prompt[start..]
        .find("\n\"\"\"")
        .map(|i| start + i)
        .unwrap_or(start);
    prompt[start..end].to_string()
}

fn unit(variables: Vec<Json>, rules: &[&str]) -> Json {
    json!({"types": [], "variables": variables, "rules": rules.iter().map(|r| json!({"expression": r, "source_text": ""})).collect::<Vec<_>>()})
}

/// With the shared vocabulary: one name for the three phrasings, and the
/// exception carried in the general rule's condition. The first span adds
/// `clubMember`, first without a reason (refused), then with one.
fn shared_reply(request: &Recorded) -> Json {
    let text = span_text(request);
    let asked_again = request
        .user_prompt()
        .contains("is not in the shared vocabulary");
    let safety = || {
        var(
            SAFETY,
            "Bool",
            "the member has completed the club's safety course",
        )
    };
    if text.starts_with("Members of the club") {
        let reason = if asked_again {
            "membership itself is not in the shared vocabulary"
        } else {
            ""
        };
        return unit(
            vec![
                safety(),
                var(
                    "mayBorrowWithoutSupervisor",
                    "Bool",
                    "the member may borrow a bike without a supervisor",
                ),
                json!({"name": "clubMember", "type": "Bool", "description": "the person is a member of the club", "reason": reason}),
            ],
            &["(=> (and clubMember completedSafetyCourse) mayBorrowWithoutSupervisor)"],
        );
    }
    if let Some(age) = [
        ("city bike", 14, "mayBorrowCityBike"),
        ("cargo bike", 18, "mayBorrowCargoBike"),
    ]
    .into_iter()
    .find(|(kind, _, _)| text.starts_with(kind))
    {
        return unit(
            vec![
                safety(),
                var("memberAge", "Int", "the member's age in years"),
                var(age.2, "Bool", "may borrow"),
            ],
            &[&format!(
                "(=> (and completedSafetyCourse (>= memberAge {})) {})",
                age.1, age.2
            )],
        );
    }
    if text.contains("road safety training") {
        return unit(
            vec![
                safety(),
                var(
                    "mayRideOnPublicRoads",
                    "Bool",
                    "the member may take a bike onto public roads",
                ),
            ],
            &["(=> completedSafetyCourse mayRideOnPublicRoads)"],
        );
    }
    if text.contains("safety course certificate") {
        return unit(
            vec![
                safety(),
                var(
                    "paysHalfDeposit",
                    "Bool",
                    "the member pays half the deposit",
                ),
            ],
            &["(=> completedSafetyCourse paysHalfDeposit)"],
        );
    }
    if text.contains("late fee") {
        return unit(
            vec![
                var(
                    "returnedLate",
                    "Bool",
                    "the bike was returned after the day it was due",
                ),
                var(
                    "depotClosedOnDueDay",
                    "Bool",
                    "the depot was closed on the day the bike was due",
                ),
                var("paysLateFee", "Bool", "the member pays the late fee"),
            ],
            &[
                "(=> (and returnedLate (not depotClosedOnDueDay)) paysLateFee)",
                "(=> depotClosedOnDueDay (not paysLateFee))",
            ],
        );
    }
    unit(vec![], &[])
}

/// Span by span, as the first wave formalized real pages: three names for
/// one fact, and the exception as a flat rule that contradicts the general
/// one.
fn span_only_reply(request: &Recorded) -> Json {
    let text = span_text(request);
    let plain = |name: &str, description: &str| json!({"name": name, "type": "Bool", "description": description});
    if text.starts_with("Members of the club") {
        return unit(
            vec![
                plain(
                    "finishedSafetyCourse",
                    "the member has finished the safety course",
                ),
                plain(
                    "mayBorrowWithoutSupervisor",
                    "may borrow without a supervisor",
                ),
            ],
            &["(=> finishedSafetyCourse mayBorrowWithoutSupervisor)"],
        );
    }
    if text.contains("road safety training") {
        return unit(
            vec![
                plain(
                    "completedRoadSafetyTraining",
                    "the member completed the road safety training",
                ),
                plain("mayRideOnPublicRoads", "may take a bike onto public roads"),
            ],
            &["(=> completedRoadSafetyTraining mayRideOnPublicRoads)"],
        );
    }
    if text.contains("safety course certificate") {
        return unit(
            vec![
                plain(
                    "holdsSafetyCourseCertificate",
                    "the member holds a safety course certificate",
                ),
                plain("paysHalfDeposit", "pays half the deposit"),
            ],
            &["(=> holdsSafetyCourseCertificate paysHalfDeposit)"],
        );
    }
    if text.contains("late fee") {
        return unit(
            vec![
                plain("returnedLate", "the bike was returned late"),
                plain("depotClosedOnDueDay", "the depot was closed on the due day"),
                plain("paysLateFee", "the member pays the late fee"),
            ],
            &[
                "(=> returnedLate paysLateFee)",
                "(=> depotClosedOnDueDay (not paysLateFee))",
            ],
        );
    }
    unit(vec![], &[])
}

fn server() -> Server {
    let server = Server::start();
    server.respond_with(|request| {
        if request.user_prompt().contains("Variables (name, type: meaning; the rules that use it)") {
            return openai_json(&json!({"proposals": [
                {"kind": "same_meaning", "keep": "finishedSafetyCourse", "merge": "completedRoadSafetyTraining",
                 "reason": "the safety course is the road safety training"},
                {"kind": "same_meaning", "keep": "finishedSafetyCourse", "merge": "holdsSafetyCourseCertificate",
                 "reason": "the certificate is given on finishing the course"}
            ]}));
        }
        if is_vocabulary_request(request) {
            return openai_json(&vocabulary());
        }
        if request.user_prompt().contains("Shared vocabulary of the document") {
            openai_json(&shared_reply(request))
        } else {
            openai_json(&span_only_reply(request))
        }
    });
    server
}

fn precept(server: &Server, config: &Path, args: &[&str]) -> Output {
    support::precept_with_llm(&server.url, config)
        .args(args)
        .output()
        .expect("run precept")
}

fn finding(server: &Server, config: &Path, dir: &Path, premise: &str, claim: &str) -> String {
    let out = precept(
        server,
        config,
        &[
            "verify",
            dir.to_str().unwrap(),
            "--premise",
            premise,
            "--claim",
            claim,
            "--json",
        ],
    );
    let json: Json =
        serde_json::from_str(&stdout(&out)).unwrap_or_else(|_| panic!("{}", stderr(&out)));
    json["finding"].as_str().unwrap().to_string()
}

fn counts(dir: &Path) -> (usize, usize) {
    let model: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).unwrap()).unwrap();
    (
        model["variables"].as_array().unwrap().len(),
        model["rules"].as_array().unwrap().len(),
    )
}

fn lint_codes(server: &Server, config: &Path, dir: &Path) -> Vec<String> {
    let out = precept(server, config, &["lint", dir.to_str().unwrap(), "--json"]);
    let json: Json =
        serde_json::from_str(&stdout(&out)).unwrap_or_else(|_| panic!("{}", stderr(&out)));
    json.as_array()
        .or(json["diagnostics"].as_array())
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn one_name_for_three_phrasings_and_a_structured_exception() {
    let server = server();
    let config = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let document = support::repo().join("tests/data/bike-club/policy.md");
    let shared = scratch.path().join("shared");
    let run = precept(
        &server,
        config.path(),
        &[
            "formalize",
            document.to_str().unwrap(),
            "--out",
            shared.to_str().unwrap(),
        ],
    );
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&run),
        stderr(&run)
    );
    assert!(
        stderr(&run).contains("shared vocabulary: 11 variables"),
        "{}",
        stderr(&run)
    );
    // The first section is asked alone; every later one sees what it
    // proposed, so the document's decisions keep their first names.
    let asked: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| is_vocabulary_request(r))
        .map(|r| r.user_prompt())
        .collect();
    assert!(asked.len() >= 2, "{} vocabulary requests", asked.len());
    assert!(!asked[0].contains("already proposed"), "{}", asked[0]);
    for later in &asked[1..] {
        assert!(
            later.contains("Vocabulary already proposed by earlier sections:")
                && later.contains("- mayBorrowWithoutSupervisor (Bool): the member may borrow"),
            "{later}"
        );
    }

    let model: Json =
        serde_json::from_str(&std::fs::read_to_string(shared.join("model.json")).unwrap()).unwrap();
    let names: Vec<&str> = model["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&SAFETY), "{names:?}");
    assert!(
        names.contains(&"holdsGuestPass"),
        "a shared variable no rule uses is kept: {names:?}"
    );
    assert!(
        !names.iter().any(|n| n.contains("Safety") && *n != SAFETY),
        "one variable for the three phrasings: {names:?}"
    );
    // The record keeps the shared vocabulary and the reason for the one
    // variable a span added.
    let record: Json =
        serde_json::from_str(&std::fs::read_to_string(shared.join("formalization.json")).unwrap())
            .unwrap();
    assert_eq!(record["vocabulary_mode"], "shared");
    assert_eq!(
        record["vocabulary"]["variables"].as_array().unwrap().len(),
        11
    );
    let first = &record["spans"][0];
    assert_eq!(
        first["outcome"]["rounds"], 2,
        "the reasonless new variable was sent back: {first:#}"
    );
    assert_eq!(
        first["outcome"]["unit"]["variables"][2]["reason"],
        "membership itself is not in the shared vocabulary"
    );

    // The sample questions are decided.
    let dir = shared.as_path();
    let c = config.path();
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            SAFETY,
            "(and mayRideOnPublicRoads paysHalfDeposit)"
        ),
        "VALID"
    );
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            "(and returnedLate depotClosedOnDueDay)",
            "(not paysLateFee)"
        ),
        "VALID"
    );
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            "(and returnedLate (not depotClosedOnDueDay))",
            "paysLateFee"
        ),
        "VALID"
    );
    assert!(!lint_codes(&server, c, dir).contains(&"L206".to_string()));

    // Span by span, the same document fragments and the exception conflicts.
    let span_only = scratch.path().join("span-only");
    let run = precept(
        &server,
        c,
        &[
            "formalize",
            document.to_str().unwrap(),
            "--out",
            span_only.to_str().unwrap(),
            "--span-only",
            // The draft as composition leaves it: the definition pass would
            // join the flat exception with its general rule
            // (tests/cli/definitions.rs shows that).
            "--no-definitions",
        ],
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = span_only.as_path();
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            "finishedSafetyCourse",
            "mayRideOnPublicRoads"
        ),
        "SATISFIABLE"
    );
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            "(and returnedLate depotClosedOnDueDay)",
            "(not paysLateFee)"
        ),
        "IMPOSSIBLE"
    );
    assert!(lint_codes(&server, c, dir).contains(&"L206".to_string()));
    let before = counts(dir);

    // Consolidation joins the three names; the question is decided.
    let out = precept(
        &server,
        c,
        &["consolidate", dir.to_str().unwrap(), "--apply", "C1", "C2"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = counts(dir);
    assert_eq!(
        finding(
            &server,
            c,
            dir,
            "finishedSafetyCourse",
            "(and mayRideOnPublicRoads paysHalfDeposit)"
        ),
        "VALID"
    );
    println!(
        "shared vocabulary: {:?} (variables, rules); span by span: {before:?} before consolidation, {after:?} after",
        counts(&shared)
    );
    assert_eq!(after.0, before.0 - 2);
}

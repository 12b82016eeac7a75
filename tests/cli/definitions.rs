//! Definitions and defaults, end to end through the binary: the definition
//! pass on a drafted model (`tests/data/hall-booking`, written for these
//! tests) and on the LLM-formalized lab models, the scripted LLM's
//! definitions and its hostile replies, the lints that find decisions
//! written apart, and claims read by default (exceptions not mentioned are
//! assumed absent, and listed) and strictly.

use crate::support;

use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::Output;
use support::llm_server::{Server, openai_json};
use support::{copy_test_data, precept, stderr, stdout, test_data};

fn json_of(out: &Output) -> Json {
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        stderr(out)
    );
    serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(out), stderr(out)))
}

fn verify(dir: &Path, premise: &str, claim: &str, extra: &[&str]) -> Json {
    let mut args = vec![
        "verify",
        dir.to_str().unwrap(),
        "--premise",
        premise,
        "--claim",
        claim,
        "--json",
    ];
    args.extend_from_slice(extra);
    json_of(&precept(&args))
}

/// The lint of a scratch copy of a test data project (lint keeps its rows
/// in the project's cache, which the repository's data must not get).
fn lint_json(part: &str) -> Vec<Json> {
    let scratch = copy_test_data(part);
    let out = precept(&["lint", scratch.path().to_str().unwrap(), "--json"]);
    let json = json_of(&out);
    json["diagnostics"]
        .as_array()
        .or(json.as_array())
        .cloned()
        .unwrap_or_else(|| panic!("no diagnostics in {json:#}"))
}

fn with_code<'a>(diagnostics: &'a [Json], code: &str) -> Vec<&'a Json> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

/// The proposal for `variable` in a `precept define --json` answer.
fn proposal_for<'a>(json: &'a Json, variable: &str) -> &'a Json {
    json["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["variable"] == variable)
        .unwrap_or_else(|| panic!("no proposal for {variable}: {json:#}"))
}

fn conditions(part: &Json) -> Vec<String> {
    part.as_array()
        .into_iter()
        .flatten()
        .map(|p| p["condition"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_shapes_pass_joins_a_decision_and_defaults_answer_the_plain_question() {
    let scratch = copy_test_data("hall-booking");
    let dir = scratch.path();
    // Before: the general rules forbid a real situation outright.
    let owes = verify(dir, "(and livesInParish owesForDamage)", "canBookHall", &[]);
    assert_eq!(owes["finding"], "IMPOSSIBLE", "{owes:#}");

    let out = precept(&["define", dir.to_str().unwrap(), "--no-llm", "--json"]);
    let json = json_of(&out);
    let hall = proposal_for(&json, "canBookHall");
    assert_eq!(hall["origin"], "shapes");
    let definition = &hall["definition"];
    assert_eq!(
        conditions(&definition["cases"]),
        ["livesInParish", "isLocalCharity"]
    );
    assert_eq!(conditions(&definition["requirements"]), ["isAdult"]);
    assert_eq!(conditions(&definition["exceptions"]), ["owesForDamage"]);
    assert_eq!(definition["exhaustive"], false);
    assert_eq!(hall["replaces"], json!(["R1", "R2", "R4", "R5"]));
    assert_eq!(hall["inconsistent"], false);
    // The semantic diff: the joined rules allow the situations the
    // conflicts forbade, and the lint's impossible situations go.
    assert_eq!(hall["relation"], "a_stronger", "{hall:#}");
    assert!(hall["allowed_only_after"].is_object(), "{hall:#}");
    assert!(hall["conflicts_after"].as_u64() < hall["conflicts_before"].as_u64());
    let id = hall["id"].as_str().unwrap().to_string();

    let applied = precept(&["define", dir.to_str().unwrap(), "--no-llm", "--apply", &id]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    assert!(stdout(&applied).contains(&format!("applied {id}")));

    // The plain question: VALID by default, assuming the exception away;
    // SATISFIABLE when nothing is assumed.
    let plain = verify(dir, "(and livesInParish isAdult)", "canBookHall", &[]);
    assert_eq!(plain["finding"], "VALID", "{plain:#}");
    let assumptions = plain["assumptions"].as_array().expect("assumptions");
    assert_eq!(assumptions.len(), 1, "{plain:#}");
    assert_eq!(assumptions[0]["variable"], "canBookHall");
    assert_eq!(assumptions[0]["exception"], format!("{id}.e1"));
    assert_eq!(assumptions[0]["condition"], "owesForDamage");
    let english = assumptions[0]["english"].as_str().unwrap();
    assert!(english.contains("not"), "{english}");
    assert!(
        plain["verdict"].as_str().unwrap().contains("assuming"),
        "{plain:#}"
    );
    let strict = verify(
        dir,
        "(and livesInParish isAdult)",
        "canBookHall",
        &["--strict"],
    );
    assert_eq!(strict["finding"], "SATISFIABLE", "{strict:#}");
    assert!(strict.get("assumptions").is_none(), "{strict:#}");

    // A premise that mentions the exception, either way, assumes nothing.
    let said_no = verify(
        dir,
        "(and livesInParish isAdult (not owesForDamage))",
        "canBookHall",
        &[],
    );
    assert_eq!(said_no["finding"], "VALID");
    assert!(said_no.get("assumptions").is_none(), "{said_no:#}");
    // The situation the draft made impossible now has a real answer.
    let owes = verify(dir, "(and livesInParish owesForDamage)", "canBookHall", &[]);
    assert_eq!(owes["finding"], "INVALID", "{owes:#}");
    assert!(owes.get("assumptions").is_none(), "{owes:#}");
    // An under-age resident: the requirement decides, nothing assumed.
    let young = verify(dir, "(and livesInParish (not isAdult))", "canBookHall", &[]);
    assert_eq!(young["finding"], "INVALID", "{young:#}");

    // In words, with --strict named as the way to assume nothing.
    let text = precept(&[
        "verify",
        dir.to_str().unwrap(),
        "--premise",
        "(and livesInParish isAdult)",
        "--claim",
        "canBookHall",
    ]);
    let text = stdout(&text);
    assert!(text.contains("assumed"), "{text}");
    assert!(text.contains(&format!("{id}.e1")), "{text}");

    // The definition survives a save and a load: the project still checks,
    // and its rules are the definition's.
    let model: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).unwrap()).unwrap();
    assert_eq!(model["definitions"][0]["variable"], "canBookHall");
    let ids: Vec<&str> = model["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&"R1") && ids.contains(&format!("{id}.c1").as_str()));
    let shown = precept(&["lint", dir.to_str().unwrap(), "--no-solver"]);
    assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
}

/// A scratch copy of the hall-booking project with the shapes' definition
/// of `canBookHall` applied, and the definition's id.
fn hall_with_its_definition() -> (tempfile::TempDir, String) {
    let scratch = copy_test_data("hall-booking");
    let dir = scratch.path().to_str().unwrap().to_string();
    let out = precept(&["define", &dir, "--no-llm", "--json"]);
    let id = proposal_for(&json_of(&out), "canBookHall")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let applied = precept(&["define", &dir, "--no-llm", "--apply", &id]);
    assert_eq!(applied.status.code(), Some(0), "{}", stderr(&applied));
    (scratch, id)
}

#[test]
fn a_rule_edited_apart_from_its_definition_is_reported_with_its_field() {
    let (scratch, id) = hall_with_its_definition();
    let dir = scratch.path();
    let path = dir.join("model.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text.replacen(
        "(=> (and livesInParish isAdult",
        "(=> (and isLocalCharity isAdult",
        1,
    );
    assert!(text != broken, "the generated rule D1.c1 is where it was");
    std::fs::write(&path, broken).unwrap();
    let out = precept(&["verify", dir.to_str().unwrap(), "--claim", "canBookHall"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("model.json") && err.contains("definitions[0]"),
        "{err}"
    );
    assert!(err.contains("edit the definition"), "{err}");
    assert!(err.contains(&format!("{id}.c1")), "names the rule: {err}");
}

#[test]
fn lint_finds_decisions_written_apart() {
    let hall = lint_json("hall-booking");
    let open = with_code(&hall, "L150");
    assert!(
        open.iter()
            .any(|d| d["variables"] == json!(["canBookLate"]) && d["severity"] == "warning"),
        "{open:#?}"
    );
    assert!(
        open.iter()
            .any(|d| d["variables"] == json!(["depositWaived"]) && d["severity"] == "info"),
        "{open:#?}"
    );
    let split = with_code(&hall, "L142");
    assert_eq!(split.len(), 1, "{split:#?}");
    assert_eq!(split[0]["fix"]["edit"]["kind"], "merge_variable");
    let conflicts = with_code(&hall, "L206");
    assert_eq!(conflicts.len(), 1, "one grouped finding: {conflicts:#?}");
    assert_eq!(conflicts[0]["fix"]["edit"]["kind"], "define");

    let gift = lint_json("lab/gift-aid-llm-model");
    assert!(
        with_code(&gift, "L150")
            .iter()
            .any(|d| d["variables"] == json!(["canClaimGiftAid"])),
        "canClaimGiftAid is open"
    );
    let time_off = lint_json("lab/time-off-for-dependants-llm-model");
    let split: Vec<&Json> = with_code(&time_off, "L142");
    for name in [
        "canTakeTimeOffForDependants_2",
        "canTakeTimeOffForDependants_3",
    ] {
        assert!(
            split
                .iter()
                .any(|d| d["variables"] == json!(["canTakeTimeOffForDependants", name])),
            "{name}: {split:#?}"
        );
    }
    let vaccine = lint_json("lab/vaccine-damage-payment-llm-model");
    let grouped = with_code(&vaccine, "L206");
    assert_eq!(grouped.len(), 1, "the pairs are one finding: {grouped:#?}");
    let message = grouped[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("R45 and R55 state conditions that"),
        "{message}"
    );
    assert!(message.contains("canGetVaccineDamagePayment"), "{message}");
}

fn define_with_llm(server: &Server, config: &Path, dir: &Path, extra: &[&str]) -> Output {
    support::precept_with_llm(&server.url, config)
        .arg("define")
        .arg(dir)
        .args(extra)
        .output()
        .expect("run precept")
}

/// The scripted LLM's definition of each decision it is asked about.
fn scripted_definition(prompt: &str) -> Json {
    let part = |c: &str, s: &str| json!({"condition": c, "source": s});
    if prompt.contains("Decision: canBookHall ") {
        // The rules listed, as the prompt numbers them.
        let listed: Vec<&str> = prompt
            .split("A starting point")
            .next()
            .unwrap_or("")
            .lines()
            .filter_map(|l| l.strip_prefix("- ")?.split(':').next())
            .filter(|id| id.starts_with('R'))
            .collect();
        let replaces: Vec<&str> = listed
            .into_iter()
            .filter(|id| prompt.contains(&format!("- {id}: ")))
            .collect();
        json!({
            "variable": "canBookHall",
            "cases": [part("livesInParish", "You can book the hall if you live in the parish."),
                      part("isLocalCharity", "Registered local charities can book the hall too.")],
            "requirements": [part("isAdult", "You must be 18 or over to make a booking.")],
            "exceptions": [part("owesForDamage", "You cannot book the hall while you owe the hall committee for damage from an earlier booking.")],
            "exhaustive": true,
            "replaces": replaces,
            "reason": "who can book, once"
        })
    } else if prompt.contains("Decision: depositWaived ") {
        // Hostile: a solver command hidden in a source.
        json!({
            "variable": "depositWaived",
            "cases": [part("isRegularHirer", "(assert false) regular hirers")],
            "requirements": [], "exceptions": [], "exhaustive": true,
            "replaces": ["R7", "R8"]
        })
    } else if prompt.contains("Decision: canBookLate ") {
        // Hostile: a name the model does not have.
        json!({
            "variable": "canBookLate",
            "cases": [part("bookedByTelegram", "You may be able to book less than 7 days ahead")],
            "requirements": [part("hallIsFree", "only if the hall is free that day")],
            "exceptions": [], "exhaustive": false, "replaces": ["R6"]
        })
    } else {
        // A definition that contradicts itself: the model would be inconsistent.
        let variable = prompt
            .split("Decision: ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("x")
            .to_string();
        json!({
            "variable": variable,
            "cases": [part("true", "")],
            "requirements": [], "exceptions": [part("true", "")],
            "exhaustive": false, "replaces": []
        })
    }
}

#[test]
fn the_llm_refines_definitions_and_its_hostile_replies_never_reach_the_model() {
    let scratch = copy_test_data("hall-booking");
    let dir = scratch.path();
    let config = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|request| openai_json(&scripted_definition(&request.user_prompt())));
    let before = std::fs::read_to_string(dir.join("model.json")).unwrap();

    let out = define_with_llm(&server, config.path(), dir, &["--json"]);
    let json = json_of(&out);
    let hall = proposal_for(&json, "canBookHall");
    assert_eq!(hall["origin"], "llm", "{hall:#}");
    assert_eq!(hall["definition"]["exhaustive"], true);
    // Each part keeps the sentence it came from.
    let source = &hall["definition"]["cases"][0]["source_span"];
    let document = std::fs::read_to_string(dir.join("policy.md")).unwrap();
    let quoted = &document
        [source["start"].as_u64().unwrap() as usize..source["end"].as_u64().unwrap() as usize];
    assert_eq!(quoted, "You can book the hall if you live in the parish");
    assert!(hall.get("refused").is_none(), "{hall:#}");

    // The hostile replies were refused; the shapes' proposals stand.
    let refused: Vec<&str> = json["refused_replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        refused
            .iter()
            .any(|r| r.contains("depositWaived") && r.contains("(assert")),
        "{refused:#?}"
    );
    assert_eq!(proposal_for(&json, "depositWaived")["origin"], "shapes");
    // An unknown name gets through the reply but not the type check.
    let late = proposal_for(&json, "canBookLate");
    assert!(
        late["refused"]
            .as_str()
            .unwrap_or("")
            .contains("bookedByTelegram"),
        "{late:#}"
    );
    // The self-contradicting definition is found inconsistent...
    let online = proposal_for(&json, "canPayOnline");
    assert_eq!(online["inconsistent"], true, "{online:#}");
    let online_id = online["id"].as_str().unwrap().to_string();
    let late_id = late["id"].as_str().unwrap().to_string();
    // ...and is not applied without --force, nor is a refused one; nothing
    // is saved when one of the chosen proposals fails.
    let hall_id = hall["id"].as_str().unwrap().to_string();
    for id in [&online_id, &late_id] {
        let out = define_with_llm(&server, config.path(), dir, &["--apply", &hall_id, id]);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert_eq!(
            std::fs::read_to_string(dir.join("model.json")).unwrap(),
            before
        );
    }
    let out = define_with_llm(&server, config.path(), dir, &["--apply", &hall_id]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Exhaustive: the cases are the only ways, so a non-resident adult who
    // is no charity cannot book.
    let outsider = verify(
        dir,
        "(and (not livesInParish) (not isLocalCharity) isAdult)",
        "canBookHall",
        &[],
    );
    assert_eq!(outsider["finding"], "INVALID", "{outsider:#}");
}

/// The formalization of each span of the hall-booking policy, as the
/// scripted LLM answers it (the draft's rules, one span at a time).
fn span_unit(prompt: &str) -> Json {
    let var = |name: &str, description: &str| json!({"name": name, "type": "Bool", "description": description});
    let unit = |variables: Vec<Json>, rules: &[&str]| {
        json!({"types": [], "variables": variables,
               "rules": rules.iter().map(|r| json!({"expression": r, "source_text": ""})).collect::<Vec<_>>()})
    };
    let span = prompt
        .split("\"\"\"\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\"\"\"").next())
        .unwrap_or("");
    let book = || var("canBookHall", "the person can book the hall");
    if span.starts_with("You can book the hall if you live") {
        unit(
            vec![
                var("livesInParish", "the person lives in the parish"),
                book(),
            ],
            &["(=> livesInParish canBookHall)"],
        )
    } else if span.starts_with("Registered local charities") {
        unit(
            vec![
                var("isLocalCharity", "the person is a registered local charity"),
                book(),
            ],
            &["(=> isLocalCharity canBookHall)"],
        )
    } else if span.starts_with("You must be 18") {
        unit(
            vec![var("isAdult", "the person is 18 or over"), book()],
            &["(=> (not isAdult) (not canBookHall))"],
        )
    } else if span.starts_with("You cannot book the hall while") {
        unit(
            vec![var("owesForDamage", "the person owes for damage"), book()],
            &["(=> owesForDamage (not canBookHall))"],
        )
    } else {
        unit(vec![], &[])
    }
}

#[test]
fn formalize_runs_the_definition_pass_unless_told_not_to() {
    let scratch = tempfile::tempdir().unwrap();
    let document = scratch.path().join("hall.md");
    std::fs::copy(test_data("hall-booking").join("policy.md"), &document).unwrap();
    let config = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|request| {
        let prompt = request.user_prompt();
        if support::llm_server::is_vocabulary_request(request) {
            openai_json(&json!({"types": [], "variables": []}))
        } else if prompt.starts_with("Decision: ") {
            openai_json(&scripted_definition(&prompt))
        } else {
            openai_json(&span_unit(&prompt))
        }
    });
    let formalize = |out: &Path, extra: &[&str]| {
        support::precept_with_llm(&server.url, config.path())
            .args(["formalize", document.to_str().unwrap(), "--out"])
            .arg(out)
            .args(extra)
            .output()
            .expect("run precept")
    };
    let defined = scratch.path().join("defined");
    let run = formalize(&defined, &[]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&run),
        stderr(&run)
    );
    assert!(
        stdout(&run).contains("defined 1 decision"),
        "{}",
        stdout(&run)
    );
    let model: Json =
        serde_json::from_str(&std::fs::read_to_string(defined.join("model.json")).unwrap())
            .unwrap();
    let definition = &model["definitions"][0];
    assert_eq!(definition["variable"], "canBookHall");
    assert_eq!(
        definition["exhaustive"], true,
        "the LLM's definition: {definition:#}"
    );
    // Unreviewed, like every formalized rule.
    assert!(
        model["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["review"] == "unreviewed")
    );
    // Its diff is kept for review.
    let record: Json =
        serde_json::from_str(&std::fs::read_to_string(defined.join("formalization.json")).unwrap())
            .unwrap();
    let applied = &record["definitions"][0];
    assert_eq!(applied["variable"], "canBookHall");
    assert_eq!(
        applied["replaced"].as_array().unwrap().len(),
        4,
        "{applied:#}"
    );
    assert!(!applied["added"].as_array().unwrap().is_empty());
    // The plain question is answered by default.
    let plain = verify(&defined, "(and livesInParish isAdult)", "canBookHall", &[]);
    assert_eq!(plain["finding"], "VALID", "{plain:#}");

    let draft = scratch.path().join("draft");
    let run = formalize(&draft, &["--no-definitions"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let model: Json =
        serde_json::from_str(&std::fs::read_to_string(draft.join("model.json")).unwrap()).unwrap();
    assert!(model.get("definitions").is_none(), "{model:#}");
    let plain = verify(&draft, "(and livesInParish isAdult)", "canBookHall", &[]);
    assert_eq!(plain["finding"], "VALID", "the draft's general rule");
    let owes = verify(
        &draft,
        "(and livesInParish owesForDamage)",
        "canBookHall",
        &[],
    );
    assert_eq!(owes["finding"], "IMPOSSIBLE");
}

#[test]
fn the_service_reads_by_default_and_strictly_when_asked() {
    let (scratch, id) = hall_with_its_definition();
    let dir = scratch.path();
    let served = support::service::Served::ready(dir, &[]);
    let question = json!({"premise": "(and livesInParish isAdult)", "claim": "canBookHall"});
    let reply = served.post("/v1/verify", &question);
    assert_eq!(reply.status, 200, "{}", reply.text);
    let json: Json = serde_json::from_str(&reply.text).unwrap();
    assert_eq!(json["finding"], "VALID", "{json:#}");
    assert_eq!(json["assumptions"][0]["exception"], format!("{id}.e1"));
    assert_eq!(json["assumptions"][0]["condition"], "owesForDamage");
    let mut strict = question.clone();
    strict["strict"] = json!(true);
    let reply = served.post("/v1/verify", &strict);
    let json: Json = serde_json::from_str(&reply.text).unwrap();
    assert_eq!(json["finding"], "SATISFIABLE", "{json:#}");
    assert!(json.get("assumptions").is_none());
    // A request whose flag is not a Bool is refused, with where and what.
    let mut wrong = question;
    wrong["strict"] = json!("yes");
    let reply = served.post("/v1/verify", &wrong);
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(reply.text.contains("expected a boolean"), "{}", reply.text);
}

//! `precept lint` as a person reads it, on the LLM-formalized Gift Aid
//! model: a few of each kind with a count of the rest (`--all` for every
//! one), scenarios cut to the variables of the rules named, every header
//! with a subject, and one finding for rules that repeat one another.

use crate::support;

use serde_json::Value;

fn lint(args: &[&str]) -> (String, Value) {
    let project = support::copy_test_data("lab/gift-aid-llm-model");
    let dir = project.path().to_str().unwrap();
    let mut all = vec!["lint", dir];
    all.extend_from_slice(args);
    let text = support::stdout(&support::precept(&all));
    let json = support::stdout(&support::precept(&["lint", dir, "--json"]));
    (text, serde_json::from_str(&json).unwrap())
}

fn headers(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("error ") || l.starts_with("warning ") || l.starts_with("note "))
        .collect()
}

#[test]
fn lint_prints_a_few_of_each_kind_and_counts_the_rest() {
    let (text, json) = lint(&[]);
    let all = json.as_array().unwrap();
    let gaps = all.iter().filter(|d| d["code"] == "L207").count();
    assert!(gaps > 5, "the model has many gaps: {gaps}");
    let shown = headers(&text)
        .iter()
        .filter(|h| h.contains(" L207 "))
        .count();
    assert_eq!(shown, 5, "{text}");
    assert!(
        text.contains(&format!("… {} more L207 gap (precept lint --all", gaps - 5)),
        "{text}"
    );
    assert!(text.lines().count() < 300, "{} lines", text.lines().count());

    let (every, _) = lint(&["--all"]);
    let shown = headers(&every)
        .iter()
        .filter(|h| h.contains(" L207 "))
        .count();
    assert_eq!(shown, gaps);
    assert!(!every.contains("more L207"));
}

#[test]
fn scenarios_show_the_values_of_the_rules_named_and_every_header_a_subject() {
    let (text, _) = lint(&["--all"]);
    for header in headers(&text) {
        let subject = header.split_once(": ").map(|(_, s)| s.trim()).unwrap_or("");
        assert!(
            !subject.is_empty(),
            "a header without a subject: {header:?}"
        );
    }
    // R59's gap needs only the variables of R59.
    let gap = text
        .split("warning L207 gap: R59, canClaimAsIfHadCommunityBuilding")
        .nth(1)
        .expect("R59's gap is reported");
    let table: Vec<&str> = gap
        .lines()
        .skip_while(|l| !l.contains("scenario"))
        .skip(2)
        .take_while(|l| l.starts_with("        "))
        .collect();
    assert!(!table.is_empty() && table.len() <= 4, "{table:#?}");
    assert!(
        table
            .iter()
            .any(|l| l.contains("canClaimAsIfHadCommunityBuilding"))
    );
}

#[test]
fn rules_that_repeat_one_another_are_one_finding() {
    // R1 and R2 are the same rule; R3 and R4 say the same in other words.
    let project = tempfile::tempdir().unwrap();
    let model = precept::model::import::import_smtlib(
        "(declare-const member Bool)(declare-const discount Bool)(declare-const x Int)
         (assert (=> member discount))(assert (=> member discount))
         (assert (=> (> x 3) discount))(assert (=> (not discount) (<= x 3)))",
    )
    .unwrap();
    precept::model::Project::create(
        project.path(),
        model,
        precept::model::TestSuite::default(),
        precept::model::Settings::default(),
    )
    .unwrap();
    let out = support::precept(&["lint", project.path().to_str().unwrap(), "--json"]);
    let json: Value = serde_json::from_str(&support::stdout(&out)).unwrap();
    let repeats: Vec<&Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| matches!(d["code"].as_str(), Some("L120" | "L121" | "L203")))
        .collect();
    assert_eq!(repeats.len(), 2, "{repeats:#?}");
    assert!(
        repeats.iter().any(|d| d["code"] == "L120"),
        "the copy is a duplicate"
    );
    let (_, json) = lint(&[]);
    let mut seen = std::collections::HashSet::new();
    for d in json.as_array().unwrap() {
        if !matches!(d["code"].as_str(), Some("L120" | "L121" | "L203")) {
            continue;
        }
        let mut rules: Vec<String> = d["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect();
        rules.sort();
        assert!(seen.insert(rules.clone()), "{rules:?} reported twice");
    }
}

//! `precept report`: the self-contained HTML report, through the real
//! binary and Z3, parsed as a document (it is well-formed, so a strict
//! parser reads it) and checked for what a reader relies on.

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::Path;
use support::{copy_sample, precept, stderr};

const HOSTILE: &str = "<script>alert('x')</script><img src=\"https://evil.example/x.png\">";
const UNREPAIRED_R7: &str =
    "(=> (and didFlightOperate (not didPassengerTravel)) (not isRefundEligible))";

fn edit_model(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let path = dir.join("model.json");
    let mut model: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut model);
    fs::write(&path, serde_json::to_string_pretty(&model).unwrap()).unwrap();
}

fn rule_mut<'a>(model: &'a mut Value, id: &str) -> &'a mut Value {
    model["rules"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["id"] == id)
        .unwrap()
}

fn ok(args: &[&str]) {
    let out = precept(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
}

fn parse(html: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse_with_options(
        html,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("the report is not well-formed: {e}"))
}

fn text(node: roxmltree::Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap_or(""))
        .collect()
}

fn by_id<'a>(doc: &'a roxmltree::Document, id: &str) -> roxmltree::Node<'a, 'a> {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element with id {id}"))
}

fn has_class(node: roxmltree::Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

/// The airline sample with hostile text in its title, a description and a
/// note; version 1 frozen and signed; then the vetting repair of R7 undone
/// in the draft.
fn airline_project() -> tempfile::TempDir {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    edit_model(dir, |m| {
        m["title"] = Value::String(format!("Refunds {HOSTILE}"));
        m["variables"][0]["description"] = Value::String(HOSTILE.into());
        rule_mut(m, "R9")["note"] = Value::String(HOSTILE.into());
    });
    let d = dir.to_str().unwrap();
    ok(&["version", d, "--note", "vetted"]);
    ok(&[
        "sign",
        &format!("{d}@1"),
        "--reviewer",
        "Ana Ruiz",
        "--role",
        "counsel",
        "--no-key",
    ]);
    edit_model(dir, |m| {
        rule_mut(m, "R7")["expression"] = Value::String(UNREPAIRED_R7.into());
    });
    project
}

/// `precept report DIR --out DIR/out.html --max-mutants 30 EXTRA…`.
fn run_report(dir: &Path, extra: &[&str]) -> std::process::Output {
    let out_file = dir.join("out").with_extension("html");
    let mut args = vec![
        "report",
        dir.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
        "--max-mutants",
        "30",
    ];
    args.extend_from_slice(extra);
    precept(&args)
}

fn report(dir: &Path, extra: &[&str]) -> String {
    let out_file = dir.join("out").with_extension("html");
    let out = run_report(dir, extra);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("report: wrote {}", out_file.display())),
        "{}",
        stderr(&out)
    );
    fs::read_to_string(out_file).unwrap()
}

#[test]
fn the_report_shows_document_rules_figures_versions_and_the_diff() {
    let project = airline_project();
    let dir = project.path();
    let html = report(dir, &["--graph-rule", "R9"]);
    let doc = parse(&html);

    // Each rule in SMT-LIB and English with its review status.
    let r9 = by_id(&doc, "rule-R9");
    let r9_text = text(r9);
    assert!(
        r9_text.contains("(=> (= disruptionReason DENIED_BOARDING) isRefundEligible)"),
        "{r9_text}"
    );
    assert!(r9_text.contains("approved"), "{r9_text}");
    let english = r9
        .descendants()
        .find(|n| has_class(*n, "english"))
        .map(text)
        .unwrap();
    assert!(english.to_lowercase().contains("denied"), "{english}");
    let r7 = text(by_id(&doc, "rule-R7"));
    assert!(r7.contains(UNREPAIRED_R7), "the draft's text: {r7}");
    let rules = by_id(&doc, "rules");
    assert_eq!(
        rules
            .descendants()
            .filter(|n| has_class(*n, "rule"))
            .count(),
        28,
        "every rule of the airline model"
    );

    // The document: R9's span is marked by R9 and, tested, as tested.
    let document = by_id(&doc, "document");
    let span = document
        .descendants()
        .filter(|n| has_class(*n, "span"))
        .find(|n| {
            n.descendants()
                .any(|a| a.attribute("href") == Some("#rule-R9"))
        })
        .expect("a span marked by R9");
    assert!(has_class(span, "tested") || has_class(span, "partly-tested"));
    assert!(
        document
            .descendants()
            .any(|n| has_class(n, "span") && has_class(n, "unformalized")),
        "some text no rule formalizes"
    );

    // Figures: the coverage and the mutation score, as the CLI writes them.
    let quality = text(by_id(&doc, "quality"));
    assert!(quality.contains("Rules touched by a test"), "{quality}");
    assert!(quality.contains("on a sample of 30"), "{quality}");
    assert!(quality.contains("L203 redundant-rule"), "{quality}");

    // Three pictures, drawn inline; the graph around R9 links to its rules.
    let svgs: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("svg"))
        .collect();
    assert_eq!(svgs.len(), 3);
    let graph = by_id(&doc, "graph");
    let linked: Vec<&str> = graph
        .descendants()
        .filter_map(|n| n.attribute("href"))
        .collect();
    assert!(
        linked.contains(&"#rule-R9") && linked.len() > 1,
        "{linked:?}"
    );

    // Tests: 26 logic tests, the denied-boarding one failing on the draft.
    let tests = text(by_id(&doc, "tests"));
    assert!(tests.contains("of 26 logic test(s) pass"), "{tests}");

    // Versions and sign-offs with their check status.
    let versions = text(by_id(&doc, "versions"));
    assert!(
        versions.contains("v1") && versions.contains("vetted"),
        "{versions}"
    );
    assert!(
        versions.contains("Ana Ruiz") && versions.contains("counsel"),
        "{versions}"
    );
    assert!(
        versions.contains("unsigned, content unchanged"),
        "{versions}"
    );
    assert!(
        versions.contains("The draft started from v1; changed since: model.json"),
        "{versions}"
    );

    // The diff against version 1: R7's change of meaning, the flipped test,
    // the denied-boarding scenario.
    let diff = by_id(&doc, "diff");
    let diff_text = text(diff);
    assert!(diff_text.contains("meaning changed"), "{diff_text}");
    assert!(
        diff_text.contains("T1"),
        "the denied-boarding test flips: {diff_text}"
    );
    assert!(diff_text.contains("DENIED_BOARDING"), "{diff_text}");
}

#[test]
fn the_report_is_self_contained_and_escapes_every_text() {
    let project = airline_project();
    let html = report(project.path(), &["--no-mutation"]);
    let doc = parse(&html);
    for tag in ["script", "link", "img", "iframe", "object", "embed"] {
        assert!(
            !doc.descendants().any(|n| n.has_tag_name(tag)),
            "no <{tag}> element"
        );
    }
    assert!(!html.contains("<script"), "no script, not even inline");
    assert!(
        !html.contains("@import") && !html.contains("url("),
        "no style sheet fetches"
    );
    for node in doc.descendants() {
        for attribute in node.attributes() {
            assert!(
                !attribute.name().starts_with("on") && attribute.name() != "src",
                "no handler or fetched source: {}",
                attribute.name()
            );
            let value = attribute.value();
            assert!(
                !value.contains("http://") && !value.contains("https://"),
                "no link to the network: {}={value}",
                attribute.name()
            );
        }
    }
    // The hostile text is there, as text.
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("h1"))
        .map(text)
        .unwrap();
    assert_eq!(
        title,
        "Refunds <script>alert('x')</script><img src=\"https://evil.example/x.png\">"
    );
    let note = text(by_id(&doc, "rule-R9"));
    assert!(note.contains("note: <script>alert('x')</script>"), "{note}");
    // Printing: the style sheet has print rules.
    let style = doc
        .descendants()
        .find(|n| n.has_tag_name("style"))
        .map(text)
        .unwrap();
    assert!(style.contains("@media print"));
}

#[test]
fn probe_results_are_shown_and_a_bad_probe_file_is_a_clear_error() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let probe = dir.join("probe.json");
    fs::write(
        &probe,
        serde_json::json!({
            "asked": 2, "discarded": 0,
            "results": [
                {"id": "Q1", "kind": "decided", "question": "Is a denied-boarding passenger refunded?",
                 "expected": "yes", "answer": "No.", "finding": "INVALID", "verdict": "hallucination",
                 "rules": ["R9"], "follow_ups": []},
                {"id": "Q2", "kind": "decided", "question": "Is a no-show refunded?",
                 "expected": "no", "answer": "No.", "finding": "VALID", "verdict": "correct",
                 "rules": ["R7"], "follow_ups": []}
            ],
            "rates": {
                "hallucination": {"count": 1, "of": 2, "rate": 0.5, "low": 0.09, "high": 0.91},
                "incomplete": {"count": 0, "of": 2, "rate": 0.0, "low": 0.0, "high": 0.66},
                "inconsistent": {"count": 0, "of": 2, "rate": 0.0, "low": 0.0, "high": 0.66}
            },
            "by_rule": {}, "by_kind": {}
        })
        .to_string(),
    )
    .unwrap();
    let html = report(dir, &["--no-mutation", "--probe", probe.to_str().unwrap()]);
    let doc = parse(&html);
    let section = text(by_id(&doc, "probe"));
    assert!(
        section.contains("Is a denied-boarding passenger refunded?"),
        "{section}"
    );
    assert!(
        section.contains("hallucination") && section.contains("50.0%"),
        "{section}"
    );
    assert!(section.contains("1 of 2"), "{section}");
    // No versions yet: said, not an error.
    assert!(text(by_id(&doc, "diff")).contains("no previous version"));

    fs::write(&probe, "{\"asked\": 2,\n  \"results\": [}").unwrap();
    let out_file = dir.join("never.html");
    let out = precept(&[
        "report",
        dir.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
        "--probe",
        probe.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.contains("probe.json:2:"), "{message}");
    assert!(message.contains("precept probe --json"), "{message}");
    assert!(!out_file.exists(), "nothing written");

    let out = precept(&[
        "report",
        dir.to_str().unwrap(),
        "--graph-rule",
        "R999",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("R999"), "{}", stderr(&out));
}

/// When the report's budget has run out, the diff against the previous
/// version is not started: the report and stderr say it was left, `--strict`
/// fails, and a report with time for it shows the diff.
#[test]
fn a_spent_budget_leaves_the_diff_and_says_so() {
    let project = airline_project();
    let dir = project.path();
    let out_file = dir.join("out.html");
    let run = |extra: &[&str]| run_report(dir, &[&["--recompute"], extra].concat());
    let cut = run(&["--budget-s", "0.001"]);
    let err = stderr(&cut);
    assert_eq!(cut.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ran out: the diff against the previous version (skipped, not passed)"),
        "{err}"
    );
    let html = fs::read_to_string(&out_file).unwrap();
    let doc = parse(&html);
    let diff = text(by_id(&doc, "diff"));
    assert!(
        diff.contains("not computed: the report's budget ran out before it"),
        "{diff}"
    );

    let strict = run(&["--budget-s", "0.001", "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));

    let whole = run(&[]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let html = fs::read_to_string(&out_file).unwrap();
    let diff = text(by_id(&parse(&html), "diff"));
    assert!(!diff.contains("not computed"), "{diff}");
    assert!(
        diff.contains("R7"),
        "the diff names the edited rule: {diff}"
    );
}

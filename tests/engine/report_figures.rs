//! `precept report` reuses the quality figures that earlier runs filed for
//! exactly the same model, tests and settings (`precept lint`, `test`,
//! `coverage` and `report` file them in `.cache/figures/`), computes them
//! again after any change, and never trusts a damaged entry. Through the
//! real binary and Z3.

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::Path;
use support::{copy_sample, precept, set_rule, stderr};

const FIGURES: [&str; 4] = ["lint", "tests", "rule coverage", "mutation score"];

fn ok(args: &[&str]) -> String {
    let out = precept(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stderr(&out)
}

/// Runs the report (30 mutants) and gives its progress lines and HTML.
fn report(dir: &Path, extra: &[&str]) -> (String, String) {
    let out_file = dir.join("report.html");
    let d = dir.to_str().unwrap();
    let mut args = vec!["report", d, "--out", out_file.to_str().unwrap()];
    if !extra.contains(&"--max-mutants") {
        args.extend_from_slice(&["--max-mutants", "30"]);
    }
    args.extend_from_slice(extra);
    let progress = ok(&args);
    (progress, fs::read_to_string(out_file).unwrap())
}

fn reused(progress: &str, figure: &str) -> bool {
    progress.contains(&format!("report: {figure}: reused, computed "))
}

fn computed(progress: &str, figure: &str) -> bool {
    progress.contains(&format!("report: {figure}…"))
}

/// The report's text between two markers, without the tags.
fn section(html: &str, id: &str) -> String {
    let start = html
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = start + html[start..].find("</section>").unwrap();
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// The Quality section without the line saying when its figures were computed.
fn quality_results(html: &str) -> String {
    let text = section(html, "quality");
    let start = text.find("Lint: computed").expect("the provenance line");
    let end = start + text[start..].find("Coverage per section").unwrap();
    format!("{}{}", &text[..start], &text[end..])
}

#[test]
fn a_second_report_reuses_every_figure_and_shows_the_same_results() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let (first, first_html) = report(dir, &[]);
    for figure in FIGURES {
        assert!(computed(&first, figure), "{figure} computed: {first}");
        assert!(!reused(&first, figure), "{first}");
    }
    assert!(first_html.contains("Lint: computed 20"), "provenance shown");
    assert!(!first_html.contains("by an earlier run"));

    let (second, second_html) = report(dir, &[]);
    for figure in FIGURES {
        assert!(reused(&second, figure), "{figure} reused: {second}");
    }
    assert!(
        !second.contains("starting the solver workers"),
        "nothing to compute, so no solver: {second}"
    );
    assert!(
        second_html.contains("by an earlier run"),
        "the reader is told"
    );
    assert_eq!(quality_results(&first_html), quality_results(&second_html));
    assert_eq!(
        section(&first_html, "tests"),
        section(&second_html, "tests")
    );
    assert_eq!(
        section(&first_html, "rules"),
        section(&second_html, "rules")
    );

    // Asked to, it computes everything again.
    let (again, _) = report(dir, &["--recompute"]);
    for figure in FIGURES {
        assert!(
            computed(&again, figure) && !reused(&again, figure),
            "{again}"
        );
    }
}

#[test]
fn an_edit_or_another_deadline_makes_the_report_compute_the_figures_again() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let (_, before) = report(dir, &[]);
    let tests = section(&before, "tests");
    assert!(tests.contains("26 of 26 logic test(s) pass"), "{tests}");

    // The vetting repair of R7 undone: T1 and the tests that lean on R7 fail.
    set_rule(
        dir,
        "R7",
        "(=> (and didFlightOperate (not didPassengerTravel)) (not isRefundEligible))",
    );
    let (after_edit, html) = report(dir, &[]);
    for figure in FIGURES {
        assert!(
            computed(&after_edit, figure),
            "{figure} after an edit: {after_edit}"
        );
    }
    let tests = section(&html, "tests");
    assert!(tests.contains("16 of 26 logic test(s) pass"), "{tests}");
    assert!(tests.contains("failT1Denied boarding"), "{tests}");

    // The same model with another solver deadline: computed again too.
    let (other_deadline, _) = report(dir, &["--timeout-ms", "9000"]);
    for figure in FIGURES {
        assert!(computed(&other_deadline, figure), "{other_deadline}");
    }
}

#[test]
fn figures_from_lint_test_and_coverage_are_reused_by_the_report() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let d = dir.to_str().unwrap();
    ok(&["lint", d]);
    // A filtered run is not the suite: it files nothing.
    ok(&["test", d, "--filter", "T1"]);
    ok(&["coverage", d, "--max-mutants", "30"]);
    let (progress, _) = report(dir, &[]);
    assert!(reused(&progress, "lint"), "{progress}");
    assert!(computed(&progress, "tests"), "{progress}");
    assert!(reused(&progress, "rule coverage"), "{progress}");
    assert!(reused(&progress, "mutation score"), "{progress}");

    ok(&["test", d]);
    let (progress, _) = report(dir, &[]);
    for figure in FIGURES {
        assert!(reused(&progress, figure), "{figure}: {progress}");
    }
    // Another mutant sample is another figure.
    let (progress, _) = report(dir, &["--max-mutants", "5"]);
    assert!(computed(&progress, "mutation score"), "{progress}");
}

#[test]
fn a_damaged_figure_is_computed_again_and_replaced() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let (_, first) = report(dir, &[]);
    let folder = dir.join(".cache").join("figures");
    let entries: Vec<_> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 4, "{entries:?}");
    for (i, path) in entries.iter().enumerate() {
        let garbage: &[u8] = match i % 3 {
            0 => b"{\"computed\": 3",
            1 => &[0xff, 0xfe, 0x00, 0x01],
            _ => b"{\"computed\":\"2026-01-01T00:00:00Z\",\"value\":{\"oops\":true}}",
        };
        fs::write(path, garbage).unwrap();
    }
    let (progress, html) = report(dir, &[]);
    for figure in FIGURES {
        assert!(computed(&progress, figure), "{figure}: {progress}");
    }
    assert_eq!(quality_results(&first), quality_results(&html));
    for path in entries {
        let text = fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(&text).expect("replaced by a good entry");
        assert!(value["computed"].is_string(), "{text}");
    }
}

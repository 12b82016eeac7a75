//! The report's sections other than the document: the rules, lint, tests,
//! probe results, versions and sign-offs, and the semantic diff. Each
//! returns HTML; every piece of project text is escaped.

use super::html::{anchor, badge, esc, rule_link, table};
use super::quality::{LintRow, MutationSummary, TestRow};
use crate::lifecycle::LifecycleError;
use crate::lifecycle::behaviour::Relation;
use crate::lifecycle::diff::{ModelDiff, TestKind};
use crate::lifecycle::signoff::{CheckStatus, Checked};
use crate::lifecycle::versions::{DraftState, VersionManifest};
use crate::lint::Severity;
use crate::model::finding::Scenario;
use crate::model::{AnswerTest, CompiledModel, PolicyModel, ReviewStatus};
use crate::testgen::coverage::CoverageReport;
use crate::testgen::report_text::percent_text;
use std::collections::HashMap;
use std::fmt::Write;

fn review_badge(status: ReviewStatus) -> String {
    let kind = match status {
        ReviewStatus::Approved => "ok",
        ReviewStatus::NeedsChange => "bad",
        ReviewStatus::Unreviewed => "warn",
    };
    badge(kind, status.label())
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "—".into()
    } else {
        ids.iter().map(|t| esc(t)).collect::<Vec<_>>().join(", ")
    }
}

/// Each rule in SMT-LIB and English with its review status, the tests that
/// touch it and the lint findings naming it.
pub fn rules(
    model: &PolicyModel,
    compiled: &CompiledModel,
    coverage: &CoverageReport,
    diagnostics: &[LintRow],
) -> String {
    let touched: HashMap<&str, &Vec<String>> = coverage
        .rules
        .iter()
        .map(|r| (r.id.as_str(), &r.touched_by))
        .collect();
    let mut findings: HashMap<&str, usize> = HashMap::new();
    for d in diagnostics {
        for r in &d.rules {
            *findings.entry(r.as_str()).or_default() += 1;
        }
    }
    let mut out = String::with_capacity(model.rules.len() * 600);
    for rule in &model.rules {
        let english = compiled
            .rule(&rule.id)
            .map(|r| compiled.glossary.sentence(&r.written))
            .unwrap_or_default();
        let tests = touched
            .get(rule.id.as_str())
            .map_or(&[][..], |t| t.as_slice());
        let _ = write!(
            out,
            "<article class=\"rule\" id=\"{}\"><h3>{} {}</h3>\
             <p class=\"english\">{}</p><pre class=\"smtlib\">{}</pre>\
             <p class=\"rule-facts\">Tests: {}{}{}</p></article>",
            anchor("rule", &rule.id),
            esc(&rule.id),
            review_badge(rule.review),
            esc(&english),
            esc(&rule.expression),
            if tests.is_empty() {
                badge("warn", "no test exercises this rule")
            } else {
                list(tests)
            },
            match findings.get(rule.id.as_str()) {
                Some(n) => format!(" · {}", badge("warn", &format!("{n} lint finding(s)"))),
                None => String::new(),
            },
            if rule.note.is_empty() {
                String::new()
            } else {
                format!(" · note: {}", esc(&rule.note))
            },
        );
    }
    out
}

fn severity_badge(severity: Severity) -> String {
    match severity {
        Severity::Error => badge("bad", "error"),
        Severity::Warning => badge("warn", "warning"),
        Severity::Info => badge("info", "note"),
    }
}

/// The lint diagnostics, one row each.
pub fn lint(diagnostics: &[LintRow]) -> String {
    if diagnostics.is_empty() {
        return format!("<p>{}</p>", badge("ok", "no lint findings"));
    }
    let rows: Vec<Vec<String>> = diagnostics
        .iter()
        .map(|d| {
            vec![
                severity_badge(d.severity),
                format!("{} {}", esc(&d.code), esc(&d.name)),
                d.rules
                    .iter()
                    .map(|r| rule_link(r))
                    .collect::<Vec<_>>()
                    .join(" "),
                esc(&d.message),
            ]
        })
        .collect();
    table("lint", &["severity", "check", "rules", "message"], &rows)
}

/// The logic tests that count with their outcomes, how many proposed ones
/// wait for review, then the natural-language tests.
pub fn tests(outcomes: &[TestRow], proposed: usize, nl_tests: &[AnswerTest]) -> String {
    let passed = outcomes.iter().filter(|o| o.passed).count();
    let mut out = format!(
        "<p>{} of {} logic test(s) pass.{}</p>",
        passed,
        outcomes.len(),
        if proposed > 0 {
            format!(" {proposed} proposed test(s) wait for review and are not counted.")
        } else {
            String::new()
        }
    );
    if !outcomes.is_empty() {
        let rows: Vec<Vec<String>> = outcomes
            .iter()
            .map(|o| {
                let actual = match (o.actual, &o.error) {
                    (Some(k), _) => esc(k.name()),
                    (None, Some(e)) => esc(e),
                    (None, None) => "not decided".into(),
                };
                vec![
                    if o.passed {
                        badge("ok", "pass")
                    } else {
                        badge("bad", "fail")
                    },
                    esc(&o.id),
                    esc(&o.name),
                    esc(o.expected.name()),
                    actual,
                ]
            })
            .collect();
        out += &table("tests", &["", "id", "name", "expected", "finding"], &rows);
    }
    if !nl_tests.is_empty() {
        let _ = write!(
            out,
            "<h3>Natural-language tests</h3><p>{} question(s) with an answer to check; \
             they are run with an LLM (<code>precept test</code>), so their expected findings are shown here.</p>",
            nl_tests.len()
        );
        let rows: Vec<Vec<String>> = nl_tests
            .iter()
            .map(|t| {
                vec![
                    esc(&t.id),
                    esc(&t.question),
                    esc(&t.answer),
                    esc(t.expected.name()),
                ]
            })
            .collect();
        out += &table("nl-tests", &["id", "question", "answer", "expected"], &rows);
    }
    out
}

/// The coverage totals and the mutation score, as the CLI writes them.
pub fn figures(coverage: &CoverageReport, mutation: Option<&MutationSummary>) -> String {
    let t = &coverage.totals;
    let mut out = String::from("<dl class=\"figures\">");
    let _ = write!(
        out,
        "<dt>Rules touched by a test</dt><dd>{} of {} ({})</dd>\
         <dt>Antecedent true in a test</dt><dd>{} ({})</dd>\
         <dt>Antecedent false in a test</dt><dd>{} of {} with an antecedent ({})</dd>\
         <dt>Covered both ways</dt><dd>{} ({})</dd>",
        t.touched,
        t.rules,
        percent_text(t.touched_percent),
        t.antecedent_true,
        percent_text(t.antecedent_true_percent),
        t.antecedent_false,
        t.rules_with_antecedent,
        percent_text(t.antecedent_false_percent),
        t.covered,
        percent_text(t.covered_percent),
    );
    let _ = write!(
        out,
        "<dt>Mutation score</dt><dd>{}</dd></dl>",
        match mutation {
            Some(m) => esc(&m.summary),
            None => "not computed".into(),
        }
    );
    if !coverage.over_budget.is_empty() {
        let _ = write!(
            out,
            "<p class=\"note\">Not evaluated within the budget: the coverage checks of {} of {} tests (skipped, not passed); the figures above leave them out.</p>",
            coverage.over_budget.len(),
            coverage.tests_used.len()
        );
    }
    for skipped in &coverage.skipped_tests {
        let _ = write!(
            out,
            "<p class=\"note\">Test {} left out of coverage: {}</p>",
            esc(&skipped.id),
            esc(&skipped.reason)
        );
    }
    out
}

/// The probe's rates and each answer's verdict, from the JSON of
/// `precept probe --json`.
pub fn probe(report: &serde_json::Value) -> String {
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => esc(s),
        serde_json::Value::Null => String::new(),
        other => esc(&other.to_string()),
    };
    let mut out = format!(
        "<p>{} answer(s) judged, {} question(s) discarded by the round trip.</p>",
        text(&report["asked"]),
        text(&report["discarded"])
    );
    let rates: Vec<Vec<String>> = ["hallucination", "incomplete", "inconsistent"]
        .iter()
        .map(|name| {
            let rate = &report["rates"][name];
            let share = rate["rate"].as_f64().map(|r| percent_text(r * 100.0));
            let interval = match (rate["low"].as_f64(), rate["high"].as_f64()) {
                (Some(l), Some(h)) => {
                    format!("{} – {}", percent_text(l * 100.0), percent_text(h * 100.0))
                }
                _ => String::new(),
            };
            vec![
                esc(name),
                format!("{} of {}", text(&rate["count"]), text(&rate["of"])),
                esc(&share.unwrap_or_default()),
                esc(&interval),
            ]
        })
        .collect();
    out += &table(
        "probe-rates",
        &["rate", "answers", "share", "95% interval"],
        &rates,
    );
    let results: Vec<Vec<String>> = report["results"]
        .as_array()
        .map(|r| r.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let verdict = r["verdict"].as_str().unwrap_or("");
            let kind = if verdict == "correct" { "ok" } else { "bad" };
            vec![
                text(&r["id"]),
                text(&r["question"]),
                text(&r["expected"]),
                text(&r["answer"]),
                badge(kind, verdict),
            ]
        })
        .collect();
    out += &table(
        "probe-results",
        &["id", "question", "expected", "answer", "verdict"],
        &results,
    );
    out
}

/// The versions, where the draft stands, and each sign-off checked.
pub fn versions(
    versions: &[VersionManifest],
    draft: Option<&DraftState>,
    signoffs: &Result<Vec<Checked>, LifecycleError>,
) -> String {
    let mut out = String::new();
    if versions.is_empty() {
        out += "<p>No version has been frozen (<code>precept version DIR</code>).</p>";
    } else {
        let rows: Vec<Vec<String>> = versions
            .iter()
            .map(|v| {
                vec![
                    format!("v{}", v.version),
                    esc(&v.created),
                    esc(&v.note),
                    format!("<code>{}</code>", esc(&v.sha256)),
                ]
            })
            .collect();
        out += &table("versions", &["version", "frozen", "note", "SHA-256"], &rows);
    }
    if let Some(DraftState {
        base: Some(base),
        changed,
    }) = draft
    {
        let _ = write!(
            out,
            "<p>The draft started from v{base}; {}.</p>",
            if changed.is_empty() {
                "it has not changed since".to_string()
            } else {
                format!("changed since: {}", list(changed))
            }
        );
    }
    match signoffs {
        Err(e) => {
            out += &format!(
                "<p>{} {}</p>",
                badge("bad", "sign-offs not checked"),
                esc(&e.to_string())
            )
        }
        Ok(list_) if list_.is_empty() => out += "<p>No sign-offs.</p>",
        Ok(checked) => {
            let rows: Vec<Vec<String>> = checked
                .iter()
                .map(|c| {
                    let r = &c.record;
                    let status = match &c.status {
                        CheckStatus::Valid => badge("ok", "valid signature"),
                        CheckStatus::Unsigned => badge("info", "unsigned, content unchanged"),
                        CheckStatus::BadSignature => badge("bad", "bad signature"),
                        CheckStatus::Broken { changed } => {
                            format!("{} changed: {}", badge("bad", "broken"), list(changed))
                        }
                    };
                    vec![
                        format!("v{}", r.version),
                        esc(&r.reviewer),
                        esc(&r.role),
                        esc(&r.timestamp),
                        esc(&r.note),
                        status,
                    ]
                })
                .collect();
            out += &table(
                "signoffs",
                &["version", "reviewer", "role", "when", "note", "check"],
                &rows,
            );
        }
    }
    out
}

fn scenario_table(scenario: &Scenario) -> String {
    let rows: Vec<Vec<String>> = scenario
        .values
        .iter()
        .map(|(name, value)| vec![esc(name), esc(&value.to_string())])
        .collect();
    table("scenario", &["variable", "value"], &rows)
}

/// The semantic diff: behaviour, distinguishing scenarios, rules, flips.
pub fn diff(d: &ModelDiff) -> String {
    let relation = match d.relation {
        Relation::Equivalent => badge("ok", "equivalent: both allow the same scenarios"),
        Relation::AStronger => badge(
            "warn",
            "the older model is strictly stronger (allows fewer scenarios)",
        ),
        Relation::BStronger => badge(
            "warn",
            "the newer model is strictly stronger (allows fewer scenarios)",
        ),
        Relation::DifferBothWays => badge("bad", "they differ both ways"),
        Relation::Unknown => badge("info", "not decided by the solver"),
    };
    let mut out = format!(
        "<p>From <code>{}</code> to <code>{}</code>: {relation}</p>",
        esc(&d.a),
        esc(&d.b)
    );
    for note in &d.notes {
        let _ = write!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    for (title, scenario) in [
        ("Allowed before, not now", &d.a_allows_not_b),
        ("Allowed now, not before", &d.b_allows_not_a),
    ] {
        if let Some(s) = scenario {
            let _ = write!(out, "<h3>{title}</h3>{}", scenario_table(s));
        }
    }
    let r = &d.rules;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for id in &r.added {
        rows.push(vec![
            rule_link(id),
            badge("info", "added"),
            String::new(),
            String::new(),
        ]);
    }
    for id in &r.removed {
        rows.push(vec![
            esc(id),
            badge("info", "removed"),
            String::new(),
            String::new(),
        ]);
    }
    for c in &r.changed {
        let verdict = match c.meaning_changed {
            Some(true) => badge("warn", "meaning changed"),
            Some(false) => badge("ok", "rewrite, same meaning"),
            None => badge("info", "not decided"),
        };
        rows.push(vec![
            rule_link(&c.text.id),
            verdict,
            format!(
                "<pre>{}</pre>{}",
                esc(&c.text.a_smtlib),
                esc(&c.text.a_english)
            ),
            format!(
                "<pre>{}</pre>{}",
                esc(&c.text.b_smtlib),
                esc(&c.text.b_english)
            ),
        ]);
    }
    if rows.is_empty() {
        out += "<p>No rule was added, removed or changed.</p>";
    } else {
        out += &table("rule-changes", &["rule", "change", "before", "now"], &rows);
    }
    if d.tests_flipped.is_empty() {
        out += "<p>No test changes its finding.</p>";
    } else {
        let kind =
            |k: Option<crate::solve::FindingKind>| esc(k.map_or("does not run", |k| k.name()));
        let rows: Vec<Vec<String>> = d
            .tests_flipped
            .iter()
            .map(|t| {
                vec![
                    esc(&t.id),
                    esc(&t.name),
                    match t.kind {
                        TestKind::Logic => "logic".into(),
                        TestKind::NaturalLanguage => "natural-language".into(),
                    },
                    kind(t.a),
                    kind(t.b),
                    esc(t.expected.name()),
                ]
            })
            .collect();
        out += &format!(
            "<h3>Tests whose finding changes</h3>{}",
            table(
                "tests-flipped",
                &["id", "name", "test", "before", "now", "expected"],
                &rows
            )
        );
    }
    out
}

//! The report for people who do not use a terminal (`precept report`): one
//! self-contained HTML file, no scripts, fonts or requests, readable when
//! printed. `figures.rs` computes what it shows with the core's own
//! definitions; `document_view.rs` marks the document; `pictures.rs` draws
//! the SVG; `sections.rs` writes the other sections; `html.rs` escapes.

pub mod document_view;
pub mod figures;
pub mod figures_cache;
pub mod html;
pub mod pictures;
pub mod quality;
pub mod sections;

use crate::lint::Severity;
use crate::model::{CompiledModel, Project};
use crate::testgen::coverage::rule_graph;
use document_view::{Exercised, marked_document};
use figures::Figures;
use html::esc;
use pictures::{Bar, GraphRule, bar_chart, coverage_bars, rule_variable_graph};
use std::collections::HashMap;
use std::fmt::Write;

/// How many rules the rule↔variable graph draws at most.
pub const GRAPH_RULES: usize = 12;

/// The rules of the graph: `focus` (or, without one, the first rule a lint
/// finding names, else the first rule) and the rules sharing a variable
/// with it, at most [`GRAPH_RULES`].
pub fn graph_part(
    project: &Project,
    compiled: &CompiledModel,
    figures: &Figures,
    focus: Option<&str>,
) -> Vec<GraphRule> {
    let model = &project.model;
    let focus = focus
        .filter(|id| model.rule(id).is_some())
        .or_else(|| {
            figures
                .quality
                .lint
                .value
                .iter()
                .flat_map(|d| d.rules.iter())
                .find(|id| model.rule(id).is_some())
                .map(String::as_str)
        })
        .or_else(|| model.rules.first().map(|r| r.id.as_str()));
    let Some(focus) = focus else {
        return Vec::new();
    };
    let graph = rule_graph(compiled);
    let mut ids = vec![focus.to_string()];
    for variable in graph.variables_of(focus) {
        for id in graph.rules_using(&variable) {
            if ids.len() < GRAPH_RULES && !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    let touched: HashMap<&str, bool> = figures
        .quality
        .coverage
        .value
        .rules
        .iter()
        .map(|r| (r.id.as_str(), r.touched))
        .collect();
    ids.into_iter()
        .map(|id| GraphRule {
            tested: touched.get(id.as_str()).copied().unwrap_or(false),
            variables: graph.variables_of(&id),
            id,
        })
        .collect()
}

fn findings_bars(figures: &Figures) -> Vec<Bar> {
    let mut bars: Vec<Bar> = Vec::new();
    for d in &figures.quality.lint.value {
        let label = format!("{} {}", d.code, d.name);
        match bars.iter_mut().find(|b| b.label == label) {
            Some(bar) => bar.count += 1,
            None => bars.push(Bar {
                label,
                count: 1,
                kind: match d.severity {
                    Severity::Error => "bad",
                    Severity::Warning => "warn",
                    Severity::Info => "info",
                },
            }),
        }
    }
    let outcomes = &figures.quality.tests.value;
    let passed = outcomes.iter().filter(|o| o.passed).count();
    bars.push(Bar {
        label: "tests passing".into(),
        count: passed,
        kind: "ok",
    });
    bars.push(Bar {
        label: "tests failing".into(),
        count: outcomes.len() - passed,
        kind: "bad",
    });
    bars
}

/// When each quality figure was computed, and whether an earlier run did.
fn provenance(quality: &quality::Quality) -> String {
    let mut lines = vec![
        ("Lint", quality.lint.provenance()),
        ("Tests", quality.tests.provenance()),
        ("Rule coverage", quality.coverage.provenance()),
    ];
    if let Some(m) = &quality.mutation {
        lines.push(("Mutation score", m.provenance()));
    }
    let items: Vec<String> = lines
        .into_iter()
        .map(|(what, how)| format!("{what}: {}", esc(&how)))
        .collect();
    format!("<p class=\"note provenance\">{}.</p>", items.join("; "))
}

/// The whole report as one HTML page. `focus` picks the rule whose part of
/// the model the graph draws.
pub fn render(
    project: &Project,
    compiled: &CompiledModel,
    figures: &Figures,
    focus: Option<&str>,
) -> String {
    let model = &project.model;
    let quality = &figures.quality;
    let exercised: HashMap<&str, Exercised> = quality
        .coverage
        .value
        .rules
        .iter()
        .map(|r| {
            (
                r.id.as_str(),
                Exercised {
                    touched: r.touched,
                    covered: r.covered(),
                },
            )
        })
        .collect();
    let title = if model.title.is_empty() {
        project.dir.display().to_string()
    } else {
        model.title.clone()
    };
    let (document, section_bars) = match &project.document {
        Some(text) => marked_document(text, &model.rules, &exercised),
        None => (
            "<p>The project has no policy document.</p>".to_string(),
            marked_document("", &model.rules, &exercised).1,
        ),
    };
    let mut out = String::with_capacity(model.rules.len() * 1500 + 20_000);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <title>{t} — policy model report</title><style>{STYLE}</style></head><body>\
         <header><h1>{t}</h1><p class=\"meta\">Policy model report made {g} from <code>{dir}</code>: \
         {rules} rule(s), {vars} variable(s), {tests} logic test(s).</p></header>\
         <nav><a href=\"#quality\">Quality</a> <a href=\"#document\">Document</a> \
         <a href=\"#graph\">Graph</a> <a href=\"#rules\">Rules</a> <a href=\"#tests\">Tests</a> \
         <a href=\"#probe\">Probe</a> <a href=\"#versions\">Versions</a> <a href=\"#diff\">Changes</a></nav>",
        t = esc(&title),
        g = esc(&figures.generated),
        dir = esc(&project.dir.display().to_string()),
        rules = model.rules.len(),
        vars = model.variables.len(),
        tests = project.tests.tests.len(),
    );
    let _ = write!(
        out,
        "<section id=\"quality\"><h2>Quality</h2>{}{}<h3>Coverage per section</h3>\
         <p class=\"legend\"><span class=\"key bar-covered\"></span> covered both ways \
         <span class=\"key bar-touched\"></span> touched by a test \
         <span class=\"key bar-none\"></span> no test</p>{}\
         <h3>Findings</h3>{}<h3>Lint</h3>{}</section>",
        sections::figures(
            &quality.coverage.value,
            quality.mutation.as_ref().map(|m| &m.value)
        ),
        provenance(quality),
        coverage_bars(&section_bars),
        bar_chart("Lint findings and test results", &findings_bars(figures)),
        sections::lint(&quality.lint.value),
    );
    let _ = write!(
        out,
        "<section id=\"document\"><h2>The policy document</h2>\
         <p class=\"legend\"><span class=\"span tested\">formalized, tested</span> \
         <span class=\"span partly-tested\">partly tested</span> \
         <span class=\"span untested\">formalized, no test</span> \
         <span class=\"span unformalized\">not formalized</span></p>{document}</section>"
    );
    let part = graph_part(project, compiled, figures, focus);
    let _ = write!(
        out,
        "<section id=\"graph\"><h2>Rules and variables</h2><p>Rule {} and the rules that share \
         a variable with it (at most {GRAPH_RULES}).</p>{}</section>",
        part.first().map_or(String::from("—"), |r| esc(&r.id)),
        rule_variable_graph(&part),
    );
    let _ = write!(
        out,
        "<section id=\"rules\"><h2>Rules</h2>{}</section>",
        sections::rules(
            model,
            compiled,
            &quality.coverage.value,
            &quality.lint.value
        )
    );
    let _ = write!(
        out,
        "<section id=\"tests\"><h2>Tests</h2>{}</section>",
        sections::tests(
            &quality.tests.value,
            project
                .tests
                .tests
                .iter()
                .filter(|t| !t.status.counts())
                .count(),
            &project.tests.nl_tests
        )
    );
    let _ = write!(
        out,
        "<section id=\"probe\"><h2>Probe of a chatbot</h2>{}</section>",
        match &figures.probe {
            Some(report) => sections::probe(report),
            None => "<p>No probe results were given (<code>precept probe --json</code>, \
                     then <code>precept report --probe FILE</code>).</p>"
                .into(),
        }
    );
    let h = &figures.history;
    let _ = write!(
        out,
        "<section id=\"versions\"><h2>Versions and sign-offs</h2>{}</section>",
        sections::versions(&h.versions, h.draft.as_ref(), &h.signoffs)
    );
    let _ = write!(
        out,
        "<section id=\"diff\"><h2>Changes since the previous version</h2>{}</section>",
        match &h.diff {
            Ok(d) => format!(
                "<p class=\"note\">The diff was {}.</p>{}",
                esc(&d.provenance()),
                d.value.html
            ),
            Err(why) => format!("<p>{}</p>", esc(&why.to_string())),
        }
    );
    out.push_str("</body></html>\n");
    out
}

/// The page's only style sheet, inline, with print rules.
const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1100px;padding:1em 2em;color:#1b1f24;background:#fff;line-height:1.45}\
h1{font-size:1.7em;margin-bottom:.2em}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:2em}\
.meta{color:#57606a}nav{position:sticky;top:0;background:#f6f8fa;padding:.4em .6em;border:1px solid #d0d7de;border-radius:6px}\
nav a{margin-right:1em}a{color:#0550ae}\
table{border-collapse:collapse;margin:.6em 0;width:100%;font-size:.92em}th,td{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}\
th{background:#f6f8fa}pre,code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.9em}\
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.4em;border-radius:4px;margin:.3em 0}\
.badge{display:inline-block;padding:0 .5em;border-radius:1em;font-size:.82em;font-weight:600;border:1px solid}\
.badge.ok{background:#dafbe1;color:#116329;border-color:#4ac26b}.badge.bad{background:#ffebe9;color:#a40e26;border-color:#ff8182}\
.badge.warn{background:#fff8c5;color:#7d4e00;border-color:#d4a72c}.badge.info{background:#ddf4ff;color:#0550ae;border-color:#54aeff}\
.document{border-left:3px solid #d0d7de;padding-left:1em}.span{padding:.15em .4em;border-radius:3px;margin:.3em 0}\
.span.tested{background:#dafbe1}.span.partly-tested{background:#fff8c5}.span.untested{background:#ffebe9}.span.unformalized{color:#57606a}\
.legend .span{display:inline-block;margin-right:.6em}.marks{font-size:.8em;white-space:nowrap}\
.rule{border:1px solid #d0d7de;border-radius:6px;padding:.3em .8em;margin:.6em 0;break-inside:avoid}.rule h3{margin:.3em 0;font-size:1.05em}\
.english{margin:.2em 0}.rule-facts{color:#57606a;font-size:.9em;margin:.2em 0}\
dl.figures{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}dd{margin:0}\
svg text{font-family:system-ui,sans-serif;font-size:12px;fill:#1b1f24}\
.bar-none{fill:#eaeef2}.bar-touched{fill:#8ddb8c}.bar-covered{fill:#1a7f37}\
.fill-bad{fill:#cf222e}.fill-warn{fill:#d4a72c}.fill-info{fill:#54aeff}.fill-ok{fill:#2da44e}\
.edge{stroke:#8c959f;stroke-width:1}.node-tested{fill:#dafbe1;stroke:#1a7f37}.node-untested{fill:#ffebe9;stroke:#cf222e}\
.node-variable{fill:#ddf4ff;stroke:#0550ae}\
.key{display:inline-block;width:1em;height:.8em;margin:0 .3em 0 .8em;vertical-align:middle}\
.key.bar-none{background:#eaeef2}.key.bar-touched{background:#8ddb8c}.key.bar-covered{background:#1a7f37}\
.note{color:#57606a;font-style:italic}\
@media print{nav{display:none}body{max-width:none;padding:0;font-size:10pt}\
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}h2{break-after:avoid}section{break-before:auto}\
table,svg,pre{break-inside:avoid}a{color:inherit;text-decoration:none}}";

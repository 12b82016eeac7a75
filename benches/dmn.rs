//! DMN benchmark: a generated decision table of 5,000 rows (three inputs:
//! a number band, an income band and a region from declared input values),
//! imported and linted, once with the UNIQUE hit policy (disjoint rows) and
//! once with FIRST plus a final catch-all row (which the encoding must
//! guard with the negation of every earlier row).
//!
//! Run: cargo bench --bench dmn

use precept::formats::dmn::{import_dmn, read_capped};
use precept::lint::syntactic;
use precept::model::compile;
use precept::solve::SolverWorker;
use precept::solve::lint_checks::LintEvent;
use std::fmt::Write;
use std::time::{Duration, Instant};

const REGIONS: [&str; 10] = [
    "North", "South", "East", "West", "Central", "Coast", "Hills", "Islands", "Lakes", "Plains",
];
const AGE_BANDS: usize = 20;
const INCOME_BANDS: usize = 25;

fn table(policy: &str, catch_all: bool) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" name=\"generated\" id=\"g\" namespace=\"urn:bench\">\n",
    );
    for (name, type_ref) in [
        ("Age", "number"),
        ("Income", "number"),
        ("Region", "string"),
    ] {
        let _ = writeln!(
            xml,
            "<inputData name=\"{name}\" id=\"{name}\"><variable name=\"{name}\" typeRef=\"{type_ref}\"/></inputData>"
        );
    }
    let regions: Vec<String> = REGIONS.iter().map(|r| format!("\"{r}\"")).collect();
    let _ = write!(
        xml,
        "<decision name=\"Offer\" id=\"offer\"><variable name=\"Offer\" typeRef=\"string\"/>\n<decisionTable hitPolicy=\"{policy}\">\n<input label=\"Age\"><inputExpression typeRef=\"number\"><text>Age</text></inputExpression></input>\n<input label=\"Income\"><inputExpression typeRef=\"number\"><text>Income</text></inputExpression></input>\n<input label=\"Region\"><inputExpression typeRef=\"string\"><text>Region</text></inputExpression><inputValues><text>{}</text></inputValues></input>\n<output><outputValues><text>\"Approve\", \"Review\", \"Decline\"</text></outputValues></output>\n",
        regions.join(", ")
    );
    let outputs = ["Approve", "Review", "Decline"];
    let mut row = 0;
    for region in REGIONS {
        for age in 0..AGE_BANDS {
            for income in 0..INCOME_BANDS {
                row += 1;
                let age_cell = if age + 1 == AGE_BANDS {
                    format!("&gt;= {}", age * 5)
                } else {
                    format!("[{}..{})", age * 5, (age + 1) * 5)
                };
                let income_cell = if income + 1 == INCOME_BANDS {
                    format!("&gt;= {}", income * 1000)
                } else {
                    format!("[{}..{})", income * 1000, (income + 1) * 1000)
                };
                let output = outputs[(age * 7 + income * 3 + region.len()) % 3];
                let _ = writeln!(
                    xml,
                    "<rule id=\"r{row}\"><inputEntry><text>{age_cell}</text></inputEntry><inputEntry><text>{income_cell}</text></inputEntry><inputEntry><text>\"{region}\"</text></inputEntry><outputEntry><text>\"{output}\"</text></outputEntry></rule>"
                );
            }
        }
    }
    if catch_all {
        xml.push_str("<rule id=\"otherwise\"><inputEntry><text>-</text></inputEntry><inputEntry><text>-</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>\"Review\"</text></outputEntry></rule>\n");
    }
    xml.push_str("</decisionTable></decision>\n</definitions>\n");
    xml
}

fn run(policy: &str, catch_all: bool) {
    let xml = table(policy, catch_all);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("generated.dmn");
    std::fs::write(&file, &xml).expect("write the table");

    let start = Instant::now();
    let source = read_capped(&file).expect("read");
    let imported = import_dmn(&source).expect("import");
    let import_time = start.elapsed();
    let start = Instant::now();
    let compiled = compile(&imported.model);
    let compile_time = start.elapsed();
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues.first());

    let start = Instant::now();
    let syntactic = syntactic::check(&imported.model, &compiled);
    let syntactic_time = start.elapsed();

    let worker = SolverWorker::spawn(Duration::from_secs(5));
    let (events, received) = std::sync::mpsc::channel();
    let start = Instant::now();
    worker.lint(compiled.clone(), events);
    let (mut found, mut checks, mut undecided) = (Vec::new(), 0, 0);
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => found.push(d.code),
            LintEvent::Progress { .. } => {}
            LintEvent::Finished {
                checks: c,
                undecided: u,
                ..
            } => {
                checks = c;
                undecided = u;
                break;
            }
        }
    }
    let solver_time = start.elapsed();
    let mut codes: Vec<String> = found.iter().map(|c| c.code().to_string()).collect();
    codes.sort();
    codes.dedup();
    println!(
        "{policy}{}: {} rows ({:.1} MB of XML) → {} rules, {} variables",
        if catch_all { " + catch-all" } else { "" },
        imported.model.decision_tables[0].rows.len(),
        xml.len() as f64 / 1e6,
        imported.model.rules.len(),
        imported.model.variables.len(),
    );
    println!(
        "  import {:.0} ms, compile {:.0} ms, syntactic lint {:.0} ms ({} diagnostics), solver lint {:.1} s ({} checks, {} undecided, {} diagnostics: {})",
        import_time.as_secs_f64() * 1e3,
        compile_time.as_secs_f64() * 1e3,
        syntactic_time.as_secs_f64() * 1e3,
        syntactic.len(),
        solver_time.as_secs_f64(),
        checks,
        undecided,
        found.len(),
        codes.join(" ")
    );
}

fn main() {
    run("UNIQUE", false);
    run("FIRST", true);
}

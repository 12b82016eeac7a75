//! `precept diff A B [--json]`: what changed between two models (project
//! folders or `DIR@N` versions), by text and by behaviour, with the tests
//! whose finding flips (natural-language ones decided from the translations
//! `precept test` stored; no LLM is asked).

use super::common::{Outcome, print_json};
use clap::Args;
use precept_engine::lifecycle::behaviour::Relation;
use precept_engine::lifecycle::diff::{ModelDiff, Side, diff_with_progress};
use precept_engine::lifecycle::reference::ModelRef;
use precept_engine::model::finding::Scenario;
use std::io::{IsTerminal, Write};
use std::time::Instant;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The first model: a project folder (its draft) or DIR@N (version N)
    pub a: String,
    /// The second model, named the same way
    pub b: String,
    #[arg(long)]
    pub json: bool,
    /// The LLM profile whose stored translations decide the natural-language
    /// tests, as `precept test --profile` (default: the one `precept test`
    /// uses); it is never asked
    #[arg(long)]
    pub profile: Option<String>,
}

pub fn run(args: &DiffArgs) -> Outcome {
    let a = Side::load(&ModelRef::parse(&args.a)?)?;
    let b = Side::load(&ModelRef::parse(&args.b)?)?;
    // Progress on stderr: each step in place on a terminal, and always a
    // final line with the time taken.
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let progress = |step: &str| {
        if terminal {
            eprint!("\r\x1b[2Kdiff: {step}");
            let _ = std::io::stderr().flush();
        }
    };
    let result = diff_with_progress(&a, &b, args.profile.as_deref(), &progress);
    if terminal {
        eprint!("\r\x1b[2K");
    }
    eprintln!(
        "diff: decided in {:.1} s ({} rule(s) changed, {} test(s) flipped)",
        started.elapsed().as_secs_f64(),
        result.rules.changed.len() + result.rules.added.len() + result.rules.removed.len(),
        result.tests_flipped.len()
    );
    if args.json {
        return print_json(&result);
    }
    print!("{}", render(&result));
    Ok(())
}

/// The diff as text: behaviour first, then rules, vocabulary and tests.
pub fn render(d: &ModelDiff) -> String {
    let mut out = format!("diff A = {}  B = {}\n\n", d.a, d.b);
    out += match d.relation {
        Relation::Equivalent => "behaviour: equivalent (A and B allow the same scenarios)\n",
        Relation::AStronger => {
            "behaviour: A is strictly stronger (A allows fewer scenarios than B)\n"
        }
        Relation::BStronger => {
            "behaviour: B is strictly stronger (B allows fewer scenarios than A)\n"
        }
        Relation::DifferBothWays => "behaviour: A and B differ both ways\n",
        Relation::Unknown => "behaviour: not decided\n",
    };
    for note in &d.notes {
        out += &format!("  note: {note}\n");
    }
    for (title, scenario) in [
        ("A allows, B does not", &d.a_allows_not_b),
        ("B allows, A does not", &d.b_allows_not_a),
    ] {
        if let Some(scenario) = scenario {
            out += &format!("\n{title}:\n{}", table(scenario));
        }
    }
    let r = &d.rules;
    if !r.added.is_empty() {
        out += &format!("\nrules added: {}\n", r.added.join(", "));
    }
    if !r.removed.is_empty() {
        out += &format!("\nrules removed: {}\n", r.removed.join(", "));
    }
    for c in &r.changed {
        let verdict = match c.meaning_changed {
            Some(true) => "meaning changed",
            Some(false) => "rewrite (same meaning)",
            None => "not decided",
        };
        out += &format!(
            "\nrule {} changed: {verdict}\n  A  {}\n     {}\n  B  {}\n     {}\n",
            c.text.id, c.text.a_smtlib, c.text.a_english, c.text.b_smtlib, c.text.b_english
        );
    }
    for (what, names) in [("variables", &d.variables), ("types", &d.types)] {
        if !names.added.is_empty() {
            out += &format!("\n{what} added: {}\n", names.added.join(", "));
        }
        if !names.removed.is_empty() {
            out += &format!("\n{what} removed: {}\n", names.removed.join(", "));
        }
        for c in &names.changed {
            out += &format!(
                "\n{} {}: {}\n  A  {}\n  B  {}\n",
                &what[..what.len() - 1],
                c.name,
                c.what,
                c.a,
                c.b
            );
        }
    }
    if d.tests_flipped.is_empty() {
        out += "\ntests flipped: none\n";
    } else {
        out += "\ntests flipped:\n";
        for t in &d.tests_flipped {
            out += &format!("  {}\n", t.line());
        }
    }
    out
}

fn table(scenario: &Scenario) -> String {
    let width = scenario
        .values
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    scenario
        .values
        .iter()
        .map(|(name, value)| format!("  {name:<width$}  {value}\n"))
        .collect()
}

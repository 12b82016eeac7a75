//! `precept review DIR (--list | --accept ID... | --reject ID --expected FINDING)`
//!
//! The expert's verdict on generated tests. Accepting makes a proposed test a
//! regression test expecting its proved finding; rejecting records the
//! finding the expert expected instead, so the test fails (and points at the
//! responsible rules) until the model is repaired. A test proved IMPOSSIBLE
//! is accepted only with `--accept-impossible`: accepting it makes a conflict
//! between rules expected behaviour, so without the flag review refuses and
//! says which rules conflict.

use super::common::{Failure, Outcome};
use super::verify::parse_finding;
use clap::{ArgGroup, Args};
use precept_engine::model::{LogicTest, Project, TestStatus};
use precept_engine::solve::FindingKind;
use precept_engine::testgen::generate::{accept, accept_impossible_warning, reject};
use std::path::PathBuf;

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("action").required(true).args(["accept", "reject", "list"])))]
pub struct ReviewArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Accept these proposed tests: each then expects its proved finding
    #[arg(long, num_args = 1.., value_name = "ID")]
    pub accept: Vec<String>,
    /// With --accept: also accept tests proved IMPOSSIBLE, which makes the
    /// rules' conflict in their situation expected behaviour
    #[arg(long, requires = "accept")]
    pub accept_impossible: bool,
    /// Reject this generated test (give the finding you expected with --expected)
    #[arg(long, value_name = "ID", requires = "expected")]
    pub reject: Option<String>,
    /// With --reject: the finding you expected (e.g. INVALID)
    #[arg(long, value_parser = parse_finding, requires = "reject")]
    pub expected: Option<FindingKind>,
    /// List the proposed tests with their ids
    #[arg(long)]
    pub list: bool,
}

pub fn run(args: &ReviewArgs) -> Outcome {
    // The model itself need not compile to review tests; the tests file must load.
    let mut project = Project::load_unchecked(&args.dir)?;
    if args.list {
        print!("{}", listing(&project.tests.tests));
        return Ok(());
    }
    if let Some(id) = &args.reject {
        let expected = args
            .expected
            .ok_or_else(|| Failure::Input("--reject needs --expected FINDING".into()))?;
        let test = find(&mut project, id)?;
        let proved = test.proved;
        reject(test, expected).map_err(|e| Failure::Input(e.to_string()))?;
        println!(
            "{id}: rejected: you expect {expected}, the solver proved {}; `precept test` now fails on it until the model is repaired",
            proved.map_or("nothing".to_string(), |p| p.to_string())
        );
        project.save_tests()?;
        return Ok(());
    }
    // Check every id before changing anything, so a typo saves nothing.
    for id in &args.accept {
        let test = find(&mut project, id)?;
        if test.proved.is_none() || test.status == TestStatus::Manual {
            return Err(Failure::Input(format!(
                "{id} was written by hand, not generated; there is nothing to accept"
            )));
        }
    }
    if !args.accept_impossible {
        let impossible: Vec<LogicTest> = args
            .accept
            .iter()
            .filter_map(|id| project.tests.tests.iter().find(|t| &t.id == id))
            .filter(|t| t.proved == Some(FindingKind::Impossible))
            .cloned()
            .collect();
        if !impossible.is_empty() {
            let warnings: Vec<String> = impossible
                .iter()
                .map(|t| accept_impossible_warning(&t.id, &conflict(&project, t)))
                .collect();
            return Err(Failure::Input(format!(
                "{}\nNothing was accepted. Repair the rules (or reject the test with --expected), or accept anyway with --accept-impossible.",
                warnings.join("\n")
            )));
        }
    }
    for id in &args.accept {
        let test = find(&mut project, id)?;
        accept(test);
        println!("{id}: accepted: expects {}", test.expected);
    }
    project.save_tests()?;
    Ok(())
}

/// The rules of a test's conflict, asked of the solver again (the model may
/// have changed since the test was generated); empty when the model does not
/// compile or the test is no longer IMPOSSIBLE.
fn conflict(project: &Project, test: &LogicTest) -> Vec<String> {
    let Ok(compiled) = project.compile_strict() else {
        return Vec::new();
    };
    let Ok(worker) = super::common::start_solver(project, &compiled, None) else {
        return Vec::new();
    };
    let Ok((premise, claim)) = precept_engine::test_runner::check_test(&compiled, test) else {
        return Vec::new();
    };
    let finding = worker.verify(premise, claim);
    if finding.kind == FindingKind::Impossible {
        finding.contradicting_rules
    } else {
        Vec::new()
    }
}

fn find<'a>(project: &'a mut Project, id: &str) -> Result<&'a mut LogicTest, Failure> {
    let path = project
        .dir
        .join(precept_engine::model::project::TESTS_FILE)
        .display()
        .to_string();
    project
        .tests
        .tests
        .iter_mut()
        .find(|t| t.id == id)
        .ok_or_else(|| Failure::Input(format!("{path}: no test with id '{id}'")))
}

fn listing(tests: &[LogicTest]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let proposed: Vec<&LogicTest> = tests
        .iter()
        .filter(|t| t.status == TestStatus::Proposed)
        .collect();
    for test in &proposed {
        let proved = test.proved.unwrap_or(test.expected);
        let _ = writeln!(out, "{} {proved} {}", test.id, test.label());
        let _ = writeln!(out, "    premise: {}", test.premise);
        let _ = writeln!(out, "    claim:   {}", test.claim);
        if !test.rationale.is_empty() {
            let _ = writeln!(out, "    why:     {}", test.rationale);
        }
    }
    let count = |status: TestStatus| tests.iter().filter(|t| t.status == status).count();
    let _ = writeln!(
        out,
        "{} proposed, {} accepted, {} rejected",
        proposed.len(),
        count(TestStatus::Accepted),
        count(TestStatus::Rejected)
    );
    out
}

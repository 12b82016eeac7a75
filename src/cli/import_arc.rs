//! `precept import policy.json --out DIR` for an Amazon Bedrock Automated
//! Reasoning policy definition (recognised by `import` from its content).

use super::common::{Failure, Outcome};
use precept_engine::formats::arc_policy::read_arc_policy;
use precept_engine::model::{Project, Settings};
use std::path::Path;

/// Imports `source`, the text of `file`, as a new project in `out`.
pub fn run(file: &Path, out: &Path, source: &str) -> Outcome {
    let path = file;
    let file = path.display().to_string();
    let mut imported = read_arc_policy(source).map_err(|error| {
        let lines: Vec<String> = error
            .problems
            .iter()
            .map(|problem| format!("{file}:{problem}"))
            .collect();
        Failure::Input(lines.join("\n"))
    })?;
    imported.model.title = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (rules, variables, tests) = (
        imported.model.rules.len(),
        imported.model.variables.len(),
        imported.tests.nl_tests.len(),
    );
    Project::create(out, imported.model, imported.tests, Settings::default())?;
    println!(
        "imported an ARC policy: {rules} rules, {variables} variables and {tests} test cases (as natural-language tests) into {}",
        out.display()
    );
    Ok(())
}

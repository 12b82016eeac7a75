//! `precept import MODEL.dmn --out DIR`: a DMN model, with the TCK test
//! cases found beside it (`MODEL-test-*.xml`) as logic tests.

use super::common::{Failure, Outcome};
use precept_engine::formats::dmn::{import_dmn, import_test_cases, read_capped};
use precept_engine::model::{Project, Settings, TestSuite, compile};
use std::path::{Path, PathBuf};

/// Whether `path` is a DMN file: a `.dmn` name, or XML whose first
/// kilobytes hold a `definitions` element.
pub fn is_dmn(path: &Path) -> bool {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("dmn") => true,
        Some("xml") => {
            use std::io::Read;
            let mut head = [0u8; 4096];
            let read = std::fs::File::open(path)
                .and_then(|mut f| f.read(&mut head))
                .unwrap_or(0);
            String::from_utf8_lossy(&head[..read]).contains("definitions")
        }
        _ => false,
    }
}

/// The TCK test files beside `model`: `STEM-test-*.xml`, in name order.
pub fn test_files_beside(model: &Path) -> Vec<PathBuf> {
    let stem = model
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!("{stem}-test-");
    let dir = match model.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                    name.is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".xml"))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Imports the DMN model `file` (and the TCK test cases beside it) into a
/// new project at `out`.
pub fn run(file: &Path, out: &Path) -> Outcome {
    let located =
        |path: &Path, e: &dyn std::fmt::Display| Failure::Input(format!("{}:{e}", path.display()));
    let source = read_capped(file).map_err(|e| located(file, &e))?;
    let imported = import_dmn(&source).map_err(|e| located(file, &e))?;
    let mut model = imported.model;
    if model.title.is_empty() {
        model.title = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    let compiled = compile(&model);
    if let Some(issue) = compiled.issues.first() {
        return Err(Failure::Input(format!(
            "{}: the DMN model did not translate into a valid policy model: {issue}",
            file.display()
        )));
    }
    let mut tests = TestSuite::default();
    let test_files = test_files_beside(file);
    for file in &test_files {
        let text = read_capped(file).map_err(|e| located(file, &e))?;
        let cases = import_test_cases(&text, &imported.vocabulary, tests.tests.len() + 1)
            .map_err(|e| located(file, &e))?;
        for case in &cases {
            for formula in [&case.premise, &case.claim] {
                compiled.check_formula(formula).map_err(|e| {
                    Failure::Input(format!(
                        "{}: test case '{}' did not translate: {e}",
                        file.display(),
                        case.name
                    ))
                })?;
            }
        }
        tests.tests.extend(cases);
    }
    let rules = model.rules.len();
    let variables = model.variables.len();
    let tables = model.decision_tables.len();
    Project::create(out, model, tests.clone(), Settings::default())?;
    println!(
        "imported {rules} rules from {tables} decision tables and {variables} variables into {}",
        out.display()
    );
    for file in &test_files {
        println!("read TCK test cases from {}", file.display());
    }
    if !tests.tests.is_empty() {
        println!(
            "imported {} TCK test cases as logic tests",
            tests.tests.len()
        );
    }
    Ok(())
}

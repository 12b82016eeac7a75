//! Every SMT-LIB file in the shared corpus imports, and `verify --premise
//! true --claim false` gives INVALID for a satisfiable file and IMPOSSIBLE
//! for an unsatisfiable one. Each file also survives parse → print → parse.

use crate::support;

use precept::smt::parse_script;
use support::{precept, stdout, test_data};

fn expected_status(text: &str) -> &'static str {
    if text.contains("(set-info :status sat)") {
        "INVALID"
    } else if text.contains("(set-info :status unsat)") {
        "IMPOSSIBLE"
    } else {
        panic!("corpus file without a :status")
    }
}

#[test]
fn every_corpus_file_gets_the_finding_its_status_demands() {
    let dir = test_data("smtlib");
    let scratch = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 59,
        "expected the 59-file corpus, found {}",
        files.len()
    );
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let expected = expected_status(&text);
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let project = scratch.path().join(&name);
        let import = precept(&[
            "import",
            file.to_str().unwrap(),
            "--out",
            project.to_str().unwrap(),
        ]);
        assert!(
            import.status.success(),
            "{name}: import failed: {}",
            support::stderr(&import)
        );
        let verify = precept(&[
            "verify",
            project.to_str().unwrap(),
            "--premise",
            "true",
            "--claim",
            "false",
            "--json",
        ]);
        let finding: serde_json::Value = serde_json::from_str(&stdout(&verify))
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", stdout(&verify)));
        if finding["finding"] != expected {
            wrong.push(format!(
                "{name}: expected {expected}, got {}",
                finding["finding"]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_corpus_file_round_trips_through_the_printer() {
    for entry in std::fs::read_dir(test_data("smtlib")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "smt2") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let commands = parse_script(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for command in commands {
            if let precept::smt::Command::Assert(expr) = command {
                let printed = expr.to_string();
                let reparsed = precept::smt::parse_expr(&printed).unwrap();
                assert_eq!(reparsed, expr, "{}: {printed}", path.display());
            }
        }
    }
}

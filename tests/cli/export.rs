//! The SMT-LIB export is accepted by the z3 and cvc5 command-line solvers,
//! and both agree with Precept on satisfiability: for the samples, and for
//! each sample with a test's premise added (so unsat answers are checked too).

use crate::support;

use precept::export::to_smtlib;
use precept::model::Project;
use precept::solve::FindingKind;
use std::path::Path;
use std::process::Command;
use support::{precept, repo, sample, z3_binary};

fn z3_answer(file: &Path) -> String {
    let out = Command::new(z3_binary())
        .arg("-T:30")
        .arg(file)
        .output()
        .expect("run z3");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn cvc5_answer(file: &Path) -> String {
    let out = Command::new("python3")
        .arg(repo().join("tests/oracles/cvc5_check.py"))
        .arg(file)
        .env("PYTHONPATH", repo().join(".deps/cvc5"))
        .output()
        .expect("run python3 with cvc5");
    assert!(
        out.status.success(),
        "cvc5 rejected {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn the_cli_export_is_accepted_by_z3_and_cvc5() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("park.smt2");
    let out = precept(&[
        "export",
        sample("park-admission").to_str().unwrap(),
        "--format",
        "smtlib",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(z3_answer(&file), "sat");
    assert_eq!(cvc5_answer(&file), "sat");
    let json_file = scratch.path().join("park.json");
    let out = precept(&[
        "export",
        sample("park-admission").to_str().unwrap(),
        "--format",
        "json",
        "--out",
        json_file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_file).unwrap()).unwrap();
    assert_eq!(json["rules"].as_array().unwrap().len(), 17);
    assert!(
        json["rules"][1]["english"]
            .as_str()
            .unwrap()
            .starts_with("If the visit falls in the low season")
    );
}

#[test]
fn solvers_agree_with_precept_on_every_sample_premise() {
    let scratch = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(repo().join("samples")).unwrap() {
        let dir = entry.unwrap().path();
        let project = Project::load(&dir).unwrap();
        let compiled = project.compile_strict().unwrap();
        let script = to_smtlib(&project.model, &compiled);
        for test in &project.tests.tests {
            // M ∧ P is unsat exactly when Precept finds IMPOSSIBLE.
            let Ok((_, premise)) = compiled.check_formula(&test.premise) else {
                continue;
            };
            let expected = if test.expected == FindingKind::Impossible {
                "unsat"
            } else {
                "sat"
            };
            let with_premise = script.replace(
                "(check-sat)\n",
                &format!("(assert {premise})\n(check-sat)\n"),
            );
            let file = scratch.path().join(format!(
                "{}-{}.smt2",
                dir.file_name().unwrap().to_string_lossy(),
                test.id
            ));
            std::fs::write(&file, with_premise).unwrap();
            assert_eq!(z3_answer(&file), expected, "z3 on {}", file.display());
            assert_eq!(cvc5_answer(&file), expected, "cvc5 on {}", file.display());
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} premises checked");
}

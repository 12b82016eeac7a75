//! The audit bundle (`precept export DIR --format bundle --out BUNDLE/`):
//! for every sample, its `recheck.sh` passes with the z3 and cvc5 the setup
//! installs; a changed byte of a rule, a flipped expected answer or a
//! missing file makes it fail and name the file; the manifest records what
//! the issue asks; an existing folder is never overwritten.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{precept, repo, sample, stderr, stdout, z3_binary};

/// A folder with `z3` and a `cvc5` command (the pinned cvc5 wheel ships
/// Python bindings only, so `cvc5` runs them through the oracle script).
fn solver_path(scratch: &Path) -> String {
    let bin = scratch.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(z3_binary(), bin.join("z3")).unwrap();
    let cvc5 = format!(
        "#!/bin/sh\nfor file; do :; done\nPYTHONPATH='{}' exec python3 '{}' \"$file\"\n",
        repo().join(".deps/cvc5").display(),
        repo().join("tests/oracles/cvc5_check.py").display()
    );
    std::fs::write(bin.join("cvc5"), cvc5).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("cvc5"), std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:/usr/bin:/bin", bin.display())
}

fn export_bundle(project: &Path, out: &Path) -> Output {
    precept(&[
        "export",
        project.to_str().unwrap(),
        "--format",
        "bundle",
        "--out",
        out.to_str().unwrap(),
    ])
}

fn recheck(bundle: &Path, path: &str, solvers: &str) -> Output {
    Command::new("sh")
        .arg(bundle.join("recheck.sh"))
        .env("PATH", path)
        .env("RECHECK_SOLVERS", solvers)
        .output()
        .unwrap()
}

fn manifest(bundle: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(bundle.join("manifest.json")).unwrap()).unwrap()
}

fn bundle_of(name: &str, scratch: &Path) -> PathBuf {
    let bundle = scratch.join(format!("{name}-bundle"));
    let out = export_bundle(&sample(name), &bundle);
    assert!(out.status.success(), "{}", stderr(&out));
    bundle
}

#[test]
fn every_samples_bundle_rechecks_with_z3_and_cvc5() {
    let scratch = tempfile::tempdir().unwrap();
    let path = solver_path(scratch.path());
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let bundle = bundle_of(name, scratch.path());
        let out = recheck(&bundle, &path, "z3 cvc5");
        let text = stdout(&out);
        assert!(out.status.success(), "{name}: {text}{}", stderr(&out));
        assert!(text.contains("with: z3 cvc5"), "{name}: {text}");
        assert!(!text.contains("could not decide"), "{name}: {text}");
        let manifest = manifest(&bundle);
        let tests = manifest["tests"].as_array().unwrap();
        assert!(!tests.is_empty(), "{name}");
        // Every test that was decided has its queries, and each query file
        // says its expected answer in a comment, as the manifest does.
        for test in tests {
            let queries = test["queries"].as_array().unwrap();
            assert!(queries.len() >= 3, "{name}: {test}");
            for query in queries {
                let file = query.as_str().unwrap();
                let entry = manifest["files"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["file"] == file)
                    .unwrap_or_else(|| panic!("{file} is not in the files list"));
                let text = std::fs::read_to_string(bundle.join(file)).unwrap();
                let comment = format!("; expected: {}", entry["expected"].as_str().unwrap());
                assert!(text.contains(&comment), "{file}: {text}");
                assert!(text.trim_end().ends_with("(check-sat)"), "{file}");
            }
        }
    }
}

#[test]
fn the_manifest_records_versions_findings_reviews_and_hashes() {
    let scratch = tempfile::tempdir().unwrap();
    let bundle = bundle_of("airline-refunds", scratch.path());
    let manifest = manifest(&bundle);
    assert_eq!(manifest["precept_version"], env!("CARGO_PKG_VERSION"));
    assert!(
        manifest["solver"].as_str().unwrap().starts_with("Z3 "),
        "{}",
        manifest["solver"]
    );
    assert_eq!(manifest["model_consistent"], true);
    // The source document's hash is the hash of the project's document.
    let document = std::fs::read(sample("airline-refunds").join("policy.md")).unwrap();
    let source = &manifest["source_document"];
    assert_eq!(
        source["sha256"],
        precept::formats::bundle::manifest::sha256_hex(&document)
    );
    assert_eq!(
        std::fs::read(bundle.join(source["file"].as_str().unwrap())).unwrap(),
        document
    );
    // Each rule with its review status, as the project has it.
    let project = precept::model::Project::load(&sample("airline-refunds")).unwrap();
    let rules = manifest["rules"].as_array().unwrap();
    assert_eq!(rules.len(), project.model.rules.len());
    for (entry, rule) in rules.iter().zip(&project.model.rules) {
        assert_eq!(entry["id"], rule.id.as_str());
        assert_eq!(
            entry["review"].as_str().unwrap().replace('_', " "),
            rule.review.label()
        );
    }
    // Each test's expected and actual finding; the sample's tests pass.
    let t23 = manifest["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "T23")
        .unwrap();
    assert_eq!(t23["expected"], "IMPOSSIBLE");
    assert_eq!(t23["actual"], "IMPOSSIBLE");
    let queries: Vec<&str> = t23["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap())
        .collect();
    assert!(
        queries.contains(&"queries/T23.evidence.smt2"),
        "{queries:?}"
    );
    // Every file but the manifest itself is listed with its SHA-256.
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    for file in ["model.smt2", "README.md", "recheck.sh"] {
        assert!(listed.contains(&file), "{listed:?}");
    }
    let model = std::fs::read(bundle.join("model.smt2")).unwrap();
    let model_entry = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "model.smt2")
        .unwrap();
    assert_eq!(
        model_entry["sha256"],
        precept::formats::bundle::manifest::sha256_hex(&model)
    );
    assert_eq!(model_entry["expected"], "sat");
    let model_text = String::from_utf8(model).unwrap();
    assert!(model_text.contains(":named R9))"), "{model_text}");
}

#[test]
fn a_changed_byte_of_a_rule_fails_the_recheck_and_names_the_file() {
    let scratch = tempfile::tempdir().unwrap();
    let path = solver_path(scratch.path());
    let bundle = bundle_of("park-admission", scratch.path());
    // Change one byte of a rule inside a query: a digit of a constant.
    let victim = bundle.join("queries/T1.premise.smt2");
    let mut bytes = std::fs::read(&victim).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let at = text.find(":named").unwrap();
    let digit = text[..at].rfind(|c: char| c.is_ascii_digit()).unwrap();
    bytes[digit] = if bytes[digit] == b'9' {
        b'8'
    } else {
        bytes[digit] + 1
    };
    std::fs::write(&victim, bytes).unwrap();
    let out = recheck(&bundle, &path, "z3");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL queries/T1.premise.smt2: changed"),
        "{text}"
    );
    // The same for the model itself.
    let bundle = bundle_of("benefit-eligibility", scratch.path());
    let model = bundle.join("model.smt2");
    let text = std::fs::read_to_string(&model).unwrap();
    // One byte: the name of the first rule, R1 becomes R2.
    std::fs::write(&model, text.replacen(":named R1)", ":named R2)", 1)).unwrap();
    let out = recheck(&bundle, &path, "z3");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("FAIL model.smt2: changed"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_flipped_expected_answer_fails_the_recheck_and_names_the_query() {
    let scratch = tempfile::tempdir().unwrap();
    let path = solver_path(scratch.path());
    let bundle = bundle_of("park-admission", scratch.path());
    let manifest_path = bundle.join("manifest.json");
    let text = std::fs::read_to_string(&manifest_path).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("\"expected\":\"unsat\"") && l.contains("queries/"))
        .unwrap()
        .to_string();
    let file = line
        .split("\"file\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let flipped = line.replace("\"expected\":\"unsat\"", "\"expected\":\"sat\"");
    std::fs::write(&manifest_path, text.replacen(&line, &flipped, 1)).unwrap();
    let out = recheck(&bundle, &path, "z3 cvc5");
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains(&format!(
            "FAIL {file}: z3 answers unsat, the manifest expects sat"
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "FAIL {file}: cvc5 answers unsat, the manifest expects sat"
        )),
        "{report}"
    );
    assert_eq!(report.matches("FAIL").count(), 2, "{report}");
}

#[test]
fn a_missing_query_fails_and_a_missing_z3_is_a_clear_error() {
    let scratch = tempfile::tempdir().unwrap();
    let path = solver_path(scratch.path());
    let bundle = bundle_of("park-admission", scratch.path());
    std::fs::remove_file(bundle.join("queries/T2.claim.smt2")).unwrap();
    let out = recheck(&bundle, &path, "z3");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("FAIL queries/T2.claim.smt2: listed in the manifest but missing"),
        "{}",
        stdout(&out)
    );
    let out = recheck(&bundle, "/usr/bin:/bin", "z3");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("z3 is not on PATH"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_existing_folder_is_never_overwritten() {
    let scratch = tempfile::tempdir().unwrap();
    let out_dir = scratch.path().join("bundle");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("keep.txt"), "mine").unwrap();
    let out = export_bundle(&sample("park-admission"), &out_dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("refusing to overwrite"),
        "{}",
        stderr(&out)
    );
    let left: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
    assert_eq!(left.len(), 1);
    // No temporary folder is left beside it either.
    let beside: Vec<String> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(beside, vec!["bundle".to_string()]);
}

#[test]
fn an_inconsistent_model_puts_every_rule_in_every_query() {
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("p");
    support::smtlib_project(
        &project,
        "(declare-const a Bool)(declare-const refund Bool)(declare-const x Int)\n\
         (assert (> x 3))(assert (< x 2))(assert (=> a refund))",
        "a",
    );
    let bundle = scratch.path().join("b");
    let out = export_bundle(&project, &bundle);
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest = manifest(&bundle);
    assert_eq!(manifest["model_consistent"], false);
    let query = std::fs::read_to_string(bundle.join("queries/T1.premise.smt2")).unwrap();
    assert_eq!(query.matches(":named").count(), 3, "{query}");
    let readme = std::fs::read_to_string(bundle.join("README.md")).unwrap();
    assert!(readme.contains("must answer `unsat`"), "{readme}");
    assert!(
        readme.contains("Every query carries all the rules"),
        "{readme}"
    );
    let out = recheck(&bundle, &solver_path(scratch.path()), "z3 cvc5");
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn an_answer_check_saved_as_a_test_brings_the_queries_of_its_stored_translations() {
    use precept::model::AnswerTest;
    use precept::solve::FindingKind;
    let scratch = tempfile::tempdir().unwrap();
    let project = support::copy_sample("park-admission");
    let mut suite: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.path().join("tests.json")).unwrap())
            .unwrap();
    let question = "Can a senior with $35.40 in the low season visit?";
    let answer = "No, $35.40 is not enough.";
    let checked = AnswerTest::new("NL1", question, answer, FindingKind::Satisfiable);
    let never_run = AnswerTest::new("NL2", "", "Children always enter free.", FindingKind::Valid);
    suite["nl_tests"] = serde_json::to_value([checked, never_run]).unwrap();
    std::fs::write(
        project.path().join("tests.json"),
        serde_json::to_string_pretty(&suite).unwrap(),
    )
    .unwrap();
    // A translation the answer verifier stored when it checked NL1.
    let cache = project.path().join(".cache/translations");
    std::fs::create_dir_all(&cache).unwrap();
    let stored = serde_json::json!({
        "key": "k1", "prompt": "translate.v1", "translator": "scripted#1",
        "question": question, "answer": answer,
        "pairs": [{
            "premise": "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
            "claim": "(not isEntryAllowed)",
            "source": "No, $35.40 is not enough."
        }],
        "untranslated": [], "rejected": [], "rounds": 1, "symbols": {}, "vocabulary": ""
    });
    std::fs::write(cache.join("k1.json"), stored.to_string()).unwrap();

    let bundle = scratch.path().join("b");
    let out = export_bundle(project.path(), &bundle);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("note: no queries for NL2: no stored translation"),
        "{}",
        stderr(&out)
    );
    let manifest = manifest(&bundle);
    let tests = manifest["tests"].as_array().unwrap();
    let nl1 = tests.iter().find(|t| t["id"] == "NL1").unwrap();
    assert_eq!(nl1["kind"], "answer check");
    assert_eq!(nl1["expected"], "SATISFIABLE");
    assert_eq!(nl1["actual"], "SATISFIABLE");
    assert_eq!(
        nl1["queries"],
        serde_json::json!([
            "queries/NL1.pair1.premise.smt2",
            "queries/NL1.pair1.not-claim.smt2",
            "queries/NL1.pair1.claim.smt2"
        ])
    );
    let nl2 = tests.iter().find(|t| t["id"] == "NL2").unwrap();
    assert_eq!(nl2["queries"], serde_json::json!([]));
    let out = recheck(&bundle, &solver_path(scratch.path()), "z3");
    assert!(out.status.success(), "{}", stdout(&out));
}

/// A model with a definition (its rules `D1.c1`…, and the definition in
/// `model.json`) bundles and rechecks like any other, and its SMT-LIB
/// export imports back to the same definition and rules.
#[test]
fn a_model_with_a_definition_rechecks_and_round_trips() {
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("hall");
    std::fs::create_dir_all(&project).unwrap();
    for entry in std::fs::read_dir(support::test_data("hall-booking")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, project.join(path.file_name().unwrap())).unwrap();
        }
    }
    let dir = project.to_str().unwrap();
    let out = precept(&["define", dir, "--no-llm", "--apply", "D1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tests = serde_json::json!({"schema_version": 1, "tests": [
        {"id": "T1", "name": "a resident adult who owes nothing can book",
         "premise": "(and livesInParish isAdult (not owesForDamage))", "claim": "canBookHall", "expected": "VALID"},
        {"id": "T2", "name": "owing for damage rules a booking out",
         "premise": "(and livesInParish owesForDamage)", "claim": "canBookHall", "expected": "INVALID"},
        {"id": "T3", "name": "a resident adult may owe",
         "premise": "(and livesInParish isAdult)", "claim": "canBookHall", "expected": "SATISFIABLE"}
    ]});
    std::fs::write(project.join("tests.json"), tests.to_string()).unwrap();
    let passed = precept(&["test", dir]);
    assert!(
        passed.status.success(),
        "{}{}",
        stdout(&passed),
        stderr(&passed)
    );

    let bundle = scratch.path().join("hall-bundle");
    let out = export_bundle(&project, &bundle);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = recheck(&bundle, &solver_path(scratch.path()), "z3 cvc5");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));

    let smt = scratch.path().join("hall.smt2");
    let out = precept(&[
        "export",
        dir,
        "--format",
        "smtlib",
        "--out",
        smt.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let back = scratch.path().join("back");
    let out = precept(&[
        "import",
        smt.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).unwrap()).unwrap()
    };
    let (before, after) = (read(&project), read(&back));
    assert_eq!(after["definitions"], before["definitions"]);
    let ids = |model: &serde_json::Value| -> Vec<String> {
        let mut ids: Vec<String> = model["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["id"].as_str().unwrap().starts_with('D'))
            .map(|r| format!("{} {}", r["id"], r["expression"]))
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(&after), ids(&before));
    // A definition that is not one is refused with its position.
    let text = std::fs::read_to_string(&smt)
        .unwrap()
        .replace(":precept-definition \"{", ":precept-definition \"[");
    std::fs::write(&smt, text).unwrap();
    let out = precept(&[
        "import",
        smt.to_str().unwrap(),
        "--out",
        scratch.path().join("bad").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("precept-definition"),
        "{}",
        stderr(&out)
    );
}

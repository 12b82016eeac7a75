//! Puts a bundle together: runs the tests on the solver, writes each
//! finding's queries, the model, the README, the script and the manifest,
//! all into a temporary folder that is renamed into place at the end.

use super::claims::{Claim, QueryFile, Scope, claim_queries};
use super::folder::{BundleError, write_folder};
use super::manifest::{FileEntry, Manifest, RuleEntry, SourceEntry, TestEntry, sha256_hex};
use super::query::Answer;
use super::readme::{ReadmeFacts, readme_text};
use super::recheck_script::RECHECK_SCRIPT;
use crate::answer::cache::CachedTranslation;
use crate::export::to_smtlib;
use crate::model::finding::FindingKind;
use crate::model::graph::RuleGraph;
use crate::model::project::CACHE_DIR;
use crate::model::{CompiledModel, LogicTest, Project};
use crate::solve::SolverWorker;
use crate::test_runner::{TestOutcome, check_test, run_tests};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleSummary {
    pub files: usize,
    pub queries: usize,
    pub tests: usize,
    /// Tests with no queries, and why.
    pub not_rechecked: Vec<String>,
    pub manifest_sha256: String,
}

/// The bundle's files in memory: path inside the bundle, bytes, answer.
type Files = Vec<(String, Vec<u8>, Option<Answer>)>;

/// Writes the audit bundle of `project` to the folder `out`.
pub fn export_bundle(
    project: &Project,
    compiled: &CompiledModel,
    worker: &SolverWorker,
    out: &Path,
) -> Result<BundleSummary, BundleError> {
    let consistency = run_tests(
        worker,
        compiled,
        &[LogicTest::new(
            "model",
            "",
            "true",
            "true",
            FindingKind::Valid,
        )],
    );
    let model_consistent = match consistency.first().and_then(TestOutcome::actual) {
        Some(FindingKind::Impossible) => Some(false),
        Some(FindingKind::TooComplex) | None => None,
        Some(_) => Some(true),
    };
    let graph = RuleGraph::build(
        compiled.variables.iter().map(|(n, _)| n.as_str()),
        compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let scope = match model_consistent {
        Some(true) => Scope::Connected(&graph),
        _ => Scope::WholeModel,
    };

    let mut files: Files = Vec::new();
    let model_answer = model_consistent.map(|c| Answer::from_unsat(!c));
    let mut model_text = String::new();
    if let Some(answer) = model_answer {
        model_text.push_str(&format!("; expected: {}\n", answer.word()));
    }
    model_text.push_str(&to_smtlib(&project.model, compiled));
    files.push(("model.smt2".into(), model_text.into_bytes(), model_answer));

    let mut stems = HashSet::new();
    let mut tests = Vec::new();
    let mut not_rechecked = Vec::new();
    let outcomes = run_tests(worker, compiled, &project.tests.tests);
    for (test, outcome) in project.tests.tests.iter().zip(&outcomes) {
        let stem = fresh_stem(&mut stems, &test.id);
        let label = format!("test {} \"{}\"", test.id, test.label());
        let mut entry = TestEntry {
            id: test.id.clone(),
            name: test.name.clone(),
            kind: "logic test",
            expected: test.expected.name().into(),
            actual: outcome.actual().map(|k| k.name().to_string()),
            queries: Vec::new(),
            note: String::new(),
        };
        match (check_test(compiled, test), &outcome.finding) {
            (Ok((premise, claim)), Some(finding)) => {
                let queries = claim_queries(
                    compiled,
                    &scope,
                    &Claim {
                        stem: &stem,
                        label: &label,
                        premise: &premise,
                        claim: &claim,
                        finding,
                    },
                );
                if queries.is_empty() {
                    entry.note = format!("{}: no query a solver could confirm", finding.kind);
                }
                add_queries(&mut files, &mut entry, queries);
            }
            (Err(error), _) => entry.note = format!("does not check against the model: {error}"),
            (_, None) => {
                entry.note = outcome
                    .error
                    .clone()
                    .unwrap_or_else(|| "the solver gave no finding".into())
            }
        }
        if !entry.note.is_empty() {
            not_rechecked.push(format!("{}: {}", test.id, entry.note));
        }
        tests.push(entry);
    }
    answer_checks(
        project,
        compiled,
        worker,
        &scope,
        &mut stems,
        &mut files,
        &mut tests,
        &mut not_rechecked,
    );

    let source_document = match &project.settings.document {
        Some(name) => {
            let path = project.dir.join(name);
            let bytes = std::fs::read(&path).map_err(|e| BundleError::Io {
                path: path.clone(),
                message: format!("cannot read the source document: {e}"),
            })?;
            let file = format!("source/{}", safe_name(name));
            let entry = SourceEntry {
                file: file.clone(),
                sha256: sha256_hex(&bytes),
            };
            files.push((file, bytes, None));
            Some(entry)
        }
        None => None,
    };
    let queries = files.iter().filter(|f| f.2.is_some()).count();
    let readme = readme_text(&ReadmeFacts {
        title: &project.model.title,
        rules: compiled.rules.len(),
        tests: tests.len(),
        queries,
        whole_model_queries: !matches!(scope, Scope::Connected(_)),
        model_answer: model_answer.map(Answer::word),
        source_document: source_document.as_ref().map(|s| s.file.as_str()),
    });
    files.push(("README.md".into(), readme.into_bytes(), None));
    files.push((
        "recheck.sh".into(),
        RECHECK_SCRIPT.as_bytes().to_vec(),
        None,
    ));

    let manifest = Manifest {
        precept_version: env!("CARGO_PKG_VERSION").into(),
        solver: crate::solve::solver_version(),
        source_document,
        model_consistent,
        rules: project
            .model
            .rules
            .iter()
            .map(|r| RuleEntry {
                id: r.id.clone(),
                review: review_word(r.review),
                expression: r.expression.clone(),
            })
            .collect(),
        tests,
        files: files
            .iter()
            .map(|(file, bytes, answer)| FileEntry {
                file: file.clone(),
                sha256: sha256_hex(bytes),
                expected: answer.map(Answer::word),
            })
            .collect(),
    };
    let manifest_text = manifest.to_json();
    let summary = BundleSummary {
        files: files.len() + 1,
        queries,
        tests: manifest.tests.len(),
        not_rechecked,
        manifest_sha256: sha256_hex(manifest_text.as_bytes()),
    };
    files.push(("manifest.json".into(), manifest_text.into_bytes(), None));
    write_folder(out, &files)?;
    Ok(summary)
}

fn add_queries(files: &mut Files, entry: &mut TestEntry, queries: Vec<QueryFile>) {
    for query in queries {
        let path = format!("queries/{}", query.name);
        entry.queries.push(path.clone());
        files.push((path, query.text.into_bytes(), Some(query.expected)));
    }
}

/// Answer checks saved as natural-language tests: the premise–claim pairs
/// of their stored translations (`.cache/translations/`) become queries.
/// A test never translated here has none, and the manifest says so.
#[allow(clippy::too_many_arguments)]
fn answer_checks(
    project: &Project,
    compiled: &CompiledModel,
    worker: &SolverWorker,
    scope: &Scope,
    stems: &mut HashSet<String>,
    files: &mut Files,
    tests: &mut Vec<TestEntry>,
    not_rechecked: &mut Vec<String>,
) {
    if project.tests.nl_tests.is_empty() {
        return;
    }
    let stored = stored_translations(&project.dir.join(CACHE_DIR).join("translations"));
    for test in &project.tests.nl_tests {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for translation in stored
            .iter()
            .filter(|t| t.question == test.question && t.answer == test.answer)
        {
            for pair in &translation.pairs {
                let pair = (pair.premise.clone(), pair.claim.clone());
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
        let mut entry = TestEntry {
            id: test.id.clone(),
            name: test.name.clone(),
            kind: "answer check",
            expected: test.expected.name().into(),
            actual: None,
            queries: Vec::new(),
            note: String::new(),
        };
        let as_tests: Vec<LogicTest> = pairs
            .iter()
            .enumerate()
            .map(|(i, (p, c))| {
                LogicTest::new(format!("pair{}", i + 1), "", p, c, FindingKind::Valid)
            })
            .collect();
        let outcomes = run_tests(worker, compiled, &as_tests);
        let mut worst: Option<FindingKind> = None;
        for (pair, outcome) in as_tests.iter().zip(&outcomes) {
            let (Ok((premise, claim)), Some(finding)) =
                (check_test(compiled, pair), &outcome.finding)
            else {
                continue;
            };
            if worst.is_none_or(|w| finding.kind.severity() > w.severity()) {
                worst = Some(finding.kind);
            }
            let stem = fresh_stem(stems, &format!("{}.{}", test.id, pair.id));
            let label = format!("answer check {} \"{}\", {}", test.id, test.label(), pair.id);
            let queries = claim_queries(
                compiled,
                scope,
                &Claim {
                    stem: &stem,
                    label: &label,
                    premise: &premise,
                    claim: &claim,
                    finding,
                },
            );
            add_queries(files, &mut entry, queries);
        }
        entry.actual = worst.map(|k| k.name().to_string());
        entry.note = if pairs.is_empty() {
            "no stored translation of this answer (run precept test on the project first)".into()
        } else {
            "the solver's findings over the stored translations; the translation itself (and its confidence) is an LLM's, which no solver can re-check".into()
        };
        if entry.queries.is_empty() {
            not_rechecked.push(format!("{}: {}", test.id, entry.note));
        }
        tests.push(entry);
    }
}

fn stored_translations(dir: &Path) -> Vec<CachedTranslation> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|text| serde_json::from_str(&text).ok())
        .collect()
}

fn review_word(review: crate::model::ReviewStatus) -> &'static str {
    use crate::model::ReviewStatus::*;
    match review {
        Unreviewed => "unreviewed",
        Approved => "approved",
        NeedsChange => "needs_change",
    }
}

/// A file-name-safe stem for `id`, not used before.
fn fresh_stem(used: &mut HashSet<String>, id: &str) -> String {
    let base = safe_name(id);
    let mut stem = base.clone();
    let mut n = 2;
    while !used.insert(stem.clone()) {
        stem = format!("{base}-{n}");
        n += 1;
    }
    stem
}

/// Letters, digits, `.`, `_` and `-`; anything else becomes `_`.
fn safe_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.starts_with('.') {
        format!("_{safe}")
    } else {
        safe
    }
}

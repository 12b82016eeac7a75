//! One open project as a front end holds it: the model, the tests and the
//! document, what is derived from them and kept in step with every edit
//! (the compiled model, the rule↔variable graph, each rule's English, the
//! rules of each span), the names each test mentions (a cache), the tests'
//! results with the run that produces them (`runs.rs`), the undo history
//! and the drafts.
//!
//! Invariants: after an edit of the model, `recompile` (or, for one rule,
//! `recompile_rule`) brings the compiled model, the graph, the English and
//! the rules per span back in step, and nothing else writes them. Each
//! entry of `question_symbols` keeps the texts it was read from, so a test
//! whose text changed is read again.

use crate::compose::record::FormalizationRecord;
use crate::document::{DocSpan, split_spans};
use crate::model::compile::recompile_rule;
use crate::model::drafts::Drafts;
use crate::model::graph::RuleGraph;
use crate::model::history::History;
use crate::model::{CompiledModel, PolicyModel, Project, Rule, TestSuite, compile};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

mod revision;
mod runs;
pub use revision::{JobId, Reads, Revision, Stamp};
pub use runs::{FindingChange, Flip, Runs, TestState};

/// The names a test's premise and claim mention (None when one does not
/// parse), with the texts they were read from.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionSymbols {
    pub premise: String,
    pub claim: String,
    pub symbols: Option<Vec<String>>,
}

/// What undo restores: the model, the tests and `formalization.json` as
/// they were before an edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub model: PolicyModel,
    pub tests: TestSuite,
    /// `formalization.json` as it was (None: the project had none).
    pub formalization: Option<FormalizationRecord>,
    /// The document spans marked as not policy.
    pub not_policy: std::collections::BTreeSet<String>,
}

pub struct Workspace {
    pub project_dir: PathBuf,
    pub model: PolicyModel,
    pub tests: TestSuite,
    pub document: Option<String>,
    /// The document's file name in the project (from `precept.json`).
    pub document_name: Option<String>,
    pub spans: Vec<DocSpan>,
    /// Rule ids per document span (kept in step with the model).
    pub span_rules: BTreeMap<usize, Vec<String>>,
    /// Each compiled rule's English sentence (search reads it on every frame).
    pub rule_english: HashMap<String, String>,
    pub compiled: CompiledModel,
    pub graph: RuleGraph,
    /// The names each test's premise and claim mention, by test id, so an
    /// edit finds the tests of its cone without parsing every test again.
    pub question_symbols: HashMap<String, QuestionSymbols>,
    /// The tests' results and the current run.
    pub run: Runs,
    /// Every edit, undo and redo.
    pub history: History<Snapshot>,
    /// Rule texts being typed and not yet applied (`drafts.json`).
    pub drafts: Drafts,
    /// Answer checks: redundant translations (k) and the confidence a pair
    /// needs (from `precept.json`).
    pub answer_translations: usize,
    pub answer_threshold: f64,
    /// The number of each state of the model and tests seen so far.
    revisions: std::cell::RefCell<revision::Revisions>,
}

impl Workspace {
    /// The workspace of a loaded project with its drafts, everything
    /// derived built.
    pub fn open(project: Project, drafts: Drafts) -> Workspace {
        let spans = project
            .document
            .as_deref()
            .map(split_spans)
            .unwrap_or_default();
        let compiled = compile(&project.model);
        let graph = build_graph(&compiled);
        let settings = project.settings;
        let mut workspace = Workspace {
            project_dir: project.dir,
            model: project.model,
            tests: project.tests,
            document: project.document,
            document_name: settings.document,
            spans,
            span_rules: BTreeMap::new(),
            rule_english: HashMap::new(),
            compiled,
            graph,
            question_symbols: HashMap::new(),
            run: Runs::default(),
            history: History::default(),
            drafts,
            answer_translations: settings.answer_translations,
            answer_threshold: settings.answer_threshold,
            revisions: Default::default(),
        };
        for test in &workspace.tests.tests {
            workspace
                .run
                .results
                .insert(test.id.clone(), TestState::NotRun);
        }
        workspace.refresh_derived();
        workspace
    }

    /// The revision the project is at now (see `revision.rs`).
    pub fn revision(&self) -> Revision {
        self.revisions.borrow_mut().of(&self.model, &self.tests)
    }

    /// The stamp for a new request on the project as it is now.
    pub fn stamp(&self) -> Stamp {
        Stamp {
            job: JobId::next(),
            revision: self.revision(),
        }
    }

    /// Recompiles the model after an edit (cheap: a few milliseconds for
    /// 1,500 rules) and rebuilds the rule↔variable graph.
    pub fn recompile(&mut self) {
        self.compiled = compile(&self.model);
        self.graph = build_graph(&self.compiled);
        self.refresh_derived();
    }

    /// After an edit of rule `id` alone (changed, added at the end or
    /// deleted): compiles and words just that rule when it can, and relinks
    /// it in the graph when it was there before; else compiles or builds
    /// the whole. The same result as `recompile`.
    pub fn recompile_rule(&mut self, id: &str) {
        if !recompile_rule(&mut self.compiled, &self.model, id) {
            return self.recompile();
        }
        let relinked = match self.compiled.rule(id) {
            Some(rule) => {
                let english = self.compiled.glossary.sentence(&rule.written);
                self.rule_english.insert(id.to_string(), english);
                self.graph.replace_rule(id, &rule.formula)
            }
            None => {
                self.rule_english.remove(id);
                false
            }
        };
        if !relinked {
            self.graph = build_graph(&self.compiled);
        }
        self.span_rules = self.rules_by_span();
    }

    /// What is derived from the model and kept with it: rules per span and
    /// each rule's English.
    fn refresh_derived(&mut self) {
        self.span_rules = self.rules_by_span();
        self.rule_english = self
            .compiled
            .rules
            .iter()
            .map(|r| (r.id.clone(), self.compiled.glossary.sentence(&r.written)))
            .collect();
    }

    /// The document span a rule formalizes, by its source range.
    pub fn span_of_rule(&self, rule: &Rule) -> Option<usize> {
        let source = rule.source_span?;
        self.spans
            .iter()
            .position(|s| s.overlaps(source.start, source.end))
    }

    /// Rule ids per document span: each rule under its own span and the
    /// spans it carries for rules it took the place of.
    pub fn rules_by_span(&self) -> BTreeMap<usize, Vec<String>> {
        let mut map: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for rule in &self.model.rules {
            for source in rule.source_span.iter().chain(&rule.also_from) {
                if let Some(span) = self
                    .spans
                    .iter()
                    .position(|s| s.overlaps(source.start, source.end))
                {
                    let ids = map.entry(span).or_default();
                    if !ids.contains(&rule.id) {
                        ids.push(rule.id.clone());
                    }
                }
            }
        }
        map
    }
}

/// The rule↔variable graph of a compiled model.
pub fn build_graph(compiled: &CompiledModel) -> RuleGraph {
    RuleGraph::build(
        compiled.variables.iter().map(|(n, _)| n.as_str()),
        compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    )
}

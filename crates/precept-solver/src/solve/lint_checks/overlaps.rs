//! Overlapping rules that conflict, and gaps: situations no rule decides.

use crate::model::diagnostic::{Diagnostic, LintCode, Severity};
use crate::smt::Expr;
use std::collections::{BTreeSet, HashSet};
use z3::SatResult;
use z3::ast::Bool;

use super::answer_memo::{Shows, question_key};
use super::condition_box::ConditionBox;
use super::linter::{Linter, true_in};
use super::near::Answer;
use crate::model::HitPolicy;

/// An implication of the group, for the overlap check.
struct Implication {
    rule: usize,
    condition: Expr,
    /// The variables its conclusion mentions.
    outputs: BTreeSet<String>,
    condition_box: ConditionBox,
    /// Its condition and conclusion in Z3.
    encoded: Option<(Bool, Bool)>,
    /// Its condition and conclusion written out, while recalling.
    texts: (String, String),
}

impl Linter<'_> {
    /// L206: two rules whose conditions can hold together (under the other
    /// rules) while their consequences contradict each other. Rows of one
    /// decision table follow its hit policy: in a First, Priority or
    /// Collect table overlaps are how the table works, in a Unique table
    /// any overlap is a conflict.
    pub(super) fn overlaps(&mut self, group: &[usize]) {
        let is_variable = |s: &str| self.session.vocabulary.is_variable(s);
        let recalling = self.recall.is_some();
        let implications: Vec<Implication> = group
            .iter()
            .filter_map(|&i| {
                let (antecedent, consequent) = self.split(i)?;
                let outputs: BTreeSet<String> = consequent
                    .symbols()
                    .into_iter()
                    .filter(|s| self.session.vocabulary.is_variable(s))
                    .map(str::to_string)
                    .collect();
                let condition_box = ConditionBox::of(&antecedent, &is_variable);
                // Encoded once, not once per pair; with a key of each side
                // for recalling (`recall.rs`), written without Z3's printer.
                let encoded = self.encode(&antecedent).zip(self.encode(&consequent));
                let texts = match recalling {
                    true => (antecedent.to_string(), consequent.to_string()),
                    false => Default::default(),
                };
                Some(Implication {
                    rule: i,
                    condition: antecedent,
                    outputs,
                    condition_box,
                    encoded,
                    texts,
                })
            })
            .collect();
        let total = implications.len();
        for (n, one) in implications.iter().enumerate() {
            let (first, a1, out1, box1) =
                (&one.rule, &one.condition, &one.outputs, &one.condition_box);
            if self.stopped() {
                return;
            }
            self.progress(n, total, "conflicting overlaps");
            for other in &implications[n + 1..] {
                let (second, a2, out2, box2) = (
                    &other.rule,
                    &other.condition,
                    &other.outputs,
                    &other.condition_box,
                );
                if out1.is_disjoint(out2) || box1.disjoint(box2) {
                    continue;
                }
                let table = self
                    .model
                    .tables
                    .shared_table(&self.model.rules[*first].id, &self.model.rules[*second].id);
                if table.is_some_and(HitPolicy::allows_overlaps) {
                    continue;
                }
                let (Some((a1e, c1e)), Some((a2e, c2e))) = (&one.encoded, &other.encoded) else {
                    continue;
                };
                let both_apply = Bool::and(&[a1e, a2e]);
                let unique = table == Some(HitPolicy::Unique);
                let ((t1a, t1c), (t2a, t2c)) = (&one.texts, &other.texts);
                // Whether the consequences contradict each other when both
                // conditions hold asks no rule: a solver of its own. Most
                // pairs end here, before the question of the rules.
                let conflict = match unique {
                    true => SatResult::Unsat,
                    false => self.holds_alone_keyed(
                        recalling.then(|| format!("both follow {t1a} & {t2a} => {t1c} & {t2c}")),
                        || Bool::and(&[both_apply.clone(), Bool::and(&[c1e, c2e])]),
                    ),
                };
                if conflict == SatResult::Sat {
                    continue;
                }
                let mut variables: Vec<&str> =
                    out1.iter().chain(out2.iter()).map(String::as_str).collect();
                variables.dedup();
                let others: Vec<usize> = self
                    .rules_touching(&variables)
                    .into_iter()
                    .filter(|r| r != first && r != second)
                    .collect();
                let scope: HashSet<String> = a1
                    .symbols()
                    .into_iter()
                    .chain(a2.symbols())
                    .filter(|s| self.session.vocabulary.is_variable(s))
                    .map(str::to_string)
                    .collect();
                let about: Vec<&str> = scope.iter().map(String::as_str).collect();
                let key = recalling.then(|| format!("both apply {t1a} & {t2a}"));
                let scenario = match self.ask_keyed(key, &others, &both_apply, &about, Some(&scope))
                {
                    Answer::Holds(Some(scenario)) => scenario,
                    Answer::Holds(None) | Answer::Refuted { .. } => continue,
                    Answer::Undecided => {
                        let (id1, id2) = (self.id(*first), self.id(*second));
                        self.undecided(
                            format!("whether {id1} and {id2} can both apply"),
                            vec![id1, id2],
                        );
                        continue;
                    }
                };
                if unique {
                    self.unique_rows_overlap(*first, *second, &variables, scenario);
                    continue;
                }
                match conflict {
                    SatResult::Unsat => {
                        let (id1, id2) = (self.id(*first), self.id(*second));
                        let message = format!(
                            "{id1} and {id2} can both apply (the scenario shows when), but their consequences contradict each other, so in that case the policy allows nothing. Decide which rule wins and add the exception to the other."
                        );
                        let mut diagnostic = Diagnostic::new(
                            LintCode::ConflictingOverlap,
                            Severity::Warning,
                            message,
                        )
                        .rules([id1, id2])
                        .variables(variables.iter().map(|v| v.to_string()))
                        .scenario(scenario);
                        let mut fixes = self.exception_fixes(*first, *second).into_iter();
                        diagnostic.fix = fixes.next();
                        diagnostic.alternatives = fixes.collect();
                        self.found(diagnostic);
                    }
                    SatResult::Unknown => self.undecided(
                        format!(
                            "whether {} and {} conflict",
                            self.id(*first),
                            self.id(*second)
                        ),
                        vec![self.id(*first), self.id(*second)],
                    ),
                    SatResult::Sat => {}
                }
            }
        }
    }

    /// L206 for two rows of a Unique decision table that can both match:
    /// the table promises that never happens, whatever their outputs.
    fn unique_rows_overlap(
        &mut self,
        first: usize,
        second: usize,
        variables: &[&str],
        scenario: crate::model::finding::Scenario,
    ) {
        let (id1, id2) = (self.id(first), self.id(second));
        let message = format!(
            "{id1} and {id2} are rows of a decision table with the UNIQUE hit policy, and both match in the scenario shown; a UNIQUE table promises that at most one row matches. Narrow one row, or change the hit policy if the overlap is meant."
        );
        let mut diagnostic =
            Diagnostic::new(LintCode::ConflictingOverlap, Severity::Warning, message)
                .rules([id1, id2])
                .variables(variables.iter().map(|v| v.to_string()))
                .scenario(scenario);
        let mut fixes = self.exception_fixes(first, second).into_iter();
        diagnostic.fix = fixes.next();
        diagnostic.alternatives = fixes.collect();
        self.found(diagnostic);
    }

    /// L207: an output variable (it appears only in consequents) that no
    /// rule determines for some inputs: a witness where every rule that sets
    /// it is switched off by its condition.
    pub(super) fn gaps(&mut self, group: &[usize]) {
        let mut in_conditions: HashSet<String> = HashSet::new();
        let mut setters: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for &i in group {
            let rule = &self.model.rules[i];
            match self.split(i) {
                Some((antecedent, consequent)) => {
                    in_conditions.extend(antecedent.symbols().into_iter().map(str::to_string));
                    for symbol in consequent.symbols() {
                        if self.session.vocabulary.is_variable(symbol) {
                            setters.entry(symbol.to_string()).or_default().push(i);
                        }
                    }
                }
                None => {
                    in_conditions.extend(rule.formula.symbols().into_iter().map(str::to_string))
                }
            }
        }
        // A Collect table that matches no row gives an empty list (or
        // null), which DMN means: that is no gap.
        let collected = |rules: &Vec<usize>| {
            rules.iter().all(|&r| {
                self.model.tables.policy_of(&self.model.rules[r].id) == Some(HitPolicy::Collect)
            })
        };
        let outputs: Vec<(String, Vec<usize>)> = setters
            .into_iter()
            .filter(|(v, rules)| !in_conditions.contains(v) && !collected(rules))
            .collect();
        let total = outputs.len();
        // Scenarios earlier gap checks found: most outputs' gaps show in
        // one of them (or in the base model), and need no check.
        let mut met: Vec<z3::Model> = Vec::new();
        let mut scopes: Option<(Vec<usize>, HashSet<String>)> = None;
        for (n, (output, rules)) in outputs.into_iter().enumerate() {
            if self.stopped() {
                return;
            }
            self.progress(n, total, "gaps");
            let conditions: Vec<Bool> = rules
                .iter()
                .filter_map(|&r| self.split(r))
                .filter_map(|(a, _)| self.encode(&a))
                .map(|a| a.not())
                .collect();
            let none_applies = Bool::and(&conditions);
            let others: Vec<usize> = self.rules_touching(&[output.as_str()]);
            // Most outputs share one group: its variables are gathered
            // once.
            if scopes.as_ref().is_none_or(|(rules, _)| *rules != others) {
                let scope: HashSet<String> = others
                    .iter()
                    .flat_map(|&r| self.session.rules[r].variables.clone())
                    .collect();
                scopes = Some((others.clone(), scope));
            }
            let Some((_, scope)) = &scopes else {
                continue;
            };
            let mut near: Vec<String> = rules
                .iter()
                .flat_map(|&r| self.session.rules[r].variables.iter().cloned())
                .collect();
            near.sort_unstable();
            near.dedup();
            let about: Vec<&str> = near.iter().map(String::as_str).collect();
            // The last run's answer first, when it still holds
            // (`recall.rs`): cheaper than trying the scenarios met.
            let key = self
                .recall
                .as_ref()
                .map(|_| question_key("ask", &none_applies));
            let answer = self.recalled_or(key, &others, Shows::Over(scope), |linter| {
                linter.gap_fresh(&mut met, &others, &none_applies, &about, scope)
            });
            match answer {
                Answer::Holds(scenario) => {
                    let ids = self.session.rule_names(&rules);
                    let message = format!(
                        "{output} is decided only by {}, and in the scenario shown none of them applies, so the policy says nothing about {output} there. Add the missing case (often the 'otherwise' of the text).",
                        ids.join(", ")
                    );
                    let mut diagnostic = Diagnostic::new(LintCode::Gap, Severity::Warning, message)
                        .rules(ids)
                        .variables([output.clone()]);
                    if let Some(scenario) = scenario {
                        diagnostic = diagnostic.scenario(scenario);
                    }
                    self.found(diagnostic);
                }
                Answer::Undecided => {
                    self.undecided(format!("whether {output} is always determined"), Vec::new())
                }
                Answer::Refuted { .. } => {}
            }
        }
    }
}

/// How many of the scenarios gap checks found are tried on later outputs.
const GAP_MODELS_KEPT: usize = 4;

impl Linter<'_> {
    /// Whether none of the conditions that set an output applies
    /// (`none_applies`) can hold with the rules `others`: in a scenario met
    /// before, else asked (`about` the rules' variables); the scenario is
    /// shown over `scope`.
    fn gap_fresh(
        &mut self,
        met: &mut Vec<z3::Model>,
        others: &[usize],
        none_applies: &Bool,
        about: &[&str],
        scope: &HashSet<String>,
    ) -> Answer {
        if let Some(scenario) = self.gap_in_met(met, others, none_applies, scope) {
            // With a base model no scenario is met: it is the base model's.
            self.shown_in_base();
            return Answer::Holds(Some(scenario));
        }
        let answer = self.ask_fresh(others, none_applies, about, Some(scope));
        // A small group's question is asked of its own solver, whose model
        // is then the scenario shown.
        if matches!(answer, Answer::Holds(_))
            && self.base.is_none()
            && let Some(model) = self.session.solver.get_model()
        {
            if met.len() == GAP_MODELS_KEPT {
                met.remove(0);
            }
            met.push(model);
        }
        answer
    }

    /// A scenario, among the base model and those `met`, in which every
    /// rule of `on` holds and `none_applies` too, by the model's own
    /// evaluation: the gap shows there, as a check would find it; shown
    /// over `scope`.
    fn gap_in_met(
        &self,
        met: &[z3::Model],
        on: &[usize],
        none_applies: &Bool,
        scope: &HashSet<String>,
    ) -> Option<crate::model::finding::Scenario> {
        let model = self.base.iter().chain(met).find(|model| {
            true_in(model, none_applies)
                && on
                    .iter()
                    .all(|&r| true_in(model, &self.session.rules[r].formula))
        })?;
        Some(self.session.vocabulary.scenario(model, Some(scope)))
    }
}

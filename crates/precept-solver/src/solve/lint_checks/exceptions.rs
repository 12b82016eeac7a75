//! Two checks for general rules that lost their exceptions, the mistake that
//! made a real model prove wrong answers:
//!
//! * **L209 shadowed exception.** Rules A and B reach the same conclusion and
//!   B's condition is A's plus more conjuncts, often a negated one ("turnover over the
//!   threshold and no exception confirmed"). B follows from A, so B's extra
//!   condition, the exception, never takes effect.
//! * **L210 impossible situation.** The rules forbid a combination of input
//!   facts (facts no rule defines), such as "disabled by a vaccine given
//!   abroad". Real situations cannot be impossible; almost always a general
//!   rule is missing the condition that another rule requires. Bounds on a
//!   single input (`age ≥ 0`) are domain constraints, never reported, and so
//!   are rules that only say which enum values a Boolean names. Inputs are
//!   told from conclusions by what a rule means (`orientation.rs`).

use std::collections::{BTreeSet, HashMap, HashSet};

use z3::SatResult;
use z3::ast::Bool;

use super::input_facts::{Fact, FactValue, facts_of};
use super::linter::Linter;
use super::near::Answer;
use super::recall::facts_key;
use super::scenario_repair::Rules;
use super::situation_pool::SituationPool;
use crate::model::diagnostic::{Diagnostic, Fix, LintCode, ModelEdit, Severity};
use crate::model::orientation::negation_of;
use crate::smt::{Expr, ExprKind, Op, Sort};
use crate::solve::Scenario;

/// An impossible-situation search under way: the group, its facts'
/// formulas and the scenarios met.
struct Search<'a> {
    group: &'a [usize],
    encoded: &'a [Bool],
    /// The facts written out, while recalling (`recall.rs`).
    texts: &'a [String],
    pool: SituationPool<'a>,
    /// Each fact's guard in the group's solver, once it has been asked,
    /// and the fact of each guard.
    guards: Vec<Option<Bool>>,
    guard_of: HashMap<String, usize>,
    /// The group's rules as plain facts, once a set has been asked.
    plain: Option<z3::Solver>,
}

/// The most impossible situations reported per group of rules.
const MAX_SITUATIONS: usize = 10;

/// Pairs of facts are tried only in groups with at most this many facts
/// (the pairs grow with the square); larger groups get the extremes only.
const MAX_FACTS_FOR_PAIRS: usize = 60;

/// The conjuncts of a condition.
fn conjuncts(expr: &Expr) -> Vec<Expr> {
    match &expr.kind {
        ExprKind::App(Op::And, args) => args.iter().flat_map(conjuncts).collect(),
        _ => vec![expr.clone()],
    }
}

fn and_of(mut parts: Vec<Expr>) -> Expr {
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Expr::app(Op::And, parts)
    }
}

fn is_negation(expr: &Expr) -> bool {
    matches!(
        &expr.kind,
        ExprKind::App(Op::Not, _) | ExprKind::App(Op::Distinct, _)
    )
}

/// The variables a conclusion states outright (see `Linter::inputs`).
fn defines(conclusion: &Expr, defined: &mut HashSet<String>) {
    match &conclusion.kind {
        ExprKind::Symbol(name) => {
            defined.insert(name.clone());
        }
        ExprKind::App(Op::And, args) => args.iter().for_each(|a| defines(a, defined)),
        ExprKind::App(Op::Not, args) => {
            if let Some(ExprKind::Symbol(name)) = args.first().map(|a| &a.kind) {
                defined.insert(name.clone());
            }
        }
        // `(= x e)` and `(= e x)` say the same: whichever side is a
        // variable is defined (both, when both are).
        ExprKind::App(Op::Eq, args) => defines_either_side(args, defined),
        // A bound in a conclusion (`(<= amount 30)`) is a requirement on a
        // fact, not its definition: the amount stays an input.
        _ => {}
    }
}

/// The variables an equation defines, whichever side they are written on.
fn defines_either_side(args: &[Expr], defined: &mut HashSet<String>) {
    for arg in args {
        if let ExprKind::Symbol(name) = &arg.kind {
            defined.insert(name.clone());
        }
    }
}

impl<'a> Linter<'a> {
    /// L209. Returns the pairs (general rule, rule with the exception), so
    /// that the redundancy check does not also propose deleting the rule
    /// that carries the exception.
    pub(super) fn shadowed_exceptions(&mut self, group: &[usize]) -> HashSet<(usize, usize)> {
        let mut found = HashSet::new();
        self.progress(0, group.len(), "shadowed exceptions");
        // Text work on the rules as written, solver work on their formulas.
        // Each condition's conjuncts are printed once: a decision table
        // brings thousands of rules with the same conclusion.
        type Implication = (usize, Expr, Expr, String, Expr, Vec<String>);
        let implications: Vec<Implication> = group
            .iter()
            .filter_map(|&i| {
                let (condition, conclusion) = self.split_written(i)?;
                let (typed, _) = self.split(i)?;
                let text = conclusion.to_string();
                let parts = conjuncts(&condition).iter().map(Expr::to_string).collect();
                Some((i, condition, conclusion, text, typed, parts))
            })
            .collect();
        for (a, cond_a, conclusion, text_a, typed_a, general) in &implications {
            for (b, cond_b, _, text_b, typed_b, specific) in &implications {
                if a == b || text_a != text_b || specific.len() <= general.len() || self.stopped() {
                    continue;
                }
                // B's condition is A's plus more: every conjunct of A's
                // condition is one of B's, and B has others.
                if !general.iter().all(|c| specific.contains(c)) {
                    continue;
                }
                let extra: Vec<Expr> = conjuncts(cond_b)
                    .into_iter()
                    .filter(|c| !general.contains(&c.to_string()))
                    .collect();
                if extra.is_empty() {
                    continue;
                }
                // The extra conditions must matter (else the rules are
                // equivalent, which L121 reports).
                let (Some(ea), Some(eb)) = (self.encode(typed_a), self.encode(typed_b)) else {
                    continue;
                };
                if self.holds_alone(&Bool::and(&[ea, eb.not()])) != SatResult::Sat {
                    continue;
                }
                found.insert((*a, *b));
                self.report_shadowed(*a, *b, cond_a, conclusion, &extra);
            }
        }
        found
    }

    fn report_shadowed(
        &mut self,
        a: usize,
        b: usize,
        cond_a: &Expr,
        conclusion: &Expr,
        extra: &[Expr],
    ) {
        let (id_a, id_b) = (self.id(a), self.id(b));
        let extra_text: Vec<String> = extra.iter().map(Expr::to_string).collect();
        let negated = extra.iter().any(is_negation);
        let message = format!(
            "{id_a} may be missing the exception that {id_b} states: {id_b} reaches the same conclusion only when also {}, but {id_a} reaches it without that, so the exception never takes effect ({id_b} follows from {id_a}). Add the condition to {id_a}, or delete {id_a} if {id_b} says it all.",
            extra_text.join(" and ")
        );
        let mut condition = conjuncts(cond_a);
        condition.extend(extra.iter().cloned());
        let repaired = Expr::app(Op::Implies, vec![and_of(condition), conclusion.clone()]);
        let variables: BTreeSet<String> = extra
            .iter()
            .flat_map(|e| e.symbols())
            .filter(|s| self.session.vocabulary.is_variable(s))
            .map(str::to_string)
            .collect();
        let severity = if negated {
            Severity::Warning
        } else {
            Severity::Info
        };
        let mut diagnostic = Diagnostic::new(LintCode::ShadowedException, severity, message)
            .rules([id_a.clone(), id_b.clone()])
            .variables(variables)
            .fix(
                format!(
                    "add {id_b}'s condition {} to {id_a}",
                    extra_text.join(" and ")
                ),
                ModelEdit::ReplaceRule {
                    id: id_a.clone(),
                    expression: repaired.to_string(),
                },
            );
        diagnostic.alternatives.push(Fix {
            description: format!("delete {id_a} ({id_b} states the rule with its exception)"),
            edit: ModelEdit::DeleteRule {
                id: id_a,
                into: Some(id_b.clone()),
            },
        });
        self.found(diagnostic);
    }

    /// The two structural fixes for a conflicting overlap of rules `first`
    /// and `second` (defaults and exceptions, as Catala writes them): one is
    /// the exception, so the other applies only unless its condition holds.
    pub(super) fn exception_fixes(&self, first: usize, second: usize) -> Vec<Fix> {
        let mut fixes = Vec::new();
        for (general, exception) in [(first, second), (second, first)] {
            let (Some((cond_g, concl_g)), Some((cond_e, _))) =
                (self.split_written(general), self.split_written(exception))
            else {
                continue;
            };
            let mut condition = conjuncts(&cond_g);
            condition.push(Expr::app(Op::Not, vec![cond_e.clone()]));
            let repaired = Expr::app(Op::Implies, vec![and_of(condition), concl_g]);
            let (id_g, id_e) = (self.id(general), self.id(exception));
            fixes.push(Fix {
                description: format!(
                    "{id_e} is the exception: {id_g} applies unless {cond_e} (it gets (not {cond_e}))"
                ),
                edit: ModelEdit::ReplaceRule {
                    id: id_g,
                    expression: repaired.to_string(),
                },
            });
        }
        fixes
    }

    /// L210: combinations of input facts that the rules forbid.
    pub(super) fn impossible_situations(&mut self, group: &[usize]) {
        let inputs = self.inputs(group);
        let domain: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&r| {
                let vars = self.rule_variables(r);
                vars.len() == 1 && vars.iter().all(|v| inputs.iter().any(|(n, _)| n == v))
            })
            .collect();
        let conditions: Vec<Expr> = group
            .iter()
            .filter_map(|&r| self.split(r))
            .map(|(condition, _)| condition)
            .collect();
        let facts: Vec<Fact> = inputs
            .iter()
            .flat_map(|(name, sort)| facts_of(self.model, name, sort, &conditions))
            .collect();
        if facts.len() < 2 {
            return;
        }
        let mut encoded: Vec<Bool> = Vec::with_capacity(facts.len());
        for fact in &facts {
            let Some(formula) = self.encode(&fact.expr()) else {
                return;
            };
            encoded.push(formula);
        }
        let rules = self.repair_rules(group);
        let texts: Vec<String> = match self.recall {
            Some(_) => facts.iter().map(|f| f.expr().to_string()).collect(),
            None => Vec::new(),
        };
        let mut search = Search {
            group,
            encoded: &encoded,
            texts: &texts,
            pool: SituationPool::new(&facts, rules),
            guards: vec![None; facts.len()],
            guard_of: HashMap::new(),
            plain: None,
        };
        if self.recall.is_some() {
            for scenario in self.situations_met(group) {
                search.pool.keep_whole(&scenario);
            }
        }
        let mut budget = self.situation_budget;
        let mut forbidden: Vec<Vec<usize>> = Vec::new();
        // Candidates: each fact with every other Bool input false, then
        // with every other Bool input true, then every pair of facts.
        let mut candidates: Vec<Vec<usize>> = Vec::new();
        for polarity in [false, true] {
            for (i, fact) in facts.iter().enumerate() {
                let mut set = vec![i];
                set.extend(facts.iter().enumerate().filter_map(|(j, f)| {
                    (f.variable != fact.variable && f.value == FactValue::Bool(polarity))
                        .then_some(j)
                }));
                candidates.push(set);
            }
        }
        // Pairs of Boolean and enum facts only: a number's thresholds are
        // tried with the extremes above, so that they do not multiply the
        // pairs.
        let plain: Vec<usize> = (0..facts.len())
            .filter(|&i| !matches!(facts[i].value, FactValue::Bound { .. }))
            .collect();
        if plain.len() <= MAX_FACTS_FOR_PAIRS {
            for (k, &i) in plain.iter().enumerate() {
                for &j in &plain[k + 1..] {
                    if facts[i].variable != facts[j].variable {
                        candidates.push(vec![i, j]);
                    }
                }
            }
        }
        let total = candidates.len();
        for (n, candidate) in candidates.into_iter().enumerate() {
            if budget == 0 || self.stopped() || forbidden.len() >= MAX_SITUATIONS {
                break;
            }
            self.progress(n, total, "impossible situations");
            if forbidden
                .iter()
                .any(|f| f.iter().all(|x| candidate.contains(x)))
            {
                continue;
            }
            let Some(minimal) = self.forbidden_core(&mut search, &candidate, &mut budget) else {
                continue;
            };
            if !forbidden.contains(&minimal) {
                forbidden.push(minimal);
            }
        }
        self.situation_budget = budget;
        if budget == 0 {
            self.situation_budget_ran_out = true;
        }
        let mut reports: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        // A single impossible fact is a forced variable (L204), not a
        // situation.
        for combination in forbidden.into_iter().filter(|c| c.len() >= 2) {
            let together = self.facts_together(&encoded, &combination);
            let Answer::Refuted { core } = self.ask_whole(group, &together, None) else {
                continue;
            };
            let Some(forbidding) = self.minimal_refuting(core, &together) else {
                return;
            };
            // A Boolean that names an enum value ("recognised as a charity
            // or CASC" ⇒ the organisation is one) forbids by definition, and
            // a constraint between two facts (a rule that reads the same
            // both ways) says just that.
            if forbidding.is_empty()
                || forbidding.iter().all(|r| domain.contains(r))
                || forbidding.iter().all(|&r| self.names_an_enum_value(r))
                || forbidding.iter().all(|r| self.symmetric.contains(r))
            {
                continue;
            }
            reports.push((combination, forbidding));
        }
        // The most ordinary first: fewest facts, then fewest rules.
        reports.sort_by_key(|(facts, rules)| (facts.len(), rules.len()));
        for (combination, forbidding) in reports {
            let situation: Vec<&Fact> = combination.iter().map(|&i| &facts[i]).collect();
            self.report_impossible(&situation, &forbidding);
        }
    }

    /// With every rule on, whether the facts `candidate` are jointly
    /// impossible; if so, a minimal subset that still is: the refuting
    /// check's core among the facts, shrunk by deletion. A set that a
    /// scenario met before makes true is possible without a check; each
    /// scenario a check finds is kept.
    fn forbidden_core(
        &mut self,
        search: &mut Search<'_>,
        candidate: &[usize],
        budget: &mut usize,
    ) -> Option<Vec<usize>> {
        let mut set = self.refuting_facts(search, candidate, budget)??;
        let mut k = 0;
        while k < set.len() {
            let smaller: Vec<usize> = set
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, &x)| x)
                .collect();
            match smaller.is_empty() {
                true => k += 1,
                false => match self.refuting_facts(search, &smaller, budget)? {
                    Some(core) => set = core,
                    None => k += 1,
                },
            }
        }
        Some(set)
    }

    /// Whether the facts `set` are impossible with every rule on: Some of
    /// the facts among the refuting check's core (sorted, never empty),
    /// None when they are possible; None outright when that was not decided
    /// or the budget is spent. Asked first of a solver of the group's rules as plain
    /// facts with the candidate's facts pushed on them (the guarded group
    /// solver took over 5 s to find the first scenarios of the dense bench
    /// model, this one 0.1 s); only a refuted set is asked again under
    /// guards, for the facts in its core.
    fn refuting_facts(
        &mut self,
        search: &mut Search<'_>,
        set: &[usize],
        budget: &mut usize,
    ) -> Option<Option<Vec<usize>>> {
        if search.pool.settles(set) {
            return Some(None);
        }
        let key = self.recall.as_ref().map(|_| facts_key(search.texts, set));
        if let Some(key) = &key {
            let pool = &mut search.pool;
            let mut met = |scenario: &Scenario| pool.keep_whole(scenario);
            if let Some(recalled) =
                self.recalled_facts(key, search.group, search.texts, set, &mut met)
            {
                // The checks it stands for count as asked.
                *budget = budget.checked_sub(1)?;
                if recalled.is_some() {
                    *budget = budget.checked_sub(1)?;
                }
                return Some(recalled);
            }
        }
        *budget = budget.checked_sub(1)?;
        let plain = search
            .plain
            .take()
            .unwrap_or_else(|| self.plain_solver(search.group));
        let group_solver = std::mem::replace(&mut self.session.solver, plain);
        self.session.solver.push();
        for &i in set {
            self.session.solver.assert(&search.encoded[i]);
        }
        let outcome = self.check(&[]);
        if outcome == SatResult::Sat
            && let Ok(scenario) = self.session.model_scenario(None)
        {
            search.pool.keep_whole(&scenario);
            if let Some(key) = key.clone() {
                self.remember_facts_met(key, &scenario);
            }
        }
        self.session.solver.pop(1);
        search.plain = Some(std::mem::replace(&mut self.session.solver, group_solver));
        match outcome {
            SatResult::Sat => return Some(None),
            SatResult::Unknown => return None,
            SatResult::Unsat => {}
        }
        // The check for the core is a check of the search's budget too.
        *budget = budget.checked_sub(1)?;
        let mut assumptions = self.session.literals(search.group);
        for &i in set {
            let guard = match &search.guards[i] {
                Some(guard) => guard.clone(),
                None => {
                    let guard = self.guard(&search.encoded[i]);
                    search.guard_of.insert(guard.to_string(), i);
                    search.guards[i] = Some(guard.clone());
                    guard
                }
            };
            assumptions.push(guard);
        }
        if self.check(&assumptions) != SatResult::Unsat {
            return None;
        }
        let rules = self.session.core_rules();
        let mut core: Vec<usize> = self
            .session
            .solver
            .get_unsat_core()
            .iter()
            .filter_map(|l| search.guard_of.get(&l.to_string()).copied())
            .collect();
        core.sort_unstable();
        core.dedup();
        // No fact in the core: the rules alone are refuted, which the
        // consistency check reports; not a situation.
        if core.is_empty() {
            return None;
        }
        if let Some(key) = key {
            self.remember_facts_refuted(key, &rules, search.texts, &core);
        }
        Some(Some(core))
    }

    /// The facts `set` together. Asked of the whole group, not near: a
    /// candidate holds every other Boolean input at once, so its near part
    /// is most of the group, and on the dense bench model near checks of
    /// candidates cost more than they saved.
    fn facts_together(&self, encoded: &[Bool], set: &[usize]) -> Bool {
        Bool::and(&set.iter().map(|&i| encoded[i].clone()).collect::<Vec<_>>())
    }

    fn report_impossible(&mut self, situation: &[&Fact], forbidding: &[usize]) {
        let ids = self.session.rule_names(forbidding);
        let facts: Vec<String> = situation.iter().map(|f| f.show()).collect();
        let message = format!(
            "The rules make a plain situation impossible: {} cannot happen together (forbidden by {}). Real situations cannot be impossible, so any question about it is IMPOSSIBLE or wrongly decided; a general rule is probably missing a condition that another rule requires.",
            facts.join(", "),
            ids.join(", ")
        );
        let scenario = Scenario {
            values: situation
                .iter()
                .map(|f| (f.variable.clone(), f.value()))
                .collect(),
        };
        let mut diagnostic =
            Diagnostic::new(LintCode::ImpossibleSituation, Severity::Warning, message)
                .rules(ids)
                .variables(situation.iter().map(|f| f.variable.clone()))
                .scenario(scenario);
        if let Some(fix) = self.missing_condition_fix(forbidding) {
            diagnostic.fix = Some(fix);
        }
        self.found(diagnostic);
    }

    /// For the shape "G: a ⇒ g" and "N: g ⇒ c" (a general rule and a rule
    /// that states what its conclusion requires), the fix that moves N's
    /// requirement into G's condition: "a ∧ c ⇒ g". A requirement stated
    /// as a denial, "N: d ⇒ ¬g", is the requirement ¬d.
    fn missing_condition_fix(&self, forbidding: &[usize]) -> Option<Fix> {
        let [first, second] = forbidding else {
            return None;
        };
        for (g, n) in [(*first, *second), (*second, *first)] {
            let (cond_g, concl_g) = self.split_written(g)?;
            let Some((cond_n, concl_n)) = self.split_written(n) else {
                continue;
            };
            let concluded: BTreeSet<&str> = concl_g.symbols().into_iter().collect();
            let within = |e: &Expr| {
                let symbols = e.symbols();
                !symbols.is_empty() && symbols.iter().all(|s| concluded.contains(s))
            };
            let requirement = if within(&cond_n) {
                concl_n.clone()
            } else if within(&concl_n) && matches!(concl_n.kind, ExprKind::App(Op::Not, _)) {
                negation_of(&cond_n)
            } else {
                continue;
            };
            let concl_n = requirement;
            let mut condition = conjuncts(&cond_g);
            condition.push(concl_n.clone());
            let repaired = Expr::app(Op::Implies, vec![and_of(condition), concl_g.clone()]);
            let (id_g, id_n) = (self.id(g), self.id(n));
            return Some(Fix {
                description: format!("{id_g} gets {id_n}'s condition {concl_n}"),
                edit: ModelEdit::ReplaceRule {
                    id: id_g,
                    expression: repaired.to_string(),
                },
            });
        }
        None
    }

    /// The group's input variables: no rule defines them. A rule defines
    /// what its conclusion states outright (`x`, `(not x)`, `(= x …)` and
    /// each part of an `and`), and a top-level `(= x …)` defines `x`; a
    /// disjunction of requirements or a bound (`(<= x …)`) defines nothing.
    fn inputs(&self, group: &[usize]) -> Vec<(String, Sort)> {
        let mut defined: HashSet<String> = HashSet::new();
        let mut used: BTreeSet<String> = BTreeSet::new();
        for &r in group {
            let formula = &self.model.rules[r].formula;
            used.extend(self.rule_variables(r));
            match self.split(r) {
                Some((_, conclusion)) => defines(&conclusion, &mut defined),
                None => {
                    if let ExprKind::App(Op::Eq, args) = &formula.kind {
                        defines_either_side(args, &mut defined);
                    }
                }
            }
        }
        self.model
            .variables
            .iter()
            .filter(|(name, _)| used.contains(name) && !defined.contains(name))
            .cloned()
            .collect()
    }

    /// Whether `rule` relates one Boolean to one enum variable and nothing
    /// else: a Boolean that restates some of the enum's values.
    fn names_an_enum_value(&self, rule: usize) -> bool {
        let sorts: Vec<Sort> = self
            .rule_variables(rule)
            .iter()
            .filter_map(|v| self.model.vocabulary.variable_sort(v).cloned())
            .collect();
        matches!(
            sorts.as_slice(),
            [Sort::Bool, Sort::Enum(_)] | [Sort::Enum(_), Sort::Bool]
        )
    }

    /// What mending a scenario of `group` reads (`scenario_repair.rs`).
    pub(super) fn repair_rules(&self, group: &[usize]) -> Rules<'a> {
        Rules::of_rules(self.model, group)
    }

    fn rule_variables(&self, rule: usize) -> BTreeSet<String> {
        self.model.rules[rule]
            .formula
            .symbols()
            .into_iter()
            .filter(|s| self.session.vocabulary.is_variable(s))
            .map(str::to_string)
            .collect()
    }
}

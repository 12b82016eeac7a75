//! Breakdown: a stand-alone replica of precept's solver session (same Z3
//! encoding, same guard literals, same sequence of checks) with a timer on
//! each phase, to show where a verify spends its time.

use precept::model::CompiledModel;
use precept::smt::{Expr, ExprKind, Op, Sort};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic, Int, Real};
use z3::{SatResult, Solver};

pub struct Vocab {
    values: HashMap<String, Dynamic>,
    variables: HashMap<String, Dynamic>,
    order: Vec<(String, Sort)>,
}

impl Vocab {
    pub fn new(model: &CompiledModel) -> Vocab {
        let mut sorts = HashMap::new();
        let mut values = HashMap::new();
        for (name, names) in &model.enums {
            let symbols: Vec<z3::Symbol> = names
                .iter()
                .map(|v| z3::Symbol::String(v.clone()))
                .collect();
            let (sort, constants, _) =
                z3::Sort::enumeration(z3::Symbol::String(name.clone()), &symbols);
            for (value, constant) in names.iter().zip(constants) {
                values.insert(value.clone(), constant.apply(&[]));
            }
            sorts.insert(name.clone(), sort);
        }
        let mut variables = HashMap::new();
        for (name, sort) in &model.variables {
            let constant = match sort {
                Sort::Bool => Dynamic::from_ast(&Bool::new_const(name.as_str())),
                Sort::Int => Dynamic::from_ast(&Int::new_const(name.as_str())),
                Sort::Real => Dynamic::from_ast(&Real::new_const(name.as_str())),
                Sort::Enum(t) => Dynamic::new_const(name.as_str(), &sorts[t]),
            };
            variables.insert(name.clone(), constant);
        }
        Vocab {
            values,
            variables,
            order: model.variables.clone(),
        }
    }

    pub fn formula(&self, expr: &Expr) -> Bool {
        self.term(expr).as_bool().expect("a Bool formula")
    }

    fn term(&self, expr: &Expr) -> Dynamic {
        match &expr.kind {
            ExprKind::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
            ExprKind::Int(i) => {
                Dynamic::from_ast(&Int::from_i64(i.to_string().parse().expect("small Int")))
            }
            ExprKind::Decimal(r) => Dynamic::from_ast(
                &Real::from_rational_str(&r.numer().to_string(), &r.denom().to_string())
                    .expect("a rational"),
            ),
            ExprKind::Symbol(name) => self
                .variables
                .get(name)
                .or_else(|| self.values.get(name))
                .cloned()
                .expect("a declared name"),
            ExprKind::App(op, args) => {
                let args: Vec<Dynamic> = args.iter().map(|a| self.term(a)).collect();
                apply(*op, &args)
            }
        }
    }

    /// The Int variables (in `scope`, if given), in declaration order.
    fn int_variables<'a>(
        &'a self,
        scope: Option<&'a HashSet<String>>,
    ) -> impl Iterator<Item = Int> + 'a {
        self.order
            .iter()
            .filter(|(_, sort)| *sort == Sort::Int)
            .filter(move |(name, _)| scope.is_none_or(|s| s.contains(name)))
            .filter_map(|(name, _)| self.variables.get(name)?.as_int())
    }

    /// What `Z3Vocabulary::scenario` does: evaluate and print every
    /// variable in `scope` (`fast_read`: the model's own value where it
    /// has one).
    fn scenario(
        &self,
        model: &z3::Model,
        scope: Option<&HashSet<String>>,
        fast_read: bool,
    ) -> usize {
        self.order
            .iter()
            .filter(|(name, _)| scope.is_none_or(|s| s.contains(name)))
            .filter_map(|(name, _)| {
                let constant = &self.variables[name];
                let value = if fast_read {
                    model.get_const_interp(constant)
                } else {
                    None
                };
                value.or_else(|| model.eval(constant, true))
            })
            .map(|value| value.to_string().len())
            .sum()
    }
}

fn bools(args: &[Dynamic]) -> Vec<Bool> {
    args.iter().map(|a| a.as_bool().expect("Bool")).collect()
}

fn compare(op: Op, a: &Dynamic, b: &Dynamic) -> Bool {
    if let (Some(a), Some(b)) = (a.as_int(), b.as_int()) {
        return match op {
            Op::Lt => a.lt(&b),
            Op::Le => a.le(&b),
            Op::Gt => a.gt(&b),
            _ => a.ge(&b),
        };
    }
    let (a, b) = (a.as_real().expect("Real"), b.as_real().expect("Real"));
    match op {
        Op::Lt => a.lt(&b),
        Op::Le => a.le(&b),
        Op::Gt => a.gt(&b),
        _ => a.ge(&b),
    }
}

fn chain(args: &[Dynamic], relation: impl Fn(&Dynamic, &Dynamic) -> Bool) -> Dynamic {
    let links: Vec<Bool> = args.windows(2).map(|w| relation(&w[0], &w[1])).collect();
    Dynamic::from_ast(&Bool::and(&links))
}

fn apply(op: Op, args: &[Dynamic]) -> Dynamic {
    match op {
        Op::And => Dynamic::from_ast(&Bool::and(&bools(args))),
        Op::Or => Dynamic::from_ast(&Bool::or(&bools(args))),
        Op::Not => Dynamic::from_ast(&bools(args)[0].not()),
        Op::Implies => {
            let parts = bools(args);
            let (last, init) = parts.split_last().expect("=> arguments");
            Dynamic::from_ast(
                &init
                    .iter()
                    .rev()
                    .fold(last.clone(), |acc, premise| premise.implies(&acc)),
            )
        }
        Op::Eq => chain(args, |a, b| a.safe_eq(b.clone()).expect("one sort")),
        Op::Distinct => Dynamic::from_ast(&Dynamic::distinct(args)),
        Op::Ite => args[0]
            .as_bool()
            .expect("Bool condition")
            .ite(&args[1], &args[2]),
        Op::Lt | Op::Le | Op::Gt | Op::Ge => chain(args, |a, b| compare(op, a, b)),
        Op::Add | Op::Sub | Op::Mul => {
            if let Some(ints) = args.iter().map(Dynamic::as_int).collect::<Option<Vec<_>>>() {
                Dynamic::from_ast(&match (op, ints.len()) {
                    (Op::Sub, 1) => ints[0].unary_minus(),
                    (Op::Add, _) => Int::add(&ints),
                    (Op::Sub, _) => Int::sub(&ints),
                    _ => Int::mul(&ints),
                })
            } else {
                let reals: Vec<Real> = args.iter().map(|a| a.as_real().expect("Real")).collect();
                Dynamic::from_ast(&match (op, reals.len()) {
                    (Op::Sub, 1) => reals[0].unary_minus(),
                    (Op::Add, _) => Real::add(&reals),
                    (Op::Sub, _) => Real::sub(&reals),
                    _ => Real::mul(&reals),
                })
            }
        }
        Op::Div => {
            let reals: Vec<Real> = args.iter().map(|a| a.as_real().expect("Real")).collect();
            let (first, rest) = reals.split_first().expect("/ arguments");
            Dynamic::from_ast(&rest.iter().fold(first.clone(), |acc, d| acc.div(d)))
        }
        Op::ToReal => Dynamic::from_ast(&args[0].as_int().expect("Int").to_real()),
        Op::ToInt => Dynamic::from_ast(&args[0].as_real().expect("Real").to_int()),
    }
}

/// Phase timers, summed over requests.
#[derive(Default)]
pub struct Phases {
    pub setup: Duration,
    pub warnings: Duration,
    pub main: Duration,
    pub main_checks: usize,
    pub preference: Duration,
    pub preference_checks: usize,
    pub scenario: Duration,
    pub scenarios: usize,
    pub minimize: Duration,
    pub minimize_checks: usize,
    pub pop: Duration,
    pub total: Duration,
    pub each: Vec<Duration>,
}

/// How a request uses the solver.
#[derive(Clone, Copy, PartialEq)]
pub enum Protocol {
    /// precept at commit 73df416: push, guards, every rule assumed,
    /// warnings with every rule switched off, pop.
    PushPop,
    /// precept since b19cd40: a fresh solver per request holding the
    /// rules of the question's variable groups (its cone); preferences
    /// and scenarios limited to the cone's variables.
    Scratch,
    /// PushPop without the push and pop: the guards stay asserted at
    /// base level (inert unless assumed); everything else unchanged.
    NoPop,
    /// NoPop plus: warnings in a solver holding only P and C; M ∧ P
    /// checked only when M ∧ P ∧ C and M ∧ P ∧ ¬C are both unsat;
    /// prefer-zero guards made once at load, minus those the rules
    /// alone refute, and assumed in those two checks directly;
    /// scenario values read with get_const_interp.
    Proposed,
}

pub struct Session {
    solver: Solver,
    vocab: Vocab,
    formulas: Vec<Bool>,
    literals: Vec<Bool>,
    off: Vec<Bool>,
    owner: HashMap<String, usize>,
    preferences: Vec<Bool>,
}

impl Session {
    pub fn load(model: &CompiledModel) -> Session {
        let solver = Solver::new();
        let vocab = Vocab::new(model);
        let mut literals = Vec::new();
        let mut formulas = Vec::new();
        let mut owner = HashMap::new();
        for rule in &model.rules {
            let literal = Bool::fresh_const("rule");
            let formula = vocab.formula(&rule.formula);
            solver.assert(literal.implies(&formula));
            owner.insert(literal.to_string(), literals.len());
            literals.push(literal);
            formulas.push(formula);
        }
        let off = literals.iter().map(Bool::not).collect();
        Session {
            solver,
            vocab,
            formulas,
            literals,
            off,
            owner,
            preferences: Vec::new(),
        }
    }

    /// One check with every rule assumed.
    pub fn check_all(&self) -> Duration {
        let started = Instant::now();
        self.solver.check_assumptions(&self.literals);
        started.elapsed()
    }

    /// Proposed: prefer-zero guards made once, keeping those the rules
    /// alone allow (a few cores dropped, as per request today).
    pub fn prepare_preferences(&mut self) -> Duration {
        let started = Instant::now();
        let mut active: Vec<Bool> = self
            .vocab
            .int_variables(None)
            .take(64)
            .map(|v| {
                let literal = Bool::fresh_const("prefer_zero");
                self.solver.assert(literal.implies(v.eq(Int::from_i64(0))));
                literal
            })
            .collect();
        for _ in 0..64 {
            let mut all = self.literals.clone();
            all.extend(active.iter().cloned());
            if self.solver.check_assumptions(&all) != SatResult::Unsat {
                break;
            }
            let core: Vec<String> = self
                .solver
                .get_unsat_core()
                .iter()
                .map(|l| l.to_string())
                .collect();
            active.retain(|l| !core.contains(&l.to_string()));
        }
        self.preferences = active;
        started.elapsed()
    }

    fn timed(
        solver: &Solver,
        assumptions: &[Bool],
        clock: &mut Duration,
        count: &mut usize,
    ) -> SatResult {
        let started = Instant::now();
        let result = solver.check_assumptions(assumptions);
        *clock += started.elapsed();
        *count += 1;
        result
    }

    fn core(&self, solver: &Solver) -> Vec<usize> {
        let mut core: Vec<usize> = solver
            .get_unsat_core()
            .iter()
            .filter_map(|l| self.owner.get(&l.to_string()).copied())
            .collect();
        core.sort_unstable();
        core.dedup();
        core
    }

    /// Deletion-based, each check with the candidate rules on and the
    /// dropped one (at 73df416: every other rule too) switched off.
    fn minimize(
        &self,
        solver: &Solver,
        mut core: Vec<usize>,
        fixed: &[Bool],
        all_off: bool,
        t: &mut Phases,
    ) {
        let mut i = 0;
        while i < core.len() {
            let candidate: Vec<usize> = core
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &r)| r)
                .collect();
            let mut assumptions = fixed.to_vec();
            assumptions.extend(candidate.iter().map(|&r| self.literals[r].clone()));
            if all_off {
                let mut on = vec![false; self.literals.len()];
                for &r in &candidate {
                    on[r] = true;
                }
                assumptions.extend(
                    (0..on.len())
                        .filter(|&r| !on[r])
                        .map(|r| self.off[r].clone()),
                );
            } else {
                assumptions.push(self.off[core[i]].clone());
            }
            match Self::timed(
                solver,
                &assumptions,
                &mut t.minimize,
                &mut t.minimize_checks,
            ) {
                SatResult::Unsat => {
                    let smaller = self.core(solver);
                    core = candidate
                        .into_iter()
                        .filter(|r| smaller.contains(r))
                        .collect();
                }
                _ => i += 1,
            }
        }
    }

    /// Preference rounds, then every variable's value read and printed.
    fn scenario(
        &self,
        solver: &Solver,
        assumptions: &[Bool],
        preferences: &[Bool],
        scope: Option<&HashSet<String>>,
        fast_read: bool,
        t: &mut Phases,
    ) {
        let mut active = preferences.to_vec();
        let mut found = false;
        for _ in 0..4 {
            if active.is_empty() {
                break;
            }
            let mut all = assumptions.to_vec();
            all.extend(active.iter().cloned());
            match Self::timed(solver, &all, &mut t.preference, &mut t.preference_checks) {
                SatResult::Sat => {
                    found = true;
                    break;
                }
                SatResult::Unsat => {
                    let core: Vec<String> = solver
                        .get_unsat_core()
                        .iter()
                        .map(|l| l.to_string())
                        .collect();
                    let before = active.len();
                    active.retain(|l| !core.contains(&l.to_string()));
                    if active.len() == before {
                        break;
                    }
                }
                SatResult::Unknown => break,
            }
        }
        if !found {
            Self::timed(
                solver,
                assumptions,
                &mut t.preference,
                &mut t.preference_checks,
            );
        }
        let started = Instant::now();
        if let Some(model) = solver.get_model() {
            self.vocab.scenario(&model, scope, fast_read);
        }
        t.scenario += started.elapsed();
        t.scenarios += 1;
    }

    /// One verify under `protocol`; `cone` lists the rules of the
    /// question's variable groups. Returns the finding name.
    pub fn verify(
        &self,
        premise: &Expr,
        claim: &Expr,
        cone: &[usize],
        cone_variables: &HashSet<String>,
        protocol: Protocol,
        t: &mut Phases,
    ) -> &'static str {
        use Protocol::*;
        let begin = Instant::now();
        // Only the working tree limits preferences and scenarios to the cone.
        let scope = (protocol == Scratch).then_some(cone_variables);
        if protocol == PushPop {
            self.solver.push();
        }
        let scratch = (protocol == Scratch).then(|| {
            let scratch = Solver::new();
            for &r in cone {
                scratch.assert(self.literals[r].implies(&self.formulas[r]));
            }
            scratch
        });
        let solver = scratch.as_ref().unwrap_or(&self.solver);
        let rules: Vec<usize> = match protocol {
            Scratch => cone.to_vec(),
            _ => (0..self.literals.len()).collect(),
        };
        let p = self.vocab.formula(premise);
        let c = self.vocab.formula(claim);
        let guard = |solver: &Solver, name: &str, formula: &Bool| {
            let literal = Bool::fresh_const(name);
            solver.assert(literal.implies(formula));
            literal
        };
        let (ph, ch, cf) = (
            guard(solver, "premise", &p),
            guard(solver, "claim", &c),
            guard(solver, "not_claim", &c.not()),
        );
        let preferences: Vec<Bool> = if protocol == Proposed {
            self.preferences.clone()
        } else {
            self.vocab
                .int_variables(scope)
                .take(64)
                .map(|v| guard(solver, "prefer_zero", &v.eq(Int::from_i64(0))))
                .collect()
        };
        t.setup += begin.elapsed();

        let started = Instant::now();
        if protocol == Proposed {
            let alone = Solver::new();
            for formula in [p.not(), p.clone(), c.not(), c.clone()] {
                let literal = guard(&alone, "alone", &formula);
                alone.check_assumptions(&[literal]);
            }
        } else {
            let pf = guard(solver, "not_premise", &p.not());
            for literal in [&pf, &ph, &cf, &ch] {
                let mut assumptions = if protocol == Scratch {
                    Vec::new()
                } else {
                    self.off.clone()
                };
                assumptions.push(literal.clone());
                solver.check_assumptions(&assumptions);
            }
        }
        t.warnings += started.elapsed();

        let with = |extra: &[&Bool]| {
            let mut all: Vec<Bool> = rules.iter().map(|&r| self.literals[r].clone()).collect();
            all.extend(extra.iter().map(|b| (*b).clone()));
            all
        };
        let all_off = protocol == PushPop || protocol == NoPop;
        let impossible = |t: &mut Phases| {
            let core = self.core(solver);
            self.minimize(solver, core, std::slice::from_ref(&ph), all_off, t);
            if protocol != Proposed {
                Self::timed(
                    solver,
                    &self.literals,
                    &mut t.minimize,
                    &mut t.minimize_checks,
                );
            }
            "IMPOSSIBLE"
        };
        let mut kind = "SATISFIABLE";
        let skip_first = protocol == Proposed;
        if !skip_first
            && Self::timed(solver, &with(&[&ph]), &mut t.main, &mut t.main_checks)
                == SatResult::Unsat
        {
            kind = impossible(t);
        } else {
            let mut unsat = Vec::new();
            for (literal, name) in [(&cf, "VALID"), (&ch, "INVALID")] {
                let assumptions = with(&[&ph, literal]);
                if protocol == Proposed {
                    // The preferences ride along: a sat answer is the
                    // preferred scenario at once.
                    let mut all = assumptions.clone();
                    all.extend(preferences.iter().cloned());
                    match Self::timed(solver, &all, &mut t.main, &mut t.main_checks) {
                        SatResult::Sat => {
                            let started = Instant::now();
                            if let Some(model) = solver.get_model() {
                                self.vocab.scenario(&model, None, true);
                            }
                            t.scenario += started.elapsed();
                            t.scenarios += 1;
                            continue;
                        }
                        _ => {
                            let core = solver.get_unsat_core();
                            let blames_preferences = core
                                .iter()
                                .any(|l| l.to_string().starts_with("prefer_zero"));
                            if !blames_preferences {
                                unsat.push((self.core(solver), literal, name));
                                continue;
                            }
                        }
                    }
                }
                match Self::timed(solver, &assumptions, &mut t.main, &mut t.main_checks) {
                    SatResult::Unsat => unsat.push((self.core(solver), literal, name)),
                    _ => self.scenario(solver, &assumptions, &preferences, scope, skip_first, t),
                }
            }
            if unsat.len() == 2
                && Self::timed(solver, &with(&[&ph]), &mut t.main, &mut t.main_checks)
                    == SatResult::Unsat
            {
                kind = impossible(t);
            } else {
                for (core, literal, name) in unsat {
                    self.minimize(solver, core, &[ph.clone(), literal.clone()], all_off, t);
                    kind = name;
                }
            }
        }
        let started = Instant::now();
        if protocol == PushPop {
            self.solver.pop(1);
        }
        drop(scratch);
        t.pop += started.elapsed();
        let elapsed = begin.elapsed();
        t.total += elapsed;
        t.each.push(elapsed);
        kind
    }
}

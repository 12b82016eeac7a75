//! Random claims over the scale model, and the timing helpers the scale
//! benches share.

use super::{Rng, Section};
use precept::model::CompiledModel;
use precept::smt::Expr;
use std::collections::BTreeMap;
use std::time::Duration;

/// A premise atom about the inputs of section `s` (sometimes a derived value).
fn premise_atom(rng: &mut Rng, sec: &Section, s: usize, kind: usize) -> String {
    let negate = |rng: &mut Rng, atom: String| {
        if rng.chance(35) {
            format!("(not {atom})")
        } else {
            atom
        }
    };
    match kind {
        0 => format!("(= tier_{s} {})", rng.pick(&sec.tiers)),
        1 => negate(rng, format!("isMember_{s}")),
        2 => negate(rng, format!("hasDocs_{s}")),
        3 => negate(rng, format!("isRenewal_{s}")),
        4 => format!("(= channel_{s} {})", rng.pick(&sec.channels)),
        5 => format!("(= category_{s} {})", rng.pick(&sec.categories)),
        6 => format!("(>= count_{s} {})", rng.range(0, sec.count_max + 10)),
        7 => format!("(= days_{s} {})", rng.range(0, sec.days_max)),
        8 => format!("(= base_{s} {}.0)", rng.range(0, sec.base_max + 50)),
        9 => format!("(<= fee_{s} {}.0)", rng.range(0, sec.fee_max)),
        10 => format!("(= region_{s} {})", rng.pick(&sec.regions)),
        _ => format!("(= decision_{s} {})", rng.pick(&sec.decisions)),
    }
}

/// A claim about a variable the inputs of section `s` influence.
fn claim_atom(rng: &mut Rng, sec: &Section, s: usize) -> String {
    match rng.below(9) {
        0 | 1 => format!("(= decision_{s} {})", rng.pick(&sec.decisions)),
        2 => format!("eligible_{s}"),
        3 => format!("(not eligible_{s})"),
        4 => format!("(>= amount_{s} {}.0)", rng.range(1, 12) * 50),
        5 => format!("(= priority_{s} {})", rng.pick(&sec.priorities)),
        6 => format!("needsReview_{s}"),
        7 if rng.chance(50) => format!("(> units_{s} {})", sec.units_high),
        7 => format!("(>= units_{s} {})", rng.range(0, 2 * sec.count_max)),
        _ => format!("(> payable_{s} {}.0)", rng.range(0, sec.base_max + 100)),
    }
}

pub fn random_claim(rng: &mut Rng, sections: &[Section]) -> (String, String) {
    let s = rng.below(sections.len());
    let sec = &sections[s];
    let atoms = 1 + rng.below(3);
    let mut kinds: Vec<usize> = Vec::new();
    while kinds.len() < atoms {
        // Mostly inputs; a derived value now and then.
        let kind = if rng.chance(10) { 11 } else { rng.below(11) };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    // Tier and flags drive most rules: favour them.
    if rng.chance(60) && !kinds.contains(&0) {
        kinds[0] = 0;
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|&k| premise_atom(rng, sec, s, k))
        .collect();
    let premise = if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("(and {})", parts.join(" "))
    };
    let claim = if rng.chance(10) {
        // A random atom anywhere in the document.
        let q = rng.below(sections.len());
        claim_atom(rng, &sections[q], q)
    } else {
        claim_atom(rng, sec, s)
    };
    (premise, claim)
}

// ---------------------------------------------------------------------------
// Measurement helpers.

/// A generated formula, checked against the model (it always checks).
pub fn parse(compiled: &CompiledModel, text: &str) -> Expr {
    match compiled.check_formula(text) {
        Ok((_, elaborated)) => elaborated,
        Err(e) => panic!("generated formula '{text}' does not check: {e}"),
    }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The `q`-quantile (nearest rank) of sorted durations.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Rules grouped by shared variables (transitively), as precept's cones.
pub struct Groups {
    pub rule_group: Vec<usize>,
    pub variable_group: std::collections::HashMap<String, usize>,
}

impl Groups {
    pub fn build(compiled: &CompiledModel) -> Groups {
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut parent: Vec<usize> = (0..compiled.rules.len()).collect();
        let mut first_rule: std::collections::HashMap<&str, usize> = Default::default();
        for (r, rule) in compiled.rules.iter().enumerate() {
            for name in rule.formula.symbols() {
                if compiled.vocabulary.variable_sort(name).is_none() {
                    continue;
                }
                match first_rule.get(name) {
                    Some(&other) => {
                        let (a, b) = (find(&mut parent, r), find(&mut parent, other));
                        parent[a] = b;
                    }
                    None => {
                        first_rule.insert(name, r);
                    }
                }
            }
        }
        let rule_group: Vec<usize> = (0..parent.len()).map(|r| find(&mut parent, r)).collect();
        let variable_group = first_rule
            .into_iter()
            .map(|(v, r)| (v.to_string(), rule_group[r]))
            .collect();
        Groups {
            rule_group,
            variable_group,
        }
    }

    /// (groups, rules in the largest).
    pub fn sizes(&self) -> (usize, usize) {
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for &g in &self.rule_group {
            *sizes.entry(g).or_default() += 1;
        }
        (sizes.len(), sizes.values().copied().max().unwrap_or(0))
    }

    /// The rules of the groups the expressions' variables belong to.
    pub fn cone(&self, exprs: &[&Expr]) -> Vec<usize> {
        let groups: std::collections::HashSet<usize> = exprs
            .iter()
            .flat_map(|e| e.symbols())
            .filter_map(|name| self.variable_group.get(name).copied())
            .collect();
        (0..self.rule_group.len())
            .filter(|&r| groups.contains(&self.rule_group[r]))
            .collect()
    }
}

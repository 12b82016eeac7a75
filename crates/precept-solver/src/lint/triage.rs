//! What a reviewer reads first. A lint of a real page finds a hundred
//! diagnostics, most of them notes; triage groups the ones that say the same
//! kind of thing about the same part of the model, ranks the groups so that
//! errors and the diagnostics that reach most rules and tests come first,
//! and folds the notes away into one counted line until asked for.
//!
//! Groups:
//! - every gap (L207) in one group, one member per output variable left
//!   undecided;
//! - conflicting overlaps (L206) that decide a variable in common (a
//!   conflict over `a` and one over `a` and `b` are one group, "deciding a");
//! - renamings (L121 notes: the same shape over other variables);
//! - every other diagnostic on its own.

use crate::model::LogicTest;
use crate::model::diagnostic::{Diagnostic, LintCode, Severity};
use crate::model::graph::RuleGraph;
use std::collections::BTreeSet;

/// One row of the triaged list: one diagnostic, or several of a kind.
#[derive(Debug, Clone, PartialEq)]
pub struct DiagnosticGroup {
    pub code: LintCode,
    pub severity: Severity,
    /// Indices of the members in the diagnostics triaged, in their order.
    pub members: Vec<usize>,
    /// What the row says after the code: both rules of a conflict
    /// ("R3 ↔ R7 deciding fee"), the variables of a group of gaps.
    pub subject: String,
    /// Every rule the members name, each once, in order.
    pub rules: Vec<String>,
    /// How many rules and tests the members reach (the rank after severity).
    pub reach: usize,
}

/// The list the vetting screen shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Triage {
    pub groups: Vec<DiagnosticGroup>,
    /// Notes not shown (folded away) and the groups they make.
    pub folded_notes: usize,
}

/// What groups a diagnostic with others by its kind (conflicts are grouped
/// by the variables they decide, in `triage`). None: it stands alone.
fn group_key(diagnostic: &Diagnostic) -> Option<String> {
    match diagnostic.code {
        LintCode::Gap => Some(String::new()),
        LintCode::EquivalentRule if diagnostic.severity == Severity::Info => Some(String::new()),
        _ => None,
    }
}

fn joined(items: &[String], most: usize) -> String {
    if items.len() <= most {
        items.join(", ")
    } else {
        format!(
            "{}, … ({} more)",
            items[..most].join(", "),
            items.len() - most
        )
    }
}

/// The row's text after the code and name.
fn subject(diagnostics: &[Diagnostic], members: &[usize]) -> String {
    let first = &diagnostics[members[0]];
    let n = members.len();
    match first.code {
        LintCode::Gap => {
            let outputs: Vec<String> = members
                .iter()
                .filter_map(|&i| diagnostics[i].variables.first().cloned())
                .collect();
            let what = if n == 1 {
                "undecided for some inputs".to_string()
            } else {
                format!("{n} outputs undecided for some inputs")
            };
            format!("{what}: {}", joined(&outputs, 4))
        }
        LintCode::ConflictingOverlap => {
            // A pair "R3 ↔ R7"; a grouped finding (one decision's rules
            // and the conditions they lack) by its rules.
            let pairs: Vec<String> = members
                .iter()
                .map(|&i| match diagnostics[i].rules.len() {
                    2 => diagnostics[i].rules.join(" ↔ "),
                    n => format!("{n} rules ({})", joined(&diagnostics[i].rules, 3)),
                })
                .collect();
            // The variables every member decides; when a chain of conflicts
            // shares none across all of them, the first member's.
            let common: Vec<&String> = first
                .variables
                .iter()
                .filter(|v| {
                    members
                        .iter()
                        .all(|&i| diagnostics[i].variables.contains(v))
                })
                .collect();
            let decided = if common.is_empty() {
                first.variables.join(", ")
            } else {
                common
                    .iter()
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if n == 1 {
                format!("{} deciding {decided}", pairs[0])
            } else {
                format!("{n} conflicts deciding {decided}: {}", joined(&pairs, 3))
            }
        }
        _ if n > 1 => {
            let pairs: Vec<String> = members
                .iter()
                .map(|&i| diagnostics[i].rules.join(" ~ "))
                .collect();
            format!("{n} of them: {}", joined(&pairs, 3))
        }
        _ => match first.rules.len() {
            0 => first.variables.join(", "),
            2 => first.rules.join(" ↔ "),
            _ => joined(&first.rules, 4),
        },
    }
}

/// The groups of rules (graph components) each test's premise and claim
/// touch, worked out once for many diagnostics.
pub fn test_components(graph: &RuleGraph, tests: &[LogicTest]) -> Vec<BTreeSet<usize>> {
    tests
        .iter()
        .map(|test| {
            let names: Vec<String> = [&test.premise, &test.claim]
                .into_iter()
                .filter_map(|text| crate::smt::parse_expr(text).ok())
                .flat_map(|e| {
                    e.symbols()
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect();
            graph.components_of(names.iter().map(String::as_str))
        })
        .collect()
}

/// How many tests (given as their `test_components`) a diagnostic's rules
/// and variables reach. `known` keeps the count for each set of components
/// over many diagnostics: most findings of a model fall in a few groups of
/// rules, and counting the tests afresh for each of 1,500 findings took most
/// of a lint's triage.
pub fn tests_reached(
    graph: &RuleGraph,
    test_components: &[BTreeSet<usize>],
    known: &std::cell::RefCell<std::collections::HashMap<BTreeSet<usize>, usize>>,
    diagnostic: &Diagnostic,
) -> usize {
    let mut names = diagnostic.variables.clone();
    for rule in &diagnostic.rules {
        names.extend(graph.variables_of(rule));
    }
    let components = graph.components_of(names.iter().map(String::as_str));
    if let Some(&count) = known.borrow().get(&components) {
        return count;
    }
    let count = test_components
        .iter()
        .filter(|c| !c.is_disjoint(&components))
        .count();
    known.borrow_mut().insert(components, count);
    count
}

/// Groups, ranks and folds `diagnostics`. `tests_reached` says how many
/// tests a diagnostic's rules and variables reach (their cone); notes are
/// folded away unless `show_notes`.
pub fn triage(
    diagnostics: &[Diagnostic],
    tests_reached: &dyn Fn(&Diagnostic) -> usize,
    show_notes: bool,
) -> Triage {
    let mut groups: Vec<DiagnosticGroup> = Vec::new();
    let mut keyed: Vec<((LintCode, String), usize)> = Vec::new();
    // Each group of conflicts with the variables its members decide.
    let mut conflicts: Vec<(BTreeSet<&str>, usize)> = Vec::new();
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        let existing = if diagnostic.code == LintCode::ConflictingOverlap {
            let decided: BTreeSet<&str> = diagnostic.variables.iter().map(String::as_str).collect();
            match conflicts
                .iter_mut()
                .find(|(seen, _)| !seen.is_disjoint(&decided))
            {
                Some((seen, group)) => {
                    seen.extend(decided);
                    Some(*group)
                }
                None => {
                    conflicts.push((decided, groups.len()));
                    None
                }
            }
        } else {
            group_key(diagnostic).and_then(|key| {
                let key = (diagnostic.code, key);
                match keyed.iter().find(|(k, _)| *k == key) {
                    Some((_, group)) => Some(*group),
                    None => {
                        keyed.push((key, groups.len()));
                        None
                    }
                }
            })
        };
        match existing {
            Some(group) => {
                let group = &mut groups[group];
                group.members.push(i);
                group.severity = group.severity.min(diagnostic.severity);
            }
            None => groups.push(DiagnosticGroup {
                code: diagnostic.code,
                severity: diagnostic.severity,
                members: vec![i],
                subject: String::new(),
                rules: Vec::new(),
                reach: 0,
            }),
        }
    }
    for group in &mut groups {
        for &i in &group.members {
            for rule in &diagnostics[i].rules {
                if !group.rules.contains(rule) {
                    group.rules.push(rule.clone());
                }
            }
        }
        let tests = group
            .members
            .iter()
            .map(|&i| tests_reached(&diagnostics[i]))
            .max()
            .unwrap_or(0);
        group.reach = group.rules.len() + tests;
        group.subject = subject(diagnostics, &group.members);
    }
    groups.sort_by(|a, b| {
        (a.severity, std::cmp::Reverse(a.reach), a.code, a.members[0]).cmp(&(
            b.severity,
            std::cmp::Reverse(b.reach),
            b.code,
            b.members[0],
        ))
    });
    let mut folded_notes = 0;
    if !show_notes {
        groups.retain(|g| {
            let note = g.severity == Severity::Info;
            if note {
                folded_notes += g.members.len();
            }
            !note
        });
    }
    Triage {
        groups,
        folded_notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(code: LintCode, severity: Severity, rules: &[&str], vars: &[&str]) -> Diagnostic {
        Diagnostic::new(code, severity, "m")
            .rules(rules.iter().copied())
            .variables(vars.iter().copied())
    }

    #[test]
    fn gaps_and_conflicts_on_one_variable_are_grouped_and_notes_folded() {
        let diagnostics = vec![
            diagnostic(LintCode::Gap, Severity::Warning, &["R1", "R2"], &["fee"]),
            diagnostic(LintCode::Gap, Severity::Warning, &["R5"], &["refund"]),
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R3", "R7"],
                &["fee"],
            ),
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R3", "R9"],
                &["fee"],
            ),
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R4", "R8"],
                &["tax"],
            ),
            diagnostic(LintCode::UnusedVariable, Severity::Info, &[], &["x"]),
            diagnostic(LintCode::Inconsistent, Severity::Error, &["R1", "R4"], &[]),
        ];
        let folded = triage(&diagnostics, &|_| 0, false);
        let rows: Vec<(&str, &str)> = folded
            .groups
            .iter()
            .map(|g| (g.code.code(), g.subject.as_str()))
            .collect();
        assert_eq!(
            rows,
            vec![
                ("L201", "R1 ↔ R4"),
                ("L206", "2 conflicts deciding fee: R3 ↔ R7, R3 ↔ R9"),
                ("L207", "2 outputs undecided for some inputs: fee, refund"),
                ("L206", "R4 ↔ R8 deciding tax"),
            ]
        );
        assert_eq!(folded.folded_notes, 1);
        let shown = triage(&diagnostics, &|_| 0, true);
        assert_eq!(shown.groups.len(), 5);
        assert_eq!(shown.folded_notes, 0);
    }

    #[test]
    fn conflicts_sharing_a_decided_variable_are_one_group() {
        let diagnostics = vec![
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R9", "R41"],
                &["needsCbt"],
            ),
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R40", "R42"],
                &["needsCbt", "needsMopedTest"],
            ),
            diagnostic(
                LintCode::ConflictingOverlap,
                Severity::Warning,
                &["R5", "R6"],
                &["fine"],
            ),
        ];
        let rows: Vec<String> = triage(&diagnostics, &|_| 0, true)
            .groups
            .iter()
            .map(|g| g.subject.clone())
            .collect();
        assert_eq!(
            rows,
            [
                "2 conflicts deciding needsCbt: R9 ↔ R41, R40 ↔ R42",
                "R5 ↔ R6 deciding fine"
            ]
        );
    }

    #[test]
    fn within_a_severity_what_reaches_more_tests_comes_first() {
        let diagnostics = vec![
            diagnostic(LintCode::RedundantRule, Severity::Warning, &["R1"], &["a"]),
            diagnostic(LintCode::RedundantRule, Severity::Warning, &["R2"], &["b"]),
        ];
        let reached = |d: &Diagnostic| if d.rules[0] == "R2" { 5 } else { 1 };
        let triaged = triage(&diagnostics, &reached, true);
        assert_eq!(triaged.groups[0].rules, ["R2"]);
        assert_eq!(triaged.groups[0].reach, 6);
    }
}

//! A decision table's rows as rules, faithful to its hit policy:
//!
//! - Unique and Any: each row implies its outputs (overlapping rows with
//!   different outputs then contradict, which lint reports);
//! - First: a row applies only when no earlier row that can overlap it
//!   matches (rule order is priority);
//! - Priority: likewise, with the rows whose outputs come earlier in the
//!   output values as the earlier ones;
//! - Collect without an aggregator: for each output value, a Bool saying
//!   whether the result list contains it;
//! - Collect with SUM, COUNT (of distinct outputs, as DMN defines them),
//!   MIN or MAX: the aggregate, left open when no row matches (DMN's null)
//!   unless the output has a default.
//!
//! A default output entry applies when no row matches.

use super::cells::{CellShape, may_meet};
use super::feel_lexer::Number;
use super::terms::Term;
use super::vocabulary::Kind;
use crate::model::HitPolicy;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    Sum,
    Count,
    Min,
    Max,
}

/// Why a table cannot be encoded under its hit policy: what was expected
/// (and found), without the word "expected".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HitPolicyError {
    #[error("output values on every output (PRIORITY ranks rows by them)")]
    PriorityWithoutOutputValues,
    /// A row's output entry (as a term) that is not among the output
    /// values, and the row.
    #[error(
        "an output entry among the output values (PRIORITY ranks rows by them), found {entry} in {row}"
    )]
    PriorityEntryNotListed { entry: String, row: String },
    #[error("a single output column (COLLECT with an aggregator takes one)")]
    AggregateOfSeveralOutputs,
    #[error("a number output (COLLECT aggregates numbers)")]
    AggregateOfNonNumber,
}

/// One output column as the encoding needs it.
#[derive(Debug, Clone)]
pub struct OutputColumn {
    /// The variable it sets (unused for Collect without an aggregator).
    pub symbol: String,
    pub kind: Kind,
    pub default: Option<Term>,
    /// The output values as terms, in priority order (PRIORITY only).
    pub priorities: Vec<String>,
    /// Collect without an aggregator: (output value term, Bool symbol).
    pub membership: Vec<(String, String)>,
}

/// One row: its condition (`None` when every cell is `-`), its parsed
/// input cells and its output terms.
#[derive(Debug, Clone)]
pub struct EncodedRow {
    pub condition: Option<String>,
    pub cells: Vec<CellShape>,
    pub outputs: Vec<Term>,
    /// How the row is named in notes, e.g. `rule 2 (id r2)`.
    pub label: String,
}

/// A rule the table becomes, with its note.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRule {
    pub expression: String,
    pub note: String,
}

fn all(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

fn any(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "false".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(or {})", parts.join(" ")),
    }
}

fn implies(condition: &str, consequent: String) -> String {
    if condition == "true" {
        consequent
    } else {
        format!("(=> {condition} {consequent})")
    }
}

fn condition_text(row: &EncodedRow) -> String {
    row.condition.clone().unwrap_or_else(|| "true".into())
}

fn rows_may_overlap(a: &EncodedRow, b: &EncodedRow) -> bool {
    a.cells.iter().zip(&b.cells).all(|(x, y)| may_meet(x, y))
}

fn outputs_hold(row: &EncodedRow, outputs: &[OutputColumn]) -> String {
    all(outputs
        .iter()
        .zip(&row.outputs)
        .map(|(column, term)| format!("(= {} {})", column.symbol, term.text))
        .collect())
}

/// Whether some row matches.
fn some_row(rows: &[EncodedRow]) -> String {
    if rows.iter().any(|r| r.condition.is_none()) {
        "true".into()
    } else {
        any(rows.iter().map(condition_text).collect())
    }
}

/// The rules for a table with `policy` (and `aggregation`, for Collect).
pub fn encode_table(
    policy: HitPolicy,
    aggregation: Option<Aggregation>,
    outputs: &[OutputColumn],
    rows: &[EncodedRow],
) -> Result<Vec<TableRule>, HitPolicyError> {
    let mut rules = match (policy, aggregation) {
        (HitPolicy::Collect, None) => return Ok(membership(outputs, rows)),
        (HitPolicy::Collect, Some(aggregation)) => aggregate(aggregation, outputs, rows)?,
        (HitPolicy::Unique | HitPolicy::Any, _) => rows
            .iter()
            .map(|row| TableRule {
                expression: implies(&condition_text(row), outputs_hold(row, outputs)),
                note: row.label.clone(),
            })
            .collect(),
        (HitPolicy::First, _) => ordered(outputs, rows, |j, i| j < i),
        (HitPolicy::Priority, _) => {
            let ranks = rows
                .iter()
                .map(|row| priority_rank(row, outputs))
                .collect::<Result<Vec<Vec<usize>>, HitPolicyError>>()?;
            ordered(outputs, rows, |j, i| ranks[j] < ranks[i])
        }
    };
    let no_row = format!("(not {})", some_row(rows));
    if no_row != "(not true)" && aggregation != Some(Aggregation::Count) {
        for column in outputs {
            if let Some(default) = &column.default {
                rules.push(TableRule {
                    expression: implies(&no_row, format!("(= {} {})", column.symbol, default.text)),
                    note: format!(
                        "the default output of {} when no rule matches",
                        column.symbol
                    ),
                });
            }
        }
    }
    Ok(rules)
}

/// First and Priority: row `i` applies when no row `j` that `wins(j, i)`
/// over it, and can overlap it, matches.
fn ordered(
    outputs: &[OutputColumn],
    rows: &[EncodedRow],
    wins: impl Fn(usize, usize) -> bool,
) -> Vec<TableRule> {
    (0..rows.len())
        .map(|i| {
            let mut parts: Vec<String> = rows[i].condition.iter().cloned().collect();
            let mut shadowed_by = Vec::new();
            for j in 0..rows.len() {
                if j == i || !wins(j, i) || !rows_may_overlap(&rows[j], &rows[i]) {
                    continue;
                }
                match &rows[j].condition {
                    Some(condition) => parts.push(format!("(not {condition})")),
                    None => shadowed_by.push(j + 1),
                }
            }
            let antecedent = if shadowed_by.is_empty() {
                all(parts)
            } else {
                "false".to_string()
            };
            TableRule {
                expression: implies(&antecedent, outputs_hold(&rows[i], outputs)),
                note: rows[i].label.clone(),
            }
        })
        .collect()
}

fn priority_rank(row: &EncodedRow, outputs: &[OutputColumn]) -> Result<Vec<usize>, HitPolicyError> {
    outputs
        .iter()
        .zip(&row.outputs)
        .map(|(column, term)| {
            if column.priorities.is_empty() {
                return Err(HitPolicyError::PriorityWithoutOutputValues);
            }
            column
                .priorities
                .iter()
                .position(|p| *p == term.text)
                .ok_or_else(|| HitPolicyError::PriorityEntryNotListed {
                    entry: term.text.clone(),
                    row: row.label.clone(),
                })
        })
        .collect()
}

fn membership(outputs: &[OutputColumn], rows: &[EncodedRow]) -> Vec<TableRule> {
    let mut rules = Vec::new();
    for (k, column) in outputs.iter().enumerate() {
        for (value, symbol) in &column.membership {
            let hits: Vec<&EncodedRow> = rows
                .iter()
                .filter(|r| r.outputs[k].text == *value)
                .collect();
            let labels: Vec<&str> = hits.iter().map(|r| r.label.as_str()).collect();
            let some = if hits.iter().any(|r| r.condition.is_none()) {
                "true".to_string()
            } else {
                any(hits.iter().map(|r| condition_text(r)).collect())
            };
            rules.push(TableRule {
                expression: format!("(= {symbol} {some})"),
                note: format!(
                    "the collected list holds {value} exactly when one of {} matches",
                    labels.join(", ")
                ),
            });
        }
    }
    rules
}

/// The groups ordered best first (largest for MAX), when every output is
/// a number constant.
fn ranked_constants(groups: &[(String, String)], max: bool) -> Option<Vec<(String, String)>> {
    let mut valued = groups
        .iter()
        .map(|(term, hit)| Some((constant(term)?, term.clone(), hit.clone())))
        .collect::<Option<Vec<_>>>()?;
    valued.sort_by(|a, b| if max { b.0.cmp(&a.0) } else { a.0.cmp(&b.0) });
    Some(
        valued
            .into_iter()
            .map(|(_, term, hit)| (term, hit))
            .collect(),
    )
}

/// The value of a number term such as `5.0` or `(- 2.5)`.
fn constant(term: &str) -> Option<num_rational::BigRational> {
    match term.strip_prefix("(- ").and_then(|t| t.strip_suffix(')')) {
        Some(inner) => Some(-Number::parse(inner)?.value),
        None => Some(Number::parse(term)?.value),
    }
}

/// `(ite hit1 v1 (ite hit2 v2 … vn))`: the value of the first group that
/// matches (the last needs no test: some row matches).
fn first_matching(ranked: &[(String, String)]) -> String {
    let mut text = ranked.last().map(|(v, _)| v.clone()).unwrap_or_default();
    for (value, hit) in ranked.iter().rev().skip(1) {
        text = format!("(ite {hit} {value} {text})");
    }
    text
}

/// MIN/MAX over computed outputs: each matching row bounds the result, and
/// the result is one of the matching rows' outputs.
fn bounded(
    max: bool,
    out: &str,
    rows: &[EncodedRow],
    groups: &[(String, String)],
    some: &str,
    name: &str,
) -> Vec<TableRule> {
    let bound = if max { ">=" } else { "<=" };
    let mut rules: Vec<TableRule> = rows
        .iter()
        .map(|row| TableRule {
            expression: implies(
                &condition_text(row),
                format!("({bound} {out} {})", row.outputs[0].text),
            ),
            note: row.label.clone(),
        })
        .collect();
    rules.push(TableRule {
        expression: implies(
            some,
            any(groups
                .iter()
                .map(|(v, hit)| all(vec![hit.clone(), format!("(= {out} {v})")]))
                .collect()),
        ),
        note: format!("COLLECT {name}: the result is the output of a matching rule"),
    });
    rules
}

/// Rows grouped by output value: (value term, whether a row with it matches).
fn by_value(rows: &[EncodedRow]) -> Vec<(String, String)> {
    let mut values: Vec<String> = Vec::new();
    for row in rows {
        if !values.contains(&row.outputs[0].text) {
            values.push(row.outputs[0].text.clone());
        }
    }
    values
        .into_iter()
        .map(|value| {
            let hits: Vec<&EncodedRow> =
                rows.iter().filter(|r| r.outputs[0].text == value).collect();
            let matched = if hits.iter().any(|r| r.condition.is_none()) {
                "true".to_string()
            } else {
                any(hits.iter().map(|r| condition_text(r)).collect())
            };
            (value, matched)
        })
        .collect()
}

fn aggregate(
    aggregation: Aggregation,
    outputs: &[OutputColumn],
    rows: &[EncodedRow],
) -> Result<Vec<TableRule>, HitPolicyError> {
    let [column] = outputs else {
        return Err(HitPolicyError::AggregateOfSeveralOutputs);
    };
    if !matches!(column.kind, Kind::Real | Kind::Int) {
        return Err(HitPolicyError::AggregateOfNonNumber);
    }
    let (zero, one) = if column.kind == Kind::Int {
        ("0", "1")
    } else {
        ("0.0", "1.0")
    };
    let out = &column.symbol;
    let some = some_row(rows);
    let total = |terms: Vec<String>| match terms.len() {
        0 => zero.to_string(),
        1 => terms.into_iter().next().unwrap_or_default(),
        _ => format!("(+ {})", terms.join(" ")),
    };
    let groups = by_value(rows);
    Ok(match aggregation {
        Aggregation::Sum => vec![TableRule {
            expression: implies(
                &some,
                format!(
                    "(= {out} {})",
                    total(
                        groups
                            .iter()
                            .map(|(v, hit)| format!("(ite {hit} {v} {zero})"))
                            .collect()
                    )
                ),
            ),
            note: "COLLECT SUM: the sum of the distinct outputs of the matching rules".into(),
        }],
        Aggregation::Count => vec![TableRule {
            expression: format!(
                "(= {out} {})",
                total(
                    groups
                        .iter()
                        .map(|(_, hit)| format!("(ite {hit} {one} {zero})"))
                        .collect()
                )
            ),
            note: "COLLECT COUNT: how many distinct outputs the matching rules give".into(),
        }],
        Aggregation::Min | Aggregation::Max => {
            let max = aggregation == Aggregation::Max;
            let name = if max { "MAX" } else { "MIN" };
            match ranked_constants(&groups, max) {
                Some(ranked) => vec![TableRule {
                    expression: implies(&some, format!("(= {out} {})", first_matching(&ranked))),
                    note: format!(
                        "COLLECT {name}: the {} output among the matching rules",
                        if max { "largest" } else { "smallest" }
                    ),
                }],
                None => bounded(max, out, rows, &groups, &some, name),
            }
        }
    })
}

//! The columns of one decision table before encoding: the hit policy, the
//! subject of each input column, the variable of each output column, and
//! every cell parsed (types and enum values are learnt on the way).

use super::definitions::{Decision, FeelText, Table};
use super::error::DmnError;
use super::feel_expression::{Expression, parse_expression};
use super::feel_unary::{Literal, Test, UnaryTests, parse_literal_list, parse_unary_tests};
use super::hit_policy::Aggregation;
use super::vocabulary::{Declared, Kind, Vocabulary, declared_kind};
use crate::formats::dmn::definitions::ItemDefinition;
use crate::model::HitPolicy;

/// A FEEL failure in `text` at byte `offset`, located in the file.
pub fn feel_error(
    text: &FeelText,
    offset: usize,
    context: &str,
    message: impl std::fmt::Display,
) -> DmnError {
    let element = if text.element_id.is_empty() {
        String::new()
    } else {
        format!(" (element {})", text.element_id)
    };
    DmnError::new(
        text.place_at(offset),
        format!("{context}{element}"),
        message.to_string(),
    )
}

/// What an input column tests.
#[derive(Debug, Clone)]
pub enum Subject {
    Variable(usize),
    Expression(Expression),
}

#[derive(Debug, Clone)]
pub struct OutputSlot {
    /// The DMN name of what it decides (`Decision` or `Decision.Output`).
    pub name: String,
    /// Its variable; `None` for Collect without an aggregator.
    pub variable: Option<usize>,
    /// `outputValues`, in order.
    pub values: Vec<Literal>,
    pub default: Option<Expression>,
}

#[derive(Debug, Clone)]
pub struct TableColumns {
    pub policy: HitPolicy,
    pub aggregation: Option<Aggregation>,
    pub subjects: Vec<Subject>,
    pub outputs: Vec<OutputSlot>,
    /// Per row, per input column.
    pub cells: Vec<Vec<UnaryTests>>,
    /// Per row, per output column.
    pub entries: Vec<Vec<Expression>>,
}

fn hit_policy(table: &Table, context: &str) -> Result<(HitPolicy, Option<Aggregation>), DmnError> {
    let policy = match table.hit_policy.trim() {
        "UNIQUE" => HitPolicy::Unique,
        "FIRST" => HitPolicy::First,
        "PRIORITY" => HitPolicy::Priority,
        "ANY" => HitPolicy::Any,
        "COLLECT" => HitPolicy::Collect,
        other => {
            return Err(DmnError::new(
                table.place,
                context.to_string(),
                format!(
                    "a hit policy among UNIQUE, FIRST, PRIORITY, ANY and COLLECT, found '{other}'"
                ),
            ));
        }
    };
    let aggregation = match table.aggregation.as_deref().map(str::trim) {
        None => None,
        Some(_) if policy != HitPolicy::Collect => {
            return Err(DmnError::new(
                table.place,
                context.to_string(),
                "an aggregation only with the COLLECT hit policy",
            ));
        }
        Some("SUM") => Some(Aggregation::Sum),
        Some("COUNT") => Some(Aggregation::Count),
        Some("MIN") => Some(Aggregation::Min),
        Some("MAX") => Some(Aggregation::Max),
        Some(other) => {
            return Err(DmnError::new(
                table.place,
                context.to_string(),
                format!("an aggregation among SUM, COUNT, MIN and MAX, found '{other}'"),
            ));
        }
    };
    Ok((policy, aggregation))
}

fn settle_declared(
    vocabulary: &mut Vocabulary,
    variable: usize,
    type_ref: Option<&str>,
    items: &[ItemDefinition],
    open: bool,
) -> Result<(), (FeelText, usize, String)> {
    let Some(declared) = type_ref.and_then(|t| declared_kind(t, items)) else {
        return Ok(());
    };
    let kind = vocabulary.settle(variable, &declared, open);
    if let (Declared::Text(Some(allowed)), Kind::Enum(e)) = (&declared, kind) {
        add_listed_values(vocabulary, e, allowed)?;
    }
    Ok(())
}

/// Adds a list of string literals (input, output or allowed values) to an
/// enum and closes it.
fn add_listed_values(
    vocabulary: &mut Vocabulary,
    e: usize,
    list: &FeelText,
) -> Result<Vec<Literal>, (FeelText, usize, String)> {
    let literals =
        parse_literal_list(&list.text).map_err(|err| (list.clone(), err.offset, err.message))?;
    for literal in &literals {
        match literal {
            Literal::Text(value) => vocabulary.add_value(e, value),
            other => {
                return Err((
                    list.clone(),
                    0,
                    format!("string values, found {}", other.describe()),
                ));
            }
        }
    }
    vocabulary.close(e);
    Ok(literals)
}

/// A string value the listed values of a closed enum do not hold.
#[derive(Debug, thiserror::Error)]
#[error("one of the listed values {}, found \"{value}\"", quoted(listed))]
struct UnlistedValue {
    listed: Vec<String>,
    value: String,
}

fn quoted(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    quoted.join(", ")
}

/// Learns from a literal compared with (or given to) a variable: its type
/// if still unknown, and a new enum value where the values are not listed.
fn learn(
    vocabulary: &mut Vocabulary,
    variable: usize,
    literal: &Literal,
    open: bool,
) -> Result<(), UnlistedValue> {
    let kind = match (vocabulary.variables[variable].kind, literal) {
        (Kind::Unknown, Literal::Number { .. }) => {
            vocabulary.settle(variable, &Declared::Real, open)
        }
        (Kind::Unknown, Literal::Bool(_)) => vocabulary.settle(variable, &Declared::Bool, open),
        (Kind::Unknown, Literal::Text(_)) => {
            vocabulary.settle(variable, &Declared::Text(None), open)
        }
        (kind, _) => kind,
    };
    if let (Kind::Enum(e), Literal::Text(value)) = (kind, literal) {
        let listed = vocabulary.enums[e].values.iter().any(|(v, _)| v == value);
        if !listed {
            if vocabulary.enums[e].declared {
                return Err(UnlistedValue {
                    listed: vocabulary.enums[e]
                        .values
                        .iter()
                        .map(|(v, _)| v.clone())
                        .collect(),
                    value: value.clone(),
                });
            }
            vocabulary.add_value(e, value);
        }
    }
    Ok(())
}

fn literal_of(expression: &Expression) -> Option<Literal> {
    match expression {
        Expression::Number(number) => Some(Literal::Number {
            negative: false,
            number: number.clone(),
        }),
        Expression::Negate(inner) => match &**inner {
            Expression::Number(number) => Some(Literal::Number {
                negative: true,
                number: number.clone(),
            }),
            _ => None,
        },
        Expression::Text(s) => Some(Literal::Text(s.clone())),
        Expression::Bool(b) => Some(Literal::Bool(*b)),
        _ => None,
    }
}

/// Declares the outputs of `decision`'s table (first pass, so that every
/// decision's name is known before any expression is read).
pub fn declare_outputs(
    decision: &Decision,
    table: &Table,
    items: &[ItemDefinition],
    vocabulary: &mut Vocabulary,
) -> Result<(HitPolicy, Option<Aggregation>, Vec<OutputSlot>), DmnError> {
    let context = format!("decision '{}'", decision.name);
    let (policy, aggregation) = hit_policy(table, &context)?;
    let single = table.outputs.len() == 1;
    let mut slots = Vec::new();
    for (k, output) in table.outputs.iter().enumerate() {
        let name = if single {
            decision.name.clone()
        } else {
            match &output.name {
                Some(n) => format!("{}.{}", decision.name, n),
                None => {
                    return Err(DmnError::new(
                        output.place,
                        format!("{context}, output {}", k + 1),
                        "a name on each output of a table with several outputs",
                    ));
                }
            }
        };
        let collects_list = policy == HitPolicy::Collect && aggregation.is_none();
        let variable = (!collects_list).then(|| {
            vocabulary.declare(
                &name,
                &format!(
                    "DMN decision '{}'{}",
                    decision.name,
                    if single {
                        String::new()
                    } else {
                        format!(", output '{}'", output.name.clone().unwrap_or_default())
                    }
                ),
            )
        });
        let mut values = Vec::new();
        let place_error = |(text, offset, message): (FeelText, usize, String)| {
            feel_error(
                &text,
                offset,
                &format!("{context}, output {}", k + 1),
                message,
            )
        };
        if let Some(v) = variable {
            let type_ref = output.type_ref.as_deref().or(if single {
                table.type_ref.as_deref().or(decision.type_ref.as_deref())
            } else {
                None
            });
            if aggregation.is_some() && vocabulary.variables[v].kind == Kind::Unknown {
                vocabulary.settle(v, &Declared::Real, false);
            }
            settle_declared(vocabulary, v, type_ref, items, false).map_err(place_error)?;
            if let Some(list) = &output.output_values {
                if vocabulary.variables[v].kind == Kind::Unknown {
                    vocabulary.settle(v, &Declared::Text(None), false);
                }
                if let Kind::Enum(e) = vocabulary.variables[v].kind {
                    values = add_listed_values(vocabulary, e, list).map_err(place_error)?;
                }
            }
        }
        let default = match &output.default {
            Some(text) => Some(parse_expression(&text.text).map_err(|err| {
                feel_error(
                    text,
                    err.offset,
                    &format!("{context}, default output {}", k + 1),
                    err.message,
                )
            })?),
            None => None,
        };
        slots.push(OutputSlot {
            name,
            variable,
            values,
            default,
        });
    }
    Ok((policy, aggregation, slots))
}

/// Reads the input columns and every cell of the table (second pass).
pub fn read_columns(
    decision: &Decision,
    table: &Table,
    items: &[ItemDefinition],
    declared: (HitPolicy, Option<Aggregation>, Vec<OutputSlot>),
    vocabulary: &mut Vocabulary,
) -> Result<TableColumns, DmnError> {
    let context = format!("decision '{}'", decision.name);
    let (policy, aggregation, outputs) = declared;
    let mut subjects = Vec::new();
    for input in &table.inputs {
        let column = format!("{context}, input '{}'", input.label);
        let expression = parse_expression(&input.expression.text)
            .map_err(|err| feel_error(&input.expression, err.offset, &column, err.message))?;
        let subject = match expression {
            Expression::Name { name, .. } => {
                let variable = vocabulary.declare(&name, &format!("DMN input '{name}'"));
                let place_error = |(text, offset, message): (FeelText, usize, String)| {
                    feel_error(&text, offset, &column, message)
                };
                settle_declared(vocabulary, variable, input.type_ref.as_deref(), items, true)
                    .map_err(place_error)?;
                if let Some(list) = &input.input_values {
                    if vocabulary.variables[variable].kind == Kind::Unknown {
                        vocabulary.settle(variable, &Declared::Text(None), false);
                    }
                    if let Kind::Enum(e) = vocabulary.variables[variable].kind {
                        add_listed_values(vocabulary, e, list).map_err(place_error)?;
                    }
                }
                Subject::Variable(variable)
            }
            other => Subject::Expression(other),
        };
        subjects.push(subject);
    }
    let mut cells = Vec::new();
    let mut entries = Vec::new();
    for (r, row) in table.rows.iter().enumerate() {
        let mut row_cells = Vec::new();
        for (c, text) in row.input_entries.iter().enumerate() {
            let cell = format!(
                "{context}, rule {}, input '{}'",
                r + 1,
                table.inputs[c].label
            );
            let tests = parse_unary_tests(&text.text)
                .map_err(|err| feel_error(text, err.offset, &cell, err.message))?;
            if let Subject::Variable(variable) = subjects[c] {
                for literal in literals_of(&tests) {
                    learn(vocabulary, variable, literal, true)
                        .map_err(|message| feel_error(text, 0, &cell, message))?;
                }
            }
            row_cells.push(tests);
        }
        let mut row_entries = Vec::new();
        for (k, text) in row.output_entries.iter().enumerate() {
            let cell = format!("{context}, rule {}, output {}", r + 1, k + 1);
            let expression = parse_expression(&text.text)
                .map_err(|err| feel_error(text, err.offset, &cell, err.message))?;
            if let (Some(variable), Some(literal)) = (outputs[k].variable, literal_of(&expression))
            {
                learn(vocabulary, variable, &literal, false)
                    .map_err(|message| feel_error(text, 0, &cell, message))?;
            }
            row_entries.push(expression);
        }
        cells.push(row_cells);
        entries.push(row_entries);
    }
    for (k, slot) in outputs.iter().enumerate() {
        if let (Some(variable), Some(Some(literal))) =
            (slot.variable, slot.default.as_ref().map(literal_of))
        {
            let text = table.outputs[k].default.clone().unwrap_or_default();
            learn(vocabulary, variable, &literal, false).map_err(|message| {
                feel_error(
                    &text,
                    0,
                    &format!("{context}, default output {}", k + 1),
                    message,
                )
            })?;
        }
    }
    Ok(TableColumns {
        policy,
        aggregation,
        subjects,
        outputs,
        cells,
        entries,
    })
}

fn literals_of(tests: &UnaryTests) -> Vec<&Literal> {
    let list = match tests {
        UnaryTests::Any => return Vec::new(),
        UnaryTests::AnyOf(list) | UnaryTests::NoneOf(list) => list,
    };
    list.iter()
        .flat_map(|test| match test {
            Test::Compare(_, literal) => vec![literal],
            Test::Range { low, high, .. } => vec![low, high],
        })
        .collect()
}

//! A DMN model as a policy model: every input data and decision output a
//! variable, every decision table row (or hit-policy consequence) a rule,
//! every literal-expression decision an equation, and each table recorded
//! with its hit policy for lint.

use super::cells::{CellShape, condition};
use super::definitions::{DecisionLogic, Definitions, FeelText};
use super::error::DmnError;
use super::feel_expression::{Expression, parse_expression};
use super::feel_unary::Literal;
use super::hit_policy::{EncodedRow, HitPolicyError, OutputColumn, TableRule, encode_table};
use super::table_columns::{Subject, TableColumns, declare_outputs, feel_error, read_columns};
use super::terms::{DmnTermError, Term, expression_term, literal_term};
use super::vocabulary::{Kind, Vocabulary};
use super::xml::read_definitions;
use crate::model::{DecisionTable, PolicyModel, ReviewStatus, Rule};

/// The imported model and the vocabulary that maps DMN names to it (the
/// TCK test cases are read against it).
#[derive(Debug)]
pub struct DmnModel {
    pub model: PolicyModel,
    pub vocabulary: Vocabulary,
}

/// Reads DMN XML text into a policy model.
pub fn import_dmn(source: &str) -> Result<DmnModel, DmnError> {
    let definitions = read_definitions(source)?;
    let items = &definitions.item_definitions;
    let mut vocabulary = Vocabulary::default();
    for input in &definitions.inputs {
        let variable = vocabulary.declare(&input.name, &format!("DMN input data '{}'", input.name));
        if let Some(type_ref) = &input.type_ref
            && let Some(declared) = super::vocabulary::declared_kind(type_ref, items)
        {
            vocabulary.settle(variable, &declared, true);
        }
    }
    check_requirements(&definitions)?;
    let mut declared = Vec::new();
    for decision in &definitions.decisions {
        match &decision.logic {
            DecisionLogic::Table(table) => declared.push(Some(declare_outputs(
                decision,
                table,
                items,
                &mut vocabulary,
            )?)),
            DecisionLogic::Literal(_) => {
                let variable = vocabulary
                    .declare(&decision.name, &format!("DMN decision '{}'", decision.name));
                if let Some(type_ref) = &decision.type_ref
                    && let Some(kind) = super::vocabulary::declared_kind(type_ref, items)
                {
                    vocabulary.settle(variable, &kind, false);
                }
                declared.push(None);
            }
        }
    }
    let mut tables = Vec::new();
    for (decision, outputs) in definitions.decisions.iter().zip(declared) {
        if let (DecisionLogic::Table(table), Some(outputs)) = (&decision.logic, outputs) {
            tables.push(read_columns(
                decision,
                table,
                items,
                outputs,
                &mut vocabulary,
            )?);
        }
    }
    let memberships = declare_memberships(&tables, &mut vocabulary);
    vocabulary.finalize();

    let mut model = PolicyModel {
        title: definitions.name.clone(),
        ..PolicyModel::default()
    };
    let mut table_index = 0;
    for decision in &definitions.decisions {
        let context = format!("decision '{}'", decision.name);
        match &decision.logic {
            DecisionLogic::Table(table) => {
                let columns = &tables[table_index];
                let rules = encode(
                    columns,
                    &table.rows,
                    &table.inputs,
                    &memberships[table_index],
                    &vocabulary,
                    &context,
                )
                .map_err(|e| match e {
                    Located::Cell(error) => error,
                    Located::Table(error) => {
                        DmnError::new(table.place, context.clone(), error.to_string())
                    }
                })?;
                table_index += 1;
                let mut ids = Vec::new();
                for rule in rules {
                    let id = format!("R{}", model.rules.len() + 1);
                    ids.push(id.clone());
                    model.rules.push(rule_of(
                        id,
                        rule.expression,
                        format!(
                            "DMN {context} ({}): {}",
                            columns.policy.dmn_name(),
                            rule.note
                        ),
                    ));
                }
                model.decision_tables.push(DecisionTable {
                    decision: decision.name.clone(),
                    hit_policy: columns.policy,
                    rows: ids,
                });
            }
            DecisionLogic::Literal(text) => {
                let expression = literal_decision(&decision.name, text, &vocabulary, &context)?;
                let id = format!("R{}", model.rules.len() + 1);
                model.rules.push(rule_of(
                    id,
                    expression,
                    format!("DMN {context}: literal expression"),
                ));
            }
        }
    }
    let (types, variables) = vocabulary.declarations();
    model.types = types;
    model.variables = variables;
    Ok(DmnModel { model, vocabulary })
}

fn rule_of(id: String, expression: String, note: String) -> Rule {
    Rule {
        id,
        expression,
        source_span: None,
        also_from: Vec::new(),
        review: ReviewStatus::Unreviewed,
        note,
    }
}

fn check_requirements(definitions: &Definitions) -> Result<(), DmnError> {
    for decision in &definitions.decisions {
        for required in &decision.required_decisions {
            if !definitions.decisions.iter().any(|d| d.id == *required) {
                return Err(DmnError::new(
                    decision.place,
                    format!("decision '{}'", decision.name),
                    format!(
                        "a requiredDecision naming a decision of this file, found '#{required}'"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// For Collect tables without an aggregator: one Bool per output value,
/// "the list holds this value".
fn declare_memberships(
    tables: &[TableColumns],
    vocabulary: &mut Vocabulary,
) -> Vec<Vec<Vec<(String, usize)>>> {
    tables
        .iter()
        .map(|columns| {
            columns
                .outputs
                .iter()
                .enumerate()
                .map(|(k, slot)| {
                    if slot.variable.is_some() {
                        return Vec::new();
                    }
                    let mut values: Vec<(String, usize)> = Vec::new();
                    for row in &columns.entries {
                        let key = entry_key(&row[k]);
                        if values.iter().any(|(v, _)| *v == key) {
                            continue;
                        }
                        let name = format!("{} includes {}", slot.name, key.trim_matches('"'));
                        let variable = vocabulary.declare(
                            &name,
                            &format!(
                                "whether the list DMN decision '{}' collects holds {key}",
                                slot.name
                            ),
                        );
                        vocabulary.settle(variable, &super::vocabulary::Declared::Bool, false);
                        values.push((key, variable));
                    }
                    values
                })
                .collect()
        })
        .collect()
}

/// How a collected output value is told apart: its literal as written.
fn entry_key(expression: &Expression) -> String {
    match expression {
        Expression::Number(n) => n.text.clone(),
        Expression::Text(s) => format!("\"{s}\""),
        Expression::Bool(b) => b.to_string(),
        Expression::Name { name, .. } => name.clone(),
        other => format!("{other:?}"),
    }
}

enum Located {
    Cell(DmnError),
    Table(TableError),
}

/// What is wrong with a table as a whole (placed at the table): what was
/// expected, without the word "expected".
#[derive(Debug, thiserror::Error)]
enum TableError {
    #[error("a default output entry of the output's type ({0})")]
    Default(DmnTermError),
    /// An output value that is not a value of the output's type.
    #[error(transparent)]
    OutputValue(DmnTermError),
    #[error(transparent)]
    HitPolicy(#[from] HitPolicyError),
}

fn encode(
    columns: &TableColumns,
    rows: &[super::definitions::Row],
    inputs: &[super::definitions::TableInput],
    memberships: &[Vec<(String, usize)>],
    vocabulary: &Vocabulary,
    context: &str,
) -> Result<Vec<TableRule>, Located> {
    let mut subjects = Vec::new();
    for (c, subject) in columns.subjects.iter().enumerate() {
        subjects.push(match subject {
            Subject::Variable(v) => Term {
                text: vocabulary.variables[*v].symbol.clone(),
                kind: vocabulary.variables[*v].kind,
            },
            Subject::Expression(expression) => {
                let column = format!("{context}, input '{}'", inputs[c].label);
                expression_term(expression, Kind::Real, vocabulary).map_err(
                    |(offset, message)| {
                        Located::Cell(feel_error(&inputs[c].expression, offset, &column, message))
                    },
                )?
            }
        });
    }
    let mut output_columns = Vec::new();
    for (k, slot) in columns.outputs.iter().enumerate() {
        let (symbol, kind) = match slot.variable {
            Some(v) => (
                vocabulary.variables[v].symbol.clone(),
                vocabulary.variables[v].kind,
            ),
            None => (String::new(), Kind::Bool),
        };
        let default = match &slot.default {
            Some(expression) if slot.variable.is_some() => Some(
                expression_term(expression, kind, vocabulary)
                    .map_err(|(_, m)| Located::Table(TableError::Default(m)))?,
            ),
            _ => None,
        };
        let priorities = slot
            .values
            .iter()
            .map(|literal: &Literal| literal_term(literal, kind, vocabulary).map(|t| t.text))
            .collect::<Result<Vec<String>, DmnTermError>>()
            .map_err(|m| Located::Table(TableError::OutputValue(m)))?;
        output_columns.push(OutputColumn {
            symbol,
            kind,
            default,
            priorities,
            membership: memberships[k]
                .iter()
                .map(|(key, v)| (key.clone(), vocabulary.variables[*v].symbol.clone()))
                .collect(),
        });
    }
    let mut encoded = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut parts = Vec::new();
        for (c, tests) in columns.cells[r].iter().enumerate() {
            let cell = format!("{context}, rule {}, input '{}'", r + 1, inputs[c].label);
            if let Some(part) = condition(tests, &subjects[c].text, subjects[c].kind, vocabulary)
                .map_err(|m| Located::Cell(feel_error(&row.input_entries[c], 0, &cell, m)))?
            {
                parts.push(part);
            }
        }
        let condition = match parts.len() {
            0 => None,
            1 => parts.pop(),
            _ => Some(format!("(and {})", parts.join(" "))),
        };
        let mut outputs = Vec::new();
        for (k, expression) in columns.entries[r].iter().enumerate() {
            let column = &output_columns[k];
            if column.symbol.is_empty() {
                outputs.push(Term {
                    text: entry_key(expression),
                    kind: Kind::Bool,
                });
                continue;
            }
            let cell = format!("{context}, rule {}, output {}", r + 1, k + 1);
            outputs.push(
                expression_term(expression, column.kind, vocabulary).map_err(|(offset, m)| {
                    Located::Cell(feel_error(&row.output_entries[k], offset, &cell, m))
                })?,
            );
        }
        encoded.push(EncodedRow {
            condition,
            cells: columns.cells[r].iter().map(CellShape::of).collect(),
            outputs,
            label: if row.id.is_empty() {
                format!("rule {}", r + 1)
            } else {
                format!("rule {} ({})", r + 1, row.id)
            },
        });
    }
    encode_table(
        columns.policy,
        columns.aggregation,
        &output_columns,
        &encoded,
    )
    .map_err(|e| Located::Table(e.into()))
}

fn literal_decision(
    name: &str,
    text: &FeelText,
    vocabulary: &Vocabulary,
    context: &str,
) -> Result<String, DmnError> {
    let expression = parse_expression(&text.text)
        .map_err(|err| feel_error(text, err.offset, context, err.message))?;
    let variable = vocabulary.find(name).map(|v| &vocabulary.variables[v]);
    let Some(variable) = variable else {
        return Err(DmnError::new(
            text.place,
            context.to_string(),
            "a declared decision",
        ));
    };
    let term = expression_term(&expression, variable.kind, vocabulary)
        .map_err(|(offset, message)| feel_error(text, offset, context, message))?;
    let fits = match variable.kind {
        Kind::Real | Kind::Int | Kind::Unknown => matches!(term.kind, Kind::Real | Kind::Int),
        other => term.kind == other,
    };
    if !fits {
        return Err(feel_error(
            text,
            0,
            context,
            format!("a value of the decision's type, found '{}'", term.text),
        ));
    }
    Ok(format!("(= {} {})", variable.symbol, term.text))
}

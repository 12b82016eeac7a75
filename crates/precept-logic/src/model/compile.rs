//! Checks a stored policy model: declarations are consistent and every rule
//! parses and type-checks. The result is the elaborated model the solver and
//! the renderers work from.

use super::decision_table::TableMembership;
use super::definition::PartKind;
use super::policy::PolicyModel;
use crate::smt::english::Glossary;
use crate::smt::reading::{Reading, check, check_value};
use crate::smt::typecheck::DeclarationError;
use crate::smt::{Expr, SmtError, Sort, Vocabulary, parse_expr};

/// One rule, parsed and elaborated.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledRule {
    pub id: String,
    /// As written, with spans into the rule's expression text.
    pub written: Expr,
    /// With explicit `to_real` where Int meets Real.
    pub formula: Expr,
}

/// An exception of a definition (`definition.rs`): assumed absent when a
/// premise does not mention it (the default reading of a claim).
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledException {
    /// The definition's id (`D1`).
    pub definition: String,
    /// The variable it defines.
    pub variable: String,
    /// The id of the rule the exception compiles to (`D1.e1`).
    pub rule: String,
    /// The condition, as written and elaborated.
    pub written: Expr,
    pub formula: Expr,
    /// The variables the condition mentions.
    pub symbols: Vec<String>,
}

/// A problem in the model, located by the JSON field that holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelIssue {
    /// e.g. `rules[3].expression`
    pub field: String,
    /// The rule id, variable or type name the field belongs to.
    pub subject: String,
    pub message: String,
    /// Set when the problem is inside an SMT-LIB expression.
    pub smt_error: Option<SmtError>,
}

impl std::fmt::Display for ModelIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ('{}'): {}", self.field, self.subject, self.message)
    }
}

/// The checked model: its vocabulary, its glossary for English, and the
/// rules that compiled. `issues` lists everything that did not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompiledModel {
    pub vocabulary: Vocabulary,
    pub glossary: Glossary,
    pub rules: Vec<CompiledRule>,
    pub issues: Vec<ModelIssue>,
    /// Declared enumerations in file order.
    pub enums: Vec<(String, Vec<String>)>,
    /// Declared variables in file order.
    pub variables: Vec<(String, Sort)>,
    /// Which rules are rows of which decision table, and its hit policy.
    pub tables: TableMembership,
    /// The exceptions of the model's definitions, in file order.
    pub exceptions: Vec<CompiledException>,
}

impl CompiledModel {
    pub fn rule(&self, id: &str) -> Option<&CompiledRule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// Parses and checks a formula (premise, claim, or a rule being edited)
    /// against this model's vocabulary.
    pub fn check_formula(&self, text: &str) -> Result<(Expr, Expr), SmtError> {
        let written = parse_expr(text)?;
        let formula = self.vocabulary.check_formula(text, &written)?;
        Ok((written, formula))
    }
}

/// Checks the whole model. Never fails: problems are collected in `issues`.
pub fn compile(model: &PolicyModel) -> CompiledModel {
    let mut compiled = CompiledModel {
        tables: TableMembership::new(&model.decision_tables),
        ..CompiledModel::default()
    };
    for (i, type_def) in model.types.iter().enumerate() {
        let values: Vec<String> = type_def.values.iter().map(|v| v.value.clone()).collect();
        if values.is_empty() {
            compiled.issues.push(issue(
                format!("types[{i}].values"),
                &type_def.name,
                "an enum type needs at least one value".into(),
            ));
            continue;
        }
        if let Err(message) = compiled.vocabulary.declare_enum(&type_def.name, &values) {
            compiled.issues.push(issue(
                format!("types[{i}].name"),
                &type_def.name,
                message.to_string(),
            ));
            continue;
        }
        compiled.enums.push((type_def.name.clone(), values));
        for value in &type_def.values {
            compiled
                .glossary
                .values
                .insert(value.value.clone(), value.description.clone());
            // A form that does not check is left out: the template says it.
            if !value.reading.is_empty() && check_value(&value.reading).is_ok() {
                let clause = Reading {
                    holds: value.reading.clone(),
                    ..Reading::default()
                };
                compiled
                    .glossary
                    .value_readings
                    .insert(value.value.clone(), clause.tidied().holds);
            }
        }
    }
    for (i, variable) in model.variables.iter().enumerate() {
        let sort = Sort::from_name(&variable.sort);
        if let Err(message) = compiled
            .vocabulary
            .declare_variable(&variable.name, sort.clone())
        {
            let field = match message {
                DeclarationError::UnknownType(_) => "type",
                _ => "name",
            };
            compiled.issues.push(issue(
                format!("variables[{i}].{field}"),
                &variable.name,
                message.to_string(),
            ));
            continue;
        }
        if sort == Sort::Bool {
            compiled
                .glossary
                .bool_variables
                .insert(variable.name.clone());
        }
        compiled.variables.push((variable.name.clone(), sort));
        compiled
            .glossary
            .variables
            .insert(variable.name.clone(), variable.description.clone());
        if !variable.reading.is_empty() && check(&variable.reading, variable.sort == "Bool").is_ok()
        {
            compiled
                .glossary
                .readings
                .insert(variable.name.clone(), variable.reading.tidied());
        }
    }
    let mut seen_ids = std::collections::HashSet::new();
    for (i, rule) in model.rules.iter().enumerate() {
        if rule.id.trim().is_empty() || !seen_ids.insert(rule.id.as_str()) {
            let message = if rule.id.trim().is_empty() {
                "a rule needs an id".to_string()
            } else {
                format!("the rule id '{}' is used twice", rule.id)
            };
            compiled
                .issues
                .push(issue(format!("rules[{i}].id"), &rule.id, message));
            continue;
        }
        match compiled.check_formula(&rule.expression) {
            Ok((written, formula)) => compiled.rules.push(CompiledRule {
                id: rule.id.clone(),
                written,
                formula,
            }),
            Err(error) => compiled.issues.push(ModelIssue {
                field: format!("rules[{i}].expression"),
                subject: rule.id.clone(),
                message: error.to_string(),
                smt_error: Some(error),
            }),
        }
    }
    compile_definitions(model, &mut compiled);
    compiled
}

/// Checks each definition against the rules it compiles to (they must be
/// in the model as generated: a definition is edited whole, never through
/// its rules) and collects its exceptions.
fn compile_definitions(model: &PolicyModel, compiled: &mut CompiledModel) {
    for (i, definition) in model.definitions.iter().enumerate() {
        let Some(sort) = compiled
            .variables
            .iter()
            .find(|(name, _)| *name == definition.variable)
            .map(|(_, sort)| sort.clone())
        else {
            compiled.issues.push(issue(
                format!("definitions[{i}].variable"),
                &definition.id,
                format!("no variable is named '{}'", definition.variable),
            ));
            continue;
        };
        let generated = match definition.rules(sort == Sort::Bool) {
            Ok(rules) => rules,
            Err(error) => {
                compiled.issues.push(issue(
                    format!("definitions[{i}].{}", error.field),
                    &definition.id,
                    error.message,
                ));
                continue;
            }
        };
        for rule in &generated {
            let message = match model.rule(&rule.id) {
                None => format!("its rule {} is missing from the rules", rule.id),
                Some(found) if found.expression != rule.expression => format!(
                    "its rule {} says {} but the definition says {}: edit the definition, not its rules",
                    rule.id, found.expression, rule.expression
                ),
                Some(_) => continue,
            };
            compiled
                .issues
                .push(issue(format!("definitions[{i}]"), &definition.id, message));
        }
        for (j, part) in definition.exceptions.iter().enumerate() {
            match compiled.check_formula(&part.condition) {
                Ok((written, formula)) => {
                    let mut symbols: Vec<String> = written
                        .symbols()
                        .into_iter()
                        .filter(|s| compiled.variables.iter().any(|(name, _)| name == s))
                        .map(str::to_string)
                        .collect();
                    symbols.sort();
                    symbols.dedup();
                    compiled.exceptions.push(CompiledException {
                        definition: definition.id.clone(),
                        variable: definition.variable.clone(),
                        rule: definition.rule_id(PartKind::Exception, j),
                        written,
                        formula,
                        symbols,
                    });
                }
                Err(error) => compiled.issues.push(ModelIssue {
                    field: format!("definitions[{i}].exceptions[{j}].condition"),
                    subject: definition.id.clone(),
                    message: error.to_string(),
                    smt_error: None,
                }),
            }
        }
    }
}

/// Brings `compiled` (the compiled form of the model before) up to date
/// after an edit of rule `id` alone in `model`: its expression changed, or
/// it was added at the end or deleted. Equal to `compile(model)` when it
/// returns true; false when the edit needs the whole model compiled again
/// (the rule does not compile, or it or its id had an issue), `compiled`
/// then unchanged.
pub fn recompile_rule(compiled: &mut CompiledModel, model: &PolicyModel, id: &str) -> bool {
    if compiled.issues.iter().any(|issue| issue.subject == id)
        || model.definitions.iter().any(|d| d.owns_rule(id))
    {
        return false;
    }
    let in_model: Vec<usize> = (0..model.rules.len())
        .filter(|&i| model.rules[i].id == id)
        .collect();
    let at = compiled.rules.iter().position(|rule| rule.id == id);
    match (in_model.as_slice(), at) {
        // Deleted: the compiled rules keep the model's order without it.
        ([], Some(at)) => {
            compiled.rules.remove(at);
            true
        }
        // Changed in place, or added at the end of the model.
        ([i], at) if at.is_some() || *i + 1 == model.rules.len() => {
            let Ok((written, formula)) = compiled.check_formula(&model.rules[*i].expression) else {
                return false;
            };
            let rule = CompiledRule {
                id: id.to_string(),
                written,
                formula,
            };
            match at {
                Some(at) => compiled.rules[at] = rule,
                None => compiled.rules.push(rule),
            }
            true
        }
        _ => false,
    }
}

fn issue(field: String, subject: &str, message: String) -> ModelIssue {
    ModelIssue {
        field,
        subject: subject.to_string(),
        message,
        smt_error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::policy::{EnumValue, Rule, TypeDef, Variable};
    use super::*;

    fn rule(id: &str, expression: &str) -> Rule {
        Rule {
            id: id.into(),
            expression: expression.into(),
            source_span: None,
            also_from: Vec::new(),
            review: Default::default(),
            note: String::new(),
        }
    }

    fn three_rules() -> PolicyModel {
        PolicyModel {
            variables: vec![Variable {
                reading: Default::default(),
                name: "fee".into(),
                sort: "Int".into(),
                description: String::new(),
            }],
            rules: vec![
                rule("R1", "(> fee 1)"),
                rule("R2", "(< fee   10)"),
                rule("R3", "(>= fee 2)"),
            ],
            ..PolicyModel::default()
        }
    }

    #[test]
    fn one_rule_recompiled_equals_the_whole_model_compiled() {
        let mut model = three_rules();
        let mut compiled = compile(&model);
        model.rules[1].expression = "(<= fee 12)".into();
        assert!(recompile_rule(&mut compiled, &model, "R2"));
        assert_eq!(compiled, compile(&model));
        model.rules.push(rule("R4", "(distinct fee 5)"));
        assert!(recompile_rule(&mut compiled, &model, "R4"));
        assert_eq!(compiled, compile(&model));
        model.rules.remove(0);
        assert!(recompile_rule(&mut compiled, &model, "R1"));
        assert_eq!(compiled, compile(&model));
    }

    #[test]
    fn an_edit_that_needs_the_whole_model_compiled_leaves_the_compiled_model_alone() {
        let mut model = three_rules();
        let before = compile(&model);
        let mut compiled = before.clone();
        // Does not compile: the issue is the whole compile's to report.
        model.rules[1].expression = "(<= fee".into();
        assert!(!recompile_rule(&mut compiled, &model, "R2"));
        assert_eq!(compiled, before);
        // A rule that had an issue, a duplicated id, a rule added mid-list.
        let broken = compile(&model);
        let mut compiled = broken.clone();
        model.rules[1].expression = "(<= fee 3)".into();
        assert!(!recompile_rule(&mut compiled, &model, "R2"));
        let mut model = three_rules();
        let mut compiled = compile(&model);
        model.rules.push(rule("R1", "true"));
        assert!(!recompile_rule(&mut compiled, &model, "R1"));
        model.rules.pop();
        model.rules.insert(0, rule("R0", "true"));
        assert!(!recompile_rule(&mut compiled, &model, "R0"));
        assert_eq!(compiled, compile(&three_rules()));
    }

    #[test]
    fn collects_every_problem_with_its_field() {
        let model = PolicyModel {
            types: vec![TypeDef {
                name: "Age".into(),
                description: String::new(),
                values: vec![EnumValue {
                    reading: Default::default(),
                    value: "CHILD".into(),
                    description: String::new(),
                }],
            }],
            variables: vec![
                Variable {
                    reading: Default::default(),
                    name: "age".into(),
                    sort: "Age".into(),
                    description: String::new(),
                },
                Variable {
                    reading: Default::default(),
                    name: "fee".into(),
                    sort: "Money".into(),
                    description: String::new(),
                },
            ],
            rules: vec![
                rule("R1", "(= age CHILD)"),
                rule("R2", "(> fee 1"),
                rule("R1", "true"),
                rule("R3", "(> price 1)"),
            ],
            ..PolicyModel::default()
        };
        let compiled = compile(&model);
        assert_eq!(compiled.rules.len(), 1);
        let fields: Vec<&str> = compiled.issues.iter().map(|i| i.field.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "variables[1].type",
                "rules[1].expression",
                "rules[2].id",
                "rules[3].expression"
            ]
        );
        assert!(compiled.issues[3].message.contains("unknown name 'price'"));
    }
}

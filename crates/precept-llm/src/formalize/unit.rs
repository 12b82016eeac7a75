//! A policy unit: the formalization of one document span (its enum types,
//! variables and rules), the JSON schema the LLM must answer with, and the
//! checks a unit must pass before it may enter the model.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::smt::reading::Reading;
use crate::smt::{SmtError, Sort, Vocabulary, parse_expr};

/// An enum type proposed by a unit. A reply may also give it as an SMT-LIB
/// declaration string, in the standard form or the ARC paper's
/// `(declare-datatype Tier (GOLD SILVER))`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Value")]
pub struct UnitType {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub values: Vec<UnitValue>,
}

/// The object form of a type in a reply.
#[derive(Deserialize)]
struct DescribedType {
    name: String,
    #[serde(default)]
    description: String,
    values: Vec<UnitValue>,
}

/// Why a type in a reply is not one: a declaration string that is not one
/// enum declaration, or an object without the fields of a type.
#[derive(Debug, thiserror::Error)]
pub enum UnitTypeError {
    #[error("type declaration {0}")]
    Declaration(SmtError),
    #[error("expected one '(declare-datatype Name (VALUE ...))' in a type string, found '{0}'")]
    NotOneDeclaration(String),
    #[error(transparent)]
    Described(#[from] serde_json::Error),
}

impl TryFrom<Value> for UnitType {
    type Error = UnitTypeError;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        if let Value::String(declaration) = &value {
            return declared_type(declaration);
        }
        let described: DescribedType = serde_json::from_value(value)?;
        Ok(UnitType {
            name: described.name,
            description: described.description,
            values: described.values,
        })
    }
}

fn declared_type(declaration: &str) -> Result<UnitType, UnitTypeError> {
    let commands = crate::smt::parse_script(declaration).map_err(UnitTypeError::Declaration)?;
    let mut enums = commands.into_iter().filter_map(|c| match c {
        crate::smt::Command::DeclareEnum { name, values, .. } => Some((name, values)),
        _ => None,
    });
    match (enums.next(), enums.next()) {
        (Some((name, values)), None) => Ok(UnitType {
            name,
            description: String::new(),
            values: values
                .into_iter()
                .map(|value| UnitValue {
                    reading: Default::default(),
                    value,
                    description: String::new(),
                })
                .collect(),
        }),
        _ => Err(UnitTypeError::NotOneDeclaration(declaration.to_string())),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitValue {
    pub value: String,
    #[serde(default)]
    pub description: String,
    /// The clause that says a variable has this value, if the LLM gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitVariable {
    pub name: String,
    #[serde(rename = "type")]
    pub sort: String,
    #[serde(default)]
    pub description: String,
    /// How the variable is said in English, if the LLM gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
    /// Why the span adds a variable the shared vocabulary does not have
    /// (empty for a shared one, and on the span-only path).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRule {
    /// One SMT-LIB Bool term over the unit's declarations.
    pub expression: String,
    /// The sentence of the span the rule formalizes, quoted.
    #[serde(default)]
    pub source_text: String,
}

/// The formalization of one span, as the LLM proposed it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PolicyUnit {
    #[serde(default)]
    pub types: Vec<UnitType>,
    #[serde(default)]
    pub variables: Vec<UnitVariable>,
    #[serde(default)]
    pub rules: Vec<UnitRule>,
}

/// One reason a unit cannot be used, located by its field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitProblem {
    /// e.g. `rules[2].expression` or `variables[0].type`.
    pub field: String,
    /// `line:column: expected …, found …` or a plain sentence.
    pub message: String,
}

impl std::fmt::Display for UnitProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// The JSON schema of a unit, for structured output. With a shared
/// vocabulary every variable carries a `reason` (empty for a shared one).
pub fn unit_schema_with_reasons(reasons: bool) -> Value {
    let mut schema = unit_schema();
    if reasons {
        let variable = &mut schema["properties"]["variables"]["items"];
        variable["properties"]["reason"] = json!({"type": "string"});
        if let Some(required) = variable["required"].as_array_mut() {
            required.push(json!("reason"));
        }
    }
    schema
}

/// The JSON schema of a variable's reading forms (`smt::reading`), or
/// null: a Boolean's clause and its negation, or a noun phrase.
pub fn reading_schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": ["object", "null"],
        "properties": {"holds": text, "negated": text, "noun": text},
        "required": ["holds", "negated", "noun"],
        "additionalProperties": false
    })
}

/// The JSON schema of one enum type with its values (shared with the
/// vocabulary pass).
pub fn type_schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "properties": {
            "name": text,
            "description": text,
            "values": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "value": text,
                    "description": text,
                    "reading": {"type": ["string", "null"]}
                },
                "required": ["value", "description", "reading"],
                "additionalProperties": false
            }}
        },
        "required": ["name", "description", "values"],
        "additionalProperties": false
    })
}

/// The JSON schema of a unit, for structured output.
pub fn unit_schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "properties": {
            "types": {"type": "array", "items": type_schema()},
            "variables": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "name": text, "type": text, "description": text,
                    "reading": reading_schema()
                },
                "required": ["name", "type", "description", "reading"],
                "additionalProperties": false
            }},
            "rules": {"type": "array", "items": {
                "type": "object",
                "properties": {"expression": text, "source_text": text},
                "required": ["expression", "source_text"],
                "additionalProperties": false
            }}
        },
        "required": ["types", "variables", "rules"],
        "additionalProperties": false
    })
}

/// A reply that does not read as a policy unit.
#[derive(Debug, thiserror::Error)]
#[error("the reply is not a policy unit: {0}")]
pub struct NotAUnit(#[from] serde_json::Error);

/// Reads a schema-valid reply into a unit.
pub fn unit_from_json(value: &Value) -> Result<PolicyUnit, NotAUnit> {
    Ok(serde_json::from_value(value.clone())?)
}

/// Whether `name` may be used as an SMT-LIB simple symbol here: letters,
/// digits and `_ . $ - ? !`, not starting with a digit, and not one of the
/// fragment's reserved words.
pub fn is_plain_symbol(name: &str) -> bool {
    const RESERVED: [&str; 8] = ["true", "false", "Bool", "Int", "Real", "let", "_", "!"];
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.$-?!".contains(c))
        && !RESERVED.contains(&name)
        && crate::smt::Op::from_symbol(name).is_none()
}

/// The vocabulary the unit declares, with every declaration problem.
pub fn unit_vocabulary(unit: &PolicyUnit) -> (Vocabulary, Vec<UnitProblem>) {
    let mut vocabulary = Vocabulary::new();
    let mut problems = Vec::new();
    let mut problem =
        |field: String, message: String| problems.push(UnitProblem { field, message });
    for (i, t) in unit.types.iter().enumerate() {
        if !is_plain_symbol(&t.name) {
            problem(
                format!("types[{i}].name"),
                format!(
                    "'{}' is not a usable type name (letters, digits, _)",
                    t.name
                ),
            );
            continue;
        }
        if let Some(bad) = t.values.iter().find(|v| !is_plain_symbol(&v.value)) {
            problem(
                format!("types[{i}].values"),
                format!(
                    "'{}' is not a usable value name (letters, digits, _)",
                    bad.value
                ),
            );
            continue;
        }
        if t.values.is_empty() {
            problem(
                format!("types[{i}].values"),
                "an enumeration needs at least one value".into(),
            );
            continue;
        }
        let values: Vec<String> = t.values.iter().map(|v| v.value.clone()).collect();
        if let Err(message) = vocabulary.declare_enum(&t.name, &values) {
            problem(format!("types[{i}].name"), message.to_string());
        }
    }
    for (i, v) in unit.variables.iter().enumerate() {
        if !is_plain_symbol(&v.name) {
            problem(
                format!("variables[{i}].name"),
                format!(
                    "'{}' is not a usable variable name (letters, digits, _)",
                    v.name
                ),
            );
            continue;
        }
        let sort = Sort::from_name(&v.sort);
        if let Sort::Enum(name) = &sort
            && vocabulary.enum_values(name).is_none()
        {
            problem(
                format!("variables[{i}].type"),
                format!(
                    "'{}' of variable '{}' is neither Bool, Int, Real nor a type declared in this \
                     span",
                    v.sort, v.name
                ),
            );
            continue;
        }
        if let Err(message) = vocabulary.declare_variable(&v.name, sort) {
            problem(format!("variables[{i}].name"), message.to_string());
        }
    }
    (vocabulary, problems)
}

/// Every problem of the unit: declarations, and each rule's parse and type
/// errors with their line:column inside the rule. An empty list means the
/// unit may enter the model as it is.
pub fn check_unit(unit: &PolicyUnit) -> Vec<UnitProblem> {
    let (vocabulary, mut problems) = unit_vocabulary(unit);
    for (i, rule) in unit.rules.iter().enumerate() {
        let field = format!("rules[{i}].expression");
        let checked = parse_expr(&rule.expression)
            .and_then(|expr| vocabulary.check_formula(&rule.expression, &expr));
        if let Err(error) = checked {
            problems.push(UnitProblem {
                field,
                message: error.to_string(),
            });
        }
    }
    problems
}

/// The declarations of a unit that check, as prompt text ("(none yet)" if
/// there are none): what the refinement round tells the LLM is already
/// declared in the span.
pub fn declarations_text(unit: Option<&PolicyUnit>) -> String {
    let Some(unit) = unit else {
        return "(none yet)".into();
    };
    let (vocabulary, _) = unit_vocabulary(unit);
    let mut lines = Vec::new();
    for t in &unit.types {
        if vocabulary.enum_values(&t.name).is_some() {
            let values: Vec<&str> = t.values.iter().map(|v| v.value.as_str()).collect();
            lines.push(format!(
                "- type {} = {} ({})",
                t.name,
                values.join(" | "),
                t.description
            ));
        }
    }
    for v in &unit.variables {
        if vocabulary.variable_sort(&v.name).is_some() {
            lines.push(format!("- {}: {} ({})", v.name, v.sort, v.description));
        }
    }
    if lines.is_empty() {
        "(none yet)".into()
    } else {
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(json: Value) -> PolicyUnit {
        unit_from_json(&json).unwrap()
    }

    #[test]
    fn a_sound_unit_has_no_problems() {
        let u = unit(json!({
            "types": [{"name": "AgeClass", "description": "", "values": [
                {"value": "CHILD", "description": ""}, {"value": "SENIOR", "description": ""}]}],
            "variables": [
                {"name": "ageClass", "type": "AgeClass", "description": "age band"},
                {"name": "fee", "type": "Real", "description": "fee"}],
            "rules": [{"expression": "(=> (= ageClass SENIOR) (<= fee 30))", "source_text": ""}]
        }));
        assert_eq!(check_unit(&u), vec![]);
        assert!(declarations_text(Some(&u)).contains("ageClass: AgeClass"));
    }

    #[test]
    fn a_reply_may_declare_a_type_in_the_arc_papers_grammar() {
        let u = unit(json!({
            "types": ["(declare-datatype Tier (GOLD SILVER))"],
            "variables": [{"name": "tier", "type": "Tier", "description": "tier"}],
            "rules": [{"expression": "(not (= tier SILVER))", "source_text": ""}]
        }));
        assert_eq!(u.types[0].name, "Tier");
        let values: Vec<&str> = u.types[0].values.iter().map(|v| v.value.as_str()).collect();
        assert_eq!(values, ["GOLD", "SILVER"]);
        assert_eq!(check_unit(&u), vec![]);
        let error = unit_from_json(&json!({"types": ["(declare-datatype Tier (GOLD 1))"]}))
            .unwrap_err()
            .to_string();
        assert!(error.contains("1:30"), "{error}");
    }

    #[test]
    fn problems_name_the_field_and_the_position() {
        let u = unit(json!({
            "types": [],
            "variables": [
                {"name": "fee", "type": "Money", "description": ""},
                {"name": "1bad", "type": "Int", "description": ""}],
            "rules": [
                {"expression": "(and isSenior", "source_text": ""},
                {"expression": "(> refund 3)", "source_text": ""}]
        }));
        let problems = check_unit(&u);
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "variables[0].type",
                "variables[1].name",
                "rules[0].expression",
                "rules[1].expression"
            ]
        );
        assert!(problems[2].message.starts_with("1:"), "{}", problems[2]);
        assert!(problems[3].message.contains("refund"), "{}", problems[3]);
    }

    #[test]
    fn reserved_words_and_operators_are_not_names() {
        for bad in ["and", "=>", "true", "Int", "", "3x", "a b"] {
            assert!(!is_plain_symbol(bad), "{bad}");
        }
        assert!(is_plain_symbol("isLowSeason"));
    }
}

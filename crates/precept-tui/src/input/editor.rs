//! The editor overlay: a ratatui-textarea over a rule's expression, or over a
//! small form for a variable, type or test. Every keystroke re-checks the
//! text, so parse and type errors show live with line:column.

use precept_engine::model::{CompiledModel, LogicTest, PolicyModel, TypeDef, Variable};
use precept_engine::smt::Position;
use precept_engine::smt::english::Glossary;
use precept_engine::smt::printer::pretty;
use precept_engine::smt::reading::{Reading, check};
use ratatui_textarea::TextArea;

/// What the editor edits. `None` indexes mean "a new one".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditTarget {
    Rule {
        id: String,
        is_new: bool,
    },
    Variable {
        index: Option<usize>,
    },
    Type {
        index: Option<usize>,
    },
    Test {
        index: Option<usize>,
    },
    /// One part of definition `definition` (`index` None: a new part).
    DefinitionPart {
        definition: String,
        kind: precept_engine::model::definition::PartKind,
        index: Option<usize>,
    },
}

impl EditTarget {
    pub fn title(&self) -> String {
        match self {
            EditTarget::Rule { id, is_new: true } => format!("New rule {id}"),
            EditTarget::Rule { id, .. } => format!("Edit rule {id}"),
            EditTarget::Variable { index: None } => "New variable".into(),
            EditTarget::Variable { .. } => "Edit variable".into(),
            EditTarget::Type { index: None } => "New type".into(),
            EditTarget::Type { .. } => "Edit type".into(),
            EditTarget::Test { index: None } => "New test".into(),
            EditTarget::Test { .. } => "Edit test".into(),
            EditTarget::DefinitionPart {
                definition,
                kind,
                index,
            } => match index {
                Some(i) => format!("Edit {} {} of {definition}", kind.noun(), i + 1),
                None => format!("New {} of {definition}", kind.noun()),
            },
        }
    }
}

/// A problem in the editor's text, at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for EditorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

pub struct Editor {
    pub target: EditTarget,
    pub textarea: TextArea<'static>,
    /// The text when the editor opened (to know whether anything changed).
    pub original: String,
    pub error: Option<EditorError>,
    /// The rule being edited in the model's English, while its text parses
    /// and type-checks (updated on every keystroke).
    pub english: Option<String>,
}

impl Editor {
    pub fn new(target: EditTarget, text: &str) -> Editor {
        let lines: Vec<String> = if text.is_empty() {
            vec![String::new()]
        } else {
            text.lines().map(str::to_string).collect()
        };
        let mut textarea = TextArea::new(lines);
        textarea.set_max_histories(200);
        Editor {
            target,
            textarea,
            original: text.to_string(),
            error: None,
            english: None,
        }
    }

    pub fn text(&self) -> String {
        self.textarea.lines().join("\n")
    }

    pub fn changed(&self) -> bool {
        self.text() != self.original
    }

    /// Re-checks the text against the model; a rule that checks is also
    /// read out in English.
    pub fn recheck(&mut self, compiled: &CompiledModel, model: &PolicyModel) {
        let text = self.text();
        self.error = validate(&self.target, &text, compiled, model).err();
        self.english = match (&self.target, &self.error) {
            (EditTarget::Rule { .. }, None) => compiled
                .check_formula(&text)
                .ok()
                .map(|(written, _)| compiled.glossary.sentence(&written)),
            _ => None,
        };
    }
}

/// The editor text for a definition part: its condition (pretty-printed
/// when it parses), or for a case of a number or an enum a `when:` and
/// `value:` form.
pub fn part_form(condition: &str, value: Option<&str>, is_bool: bool) -> String {
    if is_bool {
        rule_text(condition)
    } else {
        format!("when: {condition}\nvalue: {}", value.unwrap_or_default())
    }
}

/// The editor text for a rule: pretty-printed when it parses.
pub fn rule_text(expression: &str) -> String {
    match precept_engine::smt::parse_expr(expression) {
        Ok(expr) => pretty(&expr, 60),
        Err(_) => expression.to_string(),
    }
}

/// The editor's text for a variable: name, type, description, and how it
/// reads (a Boolean's clause and its negation, or a noun phrase), the
/// template's forms shown where none were given.
pub fn variable_form(variable: Option<&Variable>, glossary: &Glossary) -> String {
    let Some(v) = variable else {
        return "name: \ntype: Bool\ndescription: Whether \nreads: \nreads not: ".to_string();
    };
    let reading = match v.reading.is_empty() {
        true => glossary.template_reading(&v.name),
        false => v.reading.clone(),
    };
    let head = format!(
        "name: {}\ntype: {}\ndescription: {}",
        v.name, v.sort, v.description
    );
    match v.sort.as_str() {
        "Bool" => format!(
            "{head}\nreads: {}\nreads not: {}",
            reading.holds, reading.negated
        ),
        _ => format!("{head}\nreads: {}", reading.noun),
    }
}

/// The reading forms of a variable's editor text: none when they are the
/// template's for its description (or left empty), so they follow the
/// description; the forms when they check; where and why when not.
fn edited_reading(
    text: &str,
    name: &str,
    sort: &str,
    description: &str,
) -> Result<Reading, EditorError> {
    let is_bool = sort == "Bool";
    let optional = |key: &str| field(text, key).ok();
    let reads = optional("reads");
    let given = match is_bool {
        true => Reading {
            holds: reads.map(|(_, _, t)| t.to_string()).unwrap_or_default(),
            negated: optional("reads not")
                .map(|(_, _, t)| t.to_string())
                .unwrap_or_default(),
            noun: String::new(),
        },
        false => Reading {
            noun: reads.map(|(_, _, t)| t.to_string()).unwrap_or_default(),
            ..Reading::default()
        },
    };
    let mut template = Glossary::default();
    template
        .variables
        .insert(name.to_string(), description.to_string());
    if is_bool {
        template.bool_variables.insert(name.to_string());
    }
    let template = template.template_reading(name);
    if given.is_empty() || given.tidied() == template {
        return Ok(Reading::default());
    }
    check(&given, is_bool).map_err(|why| {
        let (line, column) = reads.map_or((1, 1), |(line, column, _)| (line, column));
        EditorError {
            line,
            column,
            message: format!("expected reading forms: {why}"),
        }
    })?;
    Ok(given.tidied())
}

pub fn type_form(type_def: Option<&TypeDef>) -> String {
    match type_def {
        Some(t) => {
            let mut text = format!("name: {}\ndescription: {}", t.name, t.description);
            for value in &t.values {
                text.push_str(&format!("\n{}: {}", value.value, value.description));
            }
            text
        }
        None => {
            "name: \ndescription: \nVALUE_ONE: what it means\nVALUE_TWO: what it means".to_string()
        }
    }
}

pub fn test_form(test: Option<&LogicTest>) -> String {
    match test {
        Some(t) => format!(
            "name: {}\npremise: {}\nclaim: {}\nexpected: {}",
            t.name, t.premise, t.claim, t.expected
        ),
        None => "name: \npremise: true\nclaim: \nexpected: VALID".to_string(),
    }
}

/// What a valid editor text means.
#[derive(Debug, Clone, PartialEq)]
pub enum Edited {
    Rule {
        expression: String,
    },
    Variable(Variable),
    Type(TypeDef),
    Test {
        name: String,
        premise: String,
        claim: String,
        expected: precept_engine::solve::FindingKind,
    },
    /// A definition part's condition, and the value a case of a number or
    /// an enum gives.
    DefinitionPart {
        condition: String,
        value: Option<String>,
    },
}

/// A `key: value` field of a form, with its 1-based line and the column where the value starts.
fn field<'a>(text: &'a str, key: &str) -> Result<(usize, usize, &'a str), EditorError> {
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            let value = rest.trim_start();
            let column = line.len() - value.len() + 1;
            return Ok((i + 1, column, value.trim_end()));
        }
    }
    Err(EditorError {
        line: 1,
        column: 1,
        message: format!("expected a line '{key}: ...'"),
    })
}

fn smt_error_at(line: usize, column: usize, position: Position, message: String) -> EditorError {
    // An expression on one form line: its 1:c becomes line:column+c-1.
    let column = if position.line == 1 {
        column + position.column - 1
    } else {
        position.column
    };
    EditorError {
        line: line + position.line - 1,
        column,
        message,
    }
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}

/// A form field holding a Bool formula, checked against the model; errors
/// point into the form.
fn formula_field<'a>(
    text: &'a str,
    key: &str,
    compiled: &CompiledModel,
) -> Result<&'a str, EditorError> {
    let (line, column, value) = field(text, key)?;
    compiled.check_formula(value).map_err(|e| {
        smt_error_at(
            line,
            column,
            e.position,
            format!("expected {}, found {}", e.expected, e.found),
        )
    })?;
    Ok(value)
}

/// A type pasted as an SMT-LIB declaration, in the standard form or the ARC
/// paper's `(declare-datatype Tier (GOLD SILVER))`. The descriptions of the
/// edited type's values that keep their names are kept.
fn declared_type(
    text: &str,
    index: Option<usize>,
    model: &PolicyModel,
) -> Result<Edited, EditorError> {
    let at = |position: Position, message: String| EditorError {
        line: position.line,
        column: position.column,
        message,
    };
    let commands = precept_engine::smt::parse_script(text).map_err(|e| {
        at(
            e.position,
            format!("expected {}, found {}", e.expected, e.found),
        )
    })?;
    let mut declared = commands.into_iter().filter_map(|c| match c {
        precept_engine::smt::Command::DeclareEnum { name, values, .. } => Some((name, values)),
        _ => None,
    });
    let (Some((name, values)), None) = (declared.next(), declared.next()) else {
        return Err(EditorError {
            line: 1,
            column: 1,
            message: "expected exactly one '(declare-datatype Name (VALUE ...))'".into(),
        });
    };
    if matches!(name.as_str(), "Bool" | "Int" | "Real")
        || model
            .types
            .iter()
            .enumerate()
            .any(|(i, t)| t.name == name && Some(i) != index)
    {
        return Err(EditorError {
            line: 1,
            column: 1,
            message: format!("expected a new type name; '{name}' is already a type"),
        });
    }
    let old = index.and_then(|i| model.types.get(i));
    let kept = |value: &str| old.and_then(|t| t.values.iter().find(|v| v.value == value));
    let described = |value: &str| {
        kept(value)
            .map(|v| v.description.clone())
            .unwrap_or_default()
    };
    let read = |value: &str| kept(value).map(|v| v.reading.clone()).unwrap_or_default();
    Ok(Edited::Type(TypeDef {
        description: old.map(|t| t.description.clone()).unwrap_or_default(),
        values: values
            .iter()
            .map(|value| precept_engine::model::EnumValue {
                reading: read(value),
                value: value.clone(),
                description: described(value),
            })
            .collect(),
        name,
    }))
}

/// Checks editor text for `target`; on success says what it means.
pub fn validate(
    target: &EditTarget,
    text: &str,
    compiled: &CompiledModel,
    model: &PolicyModel,
) -> Result<Edited, EditorError> {
    match target {
        EditTarget::Rule { .. } => {
            compiled.check_formula(text).map_err(|e| EditorError {
                line: e.position.line,
                column: e.position.column,
                message: format!("expected {}, found {}", e.expected, e.found),
            })?;
            Ok(Edited::Rule {
                expression: text.to_string(),
            })
        }
        EditTarget::Variable { index } => {
            let (line, column, name) = field(text, "name")?;
            if !is_name(name) {
                return Err(EditorError {
                    line,
                    column,
                    message: "expected a name of letters, digits and _ (not starting with a digit)"
                        .into(),
                });
            }
            let taken = model
                .variables
                .iter()
                .enumerate()
                .any(|(i, v)| v.name == name && Some(i) != *index)
                || model
                    .types
                    .iter()
                    .any(|t| t.values.iter().any(|v| v.value == name));
            if taken {
                return Err(EditorError {
                    line,
                    column,
                    message: format!("expected a new name; '{name}' is already taken"),
                });
            }
            let (line, column, sort) = field(text, "type")?;
            let known = matches!(sort, "Bool" | "Int" | "Real")
                || model.types.iter().any(|t| t.name == sort);
            if !known {
                let mut names = vec!["Bool", "Int", "Real"];
                names.extend(model.types.iter().map(|t| t.name.as_str()));
                return Err(EditorError {
                    line,
                    column,
                    message: format!("expected a type ({}), found '{sort}'", names.join(", ")),
                });
            }
            let (_, _, description) = field(text, "description")?;
            let reading = edited_reading(text, name, sort, description)?;
            Ok(Edited::Variable(Variable {
                reading,
                name: name.into(),
                sort: sort.into(),
                description: description.into(),
            }))
        }
        EditTarget::Type { index } if text.trim_start().starts_with('(') => {
            declared_type(text, *index, model)
        }
        EditTarget::Type { index } => {
            let (line, column, name) = field(text, "name")?;
            if !is_name(name) || matches!(name, "Bool" | "Int" | "Real") {
                return Err(EditorError {
                    line,
                    column,
                    message: "expected a new type name".into(),
                });
            }
            if model
                .types
                .iter()
                .enumerate()
                .any(|(i, t)| t.name == name && Some(i) != *index)
            {
                return Err(EditorError {
                    line,
                    column,
                    message: format!("expected a new name; '{name}' is already a type"),
                });
            }
            let (_, _, description) = field(text, "description")?;
            let mut values = Vec::new();
            for (i, raw) in text.lines().enumerate() {
                if raw.starts_with("name:")
                    || raw.starts_with("description:")
                    || raw.trim().is_empty()
                {
                    continue;
                }
                let (value, value_description) = raw.split_once(':').unwrap_or((raw, ""));
                let value = value.trim();
                if !is_name(value) {
                    return Err(EditorError {
                        line: i + 1,
                        column: 1,
                        message: format!("expected 'VALUE: description', found '{raw}'"),
                    });
                }
                values.push(precept_engine::model::EnumValue {
                    reading: Default::default(),
                    value: value.into(),
                    description: value_description.trim().into(),
                });
            }
            if values.is_empty() {
                return Err(EditorError {
                    line: 3,
                    column: 1,
                    message: "expected at least one 'VALUE: description' line".into(),
                });
            }
            Ok(Edited::Type(TypeDef {
                name: name.into(),
                description: description.into(),
                values,
            }))
        }
        EditTarget::DefinitionPart { definition, .. } => {
            let variable = model
                .definition(definition)
                .map(|d| d.variable.as_str())
                .ok_or_else(|| EditorError {
                    line: 1,
                    column: 1,
                    message: format!("expected definition {definition}, which is gone"),
                })?;
            if model.variable(variable).is_some_and(|v| v.sort == "Bool") {
                let condition = text.trim();
                compiled.check_formula(condition).map_err(|e| EditorError {
                    line: e.position.line,
                    column: e.position.column,
                    message: format!("expected {}, found {}", e.expected, e.found),
                })?;
                return Ok(Edited::DefinitionPart {
                    condition: condition.into(),
                    value: None,
                });
            }
            let condition = formula_field(text, "when", compiled)?;
            let (line, column, value) = field(text, "value")?;
            compiled
                .check_formula(&format!("(= {variable} {value})"))
                .map_err(|e| EditorError {
                    line,
                    column,
                    message: format!("expected a value of {variable}: {}", e.expected),
                })?;
            Ok(Edited::DefinitionPart {
                condition: condition.into(),
                value: Some(value.into()),
            })
        }
        EditTarget::Test { .. } => {
            let (_, _, name) = field(text, "name")?;
            let premise = formula_field(text, "premise", compiled)?;
            let claim = formula_field(text, "claim", compiled)?;
            let (line, column, expected) = field(text, "expected")?;
            let expected =
                precept_engine::solve::FindingKind::parse(expected).ok_or_else(|| EditorError {
                    line,
                    column,
                    message: "expected VALID, INVALID, SATISFIABLE, IMPOSSIBLE or TOO_COMPLEX"
                        .into(),
                })?;
            Ok(Edited::Test {
                name: name.into(),
                premise: premise.into(),
                claim: claim.into(),
                expected,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use precept_engine::model::import::import_smtlib;

    fn model() -> (PolicyModel, CompiledModel) {
        let model = import_smtlib(
            "(declare-const fee Real)(declare-const senior Bool)(assert (=> senior (< fee 10.0)))",
        )
        .unwrap();
        let compiled = precept_engine::model::compile(&model);
        (model, compiled)
    }

    #[test]
    fn rule_errors_carry_line_and_column() {
        let (model, compiled) = model();
        let target = EditTarget::Rule {
            id: "R1".into(),
            is_new: false,
        };
        let error = validate(&target, "(=> senior\n  (< fe 10.0))", &compiled, &model).unwrap_err();
        assert_eq!((error.line, error.column), (2, 6));
        assert!(error.message.contains("unknown name 'fe'"), "{error}");
        assert!(validate(&target, "(=> senior (< fee 12.0))", &compiled, &model).is_ok());
    }

    #[test]
    fn test_forms_locate_errors_on_their_line() {
        let (model, compiled) = model();
        let target = EditTarget::Test { index: None };
        let error = validate(
            &target,
            "name: cheap\npremise: senior\nclaim: (< fee ten)\nexpected: VALID",
            &compiled,
            &model,
        )
        .unwrap_err();
        assert_eq!((error.line, error.column), (3, 15));
        let error = validate(
            &target,
            "name: x\npremise: true\nclaim: senior\nexpected: MAYBE",
            &compiled,
            &model,
        )
        .unwrap_err();
        assert_eq!(error.line, 4);
        let ok = validate(
            &target,
            "name: x\npremise: senior\nclaim: (< fee 10.0)\nexpected: valid",
            &compiled,
            &model,
        )
        .unwrap();
        assert!(matches!(
            ok,
            Edited::Test {
                expected: precept_engine::solve::FindingKind::Valid,
                ..
            }
        ));
    }

    #[test]
    fn type_forms_accept_a_pasted_declaration_in_either_form() {
        let (model, compiled) = model();
        let target = EditTarget::Type { index: None };
        for text in [
            "(declare-datatype Tier (GOLD SILVER))",
            "(declare-datatype Tier ((GOLD) (SILVER)))",
        ] {
            let Edited::Type(tier) = validate(&target, text, &compiled, &model).unwrap() else {
                panic!("not a type: {text}");
            };
            assert_eq!(tier.name, "Tier");
            let values: Vec<&str> = tier.values.iter().map(|v| v.value.as_str()).collect();
            assert_eq!(values, ["GOLD", "SILVER"]);
        }
        let error = validate(
            &target,
            "(declare-datatype Tier\n  (GOLD 7))",
            &compiled,
            &model,
        )
        .unwrap_err();
        assert_eq!((error.line, error.column), (2, 9), "{error}");
    }

    #[test]
    fn variable_forms_refuse_taken_names_and_unknown_types() {
        let (model, compiled) = model();
        let target = EditTarget::Variable { index: None };
        assert!(
            validate(
                &target,
                "name: fee\ntype: Real\ndescription: x",
                &compiled,
                &model
            )
            .unwrap_err()
            .message
            .contains("already taken")
        );
        assert!(
            validate(
                &target,
                "name: tax\ntype: Money\ndescription: x",
                &compiled,
                &model
            )
            .unwrap_err()
            .message
            .contains("expected a type")
        );
        assert!(
            validate(
                &target,
                "name: tax\ntype: Real\ndescription: Tax in dollars",
                &compiled,
                &model
            )
            .is_ok()
        );
        let rename = EditTarget::Variable { index: Some(0) };
        assert!(
            validate(
                &rename,
                "name: fee\ntype: Real\ndescription: Fee",
                &compiled,
                &model
            )
            .is_ok()
        );
    }
}

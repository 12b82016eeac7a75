//! Turns an SMT-LIB script in the fragment into a policy model: each
//! declaration becomes a type or variable, each assertion a rule.

use super::policy::{Definition, EnumValue, PolicyModel, ReviewStatus, Rule, TypeDef, Variable};
use crate::smt::{Command, SmtError, Sort, Span, Vocabulary, parse_script};

/// Builds a model from `source`. Errors carry line:column in `source`.
pub fn import_smtlib(source: &str) -> Result<PolicyModel, SmtError> {
    let mut vocabulary = Vocabulary::new();
    let mut model = PolicyModel::default();
    let mut definitions: Vec<(Definition, Span)> = Vec::new();
    let declaration_error = |span: Span, message: String| {
        SmtError::new(source, span, "a declaration that clashes", message)
    };
    for command in parse_script(source)? {
        match command {
            Command::DeclareEnum { name, values, span } => {
                vocabulary
                    .declare_enum(&name, &values)
                    .map_err(|m| declaration_error(span, format!("a fresh name ({m})")))?;
                model.types.push(TypeDef {
                    name,
                    description: String::new(),
                    values: values
                        .into_iter()
                        .map(|value| EnumValue {
                            reading: Default::default(),
                            value,
                            description: String::new(),
                        })
                        .collect(),
                });
            }
            Command::DeclareConst { name, sort, span } => {
                vocabulary
                    .declare_variable(&name, sort.clone())
                    .map_err(|m| {
                        declaration_error(span, format!("a fresh name of a known sort ({m})"))
                    })?;
                model.variables.push(Variable {
                    reading: Default::default(),
                    name,
                    sort: sort_name(&sort),
                    description: String::new(),
                });
            }
            Command::Assert(expr) => {
                vocabulary.check_formula(source, &expr)?;
                model.rules.push(Rule {
                    id: format!("R{}", model.rules.len() + 1),
                    expression: expr.to_string(),
                    source_span: None,
                    also_from: Vec::new(),
                    review: ReviewStatus::Unreviewed,
                    note: String::new(),
                });
            }
            Command::Info {
                keyword,
                value,
                span,
            } if keyword == "precept-definition" => {
                let definition: Definition = serde_json::from_str(&value).map_err(|e| {
                    SmtError::new(
                        source,
                        span,
                        "a :precept-definition that is not a definition",
                        format!("a definition written by Precept's export ({e})"),
                    )
                })?;
                definitions.push((definition, span));
            }
            Command::Info { .. } | Command::Ignored(_) => {}
        }
    }
    // A definition's rules were exported as plain assertions: they go, and
    // the definition gives them back under its own ids.
    for (definition, span) in definitions {
        let is_bool = model
            .variable(&definition.variable)
            .is_some_and(|v| v.sort == "Bool");
        let generated: Vec<String> = definition
            .rules(is_bool)
            .map(|rules| rules.into_iter().map(|r| r.expression).collect())
            .unwrap_or_default();
        model.rules.retain(|r| !generated.contains(&r.expression));
        let id = definition.id.clone();
        model.set_definition(definition).map_err(|e| {
            SmtError::new(
                source,
                span,
                format!("definition {id}"),
                format!("a definition of a declared variable ({e})"),
            )
        })?;
    }
    Ok(model)
}

fn sort_name(sort: &Sort) -> String {
    sort.name().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_and_assertions_become_a_model() {
        let model = import_smtlib(
            "(set-logic QF_LIA)\n(declare-datatype Tier ((GOLD) (SILVER)))\n(declare-fun x () Int)\n(declare-const t Tier)\n(assert (> x 0))\n(assert (=> (= t GOLD) (> x 10)))\n(check-sat)",
        )
        .unwrap();
        assert_eq!(model.types[0].values.len(), 2);
        assert_eq!(model.variables.len(), 2);
        assert_eq!(model.variables[0].sort, "Int");
        let ids: Vec<&str> = model.rules.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, vec!["R1", "R2"]);
        assert_eq!(model.rules[1].expression, "(=> (= t GOLD) (> x 10))");
    }

    #[test]
    fn type_errors_point_into_the_file() {
        let err = import_smtlib("(declare-const b Bool)\n(assert (+ b 1))").unwrap_err();
        assert_eq!(err.position.line, 2);
        assert_eq!(err.position.column, 12);
    }
}

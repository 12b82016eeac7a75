//! The model's vocabulary as the translator sees it: the prompt text (enum
//! types with value descriptions, variables with types and descriptions),
//! the checker that type-checks replies, and fingerprints that tell which
//! cached translations a vocabulary change affects.

use crate::model::{CompiledModel, PolicyModel};
use crate::smt::{Expr, SmtError, Sort, Vocabulary, parse_expr};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// What a translation may use, and how to recognise a change to it.
#[derive(Debug, Clone)]
pub struct TranslationVocabulary {
    /// The enumeration types, one block each, for the prompt.
    pub types_text: String,
    /// The variables, one line each, for the prompt.
    pub variables_text: String,
    checker: Vocabulary,
    /// Fingerprint of each variable and enum value's declaration.
    symbols: HashMap<String, String>,
    /// Fingerprint of the whole vocabulary.
    whole: String,
}

impl TranslationVocabulary {
    /// The vocabulary of `compiled` (declarations that did not compile are
    /// left out), with the descriptions of `model`.
    pub fn new(model: &PolicyModel, compiled: &CompiledModel) -> TranslationVocabulary {
        let mut types_text = String::new();
        let mut symbols = HashMap::new();
        let mut enum_prints: HashMap<&str, String> = HashMap::new();
        let mut whole = Sha256::new();
        for (name, _) in &compiled.enums {
            let Some(type_def) = model.types.iter().find(|t| &t.name == name) else {
                continue;
            };
            let _ = writeln!(
                types_text,
                "- {}: {}",
                type_def.name,
                one_line(&type_def.description)
            );
            let mut parts = vec!["type", type_def.name.as_str(), &type_def.description];
            for value in &type_def.values {
                let _ = writeln!(
                    types_text,
                    "    {}: {}",
                    value.value,
                    one_line(&value.description)
                );
                parts.push(&value.value);
                parts.push(&value.description);
            }
            let print = fingerprint(&parts);
            absorb(&mut whole, &print);
            for value in &type_def.values {
                symbols.insert(value.value.clone(), print.clone());
            }
            enum_prints.insert(name, print);
        }
        let mut variables_text = String::new();
        for (name, sort) in &compiled.variables {
            let Some(variable) = model.variable(name) else {
                continue;
            };
            let _ = writeln!(
                variables_text,
                "- {} ({}): {}",
                variable.name,
                variable.sort,
                one_line(&variable.description)
            );
            let enum_print = match sort {
                Sort::Enum(type_name) => enum_prints.get(type_name.as_str()).cloned(),
                _ => None,
            }
            .unwrap_or_default();
            let print = fingerprint(&[
                "variable",
                &variable.name,
                &variable.sort,
                &variable.description,
                &enum_print,
            ]);
            absorb(&mut whole, &print);
            symbols.insert(name.clone(), print);
        }
        if types_text.is_empty() {
            types_text.push_str("(none)\n");
        }
        if variables_text.is_empty() {
            variables_text.push_str("(none)\n");
        }
        TranslationVocabulary {
            types_text,
            variables_text,
            checker: compiled.vocabulary.clone(),
            symbols,
            whole: hex(&whole.finalize()),
        }
    }

    /// Parses and type-checks a Bool formula: the written form (for display)
    /// and the elaborated one (for the solver).
    pub fn check(&self, text: &str) -> Result<(Expr, Expr), SmtError> {
        let written = parse_expr(text)?;
        let elaborated = self.checker.check_formula(text, &written)?;
        Ok((written, elaborated))
    }

    /// The fingerprint of a variable's or enum value's declaration: it
    /// changes when the name's type or description changes, and for enum
    /// values and enum-typed variables when the enumeration's values or
    /// their descriptions change.
    pub fn symbol_fingerprint(&self, name: &str) -> Option<&str> {
        self.symbols.get(name).map(String::as_str)
    }

    /// The fingerprints of the names `exprs` use.
    pub fn fingerprints_of<'a>(
        &self,
        exprs: impl IntoIterator<Item = &'a Expr>,
    ) -> BTreeMap<String, String> {
        let mut used = BTreeMap::new();
        for expr in exprs {
            for symbol in expr.symbols() {
                if let Some(print) = self.symbol_fingerprint(symbol) {
                    used.insert(symbol.to_string(), print.to_string());
                }
            }
        }
        used
    }

    /// A fingerprint of every declaration and description.
    pub fn fingerprint(&self) -> &str {
        &self.whole
    }
}

fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() {
        "(no description)".into()
    } else {
        joined
    }
}

/// The hex SHA-256 of length-prefixed parts.
pub(super) fn fingerprint(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        absorb(&mut hasher, part);
    }
    hex(&hasher.finalize())
}

fn absorb(hasher: &mut Sha256, part: &str) {
    hasher.update((part.len() as u64).to_le_bytes());
    hasher.update(part.as_bytes());
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::compile;

    fn park() -> PolicyModel {
        serde_json::from_str(include_str!(
            "../../../../samples/park-admission/model.json"
        ))
        .expect("the park sample parses")
    }

    #[test]
    fn prompt_lists_types_values_and_variables_with_descriptions() {
        let model = park();
        let vocabulary = TranslationVocabulary::new(&model, &compile(&model));
        assert!(
            vocabulary
                .types_text
                .contains("- AgeClass: The age group a visitor belongs to for pricing")
        );
        assert!(vocabulary.types_text.contains("    SENIOR: A senior"));
        assert!(
            vocabulary
                .variables_text
                .contains("- creditUnits (Int): Number of 5-credit units the visitor uses")
        );
    }

    #[test]
    fn fingerprints_change_only_with_the_declaration_they_cover() {
        let model = park();
        let before = TranslationVocabulary::new(&model, &compile(&model));
        let mut edited = model.clone();
        edited
            .variables
            .iter_mut()
            .find(|v| v.name == "creditUnits")
            .expect("creditUnits")
            .description = "Credit bundles bought".into();
        edited.rules.pop();
        let after = TranslationVocabulary::new(&edited, &compile(&edited));
        assert_ne!(
            before.symbol_fingerprint("creditUnits"),
            after.symbol_fingerprint("creditUnits")
        );
        assert_eq!(
            before.symbol_fingerprint("isEntryAllowed"),
            after.symbol_fingerprint("isEntryAllowed")
        );
        assert_eq!(
            before.symbol_fingerprint("SENIOR"),
            after.symbol_fingerprint("SENIOR")
        );
        assert_ne!(before.fingerprint(), after.fingerprint());

        let mut values = model.clone();
        values.types[0].values[2].description = "Older than 65".into();
        let after = TranslationVocabulary::new(&values, &compile(&values));
        assert_ne!(
            before.symbol_fingerprint("SENIOR"),
            after.symbol_fingerprint("SENIOR")
        );
        assert_ne!(
            before.symbol_fingerprint("ageClass"),
            after.symbol_fingerprint("ageClass")
        );
        assert_eq!(
            before.symbol_fingerprint("creditUnits"),
            after.symbol_fingerprint("creditUnits")
        );
    }
}

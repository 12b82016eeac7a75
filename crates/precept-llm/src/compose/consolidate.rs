//! Consolidation after composition: links between the model's variables
//! that make the vocabulary one, each proposed, checked, and decided by the
//! expert. A link is one of
//!
//! * **same meaning**: `merge` is replaced by `keep` everywhere (a merge);
//! * **opposite**: `variable` is the negation of `negation_of`, so every use
//!   of it becomes `(not negation_of)` and it goes;
//! * **implies**: a definitional rule `(=> from to)` ("a certificate of
//!   completion means the training was completed");
//! * **one of**: a group of Booleans that are mutually exclusive cases
//!   becomes one enum variable (with a value for "none of these", so the
//!   group need not cover every case).
//!
//! Proposals come from the composition (merges the similarity suggested but
//! the names did not make certain) and from the LLM reviewing the whole
//! vocabulary. Nothing of a proposal's text reaches the model unchecked:
//! names must exist with the right types, new names must be fresh and
//! well formed, and free text that looks like SMT-LIB commands is refused.

use super::correction::CorrectionError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::compose::cluster_edit;
use crate::compose::record::FormalizationRecord;
use crate::model::{
    Definition, EnumValue, ModelEdit, PolicyModel, ReviewStatus, Rule, TypeDef, Variable,
};
use crate::smt::{Expr, ExprKind, Op, parse_expr};

/// The value of a "one of" enum for a case outside the group.
pub const NONE_OF_THESE: &str = "NONE_OF_THESE";

/// The longest free text (a reason or a description) a proposal may carry.
const MAX_TEXT: usize = 600;

/// One link between variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Link {
    SameMeaning {
        keep: String,
        merge: String,
    },
    Opposite {
        variable: String,
        negation_of: String,
    },
    Implies {
        from: String,
        to: String,
    },
    OneOf {
        variables: Vec<String>,
        /// The new enum type.
        type_name: String,
        /// The new variable of that type.
        variable: String,
        description: String,
    },
    /// One definition of a decision in place of the rules that decided it
    /// apart: proposed by the definition pass (`define/`), never read from
    /// the consolidation reply.
    Define {
        definition: Definition,
        replaces: Vec<String>,
    },
}

impl Link {
    /// In plain words, for the expert.
    pub fn describe(&self) -> String {
        match self {
            Link::SameMeaning { keep, merge } => {
                format!("same meaning: {merge} becomes {keep}")
            }
            Link::Opposite {
                variable,
                negation_of,
            } => format!("opposite: {variable} is (not {negation_of})"),
            Link::Implies { from, to } => format!("implies: add the rule (=> {from} {to})"),
            Link::OneOf {
                variables,
                type_name,
                variable,
                ..
            } => format!(
                "one of: {} become {variable} of the new type {type_name}",
                variables.join(", ")
            ),
            Link::Define {
                definition,
                replaces,
            } => format!(
                "define {}: {} case(s), {} requirement(s), {} exception(s){} in place of {}",
                definition.variable,
                definition.cases.len(),
                definition.requirements.len(),
                definition.exceptions.len(),
                if definition.exhaustive {
                    ", the only cases"
                } else {
                    ""
                },
                replaces.join(", ")
            ),
        }
    }
}

/// Where a proposal came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalSource {
    /// The composition's clustering (similar, but not the same words): a
    /// second opinion is still wanted before it is called the same meaning.
    Similarity,
    /// The clustering's proposal, which the LLM's review proposed too.
    SimilarityConfirmed,
    /// The LLM's review of the vocabulary.
    Llm,
    /// The definition pass (`define/`).
    Definition,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// `C1`, `C2`, … in the order they are listed.
    pub id: String,
    #[serde(flatten)]
    pub link: Link,
    pub reason: String,
    pub source: ProposalSource,
}

/// The merges left open by composition, as proposals.
pub fn similarity_proposals(record: &FormalizationRecord, model: &PolicyModel) -> Vec<Proposal> {
    record
        .merge_proposals
        .iter()
        .filter(|p| model.variable(&p.keep).is_some() && model.variable(&p.merge).is_some())
        .map(|p| Proposal {
            id: String::new(),
            link: Link::SameMeaning {
                keep: p.keep.clone(),
                merge: p.merge.clone(),
            },
            reason: format!(
                "similar names and descriptions (cosine {:.2}), but not the same words",
                p.similarity
            ),
            source: ProposalSource::Similarity,
        })
        .collect()
}

/// The JSON schema of the LLM's reply.
pub fn reply_schema() -> Value {
    let name = json!({"type": "string"});
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["proposals"],
        "properties": {"proposals": {"type": "array", "items": {
            "type": "object",
            "required": ["kind", "reason"],
            "properties": {
                // Checked item by item (an unknown kind refuses that item,
                // not the whole reply).
                "kind": {"type": "string", "description": "same_meaning, opposite, implies or one_of"},
                "reason": {"type": "string"},
                "keep": name, "merge": name,
                "variable": name, "negation_of": name,
                "from": name, "to": name,
                "variables": {"type": "array", "items": name},
                "type_name": name, "description": {"type": "string"}
            }
        }}}
    })
}

/// Reads the proposals of a reply; a malformed item is listed as refused
/// with why (by its index), never guessed at.
pub fn read_reply(reply: &Value) -> (Vec<Proposal>, Vec<String>) {
    let mut proposals = Vec::new();
    let mut refused = Vec::new();
    let Some(items) = reply.get("proposals").and_then(Value::as_array) else {
        return (
            proposals,
            vec!["reply: expected {\"proposals\": [...]}".into()],
        );
    };
    for (i, item) in items.iter().enumerate() {
        let mut fields = item.clone();
        let reason = fields
            .as_object_mut()
            .and_then(|o| o.remove("reason"))
            .and_then(|r| r.as_str().map(str::to_string))
            .unwrap_or_default();
        match serde_json::from_value::<Link>(fields) {
            Ok(Link::Define { .. }) => refused.push(format!(
                "proposals[{i}]: a definition comes from the definition pass (precept define), not from this review"
            )),
            Ok(link) => proposals.push(Proposal {
                id: String::new(),
                link,
                reason,
                source: ProposalSource::Llm,
            }),
            Err(e) => refused.push(format!("proposals[{i}]: {e}")),
        }
    }
    (proposals, refused)
}

/// The two variables a same-meaning link joins, in either order.
fn same_pair(a: &Link, b: &Link) -> bool {
    match (a, b) {
        (
            Link::SameMeaning { keep, merge },
            Link::SameMeaning {
                keep: other_keep,
                merge: other_merge,
            },
        ) => {
            (keep == other_keep && merge == other_merge)
                || (keep == other_merge && merge == other_keep)
        }
        _ => a == b,
    }
}

/// Numbers the proposals `C1`, `C2`, … and drops repeats of a link. A
/// similarity proposal that the LLM's review repeats (either way round) is
/// confirmed by it: the second opinion it needs.
pub fn number(proposals: Vec<Proposal>) -> Vec<Proposal> {
    let mut out: Vec<Proposal> = Vec::new();
    for p in proposals {
        if let Some(earlier) = out.iter_mut().find(|q| same_pair(&q.link, &p.link)) {
            if earlier.source == ProposalSource::Similarity && p.source == ProposalSource::Llm {
                earlier.source = ProposalSource::SimilarityConfirmed;
                earlier.reason =
                    format!("{}; the LLM's review agrees: {}", earlier.reason, p.reason);
            }
            continue;
        }
        out.push(Proposal {
            id: format!("C{}", out.len() + 1),
            ..p
        });
    }
    out
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 80
}

/// Free text that must not carry anything but words.
fn bad_text(what: &str, problem: &str) -> CorrectionError {
    CorrectionError::BadText {
        what: what.to_string(),
        problem: problem.to_string(),
    }
}

fn check_text(what: &str, text: &str) -> Result<(), CorrectionError> {
    let lower = text.to_ascii_lowercase();
    if [
        "(assert",
        "(declare-",
        "(define-",
        "(set-",
        "(check-sat",
        "(push",
        "(pop",
    ]
    .iter()
    .any(|command| lower.contains(command))
    {
        return Err(bad_text(what, "contains an SMT-LIB command"));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(bad_text(what, "contains control characters"));
    }
    if text.len() > MAX_TEXT {
        return Err(bad_text(
            what,
            &format!("is longer than {MAX_TEXT} characters"),
        ));
    }
    Ok(())
}

fn bool_variable<'a>(model: &'a PolicyModel, name: &str) -> Result<&'a Variable, CorrectionError> {
    let variable = model
        .variable(name)
        .ok_or_else(|| CorrectionError::NoVariable(name.to_string()))?;
    if variable.sort != "Bool" {
        return Err(CorrectionError::NotBool {
            name: name.to_string(),
            sort: variable.sort.clone(),
        });
    }
    Ok(variable)
}

fn fresh(model: &PolicyModel, name: &str) -> Result<(), CorrectionError> {
    if !is_name(name) {
        return Err(CorrectionError::BadName(name.to_string()));
    }
    let taken = model.variable(name).is_some()
        || model
            .types
            .iter()
            .any(|t| t.name == name || t.values.iter().any(|v| v.value == name));
    if taken {
        return Err(CorrectionError::NameTaken(name.to_string()));
    }
    Ok(())
}

/// Replaces every use of the variable `name` in `expr` by `replacement`.
fn substitute(expr: &Expr, name: &str, replacement: &Expr) -> Expr {
    match &expr.kind {
        ExprKind::Symbol(symbol) if symbol == name => replacement.clone(),
        ExprKind::App(op, args) => Expr::app(
            *op,
            args.iter()
                .map(|a| substitute(a, name, replacement))
                .collect(),
        ),
        _ => expr.clone(),
    }
}

fn rewrite_rules(
    model: &mut PolicyModel,
    name: &str,
    replacement: &Expr,
) -> Result<(), CorrectionError> {
    for rule in &mut model.rules {
        let expr = parse_expr(&rule.expression).map_err(|e| CorrectionError::RuleDoesNotParse {
            rule: rule.id.clone(),
            message: e.to_string(),
        })?;
        if expr.symbols().contains(&name) {
            rule.rewrite(substitute(&expr, name, replacement).to_string());
            // A rule whose meaning changed needs review again.
            rule.review = ReviewStatus::Unreviewed;
        }
    }
    Ok(())
}

/// An enum value for a variable of a "one of" group: `ridesMoped` →
/// `RIDES_MOPED`.
pub fn value_name(variable: &str) -> String {
    crate::document::words::split_identifier(variable)
        .iter()
        .map(|w| w.to_uppercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// Applies a link to the model (and to the formalization record, when there
/// is one). The model is left unchanged when the link does not fit it.
pub fn apply(
    model: &mut PolicyModel,
    mut record: Option<&mut FormalizationRecord>,
    proposal: &Proposal,
) -> Result<(), CorrectionError> {
    check_text("the reason", &proposal.reason)?;
    let mut edited = model.clone();
    let note = format!("{} ({})", proposal.link.describe(), proposal.id);
    match &proposal.link {
        Link::SameMeaning { keep, merge } => {
            cluster_edit::merge(&mut edited, None, keep, merge)?;
        }
        Link::Opposite {
            variable,
            negation_of,
        } => {
            bool_variable(&edited, variable)?;
            bool_variable(&edited, negation_of)?;
            if variable == negation_of {
                return Err(CorrectionError::EmptyLink(format!(
                    "'{variable}' cannot be its own negation"
                )));
            }
            let negation = Expr::app(Op::Not, vec![Expr::symbol(negation_of)]);
            rewrite_rules(&mut edited, variable, &negation)?;
            edited.variables.retain(|v| &v.name != variable);
        }
        Link::Implies { from, to } => {
            bool_variable(&edited, from)?;
            bool_variable(&edited, to)?;
            if from == to {
                return Err(CorrectionError::EmptyLink(format!(
                    "'{from}' implies itself: nothing to add"
                )));
            }
            let id = edited.fresh_rule_id();
            // The new rule says what the rules about the two variables meant
            // together: it carries their sentences.
            let mentioning: Vec<String> = edited
                .rules
                .iter()
                .filter(|r| {
                    crate::smt::parse_expr(&r.expression)
                        .map(|e| {
                            let symbols = e.symbols();
                            symbols.contains(&from.as_str()) || symbols.contains(&to.as_str())
                        })
                        .unwrap_or(false)
                })
                .map(|r| r.id.clone())
                .collect();
            let source_span = mentioning
                .iter()
                .find_map(|m| edited.rule(m).and_then(|r| r.source_span));
            if let Some(record) = record.as_deref_mut() {
                let sources: Vec<_> = record
                    .rules
                    .iter()
                    .filter(|o| mentioning.contains(&o.rule))
                    .flat_map(|o| o.sources.clone())
                    .collect();
                if !sources.is_empty() {
                    record.rules.push(crate::compose::unify::RuleOrigin {
                        rule: id.clone(),
                        sources,
                    });
                }
            }
            edited.rules.push(Rule {
                id,
                expression: format!("(=> {from} {to})"),
                source_span,
                also_from: Vec::new(),
                review: ReviewStatus::Unreviewed,
                note: format!("definitional link from consolidation: {}", proposal.reason),
            });
        }
        Link::Define {
            definition,
            replaces,
        } => {
            ModelEdit::Define {
                definition: definition.clone(),
                replaces: replaces.clone(),
            }
            .apply(&mut edited)
            .map_err(|e| CorrectionError::BadGroup(e.to_string()))?;
        }
        Link::OneOf {
            variables,
            type_name,
            variable,
            description,
        } => {
            check_text("the description", description)?;
            if variables.len() < 2 {
                return Err(CorrectionError::BadGroup(
                    "a one-of group needs at least two variables".into(),
                ));
            }
            for (i, v) in variables.iter().enumerate() {
                bool_variable(&edited, v)?;
                if variables[..i].contains(v) {
                    return Err(CorrectionError::BadGroup(format!("'{v}' is listed twice")));
                }
            }
            fresh(&edited, type_name)?;
            fresh(&edited, variable)?;
            let mut values: Vec<EnumValue> = Vec::new();
            for v in variables {
                let value = value_name(v);
                fresh(&edited, &value)?;
                if values.iter().any(|e| e.value == value) {
                    return Err(CorrectionError::BadGroup(format!(
                        "two variables give the value {value}"
                    )));
                }
                let meaning = edited
                    .variable(v)
                    .map(|x| x.description.clone())
                    .unwrap_or_default();
                values.push(EnumValue {
                    reading: Default::default(),
                    value: value.clone(),
                    description: meaning,
                });
                let case = Expr::app(Op::Eq, vec![Expr::symbol(variable), Expr::symbol(&value)]);
                rewrite_rules(&mut edited, v, &case)?;
            }
            fresh(&edited, NONE_OF_THESE)?;
            values.push(EnumValue {
                reading: Default::default(),
                value: NONE_OF_THESE.into(),
                description: "none of the cases above".into(),
            });
            edited.variables.retain(|v| !variables.contains(&v.name));
            edited.types.push(TypeDef {
                name: type_name.clone(),
                description: description.clone(),
                values,
            });
            edited.variables.push(Variable {
                reading: Default::default(),
                name: variable.clone(),
                sort: type_name.clone(),
                description: description.clone(),
            });
        }
    }
    if let Some(record) = record {
        if let Link::SameMeaning { keep, merge } = &proposal.link {
            let mut scratch = model.clone();
            cluster_edit::merge(&mut scratch, Some(record), keep, merge)?;
        }
        record.notes.push(format!("consolidation: {note}"));
    }
    *model = edited;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::import::import_smtlib;

    fn proposal(link: Link) -> Proposal {
        Proposal {
            id: "C1".into(),
            link,
            reason: "the document says so".into(),
            source: ProposalSource::Llm,
        }
    }

    #[test]
    fn an_implied_link_carries_the_sentences_of_the_rules_it_joins() {
        let mut model = import_smtlib(
            "(declare-const certified Bool)(declare-const completed Bool)(declare-const mayRide Bool)
             (assert (=> completed mayRide))(assert certified)",
        )
        .unwrap();
        model.rules[0].source_span = Some(crate::model::SourceSpan { start: 10, end: 40 });
        apply(
            &mut model,
            None,
            &proposal(Link::Implies {
                from: "certified".into(),
                to: "completed".into(),
            }),
        )
        .unwrap();
        let added = model.rules.last().unwrap();
        assert_eq!(added.expression, "(=> certified completed)");
        assert_eq!(
            added.source_span,
            Some(crate::model::SourceSpan { start: 10, end: 40 })
        );
    }

    #[test]
    fn a_similarity_proposal_the_review_repeats_is_confirmed_once() {
        let similar = Proposal {
            source: ProposalSource::Similarity,
            ..proposal(Link::SameMeaning {
                keep: "a".into(),
                merge: "b".into(),
            })
        };
        let reviewed = proposal(Link::SameMeaning {
            keep: "b".into(),
            merge: "a".into(),
        });
        let numbered = number(vec![similar.clone(), reviewed]);
        assert_eq!(numbered.len(), 1);
        assert_eq!(numbered[0].source, ProposalSource::SimilarityConfirmed);
        assert_eq!(number(vec![similar])[0].source, ProposalSource::Similarity);
    }

    #[test]
    fn each_link_rewrites_the_model() {
        let model = import_smtlib(
            "(declare-const ridesMoped Bool)(declare-const ridesMotorcycle Bool)(declare-const needsTraining Bool)(declare-const exempt Bool)(declare-const notExempt Bool)
             (assert (=> (and ridesMoped notExempt) needsTraining))(assert (=> ridesMotorcycle needsTraining))",
        )
        .unwrap();
        let mut m = model.clone();
        apply(
            &mut m,
            None,
            &proposal(Link::Opposite {
                variable: "notExempt".into(),
                negation_of: "exempt".into(),
            }),
        )
        .unwrap();
        assert_eq!(
            m.rules[0].expression,
            "(=> (and ridesMoped (not exempt)) needsTraining)"
        );
        assert!(m.variable("notExempt").is_none());

        let mut m = model.clone();
        apply(
            &mut m,
            None,
            &proposal(Link::OneOf {
                variables: vec!["ridesMoped".into(), "ridesMotorcycle".into()],
                type_name: "Vehicle".into(),
                variable: "vehicle".into(),
                description: "what the learner rides".into(),
            }),
        )
        .unwrap();
        assert_eq!(
            m.rules[1].expression,
            "(=> (= vehicle RIDES_MOTORCYCLE) needsTraining)"
        );
        let values: Vec<&str> = m.types[0].values.iter().map(|v| v.value.as_str()).collect();
        assert_eq!(values, ["RIDES_MOPED", "RIDES_MOTORCYCLE", NONE_OF_THESE]);
        assert!(crate::model::compile(&m).issues.is_empty());

        let mut m = model.clone();
        apply(
            &mut m,
            None,
            &proposal(Link::Implies {
                from: "ridesMotorcycle".into(),
                to: "needsTraining".into(),
            }),
        )
        .unwrap();
        assert_eq!(m.rules[2].id, "R3");
        assert_eq!(m.rules[2].review, ReviewStatus::Unreviewed);
    }

    #[test]
    fn hostile_and_ill_typed_links_leave_the_model_alone() {
        let model =
            import_smtlib("(declare-const a Bool)(declare-const n Int)(assert (=> a (> n 0)))")
                .unwrap();
        for link in [
            Link::Implies {
                from: "a".into(),
                to: "ghost".into(),
            },
            Link::Opposite {
                variable: "a".into(),
                negation_of: "n".into(),
            },
            Link::OneOf {
                variables: vec!["a".into(), "a".into()],
                type_name: "T".into(),
                variable: "t".into(),
                description: "x".into(),
            },
            Link::OneOf {
                variables: vec!["a".into(), "n".into()],
                type_name: "T".into(),
                variable: "t".into(),
                description: "(assert false)".into(),
            },
        ] {
            let mut m = model.clone();
            assert!(
                apply(&mut m, None, &proposal(link.clone())).is_err(),
                "{link:?}"
            );
            assert_eq!(m, model);
        }
        let mut hostile = proposal(Link::Implies {
            from: "a".into(),
            to: "a".into(),
        });
        hostile.reason = "ok (declare-fun x () Bool)".into();
        assert!(
            apply(&mut model.clone(), None, &hostile)
                .unwrap_err()
                .to_string()
                .contains("SMT-LIB")
        );
    }
}

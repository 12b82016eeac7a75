//! Composition (ARC §3.1.1): the policy units of all spans become one model.
//!
//! 1. **Types.** A type declared again under the same name is one type (its
//!    values are the union, noted); a type with exactly the values of an
//!    earlier one is that type. A value that an earlier *different* type
//!    already uses is renamed apart (`SENIOR_2`) in its unit.
//! 2. **Variables.** Each variable (name plus description) is embedded and
//!    clustered by cosine similarity (see [`cluster`](crate::compose::cluster)); a
//!    cluster becomes one variable with a canonical name, type and
//!    description; same-named variables that did not cluster are renamed
//!    apart. Only variables of identical type cluster, so unification never
//!    changes a type.
//! 3. **Rules.** Each unit's rules are rewritten with the unified names,
//!    printed canonically, and syntactic duplicates are dropped (the kept
//!    rule lists every span it came from).
//!
//! Every rule keeps its provenance: rule → span(s) → the unit's rule index.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use crate::compose::cluster::{
    VariableCandidate, cluster_names, cluster_variables, join_same_names, split_uncertain,
};
use crate::compose::embed::{Embedder, cosine, variable_text};
use crate::formalize::span_job::SpanOutcome;
use crate::formalize::span_task::SpanTask;
use crate::formalize::unit::PolicyUnit;
use crate::model::{EnumValue, PolicyModel, ReviewStatus, Rule, SourceSpan, TypeDef, Variable};
use crate::smt::parse_expr;
use crate::smt::reading::{Reading, check, check_value};

/// Where a composed rule came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleOrigin {
    pub rule: String,
    /// Each (span id, index of the rule in that span's unit) it was
    /// formalized from; more than one when duplicates were dropped.
    pub sources: Vec<RuleSource>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSource {
    pub span: String,
    pub unit_rule: usize,
}

/// One unified variable and the unit variables it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterRecord {
    pub name: String,
    #[serde(rename = "type")]
    pub sort: String,
    pub description: String,
    pub members: Vec<ClusterMember>,
    /// Why members with different names were merged without asking ("same
    /// words: applicantAge, ageOfApplicant"); absent when they share a name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_because: Option<String>,
}

/// Two model variables that the similarity alone would have merged but whose
/// names are not near-certain synonyms: a merge for the expert to decide
/// (see `precept consolidate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergeProposal {
    /// The variable that would stay.
    pub keep: String,
    /// The variable that would be replaced by `keep` in every rule.
    pub merge: String,
    /// Mean cosine similarity between the two groups of unit variables.
    pub similarity: f32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterMember {
    pub span: String,
    /// The name the unit gave it.
    pub name: String,
    pub description: String,
}

/// The composed model and how it was put together.
#[derive(Debug, Clone, PartialEq)]
pub struct Composition {
    pub model: PolicyModel,
    pub clusters: Vec<ClusterRecord>,
    pub origins: Vec<RuleOrigin>,
    /// Decisions the expert should know about (merged types, renamed values,
    /// dropped duplicates).
    pub notes: Vec<String>,
    /// Merges left to the expert.
    pub merge_proposals: Vec<MergeProposal>,
}

/// Per unit: its type names and enum values mapped to the model's.
#[derive(Default)]
struct UnitNames {
    types: HashMap<String, String>,
    values: HashMap<String, String>,
}

/// Why the units could not be composed into one model.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("embedding the variables with {embedder}: {error}")]
    Embedder {
        embedder: String,
        error: crate::llm::embeddings::EmbedError,
    },
    /// A unit's rule that does not parse (units are checked before, so this
    /// names a bug, not an LLM mistake).
    #[error("{span} rules[{index}]: {message}")]
    RuleDoesNotParse {
        span: String,
        index: usize,
        message: String,
    },
    #[error("the embedder {embedder} returned {vectors} vectors for {variables} variables")]
    WrongCount {
        embedder: String,
        vectors: usize,
        variables: usize,
    },
}

/// Composes the formalized units. `outcomes[i]` belongs to `tasks[i]`;
/// spans that failed contribute nothing.
pub fn compose(
    document: &str,
    tasks: &[SpanTask],
    outcomes: &[SpanOutcome],
    embedder: &dyn Embedder,
    threshold: f32,
) -> Result<Composition, ComposeError> {
    compose_with(document, tasks, outcomes, embedder, threshold, false)
}

/// Composes the vocabulary pass's section proposals: as [`compose`], and a
/// name that several sections proposed with one type is one variable unless
/// the contrast guard tells their descriptions apart
/// (`cluster::join_same_names`): each section names the document's
/// decisions without seeing the others, and drifts in how it describes them.
pub fn compose_sections(
    document: &str,
    tasks: &[SpanTask],
    outcomes: &[SpanOutcome],
    embedder: &dyn Embedder,
    threshold: f32,
) -> Result<Composition, ComposeError> {
    compose_with(document, tasks, outcomes, embedder, threshold, true)
}

fn compose_with(
    document: &str,
    tasks: &[SpanTask],
    outcomes: &[SpanOutcome],
    embedder: &dyn Embedder,
    threshold: f32,
    join_names: bool,
) -> Result<Composition, ComposeError> {
    let units: Vec<(usize, &PolicyUnit)> = outcomes
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.unit().map(|u| (i, u)))
        .collect();
    let mut notes = Vec::new();
    let (types, names) = compose_types(tasks, &units, &mut notes);

    // Variables: candidates in document order.
    let mut candidates = Vec::new();
    let mut readings = Vec::new();
    for (unit_index, (span, unit)) in units.iter().enumerate() {
        let map = &names[unit_index];
        for v in &unit.variables {
            readings.push(v.reading.clone().unwrap_or_default());
            candidates.push(VariableCandidate {
                unit: *span,
                name: v.name.clone(),
                sort: map
                    .types
                    .get(&v.sort)
                    .cloned()
                    .unwrap_or_else(|| v.sort.clone()),
                description: v.description.clone(),
            });
        }
    }
    let texts: Vec<String> = candidates
        .iter()
        .map(|c| variable_text(&c.name, &c.description))
        .collect();
    let embeddings = if texts.is_empty() {
        Vec::new()
    } else {
        embedder.embed(&texts).map_err(|e| ComposeError::Embedder {
            embedder: embedder.name().to_string(),
            error: e,
        })?
    };
    if embeddings.len() != candidates.len() {
        return Err(ComposeError::WrongCount {
            embedder: embedder.name().to_string(),
            vectors: embeddings.len(),
            variables: candidates.len(),
        });
    }
    let mut clusters = cluster_variables(&candidates, &embeddings, threshold);
    // Document order: by each cluster's first member.
    clusters.sort_by_key(|c| c.members.first().copied().unwrap_or(usize::MAX));
    let (clusters, uncertain) = split_uncertain(&candidates, clusters);
    let (clusters, uncertain) = match join_names {
        true => join_same_names(&candidates, clusters, uncertain),
        false => (clusters, uncertain),
    };
    let taken: BTreeSet<String> = types
        .iter()
        .flat_map(|t| {
            std::iter::once(t.name.clone()).chain(t.values.iter().map(|v| v.value.clone()))
        })
        .collect();
    let mut final_names = cluster_names(&clusters);
    for name in &mut final_names {
        if taken.contains(name.as_str()) {
            notes.push(format!(
                "variable '{name}' renamed '{name}_value' (a type or value has that name)"
            ));
            name.push_str("_value");
        }
    }
    let mut variable_names: HashMap<(usize, String), String> = HashMap::new();
    let mut variables = Vec::new();
    let mut records = Vec::new();
    for (cluster, name) in clusters.iter().zip(&final_names) {
        // The first member's forms that read as they should; the template
        // says the variable otherwise.
        let reading = cluster
            .members
            .iter()
            .map(|&m| &readings[m])
            .find(|r| !r.is_empty() && check(r, cluster.sort == "Bool").is_ok())
            .map(Reading::tidied)
            .unwrap_or_default();
        variables.push(Variable {
            reading,
            name: name.clone(),
            sort: cluster.sort.clone(),
            description: cluster.description.clone(),
        });
        let mut members = Vec::new();
        for &m in &cluster.members {
            let c = &candidates[m];
            variable_names
                .entry((c.unit, c.name.clone()))
                .or_insert_with(|| name.clone());
            members.push(ClusterMember {
                span: tasks[c.unit].id.clone(),
                name: c.name.clone(),
                description: c.description.clone(),
            });
        }
        let mut names: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
        names.sort();
        names.dedup();
        records.push(ClusterRecord {
            name: name.clone(),
            sort: cluster.sort.clone(),
            description: cluster.description.clone(),
            members,
            merged_because: (names.len() > 1).then(|| format!("same words: {}", names.join(", "))),
        });
    }
    let merge_proposals = uncertain
        .into_iter()
        .map(|(keep, merge)| MergeProposal {
            keep: final_names[keep].clone(),
            merge: final_names[merge].clone(),
            similarity: mean_similarity(
                &embeddings,
                &clusters[keep].members,
                &clusters[merge].members,
            ),
        })
        .collect();

    // Rules: rewritten, printed canonically, duplicates dropped.
    let mut rules: Vec<Rule> = Vec::new();
    let mut origins: Vec<RuleOrigin> = Vec::new();
    let mut by_text: HashMap<String, usize> = HashMap::new();
    for (unit_index, (span, unit)) in units.iter().enumerate() {
        let map = &names[unit_index];
        let task = &tasks[*span];
        for (k, rule) in unit.rules.iter().enumerate() {
            let expr =
                parse_expr(&rule.expression).map_err(|e| ComposeError::RuleDoesNotParse {
                    span: task.id.clone(),
                    index: k,
                    message: e.to_string(),
                })?;
            let renamed = expr.rename_symbols(&|symbol| {
                variable_names
                    .get(&(*span, symbol.to_string()))
                    .or_else(|| map.values.get(symbol))
                    .cloned()
            });
            let text = renamed.to_string();
            let source = RuleSource {
                span: task.id.clone(),
                unit_rule: k,
            };
            if let Some(&kept) = by_text.get(&text) {
                notes.push(format!(
                    "{} rules[{k}] repeats {} and was dropped",
                    task.id, rules[kept].id
                ));
                origins[kept].sources.push(source);
                // The rule kept carries the dropped one's sentence too.
                let span = locate_source(document, task, &rule.source_text);
                let kept_rule = &mut rules[kept];
                if kept_rule.source_span != Some(span) && !kept_rule.also_from.contains(&span) {
                    kept_rule.also_from.push(span);
                }
                continue;
            }
            let id = format!("R{}", rules.len() + 1);
            by_text.insert(text.clone(), rules.len());
            rules.push(Rule {
                id: id.clone(),
                expression: text,
                source_span: Some(locate_source(document, task, &rule.source_text)),
                also_from: Vec::new(),
                review: ReviewStatus::Unreviewed,
                note: String::new(),
            });
            origins.push(RuleOrigin {
                rule: id,
                sources: vec![source],
            });
        }
    }
    Ok(Composition {
        model: PolicyModel {
            types,
            variables,
            rules,
            ..PolicyModel::default()
        },
        clusters: records,
        origins,
        notes,
        merge_proposals,
    })
}

/// Mean cosine similarity over all cross pairs of two groups.
fn mean_similarity(embeddings: &[Vec<f32>], a: &[usize], b: &[usize]) -> f32 {
    let mut sum = 0.0;
    for &i in a {
        for &j in b {
            sum += cosine(&embeddings[i], &embeddings[j]);
        }
    }
    sum / (a.len() * b.len()).max(1) as f32
}

/// The model's types and each unit's name maps (see the module notes).
fn compose_types(
    tasks: &[SpanTask],
    units: &[(usize, &PolicyUnit)],
    notes: &mut Vec<String>,
) -> (Vec<TypeDef>, Vec<UnitNames>) {
    let mut types: Vec<TypeDef> = Vec::new();
    // value -> index of the type that owns it
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    let mut names = Vec::with_capacity(units.len());
    for (span, unit) in units {
        let mut map = UnitNames::default();
        let span_id = &tasks[*span].id;
        for t in &unit.types {
            let values: BTreeSet<&str> = t.values.iter().map(|v| v.value.as_str()).collect();
            let same_values = types.iter().position(|existing| {
                existing
                    .values
                    .iter()
                    .map(|v| v.value.as_str())
                    .collect::<BTreeSet<_>>()
                    == values
            });
            let existing = types.iter().position(|e| e.name == t.name).or(same_values);
            let merged = existing.is_some();
            let target = match existing {
                Some(index) => {
                    if types[index].name != t.name {
                        notes.push(format!(
                            "{span_id}: type '{}' has the values of '{}' and is that type",
                            t.name, types[index].name
                        ));
                    }
                    index
                }
                None => {
                    types.push(TypeDef {
                        name: t.name.clone(),
                        description: t.description.clone(),
                        values: Vec::new(),
                    });
                    types.len() - 1
                }
            };
            map.types.insert(t.name.clone(), types[target].name.clone());
            for v in &t.values {
                let mut value = v.value.clone();
                match owner.get(&value) {
                    Some(&o) if o == target => {
                        map.values.insert(v.value.clone(), value);
                        continue;
                    }
                    Some(_) => {
                        let mut n = 2;
                        while owner.contains_key(&format!("{}_{n}", v.value)) {
                            n += 1;
                        }
                        value = format!("{}_{n}", v.value);
                        notes.push(format!(
                            "{span_id}: value '{}' of type '{}' renamed '{value}' (another type uses it)",
                            v.value, types[target].name
                        ));
                    }
                    None => {}
                }
                if merged {
                    notes.push(format!(
                        "{span_id}: type '{}' gains the value '{value}'",
                        types[target].name
                    ));
                }
                owner.insert(value.clone(), target);
                types[target].values.push(EnumValue {
                    reading: checked_value_reading(v.reading.as_deref()),
                    value: value.clone(),
                    description: v.description.clone(),
                });
                map.values.insert(v.value.clone(), value);
            }
        }
        names.push(map);
    }
    (types, names)
}

/// The byte range of `quote` inside the span when it is found there
/// (ignoring differences in whitespace), else the whole span.
fn locate_source(document: &str, task: &SpanTask, quote: &str) -> SourceSpan {
    let whole = SourceSpan {
        start: task.start,
        end: task.end,
    };
    let quote = quote.trim();
    let Some(span_text) = document.get(task.start..task.end) else {
        return whole;
    };
    if quote.is_empty() {
        return whole;
    }
    if let Some(at) = span_text.find(quote) {
        return SourceSpan {
            start: task.start + at,
            end: task.start + at + quote.len(),
        };
    }
    whole
}

/// An enum value's clause as the LLM gave it, when it reads as one
/// (empty otherwise: the description or the template says the value).
pub fn checked_value_reading(given: Option<&str>) -> String {
    match given {
        Some(clause) if check_value(clause).is_ok() => {
            Reading {
                holds: clause.to_string(),
                ..Reading::default()
            }
            .tidied()
            .holds
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::embed::LexicalEmbedder;
    use crate::formalize::unit::unit_from_json;
    use serde_json::json;

    fn task(id: &str, start: usize, end: usize) -> SpanTask {
        SpanTask {
            id: id.into(),
            start,
            end,
            heading_path: vec![],
            text: String::new(),
            context: Default::default(),
        }
    }

    fn formalized(json: serde_json::Value) -> SpanOutcome {
        SpanOutcome::Formalized {
            unit: unit_from_json(&json).unwrap(),
            rounds: 1,
        }
    }

    #[test]
    fn units_compose_with_unified_variables_renamed_clashes_and_no_duplicates() {
        let doc = "Seniors are 65 or older. Seniors pay half the base fee. Members get a discount.";
        let tasks = [task("S1", 0, 24), task("S2", 25, 55), task("S3", 56, 80)];
        let outcomes = [
            formalized(json!({"types": [], "variables": [
                {"name": "age", "type": "Int", "description": "the visitor's age in years"},
                {"name": "isSenior", "type": "Bool", "description": "whether the visitor is a senior"}],
              "rules": [{"expression": "(= isSenior (>= age 65))", "source_text": "Seniors are 65 or older."}]})),
            formalized(json!({"types": [], "variables": [
                {"name": "isSenior", "type": "Bool", "description": "whether the visitor counts as a senior"},
                {"name": "fee", "type": "Real", "description": "the fee the visitor pays"},
                {"name": "baseFee", "type": "Real", "description": "the base admission fee"}],
              "rules": [{"expression": "(=> isSenior (= fee (* 0.5 baseFee)))", "source_text": "pay half"}]})),
            formalized(json!({"types": [], "variables": [
                {"name": "fee", "type": "Real", "description": "the yearly membership price"},
                {"name": "isSenior", "type": "Bool", "description": "whether the visitor is a senior"}],
              "rules": [
                {"expression": "(= isSenior   (>= age 65))", "source_text": ""},
                {"expression": "(< fee 100)", "source_text": "nowhere"}]})),
        ];
        // S3's first rule uses `age`, which S3 did not declare: compose is
        // only given checked units, so give S3 the declaration.
        let mut outcomes = outcomes.to_vec();
        if let SpanOutcome::Formalized { unit, .. } = &mut outcomes[2] {
            unit.variables.push(crate::formalize::unit::UnitVariable {
                reading: Default::default(),
                name: "age".into(),
                sort: "Int".into(),
                description: "the visitor's age in years".into(),
                reason: String::new(),
            });
        }
        let c = compose(doc, &tasks, &outcomes, &LexicalEmbedder::new(), 0.65).unwrap();
        let names: Vec<&str> = c.model.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            ["age", "isSenior", "fee", "baseFee", "fee_2"],
            "{:#?}",
            c.clusters
        );
        let exprs: Vec<&str> = c
            .model
            .rules
            .iter()
            .map(|r| r.expression.as_str())
            .collect();
        assert_eq!(
            exprs,
            [
                "(= isSenior (>= age 65))",
                "(=> isSenior (= fee (* 0.5 baseFee)))",
                "(< fee_2 100)"
            ]
        );
        assert_eq!(
            c.origins[0].sources.len(),
            2,
            "the duplicate adds its source"
        );
        assert_eq!(
            c.model.rules[0].source_span,
            Some(SourceSpan { start: 0, end: 24 })
        );
        assert_eq!(
            c.model.rules[1].source_span,
            Some(SourceSpan { start: 33, end: 41 })
        );
        assert_eq!(
            c.model.rules[2].source_span,
            Some(SourceSpan { start: 56, end: 80 })
        );
        assert!(
            c.model
                .rules
                .iter()
                .all(|r| r.review == ReviewStatus::Unreviewed)
        );
        let compiled = crate::model::compile(&c.model);
        assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    }

    #[test]
    fn types_merge_by_name_or_values_and_clashing_values_are_renamed() {
        let tasks = [task("S1", 0, 0), task("S2", 0, 0), task("S3", 0, 0)];
        let ty = |name: &str, values: &[&str]| {
            json!({"name": name, "description": "", "values":
                values.iter().map(|v| json!({"value": v, "description": ""})).collect::<Vec<_>>()})
        };
        let outcomes = [
            formalized(json!({"types": [ty("AgeClass", &["CHILD", "SENIOR"])],
                "variables": [{"name": "ageClass", "type": "AgeClass", "description": "age band"}],
                "rules": [{"expression": "(distinct ageClass CHILD)", "source_text": ""}]})),
            formalized(json!({"types": [ty("AgeGroup", &["SENIOR", "CHILD"])],
                "variables": [{"name": "ageGroup", "type": "AgeGroup", "description": "age band"}],
                "rules": [{"expression": "(= ageGroup SENIOR)", "source_text": ""}]})),
            formalized(json!({"types": [ty("Tier", &["SENIOR", "GOLD"])],
                "variables": [{"name": "tier", "type": "Tier", "description": "membership tier"}],
                "rules": [{"expression": "(= tier SENIOR)", "source_text": ""}]})),
        ];
        let c = compose("", &tasks, &outcomes, &LexicalEmbedder::new(), 0.65).unwrap();
        let types: Vec<(&str, Vec<&str>)> = c
            .model
            .types
            .iter()
            .map(|t| {
                (
                    t.name.as_str(),
                    t.values.iter().map(|v| v.value.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            types,
            [
                ("AgeClass", vec!["CHILD", "SENIOR"]),
                ("Tier", vec!["SENIOR_2", "GOLD"])
            ]
        );
        assert_eq!(c.model.variables[1].sort, "AgeClass");
        assert_eq!(c.model.rules[2].expression, "(= tier SENIOR_2)");
        let compiled = crate::model::compile(&c.model);
        assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    }
}

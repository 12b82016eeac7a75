//! The expert's corrections to the clustering, applied to the current model
//! (edits made since formalization are kept) and to the record:
//!
//! * **merge** two variables of the same type into one (rules rewritten);
//! * **split** one unit's variable out of a cluster into a variable of its
//!   own, used by the rules that came from that unit's span;
//! * **rename** a cluster's canonical variable.
//!
//! A merge of different types is refused: unification never changes a type.

use super::correction::CorrectionError;
use std::collections::BTreeSet;

use crate::compose::record::FormalizationRecord;
use crate::compose::unify::ClusterMember;
use crate::compose::unify::ClusterRecord;
use crate::model::{PolicyModel, Variable};
use crate::smt::parse_expr;

/// Renames `old` to `new` in every rule of `model` (rules that do not parse
/// are left as written).
pub fn rename_in_rules(
    model: &mut PolicyModel,
    rules: Option<&BTreeSet<String>>,
    old: &str,
    new: &str,
) {
    for rule in &mut model.rules {
        if rules.is_some_and(|only| !only.contains(&rule.id)) {
            continue;
        }
        if let Ok(expr) = parse_expr(&rule.expression)
            && expr.symbols().contains(&old)
        {
            rule.rename_only(
                expr.rename_symbols(&|s| (s == old).then(|| new.to_string()))
                    .to_string(),
            );
        }
    }
}

fn name_in_use(model: &PolicyModel, name: &str) -> bool {
    model.variables.iter().any(|v| v.name == name)
        || model
            .types
            .iter()
            .any(|t| t.name == name || t.values.iter().any(|v| v.value == name))
}

/// Merges variable `from` into `into`: rules use `into`, `from` is removed,
/// and the record's clusters are joined.
pub fn merge(
    model: &mut PolicyModel,
    record: Option<&mut FormalizationRecord>,
    into: &str,
    from: &str,
) -> Result<(), CorrectionError> {
    if into == from {
        return Err(CorrectionError::MergeIntoItself(into.to_string()));
    }
    let target = model
        .variable(into)
        .ok_or_else(|| CorrectionError::NoVariable(into.to_string()))?;
    let source = model
        .variable(from)
        .ok_or_else(|| CorrectionError::NoVariable(from.to_string()))?;
    if target.sort != source.sort {
        return Err(CorrectionError::TypesDiffer {
            from: from.to_string(),
            from_sort: source.sort.clone(),
            into: into.to_string(),
            into_sort: target.sort.clone(),
        });
    }
    rename_in_rules(model, None, from, into);
    model.variables.retain(|v| v.name != from);
    if let Some(record) = record {
        let moved: Vec<ClusterMember> = record
            .clusters
            .iter()
            .filter(|c| c.name == from)
            .flat_map(|c| c.members.clone())
            .collect();
        record.clusters.retain(|c| c.name != from);
        if let Some(cluster) = record.clusters.iter_mut().find(|c| c.name == into) {
            cluster.members.extend(moved);
            cluster.merged_because = Some(format!("'{from}' merged by the expert"));
        }
        record
            .merge_proposals
            .retain(|p| p.keep != from && p.merge != from);
    }
    Ok(())
}

/// Splits member `member` (index in the cluster's members) of the cluster of
/// variable `name` into a new variable, returning its name. Rules that came
/// from the member's span use the new variable.
pub fn split(
    model: &mut PolicyModel,
    record: &mut FormalizationRecord,
    name: &str,
    member: usize,
) -> Result<String, CorrectionError> {
    let variable = model
        .variable(name)
        .cloned()
        .ok_or_else(|| CorrectionError::NoVariable(name.to_string()))?;
    let cluster_index = record
        .clusters
        .iter()
        .position(|c| c.name == name)
        .ok_or_else(|| CorrectionError::NoCluster(name.to_string()))?;
    let cluster = &record.clusters[cluster_index];
    if cluster.members.len() < 2 {
        return Err(CorrectionError::NothingToSplit(name.to_string()));
    }
    let member = cluster
        .members
        .get(member)
        .cloned()
        .ok_or_else(|| CorrectionError::NoMember {
            name: name.to_string(),
            member: member.to_string(),
        })?;
    let base = if member.name == name {
        format!("{}_{}", member.name, member.span)
    } else {
        member.name.clone()
    };
    let mut new_name = base.clone();
    let mut n = 2;
    while name_in_use(model, &new_name) {
        new_name = format!("{base}_{n}");
        n += 1;
    }
    let rules: BTreeSet<String> = record
        .rules
        .iter()
        .filter(|o| o.sources.iter().any(|s| s.span == member.span))
        .map(|o| o.rule.clone())
        .collect();
    rename_in_rules(model, Some(&rules), name, &new_name);
    let at = model
        .variables
        .iter()
        .position(|v| v.name == name)
        .map_or(model.variables.len(), |i| i + 1);
    model.variables.insert(
        at,
        Variable {
            reading: Default::default(),
            name: new_name.clone(),
            sort: variable.sort.clone(),
            description: member.description.clone(),
        },
    );
    let cluster = &mut record.clusters[cluster_index];
    cluster
        .members
        .retain(|m| !(m.span == member.span && m.name == member.name));
    record.clusters.insert(
        cluster_index + 1,
        ClusterRecord {
            name: new_name.clone(),
            sort: variable.sort,
            description: member.description.clone(),
            members: vec![member],
            merged_because: None,
        },
    );
    Ok(new_name)
}

/// Renames the canonical variable of a cluster (and the variable itself).
pub fn rename(
    model: &mut PolicyModel,
    record: Option<&mut FormalizationRecord>,
    old: &str,
    new: &str,
) -> Result<(), CorrectionError> {
    if !crate::formalize::unit::is_plain_symbol(new) {
        return Err(CorrectionError::BadName(new.to_string()));
    }
    if name_in_use(model, new) {
        return Err(CorrectionError::NameTaken(new.to_string()));
    }
    let variable = model
        .variables
        .iter_mut()
        .find(|v| v.name == old)
        .ok_or_else(|| CorrectionError::NoVariable(old.to_string()))?;
    variable.name = new.to_string();
    rename_in_rules(model, None, old, new);
    if let Some(record) = record
        && let Some(cluster) = record.clusters.iter_mut().find(|c| c.name == old)
    {
        cluster.name = new.to_string();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::unify::{RuleOrigin, RuleSource};
    use crate::model::{ReviewStatus, Rule};

    fn variable(name: &str, sort: &str) -> Variable {
        Variable {
            reading: Default::default(),
            name: name.into(),
            sort: sort.into(),
            description: format!("{name} described"),
        }
    }

    fn rule(id: &str, expression: &str) -> Rule {
        Rule {
            id: id.into(),
            expression: expression.into(),
            source_span: None,
            also_from: Vec::new(),
            review: ReviewStatus::Unreviewed,
            note: String::new(),
        }
    }

    fn member(span: &str, name: &str) -> ClusterMember {
        ClusterMember {
            span: span.into(),
            name: name.into(),
            description: format!("{name} in {span}"),
        }
    }

    fn fixture() -> (PolicyModel, FormalizationRecord) {
        let model = PolicyModel {
            variables: vec![
                variable("fee", "Real"),
                variable("charge", "Real"),
                variable("isMember", "Bool"),
            ],
            rules: vec![
                rule("R1", "(>= fee 10.0)"),
                rule("R2", "(<= fee 50.0)"),
                rule("R3", "(=> isMember (< charge 5.0))"),
            ],
            ..PolicyModel::default()
        };
        let origin = |rule: &str, span: &str| RuleOrigin {
            rule: rule.into(),
            sources: vec![RuleSource {
                span: span.into(),
                unit_rule: 0,
            }],
        };
        let record = FormalizationRecord {
            schema_version: 1,
            document: "p.md".into(),
            llm_profile: "t".into(),
            llm_model: "m".into(),
            prompt: "formalize_span.v1".into(),
            embedder: "lexical".into(),
            threshold: 0.65,
            definitions: vec![],
            spans: vec![],
            clusters: vec![
                ClusterRecord {
                    name: "fee".into(),
                    sort: "Real".into(),
                    description: String::new(),
                    members: vec![member("S1", "fee"), member("S2", "fee")],
                    merged_because: None,
                },
                ClusterRecord {
                    name: "charge".into(),
                    sort: "Real".into(),
                    description: String::new(),
                    members: vec![member("S3", "charge")],
                    merged_because: None,
                },
            ],
            rules: vec![origin("R1", "S1"), origin("R2", "S2"), origin("R3", "S3")],
            notes: vec![],
            merge_proposals: vec![],
            vocabulary_mode: crate::formalize::vocabulary::VocabularyMode::SpanOnly,
            vocabulary: None,
        };
        (model, record)
    }

    #[test]
    fn split_moves_one_units_rules_to_a_new_variable() {
        let (mut model, mut record) = fixture();
        let name = split(&mut model, &mut record, "fee", 1).unwrap();
        assert_eq!(name, "fee_S2");
        assert_eq!(model.rules[0].expression, "(>= fee 10.0)");
        assert_eq!(model.rules[1].expression, "(<= fee_S2 50.0)");
        assert_eq!(model.variables[1].name, "fee_S2");
        assert_eq!(model.variables[1].description, "fee in S2");
        assert_eq!(record.clusters[0].members.len(), 1);
        assert_eq!(record.clusters[1].name, "fee_S2");
        assert!(
            split(&mut model, &mut record, "fee", 0).is_err(),
            "one member left"
        );
    }

    #[test]
    fn merge_rewrites_rules_and_refuses_a_type_change() {
        let (mut model, mut record) = fixture();
        merge(&mut model, Some(&mut record), "fee", "charge").unwrap();
        assert_eq!(model.rules[2].expression, "(=> isMember (< fee 5.0))");
        assert!(model.variable("charge").is_none());
        assert_eq!(record.clusters.len(), 1);
        assert_eq!(record.clusters[0].members.len(), 3);
        let error = merge(&mut model, Some(&mut record), "fee", "isMember").unwrap_err();
        assert!(
            matches!(error, CorrectionError::TypesDiffer { .. }),
            "{error}"
        );
        assert!(
            error.to_string().contains("never changes a type"),
            "{error}"
        );
    }

    #[test]
    fn rename_checks_the_new_name() {
        let (mut model, mut record) = fixture();
        rename(&mut model, Some(&mut record), "fee", "admissionFee").unwrap();
        assert_eq!(model.rules[0].expression, "(>= admissionFee 10.0)");
        assert_eq!(record.clusters[0].name, "admissionFee");
        assert!(rename(&mut model, Some(&mut record), "charge", "isMember").is_err());
        assert!(rename(&mut model, Some(&mut record), "charge", "(bad").is_err());
    }
}

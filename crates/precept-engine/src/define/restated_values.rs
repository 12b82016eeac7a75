//! Booleans that restate one value of an enum: `isCashDonation` beside
//! `donationMethod = CASH`, `isPaidToCharity` beside `organisationKind =
//! CHARITY`. Two names for one fact let the rules disagree about it; each is
//! proposed as a definition of the Boolean by the value, which the checks
//! of `check.rs` then judge like any other definition.

use super::{DefinitionProposal, Origin};
use crate::model::{Definition, DefinitionPart, PolicyModel};
use crate::smt::wording::humanize;
use std::collections::BTreeSet;

/// Words that name no part of the fact ("is", "to", "the").
const FILLER: [&str; 14] = [
    "is", "are", "has", "have", "a", "an", "the", "to", "of", "by", "from", "for", "in", "on",
];

fn words(text: &str) -> BTreeSet<String> {
    humanize(text)
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !FILLER.contains(w))
        .map(str::to_string)
        .collect()
}

/// Words of giving that leave the fact named as it is ("paid to a
/// charity" is "a charity").
const GIVING: [&str; 5] = ["paid", "made", "given", "received", "donated"];

/// One proposal for each Boolean (without a definition) whose name says an
/// enum value's name and nothing that neither the value nor its variable,
/// type or description says (but a word of giving). Ids continue after
/// `taken`.
pub fn restated_values(model: &PolicyModel, taken: &[String]) -> Vec<DefinitionProposal> {
    let mut next = taken
        .iter()
        .chain(model.definitions.iter().map(|d| &d.id))
        .filter_map(|id| id.strip_prefix('D')?.parse::<usize>().ok())
        .max()
        .unwrap_or(0);
    let defined: BTreeSet<&str> = model
        .definitions
        .iter()
        .map(|d| d.variable.as_str())
        .collect();
    let mut out = Vec::new();
    for boolean in model.variables.iter().filter(|v| v.sort == "Bool") {
        if defined.contains(boolean.name.as_str()) {
            continue;
        }
        let said = words(&boolean.name);
        let mut matches = Vec::new();
        for variable in &model.variables {
            let Some(kind) = model.types.iter().find(|t| t.name == variable.sort) else {
                continue;
            };
            for value in &kind.values {
                let named = words(&value.value);
                if named.is_empty() || !named.is_subset(&said) {
                    continue;
                }
                let mut context = named.clone();
                context.extend(words(&variable.name));
                context.extend(words(&kind.name));
                context.extend(words(&value.description));
                if said
                    .difference(&context)
                    .all(|w| GIVING.contains(&w.as_str()))
                {
                    matches.push((variable.name.clone(), value.value.clone()));
                }
            }
        }
        // A name that fits several values restates none of them.
        let [(variable, value)] = matches.as_slice() else {
            continue;
        };
        next += 1;
        let id = format!("D{next}");
        out.push(DefinitionProposal {
            id: id.clone(),
            variable: boolean.name.clone(),
            origin: Origin::RestatedValue,
            definition: Definition {
                id,
                variable: boolean.name.clone(),
                cases: vec![DefinitionPart {
                    condition: format!("(= {variable} {value})"),
                    value: None,
                    source_span: None,
                }],
                requirements: Vec::new(),
                exceptions: Vec::new(),
                exhaustive: true,
            },
            replaces: Vec::new(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::import::import_smtlib;

    #[test]
    fn a_boolean_that_names_an_enum_value_is_proposed_as_its_definition() {
        let mut model = import_smtlib(
            "(declare-datatypes ((DonationMethod 0)) (((CASH) (CARD))))
             (declare-datatypes ((OrganisationKind 0)) (((CHARITY) (CASC))))
             (declare-const donationMethod DonationMethod)
             (declare-const organisationKind OrganisationKind)
             (declare-const isCashDonation Bool)
             (declare-const isPaidToCharity Bool)
             (declare-const isCharityAuction Bool)
             (assert (=> isCashDonation isPaidToCharity))",
        )
        .unwrap();
        model.definitions.clear();
        let proposed: Vec<(String, String)> = restated_values(&model, &[])
            .into_iter()
            .map(|p| (p.variable, p.definition.cases[0].condition.clone()))
            .collect();
        assert_eq!(
            proposed,
            [
                (
                    "isCashDonation".to_string(),
                    "(= donationMethod CASH)".to_string()
                ),
                (
                    "isPaidToCharity".to_string(),
                    "(= organisationKind CHARITY)".to_string()
                ),
            ],
            "an auction is not the charity: isCharityAuction is left alone"
        );
    }
}

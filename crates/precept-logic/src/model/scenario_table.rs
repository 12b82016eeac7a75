//! A finding's scenarios as a table a reader can take in: only the
//! variables of the question's cone (the rule↔variable graph), the rows
//! whose values differ between the scenarios first, each with the
//! variable's description.

use super::finding::Scenario;
use super::graph::RuleGraph;
use crate::smt::english::Glossary;
use crate::smt::parse_expr;

/// One variable across the scenarios.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioRow {
    pub variable: String,
    /// The variable's description from the model (empty when it has none).
    pub description: String,
    /// Its value in each scenario, in column order.
    pub values: Vec<String>,
    /// Whether the scenarios disagree on it.
    pub differs: bool,
}

/// The rows to show and how many were left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScenarioTable {
    pub rows: Vec<ScenarioRow>,
    /// Variables of the scenarios outside the question's cone, not shown.
    pub outside_cone: usize,
}

impl ScenarioTable {
    /// The table of `columns` for the question (`premise`, `claim`, as
    /// SMT-LIB text). Rows keep the scenarios' order within the differing
    /// ones and within the rest.
    pub fn new(
        columns: &[&Scenario],
        premise: &str,
        claim: &str,
        graph: &RuleGraph,
        glossary: &Glossary,
    ) -> ScenarioTable {
        let Some(first) = columns.first() else {
            return ScenarioTable::default();
        };
        let question: Vec<String> = [premise, claim]
            .iter()
            .filter_map(|text| parse_expr(text).ok())
            .flat_map(|expr| {
                expr.symbols()
                    .into_iter()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        let cone = graph.cone_variables(question.iter().map(String::as_str));
        let mut table = ScenarioTable::default();
        let mut same = Vec::new();
        for (name, _) in &first.values {
            if !cone.contains(name) {
                table.outside_cone += 1;
                continue;
            }
            let values: Vec<String> = columns
                .iter()
                .map(|s| s.get(name).map(ToString::to_string).unwrap_or_default())
                .collect();
            let differs = values.iter().any(|v| *v != values[0]);
            let row = ScenarioRow {
                variable: name.clone(),
                description: glossary.variables.get(name).cloned().unwrap_or_default(),
                values,
                differs,
            };
            if differs {
                table.rows.push(row);
            } else {
                same.push(row);
            }
        }
        table.rows.extend(same);
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::Value;

    fn scenario(values: &[(&str, i64)]) -> Scenario {
        Scenario {
            values: values
                .iter()
                .map(|(n, v)| (n.to_string(), Value::Int((*v).into())))
                .collect(),
        }
    }

    #[test]
    fn only_the_cone_with_differing_rows_first() {
        let r1 = parse_expr("(=> (> age 16) (= fee 10))").unwrap();
        let r2 = parse_expr("(= fee (+ base 1))").unwrap();
        let r3 = parse_expr("(> parking 2)").unwrap();
        let graph = RuleGraph::build(
            ["age", "fee", "base", "parking", "unused"],
            [("R1", &r1), ("R2", &r2), ("R3", &r3)],
        );
        let mut glossary = Glossary::default();
        glossary
            .variables
            .insert("fee".into(), "Fee in dollars".into());
        let yes = scenario(&[
            ("age", 20),
            ("base", 9),
            ("fee", 10),
            ("parking", 3),
            ("unused", 0),
        ]);
        let no = scenario(&[
            ("age", 20),
            ("base", 4),
            ("fee", 5),
            ("parking", 3),
            ("unused", 0),
        ]);
        let table = ScenarioTable::new(&[&yes, &no], "(> age 16)", "(= fee 10)", &graph, &glossary);
        let names: Vec<&str> = table.rows.iter().map(|r| r.variable.as_str()).collect();
        assert_eq!(names, ["base", "fee", "age"]);
        assert_eq!(table.outside_cone, 2);
        assert!(table.rows[0].differs && table.rows[1].differs && !table.rows[2].differs);
        assert_eq!(table.rows[1].description, "Fee in dollars");
        assert_eq!(table.rows[1].values, ["10", "5"]);
    }
}

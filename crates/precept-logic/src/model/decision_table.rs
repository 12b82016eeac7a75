//! Where a rule came from a decision table: the table's hit policy and its
//! rows in order. The rules alone already say what the table means (an
//! earlier row of a First table is negated in the later rows' conditions);
//! this record tells lint which overlaps the hit policy allows.

use serde::{Deserialize, Serialize};

/// How a decision table chooses among the rows that match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HitPolicy {
    /// At most one row may match: any overlap is a mistake in the table.
    Unique,
    /// Rows may overlap when they agree on the outputs.
    Any,
    /// The first matching row in table order wins.
    First,
    /// The matching row whose output comes first in the output values wins.
    Priority,
    /// Every matching row contributes (a list, or an aggregate).
    Collect,
}

impl HitPolicy {
    /// Whether two rows of such a table may both match without a mistake:
    /// the policy itself says what happens then.
    pub fn allows_overlaps(self) -> bool {
        matches!(
            self,
            HitPolicy::First | HitPolicy::Priority | HitPolicy::Collect
        )
    }

    /// The name DMN writes in `hitPolicy`.
    pub fn dmn_name(self) -> &'static str {
        match self {
            HitPolicy::Unique => "UNIQUE",
            HitPolicy::Any => "ANY",
            HitPolicy::First => "FIRST",
            HitPolicy::Priority => "PRIORITY",
            HitPolicy::Collect => "COLLECT",
        }
    }
}

/// One decision table: the decision it decides, its hit policy, and the
/// ids of the rules that encode its rows, in row order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionTable {
    pub decision: String,
    pub hit_policy: HitPolicy,
    pub rows: Vec<String>,
}

/// Looks up, for a rule id, the table it is a row of.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableMembership {
    by_rule: std::collections::HashMap<String, (usize, HitPolicy)>,
}

impl TableMembership {
    pub fn new(tables: &[DecisionTable]) -> TableMembership {
        let mut by_rule = std::collections::HashMap::new();
        for (index, table) in tables.iter().enumerate() {
            for row in &table.rows {
                by_rule.insert(row.clone(), (index, table.hit_policy));
            }
        }
        TableMembership { by_rule }
    }

    /// The hit policy of the table both rules are rows of, if they are rows
    /// of the same table.
    pub fn shared_table(&self, first: &str, second: &str) -> Option<HitPolicy> {
        let (a, policy) = self.by_rule.get(first)?;
        let (b, _) = self.by_rule.get(second)?;
        (a == b).then_some(*policy)
    }

    /// The table (its position) and hit policy `rule` is a row of.
    pub fn table_of(&self, rule: &str) -> Option<(usize, HitPolicy)> {
        self.by_rule.get(rule).copied()
    }

    /// The hit policy of the table `rule` is a row of.
    pub fn policy_of(&self, rule: &str) -> Option<HitPolicy> {
        self.by_rule.get(rule).map(|(_, policy)| *policy)
    }
}

//! Cones of influence inside the solver: rules fall into groups that share
//! no variables. When the policy as a whole is consistent, a question over
//! some variables is decided by the groups that touch them alone, which keeps
//! checks small on models of thousands of rules.

use std::collections::HashMap;

#[derive(Debug, Clone, Default)]
pub struct Cones {
    rule_group: Vec<usize>,
    variable_group: HashMap<String, usize>,
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

impl Cones {
    /// Groups rules by shared variables; `rule_variables[i]` lists rule i's variables.
    pub fn build(rule_variables: &[Vec<String>]) -> Cones {
        let mut parent: Vec<usize> = (0..rule_variables.len()).collect();
        let mut first_rule_of: HashMap<&str, usize> = HashMap::new();
        for (rule, variables) in rule_variables.iter().enumerate() {
            for variable in variables {
                match first_rule_of.get(variable.as_str()) {
                    Some(&other) => {
                        let (a, b) = (find(&mut parent, rule), find(&mut parent, other));
                        parent[a] = b;
                    }
                    None => {
                        first_rule_of.insert(variable, rule);
                    }
                }
            }
        }
        let rule_group: Vec<usize> = (0..rule_variables.len())
            .map(|r| find(&mut parent, r))
            .collect();
        let variable_group = first_rule_of
            .into_iter()
            .map(|(v, r)| (v.to_string(), rule_group[r]))
            .collect();
        Cones {
            rule_group,
            variable_group,
        }
    }

    /// The rules in the groups that mention any of `variables`, in order.
    pub fn rules_touching<'a>(&self, variables: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
        let groups: std::collections::HashSet<usize> = variables
            .into_iter()
            .filter_map(|v| self.variable_group.get(v).copied())
            .collect();
        self.rule_group
            .iter()
            .enumerate()
            .filter(|(_, g)| groups.contains(g))
            .map(|(r, _)| r)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn rules_group_through_shared_variables() {
        let cones = Cones::build(&[
            names(&["a", "x"]),
            names(&["x", "b"]),
            names(&["y"]),
            names(&["b", "z"]),
            names(&[]),
        ]);
        assert_eq!(cones.rules_touching(["a"]), vec![0, 1, 3]);
        assert_eq!(cones.rules_touching(["y"]), vec![2]);
        assert_eq!(cones.rules_touching(["y", "z"]), vec![0, 1, 2, 3]);
        assert!(cones.rules_touching(["unknown"]).is_empty());
    }
}

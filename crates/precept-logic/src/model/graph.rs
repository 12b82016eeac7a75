//! The rule↔variable graph (petgraph): which rules use which variables, and
//! cones of influence: rules fall into connected groups that share no
//! variables. The workbench reruns only the tests an edit's cone can change;
//! the solver decides a question over some variables with the groups that
//! touch them alone (when the policy as a whole is consistent), which keeps
//! checks small on models of thousands of rules.

use crate::smt::Expr;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Rule(String),
    Variable(String),
}

/// Rules and variables linked when a rule mentions a variable.
#[derive(Debug, Clone, Default)]
pub struct RuleGraph {
    graph: UnGraph<Node, ()>,
    rules: HashMap<String, NodeIndex>,
    variables: HashMap<String, NodeIndex>,
    /// The rules in the order they were added (their positions).
    rule_order: Vec<NodeIndex>,
    /// Connected-component representative of each node.
    component: Vec<usize>,
    /// Whether a name a rule mentions becomes a variable on first sight
    /// (`from_rule_variables`) or only declared names are (`build`).
    any_name: bool,
}

impl RuleGraph {
    /// Builds the graph from rules (id, formula) over the declared variables.
    pub fn build<'a>(
        variables: impl IntoIterator<Item = &'a str>,
        rules: impl IntoIterator<Item = (&'a str, &'a Expr)>,
    ) -> RuleGraph {
        let declared: Vec<&str> = variables.into_iter().collect();
        let rules: Vec<(String, Vec<&str>)> = rules
            .into_iter()
            .map(|(id, formula)| (id.to_string(), formula.symbols()))
            .collect();
        RuleGraph::link(declared, rules, false)
    }

    /// Builds the graph from each rule's variables, in order; rule `i` is
    /// named by its position (`"0"`, `"1"`, …).
    pub fn from_rule_variables<'a>(
        rule_variables: impl IntoIterator<Item = &'a [String]>,
    ) -> RuleGraph {
        let rules = rule_variables
            .into_iter()
            .enumerate()
            .map(|(i, names)| (i.to_string(), names.iter().map(String::as_str).collect()))
            .collect();
        RuleGraph::link(Vec::new(), rules, true)
    }

    /// Links each rule to the variables it mentions: the declared ones, or
    /// (with `any_name`) every name, declared on first sight.
    fn link(declared: Vec<&str>, rules: Vec<(String, Vec<&str>)>, any_name: bool) -> RuleGraph {
        let mut graph = UnGraph::new_undirected();
        let mut variable_nodes = HashMap::new();
        for name in declared {
            let node = graph.add_node(Node::Variable(name.to_string()));
            variable_nodes.insert(name.to_string(), node);
        }
        let mut rule_nodes = HashMap::new();
        let mut rule_order = Vec::with_capacity(rules.len());
        for (id, symbols) in rules {
            let rule = graph.add_node(Node::Rule(id.clone()));
            rule_nodes.insert(id, rule);
            rule_order.push(rule);
            for symbol in symbols {
                let variable = match variable_nodes.get(symbol) {
                    Some(&node) => node,
                    None if any_name => {
                        let node = graph.add_node(Node::Variable(symbol.to_string()));
                        variable_nodes.insert(symbol.to_string(), node);
                        node
                    }
                    None => continue,
                };
                graph.add_edge(rule, variable, ());
            }
        }
        let mut linked = RuleGraph {
            graph,
            rules: rule_nodes,
            variables: variable_nodes,
            rule_order,
            component: Vec::new(),
            any_name,
        };
        linked.label_components();
        linked
    }

    fn label_components(&mut self) {
        let mut union = UnionFind::new(self.graph.node_count());
        for edge in self.graph.edge_indices() {
            if let Some((a, b)) = self.graph.edge_endpoints(edge) {
                union.union(a.index(), b.index());
            }
        }
        self.component = union.into_labeling();
    }

    /// Links rule `id` to the variables `formula` mentions instead of those
    /// it mentioned, in place, as a one-rule edit needs; groups and cones
    /// are then those of the graph built afresh. False when there is no
    /// rule `id` (build the graph again then).
    pub fn replace_rule(&mut self, id: &str, formula: &Expr) -> bool {
        self.relink_rule(id, formula.symbols())
    }

    /// `replace_rule` by the names the rule now mentions (for a graph of
    /// `from_rule_variables`, its variables; `id` is its position).
    pub fn relink_rule<'a>(&mut self, id: &str, names: impl IntoIterator<Item = &'a str>) -> bool {
        let Some(&rule) = self.rules.get(id) else {
            return false;
        };
        while let Some(edge) = self.graph.first_edge(rule, petgraph::Direction::Outgoing) {
            self.graph.remove_edge(edge);
        }
        for symbol in names {
            let variable = match self.variables.get(symbol) {
                Some(&node) => node,
                None if self.any_name => {
                    let node = self.graph.add_node(Node::Variable(symbol.to_string()));
                    self.variables.insert(symbol.to_string(), node);
                    node
                }
                None => continue,
            };
            self.graph.add_edge(rule, variable, ());
        }
        self.label_components();
        true
    }

    /// The positions of the rules in the groups that mention any of
    /// `variables`, in order.
    pub fn rules_touching<'a>(&self, variables: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
        let touched = self.components_of(variables);
        self.rule_order
            .iter()
            .enumerate()
            .filter(|(_, node)| touched.contains(&self.component[node.index()]))
            .map(|(position, _)| position)
            .collect()
    }

    /// Every group of rules (rules linked through shared variables), each
    /// as the positions of its rules in order, the groups in the order of
    /// their first rule. A rule that mentions no variable is a group alone.
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let mut by_component: HashMap<usize, usize> = HashMap::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (position, node) in self.rule_order.iter().enumerate() {
            let at = *by_component
                .entry(self.component[node.index()])
                .or_insert_with(|| {
                    groups.push(Vec::new());
                    groups.len() - 1
                });
            groups[at].push(position);
        }
        groups
    }

    /// The rules that mention `variable`, sorted.
    pub fn rules_using(&self, variable: &str) -> Vec<String> {
        let Some(&node) = self.variables.get(variable) else {
            return Vec::new();
        };
        let mut rules: Vec<String> = self
            .graph
            .neighbors(node)
            .filter_map(|n| match &self.graph[n] {
                Node::Rule(id) => Some(id.clone()),
                Node::Variable(_) => None,
            })
            .collect();
        rules.sort_by(|a, b| crate::model::natural_order(a, b));
        rules.dedup();
        rules
    }

    /// The variables a rule mentions.
    pub fn variables_of(&self, rule: &str) -> Vec<String> {
        let Some(&node) = self.rules.get(rule) else {
            return Vec::new();
        };
        let mut names: Vec<String> = self
            .graph
            .neighbors(node)
            .filter_map(|n| match &self.graph[n] {
                Node::Variable(name) => Some(name.clone()),
                Node::Rule(_) => None,
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn component_of_variable(&self, name: &str) -> Option<usize> {
        self.variables.get(name).map(|n| self.component[n.index()])
    }

    /// The components touched by these variables.
    pub fn components_of<'a>(
        &self,
        variables: impl IntoIterator<Item = &'a str>,
    ) -> BTreeSet<usize> {
        variables
            .into_iter()
            .filter_map(|v| self.component_of_variable(v))
            .collect()
    }

    /// The variables a question over `variables` can involve: its own and
    /// every variable in the groups of rules they touch (its cone).
    pub fn cone_variables<'a>(
        &self,
        variables: impl IntoIterator<Item = &'a str>,
    ) -> BTreeSet<String> {
        let question: Vec<&str> = variables.into_iter().collect();
        let touched = self.components_of(question.iter().copied());
        let mut cone: BTreeSet<String> = question.iter().map(|v| v.to_string()).collect();
        cone.extend(
            self.variables
                .iter()
                .filter(|(_, node)| touched.contains(&self.component[node.index()]))
                .map(|(name, _)| name.clone()),
        );
        cone
    }

    /// Whether a question over `question_variables` can depend on a rule over
    /// `rule_variables`: they share a connected component. (A rule that makes
    /// the whole policy inconsistent affects everything; callers check that
    /// separately.)
    pub fn may_depend<'a>(
        &self,
        question_variables: impl IntoIterator<Item = &'a str>,
        touched: &BTreeSet<usize>,
    ) -> bool {
        question_variables.into_iter().any(|v| {
            self.component_of_variable(v)
                .is_some_and(|c| touched.contains(&c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    #[test]
    fn components_separate_unrelated_rules() {
        let r1 = parse_expr("(=> a (> x 1))").unwrap();
        let r2 = parse_expr("(=> (> x 2) b)").unwrap();
        let r3 = parse_expr("(= y 3)").unwrap();
        let graph = RuleGraph::build(
            ["a", "b", "x", "y", "z"],
            [("R1", &r1), ("R2", &r2), ("R3", &r3)],
        );
        assert_eq!(graph.rules_using("x"), vec!["R1", "R2"]);
        assert!(graph.rules_using("z").is_empty());
        assert_eq!(graph.variables_of("R2"), vec!["b", "x"]);
        let touched = graph.components_of(["a"]);
        assert!(graph.may_depend(["b"], &touched));
        assert!(!graph.may_depend(["y"], &touched));
        assert!(!graph.may_depend(["z"], &touched));
        assert_eq!(graph.groups(), vec![vec![0, 1], vec![2]]);
        let names = |set: BTreeSet<String>| set.into_iter().collect::<Vec<_>>();
        assert_eq!(names(graph.cone_variables(["a"])), ["a", "b", "x"]);
        assert_eq!(names(graph.cone_variables(["z"])), ["z"]);
    }

    #[test]
    fn a_rule_replaced_in_place_groups_as_the_graph_built_afresh() {
        let variables = ["a", "b", "x", "y", "z"];
        let rules = [
            ("R1", "(=> a (> x 1))"),
            ("R2", "(=> (> y 2) b)"),
            ("R3", "(= z 3)"),
        ];
        let parsed: Vec<(&str, Expr)> = rules
            .iter()
            .map(|(id, text)| (*id, parse_expr(text).unwrap()))
            .collect();
        let mut graph = RuleGraph::build(variables, parsed.iter().map(|(id, f)| (*id, f)));
        assert_eq!(graph.groups(), vec![vec![0], vec![1], vec![2]]);
        // R2 now joins R1's group and R3's; then leaves both again.
        for (text, groups) in [
            ("(=> (> x 2) (= z 4))", vec![vec![0, 1, 2]]),
            ("(not b)", vec![vec![0], vec![1], vec![2]]),
        ] {
            let formula = parse_expr(text).unwrap();
            assert!(graph.replace_rule("R2", &formula));
            let mut edited = parsed.clone();
            edited[1].1 = formula;
            let fresh = RuleGraph::build(variables, edited.iter().map(|(id, f)| (*id, f)));
            assert_eq!(graph.groups(), groups);
            assert_eq!(graph.groups(), fresh.groups());
            assert_eq!(graph.variables_of("R2"), fresh.variables_of("R2"));
            assert_eq!(graph.rules_using("x"), fresh.rules_using("x"));
            assert_eq!(graph.rules_touching(["a"]), fresh.rules_touching(["a"]));
            let touched = graph.components_of(["z"]);
            assert_eq!(
                graph.may_depend(["a"], &touched),
                fresh.may_depend(["a"], &fresh.components_of(["z"]))
            );
        }
        assert!(!graph.replace_rule("R9", &parse_expr("a").unwrap()));
    }

    #[test]
    fn rules_group_through_shared_variables() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let lists = [
            names(&["a", "x"]),
            names(&["x", "b"]),
            names(&["y"]),
            names(&["b", "z"]),
            names(&[]),
        ];
        let mut cones = RuleGraph::from_rule_variables(lists.iter().map(Vec::as_slice));
        assert_eq!(cones.rules_touching(["a"]), vec![0, 1, 3]);
        // Rule 2 relinked to a name never seen: its group stays its own.
        assert!(cones.relink_rule("2", ["w"]));
        assert_eq!(cones.rules_touching(["w"]), vec![2]);
        assert!(cones.relink_rule("2", ["y"]));
        assert_eq!(cones.rules_touching(["y"]), vec![2]);
        assert_eq!(cones.rules_touching(["y", "z"]), vec![0, 1, 2, 3]);
        assert!(cones.rules_touching(["unknown"]).is_empty());
    }
}

//! Whether the rules alone are consistent, group by group. Groups of rules
//! share no variable, so the rules are satisfiable exactly when every group
//! is: each group is checked alone, and its answer kept by the versions of
//! its rules, so after an edit only the edited group is checked again. The
//! answers are also kept by the group's content in `GroupAnswers`, shared
//! by the workers of a pool, so a group one worker checked is not checked
//! again by another.

use super::error::SolveError;
use super::group_answers::{GroupContent, SharedAnswers};
use super::session::{Interruption, SolverSession};
use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;
use z3::SatResult;

impl SolverSession {
    /// Shares the groups' answers with the other workers of a pool.
    pub(super) fn share_group_answers(&mut self, shared: SharedAnswers) {
        self.shared_answers = Some(shared);
    }

    /// Whether the rules alone are satisfiable (cached until the next edit;
    /// an undecided answer is not cached, so the next question tries again).
    pub(super) fn consistency(
        &mut self,
        interruption: &dyn Interruption,
    ) -> Result<Option<bool>, SolveError> {
        if let Some(known) = self.consistency {
            return Ok(known);
        }
        let groups = self.groups();
        // Half the request's deadline: the question itself needs the rest.
        let budget = Duration::from_millis(self.timeout_ms / 2);
        let consistent = self.groups_consistent(&groups, budget, interruption)?;
        if consistent.is_some() {
            self.consistency = Some(consistent);
        }
        Ok(consistent)
    }

    /// Every group of rules, as positions (see `RuleGraph::groups`).
    pub(super) fn groups(&mut self) -> Vec<Vec<usize>> {
        self.rule_graph().groups()
    }

    /// Whether each of `groups` is satisfiable alone, all within `budget`:
    /// `Some(false)` when one is not, `None` when one could not be decided.
    pub(super) fn groups_consistent(
        &mut self,
        groups: &[Vec<usize>],
        budget: Duration,
        interruption: &dyn Interruption,
    ) -> Result<Option<bool>, SolveError> {
        let started = std::time::Instant::now();
        let mut undecided = false;
        if self.consistent_groups.len() > 4 * groups.len() + 1_000 {
            self.consistent_groups.clear();
        }
        let backwards = self.shared_answers.as_ref().is_some_and(|s| s.backwards);
        let in_order: Box<dyn Iterator<Item = &Vec<usize>>> = match backwards {
            true => Box::new(groups.iter().rev()),
            false => Box::new(groups.iter()),
        };
        for group in in_order {
            match self.known_consistent(group) {
                Some(true) => continue,
                Some(false) => return Ok(Some(false)),
                None => {}
            }
            let left = budget.saturating_sub(started.elapsed());
            if left.is_zero() {
                undecided = true;
                continue;
            }
            let scratch = self.scratch_solver(group);
            let whole = std::mem::replace(&mut self.solver, scratch);
            let result = self.check_within(&self.literals(group), left, interruption);
            self.solver = whole;
            match result {
                SatResult::Sat => self.remember_consistent(group, true),
                SatResult::Unsat => {
                    self.remember_consistent(group, false);
                    return Ok(Some(false));
                }
                SatResult::Unknown => {
                    if let Some(reason) = interruption.reason() {
                        return Err(SolveError::Undecided(reason));
                    }
                    undecided = true;
                }
            }
        }
        Ok((!undecided).then_some(true))
    }

    /// Keeps that every group inside `cone` (whole groups) is satisfiable,
    /// as a scenario of a question asked over all the cone's rules shows
    /// (found by a check that assumed them, or carried over from before an
    /// edit because the new rule holds in it, `carry_over.rs`).
    pub(super) fn remember_cone_consistent(&mut self, cone: &[usize]) {
        let inside: std::collections::HashSet<usize> = cone.iter().copied().collect();
        for group in self.groups() {
            let known = self.consistent_groups.contains_key(&self.versions(&group));
            if !known && group.iter().all(|r| inside.contains(r)) {
                self.remember_consistent(&group, true);
            }
        }
    }

    /// What this session or another worker of its pool decided about
    /// `group`; an answer found in the pool's is kept here too.
    fn known_consistent(&mut self, group: &[usize]) -> Option<bool> {
        let key = self.versions(group);
        if let Some(&known) = self.consistent_groups.get(&key) {
            return Some(known);
        }
        let answers = Arc::clone(&self.shared_answers.as_ref()?.answers);
        let known = answers.get(&self.group_content(group))?;
        self.consistent_groups.insert(key, known);
        Some(known)
    }

    fn remember_consistent(&mut self, group: &[usize], consistent: bool) {
        let key = self.versions(group);
        self.consistent_groups.insert(key, consistent);
        if let Some(shared) = &self.shared_answers {
            let answers = Arc::clone(&shared.answers);
            answers.keep(self.group_content(group), consistent);
        }
    }

    fn versions(&self, group: &[usize]) -> Vec<u64> {
        group.iter().map(|&r| self.rules[r].version).collect()
    }

    fn group_content(&mut self, group: &[usize]) -> GroupContent {
        group.iter().map(|&r| self.rule_content(r)).collect()
    }

    /// What the rule at `position` says: its formula, then each variable it
    /// mentions with its sort (and an enumeration's values), so that the
    /// same text over variables of other types is another content.
    fn rule_content(&mut self, position: usize) -> Arc<str> {
        if let Some(content) = &self.rules[position].content {
            return Arc::clone(content);
        }
        let rule = &self.rules[position];
        let mut text = rule.expr.to_string();
        let mut variables: Vec<&str> = rule.variables.iter().map(String::as_str).collect();
        variables.sort_unstable();
        variables.dedup();
        for name in variables {
            let _ = write!(
                text,
                "\n{name} {:?} {:?}",
                self.vocabulary.sort_of(name),
                self.vocabulary.values_of(name)
            );
        }
        let content: Arc<str> = Arc::from(text);
        self.rules[position].content = Some(Arc::clone(&content));
        content
    }
}

#[cfg(test)]
mod tests {
    use super::super::group_answers::GroupAnswers;
    use super::*;
    use crate::model::compile;
    use crate::model::import::import_smtlib;
    use crate::smt::parse_expr;
    use std::cell::Cell;

    /// Counts the checks a session starts.
    #[derive(Default)]
    struct Counting(Cell<usize>);

    impl Interruption for Counting {
        fn reason(&self) -> Option<String> {
            None
        }
        fn limit_checks(&self, _: Option<Duration>) {}
        fn start_check(&self) {
            self.0.set(self.0.get() + 1);
        }
    }

    fn session(source: &str, answers: &Arc<GroupAnswers>) -> SolverSession {
        let model = compile(&import_smtlib(source).unwrap());
        let mut session = SolverSession::load(&model, 5_000).unwrap();
        session.share_group_answers(answers.join());
        session
    }

    /// The checks `session` makes to decide its consistency, and the answer.
    fn consistency(session: &mut SolverSession) -> (Option<bool>, usize) {
        let counting = Counting::default();
        let answer = session.consistency(&counting).unwrap();
        (answer, counting.0.get())
    }

    const THREE_GROUPS: &str = "(declare-const a Int) (declare-const b Int)
        (declare-const p Bool) (declare-const q Bool)
        (assert (> a 1)) (assert (< b 2)) (assert (=> p q))";

    #[test]
    fn a_group_one_worker_checked_is_not_checked_again_by_another() {
        let answers = Arc::new(GroupAnswers::new());
        let mut first = session(THREE_GROUPS, &answers);
        let mut second = session(THREE_GROUPS, &answers);
        assert_eq!(consistency(&mut first), (Some(true), 3));
        assert_eq!(answers.len(), 3);
        assert_eq!(consistency(&mut second), (Some(true), 0));

        // An edit on both: the first checks the edited group, the second
        // takes its answer.
        let stricter = parse_expr("(and (> a 1) (< a 0))").unwrap();
        let id = first.rules[0].id.clone();
        first.replace_rule(&id, Some(&stricter)).unwrap();
        second.replace_rule(&id, Some(&stricter)).unwrap();
        assert_eq!(consistency(&mut first), (Some(false), 1));
        assert_eq!(consistency(&mut second), (Some(false), 0));
    }

    #[test]
    fn the_same_text_over_a_variable_of_another_type_is_checked_afresh() {
        let answers = Arc::new(GroupAnswers::new());
        let rule = "(assert (and (> x 0) (< x 1)))";
        let mut over_ints = session(&format!("(declare-const x Int) {rule}"), &answers);
        let mut over_reals = session(&format!("(declare-const x Real) {rule}"), &answers);
        assert_eq!(consistency(&mut over_ints), (Some(false), 1));
        assert_eq!(consistency(&mut over_reals), (Some(true), 1));
    }

    #[test]
    fn every_other_worker_walks_the_groups_backwards() {
        let answers = Arc::new(GroupAnswers::new());
        let walks: Vec<bool> = (0..4).map(|_| answers.join().backwards).collect();
        assert_eq!(walks, [false, true, false, true]);
    }

    #[test]
    fn a_scenario_in_a_cone_shows_its_groups_consistent() {
        let answers = Arc::new(GroupAnswers::new());
        let mut asked = session(THREE_GROUPS, &answers);
        let mut other = session(THREE_GROUPS, &answers);
        assert_eq!(consistency(&mut asked).1, 3);
        let looser = parse_expr("(> a 0)").unwrap();
        let id = asked.rules[0].id.clone();
        asked.replace_rule(&id, Some(&looser)).unwrap();
        other.replace_rule(&id, Some(&looser)).unwrap();
        // After the edit the consistency is not known, so a question about
        // `a` is asked in its cone first (`verify_before_consistency`): its
        // scenario shows the edited group consistent, with no check of it
        // alone, and the other groups' answers stand.
        let premise = parse_expr("true").unwrap();
        let claim = parse_expr("(> a 5)").unwrap();
        let counting = Counting::default();
        asked.verify(&premise, &claim, &counting);
        assert_eq!(consistency(&mut asked), (Some(true), 0));
        assert_eq!(consistency(&mut other), (Some(true), 0));
    }
}

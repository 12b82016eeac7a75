//! A large group's checks cut into fixed parts, so that the workers of a
//! pool share one group. The checks of the group as a whole (overlaps,
//! impossible situations, gaps, shadowed exceptions) are one part; the
//! per-rule and per-variable checks (vacuous and redundant rules, forced
//! variables, unreachable values) are cut into slices of the group's rules
//! and variables. Each part is checked in a context of its own from the
//! group's rules alone, and the cut depends only on the group's size, so
//! what a part finds does not depend on how many workers ran, or which.

use super::budget::{GROUP_CHECKS, Unchecked};
use std::ops::Range;

/// Groups of this many rules or more are cut into parts. On the dense
/// bench model (one group of 1,497 rules) the whole-group part and each
/// slice take a few seconds to 20 s, and a part's own setup (loading the
/// group, a model of it) under a second.
const SPLIT_FROM_RULES: usize = 400;

/// About this many rules per slice.
const SLICE_RULES: usize = 400;

/// Which of a group's checks one piece of work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GroupPart {
    /// Every check of the group.
    All,
    /// The checks of the group as a whole.
    Whole,
    /// Slice `index` of `of`: the per-rule checks of that share of the
    /// group's rules and the per-variable checks of the same share of its
    /// variables (in declaration order).
    Slice { index: usize, of: usize },
}

/// The parts a group of `rules` rules is checked in. When the last run's
/// answers are recalled (`recall.rs`) a large group is cut in two only: the
/// checks of the group as a whole and one slice of the rest. With most
/// answers recalled a part's own setup (loading the group, its base model,
/// about 150 ms on the dense bench model) costs more than its checks.
pub(super) fn parts_of(rules: usize, recalling: bool) -> Vec<GroupPart> {
    if rules < SPLIT_FROM_RULES {
        return vec![GroupPart::All];
    }
    let of = match recalling {
        true => 1,
        false => rules.div_ceil(SLICE_RULES),
    };
    std::iter::once(GroupPart::Whole)
        .chain((0..of).map(|index| GroupPart::Slice { index, of }))
        .collect()
}

impl GroupPart {
    /// Whether the part runs check `k` of [`GROUP_CHECKS`].
    pub(super) fn runs(self, k: usize) -> bool {
        match self {
            GroupPart::All => true,
            GroupPart::Whole => k < PER_RULE_CHECKS,
            GroupPart::Slice { .. } => k >= PER_RULE_CHECKS,
        }
    }

    /// The part's share of `len` items (rules or variables).
    pub(super) fn share(self, len: usize) -> Range<usize> {
        match self {
            GroupPart::All | GroupPart::Whole => 0..len,
            GroupPart::Slice { index, of } => len * index / of..len * (index + 1) / of,
        }
    }

    /// The part's checks of a group of `rules` rules, none done.
    pub(super) fn unchecked(self, rules: usize) -> Vec<Unchecked> {
        GROUP_CHECKS
            .iter()
            .enumerate()
            .filter(|&(k, _)| self.runs(k))
            .map(|(_, &check)| Unchecked {
                check,
                rules: self.share(rules).len(),
            })
            .collect()
    }
}

/// The first of [`GROUP_CHECKS`] that is asked per rule or per variable.
const PER_RULE_CHECKS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_rule_once_and_the_whole_checks_are_one_part() {
        assert_eq!(parts_of(399, false), vec![GroupPart::All]);
        assert_eq!(
            parts_of(1_497, true),
            vec![GroupPart::Whole, GroupPart::Slice { index: 0, of: 1 }]
        );
        let parts = parts_of(1_497, false);
        assert_eq!(parts.len(), 5);
        assert_eq!(parts[0], GroupPart::Whole);
        let mut covered = Vec::new();
        for part in &parts[1..] {
            covered.extend(part.share(1_497));
        }
        assert_eq!(covered, (0..1_497).collect::<Vec<_>>());
        for k in 0..GROUP_CHECKS.len() {
            let running = parts.iter().filter(|p| p.runs(k)).count();
            assert_eq!(running, if k < PER_RULE_CHECKS { 1 } else { 4 });
        }
        let unchecked: usize = parts
            .iter()
            .flat_map(|p| p.unchecked(1_497))
            .filter(|u| u.check == GROUP_CHECKS[5])
            .map(|u| u.rules)
            .sum();
        assert_eq!(unchecked, 1_497);
    }
}

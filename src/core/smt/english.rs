//! Structured English for rules, produced mechanically from templates (no
//! LLM), using the descriptions of variables and enum values.

use super::ast::{Expr, ExprKind, Op};
use super::number::finite_decimal;
use num_rational::BigRational;
use num_traits::One;
use std::collections::HashMap;

/// What the renderer knows about names: descriptions of variables and values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Glossary {
    pub variables: HashMap<String, String>,
    pub values: HashMap<String, String>,
    pub bool_variables: std::collections::HashSet<String>,
}

impl Glossary {
    /// Renders a rule as a sentence: capitalized, ending with a full stop.
    pub fn sentence(&self, expr: &Expr) -> String {
        let text = match &expr.kind {
            ExprKind::App(Op::Implies, args) => self.implication(args),
            _ => self.phrase(expr),
        };
        // Capitalize the first letter, even behind an opening bracket.
        match text
            .char_indices()
            .find(|(_, c)| !matches!(c, '(' | ' '))
            .filter(|(_, c)| c.is_alphabetic())
        {
            Some((at, first)) => format!(
                "{}{}{}.",
                &text[..at],
                first.to_uppercase(),
                &text[at + first.len_utf8()..]
            ),
            None if text.is_empty() => String::new(),
            None => format!("{text}."),
        }
    }

    /// Renders a term as a phrase that can sit inside a sentence.
    pub fn phrase(&self, expr: &Expr) -> String {
        match &expr.kind {
            ExprKind::Bool(true) => "true".into(),
            ExprKind::Bool(false) => "false".into(),
            ExprKind::Int(value) => value.to_string(),
            ExprKind::Decimal(value) => {
                finite_decimal(value, true).unwrap_or_else(|| value.to_string())
            }
            ExprKind::Symbol(name) => self.name_phrase(name),
            ExprKind::App(op, args) => self.application(*op, args),
        }
    }

    fn implication(&self, args: &[Expr]) -> String {
        // (=> a b c) means a => (b => c): if a and b, then c.
        let (conclusion, conditions) = args.split_last().expect("=> has at least two arguments");
        let conditions: Vec<String> = conditions
            .iter()
            .map(|c| self.operand(c, Op::And))
            .collect();
        format!(
            "if {}, then {}",
            join(&conditions, "and"),
            self.phrase(conclusion)
        )
    }

    fn name_phrase(&self, name: &str) -> String {
        if let Some(description) = self.values.get(name).filter(|d| !d.trim().is_empty()) {
            return lower_first(description.trim().trim_end_matches('.'));
        }
        if self.values.contains_key(name) {
            return humanize(name);
        }
        let description = self
            .variables
            .get(name)
            .map(|d| d.trim().trim_end_matches('.'));
        let is_bool = self.bool_variables.contains(name);
        match description.filter(|d| !d.is_empty()) {
            Some(d) if is_bool => {
                let lowered = lower_first(d);
                for prefix in ["whether ", "true if ", "true when ", "indicates whether "] {
                    if let Some(rest) = lowered.strip_prefix(prefix) {
                        return rest.to_string();
                    }
                }
                lowered
            }
            Some(d) => {
                let lowered = lower_first(d);
                if ["the ", "a ", "an "].iter().any(|p| lowered.starts_with(p)) {
                    lowered
                } else {
                    format!("the {lowered}")
                }
            }
            None if is_bool => format!("{} holds", humanize(name)),
            None => format!("the {}", humanize(name)),
        }
    }

    /// A sub-phrase in brackets when it would otherwise read ambiguously
    /// inside `parent`.
    fn operand(&self, expr: &Expr, parent: Op) -> String {
        let text = self.phrase(expr);
        let needs_brackets = match &expr.kind {
            ExprKind::App(op, _) => match parent {
                Op::And | Op::Or => {
                    matches!(op, Op::And | Op::Or | Op::Implies | Op::Ite) && *op != parent
                }
                Op::Not => matches!(op, Op::And | Op::Or | Op::Implies | Op::Eq | Op::Ite),
                Op::Add | Op::Sub | Op::Mul | Op::Div => {
                    matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Ite) && *op != parent
                        || (parent == Op::Div && *op == Op::Div)
                        || (parent == Op::Sub && *op == Op::Sub)
                }
                // A branch of "x if c, otherwise y" is bracketed unless it is a single name or number.
                Op::Ite => *op != Op::ToReal,
                _ => matches!(op, Op::And | Op::Or | Op::Implies | Op::Ite),
            },
            _ => false,
        };
        if needs_brackets {
            format!("({text})")
        } else {
            text
        }
    }

    fn application(&self, op: Op, args: &[Expr]) -> String {
        let each =
            |parent: Op| -> Vec<String> { args.iter().map(|a| self.operand(a, parent)).collect() };
        match op {
            Op::And => join(&each(op), "and"),
            Op::Or => {
                let parts = each(op);
                if parts.len() == 2 {
                    format!("either {} or {}", parts[0], parts[1])
                } else {
                    join(&parts, "or")
                }
            }
            Op::Not => match &args[0].kind {
                ExprKind::App(Op::Eq, inner) if inner.len() == 2 => {
                    format!(
                        "{} is not {}",
                        self.phrase(&inner[0]),
                        self.phrase(&inner[1])
                    )
                }
                _ => format!(
                    "it is not the case that {}",
                    self.operand(&args[0], Op::Not)
                ),
            },
            Op::Implies => self.implication(args),
            Op::Eq => self.equality(args),
            Op::Distinct => {
                let parts = each(op);
                if parts.len() == 2 {
                    format!("{} differs from {}", parts[0], parts[1])
                } else {
                    format!("{} are all different", join(&parts, "and"))
                }
            }
            Op::Ite => format!(
                "{} if {}, otherwise {}",
                self.operand(&args[1], op),
                self.phrase(&args[0]),
                self.operand(&args[2], op)
            ),
            Op::Lt => chain(&each(op), "is less than"),
            Op::Le => chain(&each(op), "is at most"),
            Op::Gt => chain(&each(op), "is greater than"),
            Op::Ge => chain(&each(op), "is at least"),
            Op::Add => each(op).join(" plus "),
            Op::Sub if args.len() == 1 => format!("minus {}", self.operand(&args[0], op)),
            Op::Sub => each(op).join(" minus "),
            Op::Mul => self.product(args),
            Op::Div => each(op).join(" divided by "),
            Op::ToReal => self.phrase(&args[0]),
            Op::ToInt => format!("the whole part of {}", self.operand(&args[0], op)),
        }
    }

    fn equality(&self, args: &[Expr]) -> String {
        let parts: Vec<String> = args.iter().map(|a| self.operand(a, Op::Eq)).collect();
        let is_value =
            |e: &Expr| matches!(&e.kind, ExprKind::Symbol(n) if self.values.contains_key(n));
        let is_bool = |e: &Expr| match &e.kind {
            ExprKind::Symbol(n) => self.bool_variables.contains(n),
            ExprKind::Bool(_) => true,
            ExprKind::App(op, _) => matches!(
                op,
                Op::And
                    | Op::Or
                    | Op::Not
                    | Op::Implies
                    | Op::Lt
                    | Op::Le
                    | Op::Gt
                    | Op::Ge
                    | Op::Distinct
            ),
            _ => false,
        };
        if args.len() == 2 && is_value(&args[1]) {
            format!("{} is {}", parts[0], parts[1])
        } else if args.iter().any(is_bool) {
            chain(&parts, "exactly when")
        } else {
            chain(&parts, "equals")
        }
    }

    fn product(&self, args: &[Expr]) -> String {
        // (* 0.75 x) reads as "75% of x" when the factor is a fraction below one.
        if let [factor, rest] = args
            && let ExprKind::Decimal(value) = &factor.kind
            && *value < BigRational::one()
            && let Some(percent) =
                finite_decimal(&(value * BigRational::from_integer(100.into())), true)
        {
            return format!("{percent}% of {}", self.operand(rest, Op::Mul));
        }
        args.iter()
            .map(|a| self.operand(a, Op::Mul))
            .collect::<Vec<_>>()
            .join(" times ")
    }
}

fn chain(parts: &[String], relation: &str) -> String {
    let mut text = parts[0].clone();
    for (i, part) in parts[1..].iter().enumerate() {
        if i == 0 {
            text = format!("{text} {relation} {part}");
        } else {
            text = format!("{text}, which {relation} {part}");
        }
    }
    text
}

fn join(parts: &[String], conjunction: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        // Keep acronyms such as "EU" or "ID" as written.
        Some(_) if chars.clone().next().is_some_and(|c| c.is_uppercase()) => text.to_string(),
        Some(first) => format!("{}{}", first.to_lowercase(), chars.as_str()),
        None => String::new(),
    }
}

/// `isLowSeason` → "is low season"; `DENIED_BOARDING` → "denied boarding".
pub fn humanize(name: &str) -> String {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '-' || c == ' ' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && i > 0
            && (chars[i - 1].is_lowercase()
                || chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                    && chars[i - 1].is_uppercase());
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            if w.len() > 1
                && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit())
                && name.contains(char::is_lowercase)
            {
                w.clone()
            } else {
                w.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::parser::parse_expr;
    use super::*;

    fn park() -> Glossary {
        let mut g = Glossary::default();
        g.variables
            .insert("isSenior".into(), "Whether the visitor is a senior".into());
        g.variables.insert(
            "isLowSeason".into(),
            "Whether the visit is in the low season".into(),
        );
        g.variables
            .insert("admissionFee".into(), "Admission fee".into());
        g.variables.insert("baseFee".into(), "The base fee".into());
        g.variables
            .insert("ageClass".into(), "Age class of the visitor".into());
        g.bool_variables.insert("isSenior".into());
        g.bool_variables.insert("isLowSeason".into());
        g.values.insert("CHILD".into(), "A child under 12".into());
        g.values.insert("DENIED_BOARDING".into(), String::new());
        g
    }

    fn say(text: &str) -> String {
        park().sentence(&parse_expr(text).unwrap())
    }

    #[test]
    fn implication_reads_as_if_then() {
        assert_eq!(
            say("(=> (and isSenior isLowSeason) (= admissionFee (* 0.75 baseFee)))"),
            "If the visitor is a senior and the visit is in the low season, then the admission fee equals 75% of the base fee."
        );
    }

    #[test]
    fn enums_negation_and_comparisons() {
        assert_eq!(
            say("(= ageClass CHILD)"),
            "The age class of the visitor is a child under 12."
        );
        assert_eq!(
            say("(not (= ageClass DENIED_BOARDING))"),
            "The age class of the visitor is not denied boarding."
        );
        assert_eq!(
            say("(not isSenior)"),
            "It is not the case that the visitor is a senior."
        );
        assert_eq!(
            say("(>= admissionFee 10 2.5)"),
            "The admission fee is at least 10, which is at least 2.5."
        );
        assert_eq!(
            say("(or (and isSenior isLowSeason) (not isSenior))"),
            "Either (the visitor is a senior and the visit is in the low season) or it is not the case that the visitor is a senior."
        );
        assert_eq!(
            say("(= admissionFee (ite isSenior (- baseFee 5) baseFee))"),
            "The admission fee equals ((the base fee minus 5) if the visitor is a senior, otherwise the base fee)."
        );
        assert_eq!(
            say("(and (=> isSenior isLowSeason) (=> isLowSeason isSenior))"),
            "(If the visitor is a senior, then the visit is in the low season) and (if the visit is in the low season, then the visitor is a senior)."
        );
    }

    #[test]
    fn names_without_descriptions_are_humanized() {
        assert_eq!(humanize("isLowSeason"), "is low season");
        assert_eq!(humanize("DENIED_BOARDING"), "denied boarding");
        assert_eq!(humanize("maxEUAllowance"), "max EU allowance");
        let g = Glossary::default();
        assert_eq!(
            g.sentence(&parse_expr("(> creditUnits 3)").unwrap()),
            "The credit units is greater than 3."
        );
    }
}

//! Structured English for rules, produced mechanically from templates (no
//! LLM), using the descriptions of variables and enum values.

use super::ast::{Expr, ExprKind, Op};
use super::number::finite_decimal;
use super::reading::{Reading, is_clause};
pub use super::wording::humanize;
use super::wording::{lower_first, negate_clause, sentence_part};
use num_rational::BigRational;
use num_traits::One;
use std::collections::HashMap;

/// What the renderer knows about names: descriptions of variables and
/// values, and the reading forms given for them (`reading.rs`); a name
/// without forms is said by a template made from its description.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Glossary {
    pub variables: HashMap<String, String>,
    pub values: HashMap<String, String>,
    pub bool_variables: std::collections::HashSet<String>,
    /// The variables' given forms (checked; empty ones are left out).
    pub readings: HashMap<String, Reading>,
    /// The enum values' given clauses.
    pub value_readings: HashMap<String, String>,
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
        // A lone condition needs no brackets: "if either a or b, then c".
        let conditions: Vec<String> = match conditions {
            [only] if !matches!(only.kind, ExprKind::App(Op::Implies | Op::Ite, _)) => {
                vec![self.phrase(only)]
            }
            _ => conditions
                .iter()
                .map(|c| self.operand(c, Op::And))
                .collect(),
        };
        format!(
            "if {}, then {}",
            join(&conditions, "and"),
            self.phrase(conclusion)
        )
    }

    /// How `name` is said: the forms given for it, else the template's
    /// (from its description, or its name humanized). A value has none.
    pub fn reading(&self, name: &str) -> Reading {
        let given = self.readings.get(name);
        let is_bool = self.bool_variables.contains(name);
        let mut reading = self.template_reading(name);
        if let Some(given) = given {
            if is_bool && !given.holds.is_empty() && !given.negated.is_empty() {
                reading.holds = given.holds.clone();
                reading.negated = given.negated.clone();
            }
            if !is_bool && !given.noun.is_empty() {
                reading.noun = given.noun.clone();
            }
        }
        reading
    }

    /// The forms the template gives `name`, from its description.
    pub fn template_reading(&self, name: &str) -> Reading {
        if !self.variables.contains_key(name) && !self.bool_variables.contains(name) {
            return Reading::default();
        }
        if self.bool_variables.contains(name) {
            let holds = self.template_phrase(name);
            let negated = match holds.strip_suffix(" holds") {
                Some(subject) => format!("{subject} does not hold"),
                None => negate_clause(&holds)
                    .unwrap_or_else(|| format!("it is not the case that {holds}")),
            };
            return Reading {
                holds,
                negated,
                noun: String::new(),
            };
        }
        Reading {
            noun: self.template_phrase(name),
            ..Reading::default()
        }
    }

    fn name_phrase(&self, name: &str) -> String {
        if let Some(given) = self.readings.get(name) {
            match self.bool_variables.contains(name) {
                true if !given.holds.is_empty() => return given.holds.clone(),
                false if !given.noun.is_empty() => return given.noun.clone(),
                _ => {}
            }
        }
        self.template_phrase(name)
    }

    fn template_phrase(&self, name: &str) -> String {
        if let Some(description) = self
            .values
            .get(name)
            .map(|d| sentence_part(d))
            .filter(|d| !d.is_empty())
        {
            return lower_first(&description);
        }
        if self.values.contains_key(name) {
            return humanize(name);
        }
        let description = self.variables.get(name).map(|d| sentence_part(d));
        let is_bool = self.bool_variables.contains(name);
        match description.as_deref().filter(|d| !d.is_empty()) {
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
                // "Whether the organisation is a charity or a CASC" asks a
                // question; it does not name the thing: the name does.
                if lowered.starts_with("whether ") {
                    return format!("the {}", humanize(name));
                }
                // "How many hours the part lasted" names a number: "the
                // number of hours the part lasted".
                if let Some(rest) = lowered.strip_prefix("how many ") {
                    return format!("the number of {rest}");
                }
                if let Some(rest) = lowered.strip_prefix("how much ") {
                    return format!("the amount of {rest}");
                }
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
                Op::Not => matches!(
                    op,
                    Op::And | Op::Or | Op::Implies | Op::Eq | Op::Ite | Op::Distinct
                ),
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
                if let Some(choice) = self.value_choice(args) {
                    return choice;
                }
                let parts = each(op);
                if parts.len() == 2 {
                    format!("either {} or {}", parts[0], parts[1])
                } else {
                    join(&parts, "or")
                }
            }
            Op::Not => self.negation(&args[0]),
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
            Op::Lt => chain(&each(op), strict_words(args, "is under", "is less than")),
            Op::Le => chain(&each(op), "is at most"),
            Op::Gt => chain(&each(op), strict_words(args, "is over", "is greater than")),
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

    /// The natural negation of a Bool term: comparisons flip ("is at least"
    /// ↔ "is less than"), `(not (= x A))` reads "x is not A", a double
    /// negation cancels, negation moves inside and, or and => (De Morgan),
    /// and a Boolean variable takes the negative form of its description
    /// when it has one. Otherwise: "it is not the case that …".
    fn negation(&self, expr: &Expr) -> String {
        self.natural_negation(expr)
            .unwrap_or_else(|| format!("it is not the case that {}", self.operand(expr, Op::Not)))
    }

    fn natural_negation(&self, expr: &Expr) -> Option<String> {
        let (op, args) = match &expr.kind {
            ExprKind::Bool(value) => return Some((!value).to_string()),
            ExprKind::Symbol(name) if self.bool_variables.contains(name) => {
                if let Some(given) = self.readings.get(name).filter(|r| !r.negated.is_empty()) {
                    return Some(given.negated.clone());
                }
                let phrase = self.name_phrase(name);
                return match phrase.strip_suffix(" holds") {
                    Some(subject) => Some(format!("{subject} does not hold")),
                    None => negate_clause(&phrase),
                };
            }
            ExprKind::App(op, args) => (*op, args),
            _ => return None,
        };
        let pair = args.len() == 2;
        let relation = |words: &str| {
            Some(format!(
                "{} {words} {}",
                self.operand(&args[0], op),
                self.operand(&args[1], op)
            ))
        };
        match op {
            Op::Not => Some(self.phrase(&args[0])),
            Op::Lt if pair => relation("is at least"),
            Op::Le if pair => relation(strict_words(args, "is over", "is greater than")),
            Op::Gt if pair => relation("is at most"),
            Op::Ge if pair => relation(strict_words(args, "is under", "is less than")),
            Op::Eq if pair && self.value_clause(args).is_some() => {
                negate_clause(&self.value_clause(args)?)
            }
            Op::Eq if pair && self.is_value_term(&args[1]) => relation("is not"),
            Op::Eq if pair && !args.iter().any(|a| self.is_bool_term(a)) => {
                relation("does not equal")
            }
            Op::Distinct if pair => Some(self.equality(args)),
            Op::And => {
                let parts: Vec<String> = args
                    .iter()
                    .map(|a| self.negated_operand(a, Op::Or))
                    .collect();
                Some(if parts.len() == 2 {
                    format!("either {} or {}", parts[0], parts[1])
                } else {
                    join(&parts, "or")
                })
            }
            Op::Or => {
                let parts: Vec<String> = args
                    .iter()
                    .map(|a| self.negated_operand(a, Op::And))
                    .collect();
                Some(join(&parts, "and"))
            }
            Op::Implies => {
                // Not (if a, then b): a holds and b does not.
                let (conclusion, conditions) = args.split_last()?;
                let mut parts: Vec<String> = conditions
                    .iter()
                    .map(|c| self.operand(c, Op::And))
                    .collect();
                parts.push(self.negated_operand(conclusion, Op::And));
                Some(join(&parts, "and"))
            }
            _ => None,
        }
    }

    /// The negation of `expr` inside a list joined by `parent` (and, or),
    /// bracketed when it is itself a list joined the other way.
    fn negated_operand(&self, expr: &Expr, parent: Op) -> String {
        let joined_by = match &expr.kind {
            ExprKind::App(Op::Not, inner) => return self.operand(&inner[0], parent),
            ExprKind::App(Op::And, _) => Some(Op::Or),
            ExprKind::App(Op::Or | Op::Implies, _) => Some(Op::And),
            _ => None,
        };
        let text = self.negation(expr);
        match joined_by {
            Some(op) if op != parent => format!("({text})"),
            _ => text,
        }
    }

    /// `(= x V)` where V's description is a clause of its own ("The
    /// organisation is a charity"): that clause, as the value says it.
    fn value_clause(&self, args: &[Expr]) -> Option<String> {
        let [variable, value] = args else {
            return None;
        };
        let (ExprKind::Symbol(_), ExprKind::Symbol(value)) = (&variable.kind, &value.kind) else {
            return None;
        };
        if let Some(given) = self.value_readings.get(value) {
            return Some(given.clone());
        }
        let said = lower_first(&sentence_part(self.values.get(value)?));
        is_clause(&said).then_some(said)
    }

    /// `(or (= x A) (= x B) …)` whose values' clauses share their subject
    /// and verb: "the organisation is a charity or a CASC".
    fn value_choice(&self, args: &[Expr]) -> Option<String> {
        let clauses: Vec<String> = args
            .iter()
            .map(|a| match &a.kind {
                ExprKind::App(Op::Eq, pair) => self.value_clause(pair),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let verb_end = |c: &str| {
            [" is ", " are ", " was ", " were "]
                .iter()
                .filter_map(|v| c.find(v).map(|at| at + v.len()))
                .min()
        };
        let head_end = verb_end(&clauses[0])?;
        let head = &clauses[0][..head_end];
        let rests: Vec<String> = clauses
            .iter()
            .map(|c| c.strip_prefix(head).map(str::to_string))
            .collect::<Option<_>>()?;
        Some(format!("{head}{}", join(&rests, "or")))
    }

    fn is_value_term(&self, expr: &Expr) -> bool {
        matches!(&expr.kind, ExprKind::Symbol(n) if self.values.contains_key(n))
    }

    fn is_bool_term(&self, expr: &Expr) -> bool {
        match &expr.kind {
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
        }
    }

    fn equality(&self, args: &[Expr]) -> String {
        if let Some(clause) = self.value_clause(args) {
            return clause;
        }
        let parts: Vec<String> = args.iter().map(|a| self.operand(a, Op::Eq)).collect();
        if args.len() == 2 && self.is_value_term(&args[1]) {
            format!("{} is {}", parts[0], parts[1])
        } else if args.iter().any(|a| self.is_bool_term(a)) {
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

/// A strict comparison with a number reads as people say it ("the age is
/// under 16", "the delay is over 5"); between two terms, "is less than".
fn strict_words(args: &[Expr], with_number: &'static str, otherwise: &'static str) -> &'static str {
    match args {
        [_, number] if matches!(number.kind, ExprKind::Int(_) | ExprKind::Decimal(_)) => {
            with_number
        }
        _ => otherwise,
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
        assert_eq!(say("(not isSenior)"), "The visitor is not a senior.");
        assert_eq!(
            say("(>= admissionFee 10 2.5)"),
            "The admission fee is at least 10, which is at least 2.5."
        );
        assert_eq!(
            say("(or (and isSenior isLowSeason) (not isSenior))"),
            "Either (the visitor is a senior and the visit is in the low season) or the visitor is not a senior."
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
    fn negations_read_naturally() {
        let cases = [
            (
                "(not (>= admissionFee 16))",
                "The admission fee is under 16.",
            ),
            (
                "(not (< admissionFee 16))",
                "The admission fee is at least 16.",
            ),
            (
                "(not (<= admissionFee 16))",
                "The admission fee is over 16.",
            ),
            (
                "(not (> admissionFee 16))",
                "The admission fee is at most 16.",
            ),
            (
                "(not (= admissionFee 16))",
                "The admission fee does not equal 16.",
            ),
            (
                "(not (distinct admissionFee baseFee))",
                "The admission fee equals the base fee.",
            ),
            ("(not (not isSenior))", "The visitor is a senior."),
            (
                "(not (and isSenior (> admissionFee 3)))",
                "Either the visitor is not a senior or the admission fee is at most 3.",
            ),
            (
                "(not (or isSenior (= ageClass CHILD)))",
                "The visitor is not a senior and the age class of the visitor is not a child under 12.",
            ),
            (
                "(not (=> isSenior (>= admissionFee 10)))",
                "The visitor is a senior and the admission fee is under 10.",
            ),
            (
                "(=> (not isSenior) (not (not isLowSeason)))",
                "If the visitor is not a senior, then the visit is in the low season.",
            ),
            (
                "(not (and isSenior (or isLowSeason (< baseFee 2))))",
                "Either the visitor is not a senior or (the visit is not in the low season and the base fee is at least 2).",
            ),
            // No auxiliary to negate: the general form, once.
            ("(not isFree)", "Is free does not hold."),
            (
                "(not fallsLow)",
                "The visit does not fall in the low season.",
            ),
            (
                "(not covers)",
                "It is not the case that the visitor's fund covers the fee.",
            ),
            (
                "(not (= isSenior isLowSeason))",
                "It is not the case that (the visitor is a senior exactly when the visit is in the low season).",
            ),
        ];
        let mut g = park();
        g.bool_variables.insert("isFree".into());
        g.bool_variables.insert("fallsLow".into());
        g.bool_variables.insert("covers".into());
        g.variables.insert(
            "covers".into(),
            "Whether the visitor's fund covers the fee".into(),
        );
        g.variables.insert(
            "fallsLow".into(),
            "Whether the visit falls in the low season".into(),
        );
        for (rule, english) in cases {
            assert_eq!(g.sentence(&parse_expr(rule).unwrap()), english, "{rule}");
        }
    }

    #[test]
    fn descriptions_drop_their_asides() {
        let mut g = park();
        g.variables.insert(
            "delayHours".into(),
            "Delay of the flight in hours (rounded up).".into(),
        );
        g.values.insert(
            "NONE".into(),
            "none of the listed reasons (the default)".into(),
        );
        assert_eq!(
            g.sentence(&parse_expr("(=> (= ageClass NONE) (< delayHours 5))").unwrap()),
            "If the age class of the visitor is none of the listed reasons, then the delay of the flight in hours is under 5."
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
            "The credit units is over 3."
        );
    }
}

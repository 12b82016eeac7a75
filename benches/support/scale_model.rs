//! The synthetic model of the scale benchmarks: a policy the size ARC
//! reports for a 274-page document (about 600 enum types, 2,000 variables,
//! 1,500 rules), built section by section with a fixed seed, and random
//! claims over it. Shared by `benches/scale.rs` (the product's timings) and
//! `benches/scale_breakdown/` (where the time goes, on a replica).
//!
//! The generator builds the model section by section, like a long document:
//! each section has its own enum types, inputs and derived variables, and a
//! single coupling rule reads a variable of the global header or of a nearby
//! earlier section. Consistency holds by construction: the variables follow a
//! fixed order (globals, then section by section, inputs before derived
//! values), every rule's antecedent mentions only variables earlier in that
//! order than the one its consequent constrains, and the rules constraining
//! one variable either have mutually exclusive antecedents or compatible
//! consequents (lower bounds below the upper bound). Any assignment of the
//! inputs within their bounds therefore extends to a model of all rules.
#![allow(dead_code)]

use precept::model::{
    EnumValue, PolicyModel, ReviewStatus, Rule, SCHEMA_VERSION, SourceSpan, TypeDef, Variable,
};

pub const SECTIONS: usize = 100;
pub const SEED: u64 = 0x5EED_0274_2024_ACED;

// ---------------------------------------------------------------------------
// A tiny fixed-seed PRNG (xorshift64*).

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `k` distinct items of `pool`, in pool order.
    fn subset(&mut self, pool: &[&str], k: usize) -> Vec<String> {
        let mut chosen: Vec<usize> = Vec::new();
        while chosen.len() < k.min(pool.len()) {
            let i = self.below(pool.len());
            if !chosen.contains(&i) {
                chosen.push(i);
            }
        }
        chosen.sort_unstable();
        chosen.into_iter().map(|i| pool[i].to_string()).collect()
    }
}

// ---------------------------------------------------------------------------
// The generator.

/// What a claim generator needs to know about one section.
pub struct Section {
    pub tiers: Vec<String>,
    pub categories: Vec<String>,
    pub regions: Vec<String>,
    pub channels: Vec<String>,
    pub decisions: Vec<String>,
    pub priorities: Vec<String>,
    pub count_max: u64,
    pub days_max: u64,
    pub base_max: u64,
    pub fee_max: u64,
    pub amount_min: u64,
    pub units_high: u64,
    /// Index of rule 6 (the amount bound) in the model's rule list.
    pub amount_rule: usize,
}

const CATEGORY_WORDS: &[&str] = &[
    "STUDENT",
    "EMPLOYEE",
    "CONTRACTOR",
    "RETIREE",
    "VISITOR",
    "MEMBER",
    "VENDOR",
    "PARTNER",
];
const REGION_WORDS: &[&str] = &["NORTHERN", "SOUTHERN", "EASTERN", "WESTERN", "CENTRAL"];
const CHANNEL_WORDS: &[&str] = &["MAIL", "IN_PERSON", "PHONE", "AGENT"];
const TIER_EXTRA: &[&str] = &["PLATINUM", "STANDARD", "BASIC"];
const PRIORITY_WORDS: &[&str] = &["LOW", "MEDIUM", "URGENT"];
const JURISDICTIONS: &[&str] = &["J_NORTH", "J_SOUTH", "J_EAST", "J_WEST"];

fn suffixed(words: &[String], s: usize) -> Vec<String> {
    words.iter().map(|w| format!("{w}_{s}")).collect()
}

struct Builder {
    model: PolicyModel,
    offset: usize,
}

impl Builder {
    fn enum_type(&mut self, name: String, description: &str, values: &[String]) {
        let values = values
            .iter()
            .map(|v| EnumValue {
                reading: Default::default(),
                value: v.clone(),
                description: format!("{} '{}'", description, v.to_lowercase()),
            })
            .collect();
        self.model.types.push(TypeDef {
            name,
            description: description.to_string(),
            values,
        });
    }

    fn variable(&mut self, name: String, sort: &str, description: String) {
        self.model.variables.push(Variable {
            reading: Default::default(),
            name,
            sort: sort.to_string(),
            description,
        });
    }

    fn rule(&mut self, rng: &mut Rng, expression: String) {
        let id = format!("R{}", self.model.rules.len() + 1);
        let length = 80 + rng.below(400);
        let review = match rng.below(10) {
            0..=5 => ReviewStatus::Unreviewed,
            6..=8 => ReviewStatus::Approved,
            _ => ReviewStatus::NeedsChange,
        };
        self.model.rules.push(Rule {
            id,
            expression,
            source_span: Some(SourceSpan {
                start: self.offset,
                end: self.offset + length,
            }),
            also_from: Vec::new(),
            review,
            note: if review == ReviewStatus::NeedsChange {
                "check the threshold against the latest circular".to_string()
            } else {
                String::new()
            },
        });
        self.offset += length + rng.below(200);
    }
}

/// `coupling`: the percentage of sections whose 15th rule reads a variable
/// of the global header or of an earlier section (otherwise it stays inside
/// its section).
pub fn generate(rng: &mut Rng, coupling: u64) -> (PolicyModel, Vec<Section>) {
    let mut b = Builder {
        model: PolicyModel {
            schema_version: SCHEMA_VERSION,
            title: "Synthetic benefits and fees handbook (274 pages)".to_string(),
            ..PolicyModel::default()
        },
        offset: 0,
    };
    let jurisdictions: Vec<String> = JURISDICTIONS.iter().map(|j| j.to_string()).collect();
    b.enum_type(
        "Jurisdiction".into(),
        "The jurisdiction whose rules apply",
        &jurisdictions,
    );
    b.variable(
        "jurisdiction".into(),
        "Jurisdiction",
        "The jurisdiction the applicant files in".into(),
    );
    b.variable(
        "isResident".into(),
        "Bool",
        "Whether the applicant is a resident of the jurisdiction".into(),
    );

    let mut sections = Vec::with_capacity(SECTIONS);
    for s in 0..SECTIONS {
        // Types (6 per section).
        let mut tier_words = vec!["GOLD".to_string(), "SILVER".into(), "BRONZE".into()];
        let extra = rng.below(TIER_EXTRA.len() + 1);
        tier_words.extend(rng.subset(TIER_EXTRA, extra));
        let tiers = suffixed(&tier_words, s);
        let category_count = 3 + rng.below(4);
        let categories = suffixed(&rng.subset(CATEGORY_WORDS, category_count), s);
        let region_count = 2 + rng.below(4);
        let regions = suffixed(&rng.subset(REGION_WORDS, region_count), s);
        let mut channel_words = vec!["ONLINE".to_string()];
        let channel_count = 1 + rng.below(3);
        channel_words.extend(rng.subset(CHANNEL_WORDS, channel_count));
        let channels = suffixed(&channel_words, s);
        let mut decision_words = vec!["APPROVE".to_string(), "DENY".into(), "REFER".into()];
        if rng.chance(30) {
            decision_words.push("DEFER".into());
        }
        let decisions = suffixed(&decision_words, s);
        let mut priority_words = vec!["HIGH".to_string()];
        let priority_count = 1 + rng.below(3);
        priority_words.extend(rng.subset(PRIORITY_WORDS, priority_count));
        let priorities = suffixed(&priority_words, s);

        let section_name = format!("section {}", s + 1);
        b.enum_type(
            format!("Tier_{s}"),
            &format!("Membership tier ({section_name})"),
            &tiers,
        );
        b.enum_type(
            format!("Category_{s}"),
            &format!("Applicant category ({section_name})"),
            &categories,
        );
        b.enum_type(
            format!("Region_{s}"),
            &format!("Service region ({section_name})"),
            &regions,
        );
        b.enum_type(
            format!("Channel_{s}"),
            &format!("Filing channel ({section_name})"),
            &channels,
        );
        b.enum_type(
            format!("Decision_{s}"),
            &format!("Outcome of the application ({section_name})"),
            &decisions,
        );
        b.enum_type(
            format!("Priority_{s}"),
            &format!("Handling priority ({section_name})"),
            &priorities,
        );

        // Variables (20 per section): 13 inputs, 7 derived.
        let vars: [(&str, String, &str); 20] = [
            (
                "tier",
                format!("Tier_{s}"),
                "membership tier of the applicant",
            ),
            (
                "category",
                format!("Category_{s}"),
                "category the applicant falls in",
            ),
            ("region", format!("Region_{s}"), "region the service is in"),
            (
                "channel",
                format!("Channel_{s}"),
                "channel the application came through",
            ),
            (
                "isMember",
                "Bool".into(),
                "whether the applicant is a registered member",
            ),
            (
                "hasDocs",
                "Bool".into(),
                "whether the supporting documents were supplied",
            ),
            (
                "isRenewal",
                "Bool".into(),
                "whether this is a renewal of an earlier application",
            ),
            ("base", "Real".into(), "base fee in dollars"),
            ("fee", "Real".into(), "service fee in dollars"),
            ("amount", "Real".into(), "amount requested in dollars"),
            (
                "limit",
                "Real".into(),
                "payable amount in dollars above which a review is needed",
            ),
            ("count", "Int".into(), "number of items claimed"),
            ("days", "Int".into(), "number of days the service runs"),
            (
                "eligible",
                "Bool".into(),
                "whether the applicant is eligible",
            ),
            (
                "decision",
                format!("Decision_{s}"),
                "decision on the application",
            ),
            ("priority", format!("Priority_{s}"), "handling priority"),
            (
                "needsReview",
                "Bool".into(),
                "whether a supervisor must review the file",
            ),
            (
                "total",
                "Real".into(),
                "total fee in dollars before discounts",
            ),
            (
                "payable",
                "Real".into(),
                "fee in dollars the applicant pays",
            ),
            ("units", "Int".into(), "number of billable units"),
        ];
        for (name, sort, description) in vars {
            b.variable(
                format!("{name}_{s}"),
                &sort,
                format!("The {description} ({section_name})"),
            );
        }

        // Rules (15 per section).
        let count_max = rng.range(10, 100);
        let days_max = rng.range(5, 60);
        let base_max = rng.range(2, 20) * 50;
        let fee_max = rng.range(1, 10) * 20;
        let amount_min = rng.range(2, 10) * 50;
        let units_high = rng.range(10, count_max.max(11));
        let total_rate = *rng.pick(&["0.05", "0.1", "0.15", "0.2", "0.25"]);
        let renewal_rate = *rng.pick(&["0.8", "0.85", "0.9"]);
        let (gold, bronze) = (&tiers[0], &tiers[2]);
        let (approve, deny, refer) = (&decisions[0], &decisions[1], &decisions[2]);
        let online = &channels[0];
        let high = &priorities[0];
        let review_category = rng.pick(&categories).clone();

        b.rule(rng, format!("(and (>= count_{s} 0) (<= count_{s} {count_max}) (>= days_{s} 1) (<= days_{s} {days_max}))"));
        b.rule(rng, format!("(and (>= base_{s} 0.0) (<= base_{s} {base_max}.0) (>= fee_{s} 0.0) (<= fee_{s} {fee_max}.0) (>= amount_{s} 0.0) (<= amount_{s} 10000.0) (>= limit_{s} 100.0) (<= limit_{s} 5000.0))"));
        b.rule(
            rng,
            format!("(= total_{s} (+ base_{s} (* {total_rate} fee_{s})))"),
        );
        b.rule(
            rng,
            format!("(=> (and (= tier_{s} {gold}) isMember_{s}) eligible_{s})"),
        );
        b.rule(
            rng,
            format!("(=> (= tier_{s} {bronze}) (not eligible_{s}))"),
        );
        let amount_rule = b.model.rules.len();
        b.rule(
            rng,
            format!("(=> (and (= tier_{s} {gold}) hasDocs_{s}) (>= amount_{s} {amount_min}.0))"),
        );
        b.rule(
            rng,
            format!("(=> (and eligible_{s} hasDocs_{s}) (= decision_{s} {approve}))"),
        );
        b.rule(
            rng,
            format!("(=> (not eligible_{s}) (= decision_{s} {deny}))"),
        );
        b.rule(
            rng,
            format!("(=> (and eligible_{s} (not hasDocs_{s})) (= decision_{s} {refer}))"),
        );
        b.rule(
            rng,
            format!("(=> (= channel_{s} {online}) (= units_{s} (* 2 count_{s})))"),
        );
        b.rule(
            rng,
            format!("(=> (not (= channel_{s} {online})) (= units_{s} (+ count_{s} days_{s})))"),
        );
        b.rule(
            rng,
            format!("(= payable_{s} (ite isRenewal_{s} (* {renewal_rate} total_{s}) total_{s}))"),
        );
        b.rule(
            rng,
            format!("(=> (> units_{s} {units_high}) (= priority_{s} {high}))"),
        );
        b.rule(rng, format!("(= needsReview_{s} (or (= decision_{s} {refer}) (= category_{s} {review_category}) (> payable_{s} limit_{s})))"));
        // The coupling rule: constrains an input of this section from the
        // global header or a nearby earlier section (never both ways).
        let p = s.saturating_sub(1 + rng.below(5.min(s.max(1))));
        let coupled = coupling >= 100 || rng.chance(coupling);
        let coupling_rule = match if s == 0 { 0 } else { rng.below(3) } {
            0 if !coupled => {
                let r = rng.pick(&regions);
                let floor = rng.range(1, base_max / 50) * 10;
                format!("(=> (= region_{s} {r}) (>= base_{s} {floor}.0))")
            }
            0 => {
                // The global header: one shared variable for many sections.
                let j = rng.pick(&jurisdictions);
                let r = rng.pick(&regions);
                let floor = rng.range(1, base_max / 50) * 10;
                format!(
                    "(=> (and (= jurisdiction {j}) (= region_{s} {r})) (>= base_{s} {floor}.0))"
                )
            }
            1 if coupled => format!("(=> (= decision_{p} APPROVE_{p}) hasDocs_{s})"),
            1 => format!(
                "(=> (= category_{s} {}) hasDocs_{s})",
                rng.pick(&categories)
            ),
            _ if coupled => format!("(=> (and isResident eligible_{p}) isMember_{s})"),
            _ => format!("(=> (= channel_{s} {online}) isMember_{s})"),
        };
        b.rule(rng, coupling_rule);

        sections.push(Section {
            tiers,
            categories,
            regions,
            channels,
            decisions,
            priorities,
            count_max,
            days_max,
            base_max,
            fee_max,
            amount_min,
            units_high,
            amount_rule,
        });
    }
    (b.model, sections)
}

#[path = "scale_claims.rs"]
mod claims;
pub use claims::{Groups, ms, parse, quantile, random_claim};

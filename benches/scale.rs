//! Scale benchmark: a synthetic policy model the size ARC reports for a
//! 274-page document (about 600 enum types, 2,000 variables, 1,500 rules),
//! timed through load, parse, type-check, solver load, verify and rule edits.
//!
//! Run with `cargo bench --bench scale`. Plain `fn main`, no harness.
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
//!
//! When the verify median misses its target (or `SCALE_BREAKDOWN` is set),
//! the bench replays the first claims through a stand-alone replica of
//! precept's solver session with a timer on each phase, under precept's
//! protocols and under proposed changes, to show where the time goes.
//!
//! Knobs: `SCALE_CLAIMS` (default 200), `SCALE_COUPLING` (percentage of
//! sections whose coupling rule reaches outside the section; default 100).

use precept::core::model::{
    CompiledModel, EnumValue, PolicyModel, ReviewStatus, Rule, SCHEMA_VERSION, SourceSpan, TypeDef,
    Variable, compile,
};
use precept::core::smt::Expr;
use precept::core::solve::{FindingKind, SolverWorker};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const SECTIONS: usize = 100;
const CLAIMS: usize = 200;
const EDITS: usize = 20;
const SEED: u64 = 0x5EED_0274_2024_ACED;

// ---------------------------------------------------------------------------
// A tiny fixed-seed PRNG (xorshift64*).

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
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

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
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
struct Section {
    tiers: Vec<String>,
    categories: Vec<String>,
    regions: Vec<String>,
    channels: Vec<String>,
    decisions: Vec<String>,
    priorities: Vec<String>,
    count_max: u64,
    days_max: u64,
    base_max: u64,
    fee_max: u64,
    amount_min: u64,
    units_high: u64,
    /// Index of rule 6 (the amount bound) in the model's rule list.
    amount_rule: usize,
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
fn generate(rng: &mut Rng, coupling: u64) -> (PolicyModel, Vec<Section>) {
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

/// A premise atom about the inputs of section `s` (sometimes a derived value).
fn premise_atom(rng: &mut Rng, sec: &Section, s: usize, kind: usize) -> String {
    let negate = |rng: &mut Rng, atom: String| {
        if rng.chance(35) {
            format!("(not {atom})")
        } else {
            atom
        }
    };
    match kind {
        0 => format!("(= tier_{s} {})", rng.pick(&sec.tiers)),
        1 => negate(rng, format!("isMember_{s}")),
        2 => negate(rng, format!("hasDocs_{s}")),
        3 => negate(rng, format!("isRenewal_{s}")),
        4 => format!("(= channel_{s} {})", rng.pick(&sec.channels)),
        5 => format!("(= category_{s} {})", rng.pick(&sec.categories)),
        6 => format!("(>= count_{s} {})", rng.range(0, sec.count_max + 10)),
        7 => format!("(= days_{s} {})", rng.range(0, sec.days_max)),
        8 => format!("(= base_{s} {}.0)", rng.range(0, sec.base_max + 50)),
        9 => format!("(<= fee_{s} {}.0)", rng.range(0, sec.fee_max)),
        10 => format!("(= region_{s} {})", rng.pick(&sec.regions)),
        _ => format!("(= decision_{s} {})", rng.pick(&sec.decisions)),
    }
}

/// A claim about a variable the inputs of section `s` influence.
fn claim_atom(rng: &mut Rng, sec: &Section, s: usize) -> String {
    match rng.below(9) {
        0 | 1 => format!("(= decision_{s} {})", rng.pick(&sec.decisions)),
        2 => format!("eligible_{s}"),
        3 => format!("(not eligible_{s})"),
        4 => format!("(>= amount_{s} {}.0)", rng.range(1, 12) * 50),
        5 => format!("(= priority_{s} {})", rng.pick(&sec.priorities)),
        6 => format!("needsReview_{s}"),
        7 if rng.chance(50) => format!("(> units_{s} {})", sec.units_high),
        7 => format!("(>= units_{s} {})", rng.range(0, 2 * sec.count_max)),
        _ => format!("(> payable_{s} {}.0)", rng.range(0, sec.base_max + 100)),
    }
}

fn random_claim(rng: &mut Rng, sections: &[Section]) -> (String, String) {
    let s = rng.below(sections.len());
    let sec = &sections[s];
    let atoms = 1 + rng.below(3);
    let mut kinds: Vec<usize> = Vec::new();
    while kinds.len() < atoms {
        // Mostly inputs; a derived value now and then.
        let kind = if rng.chance(10) { 11 } else { rng.below(11) };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    // Tier and flags drive most rules: favour them.
    if rng.chance(60) && !kinds.contains(&0) {
        kinds[0] = 0;
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|&k| premise_atom(rng, sec, s, k))
        .collect();
    let premise = if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("(and {})", parts.join(" "))
    };
    let claim = if rng.chance(10) {
        // A random atom anywhere in the document.
        let q = rng.below(sections.len());
        claim_atom(rng, &sections[q], q)
    } else {
        claim_atom(rng, sec, s)
    };
    (premise, claim)
}

// ---------------------------------------------------------------------------
// Measurement helpers.

/// (VmRSS, VmHWM) in kB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The `q`-quantile (nearest rank) of sorted durations.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn parse(compiled: &CompiledModel, text: &str) -> Expr {
    match compiled.check_formula(text) {
        Ok((_, elaborated)) => elaborated,
        Err(e) => panic!("generated formula '{text}' does not check: {e}"),
    }
}

struct Row {
    name: String,
    actual: String,
    target: String,
    verdict: &'static str,
}

fn row(name: &str, actual: String, target: &str, pass: Option<bool>) -> Row {
    Row {
        name: name.to_string(),
        actual,
        target: target.to_string(),
        verdict: match pass {
            Some(true) => "PASS",
            Some(false) => "MISS",
            None => "info",
        },
    }
}

fn main() {
    let mut rng = Rng::new(SEED);
    let mut stages: Vec<(&str, u64)> = Vec::new();
    stages.push(("start", memory().0));

    // --- Generate --------------------------------------------------------
    let started = Instant::now();
    let coupling: u64 = std::env::var("SCALE_COUPLING")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let (model, sections) = generate(&mut rng, coupling);
    let generate_time = started.elapsed();
    stages.push(("model generated", memory().0));

    // --- 1. Load + parse + type-check -------------------------------------
    let started = Instant::now();
    let json = serde_json::to_string_pretty(&model).expect("serialize the model");
    let serialize_time = started.elapsed();
    drop(model);
    stages.push(("serialized to JSON", memory().0));

    let started = Instant::now();
    let parsed: PolicyModel = serde_json::from_str(&json).expect("parse the model JSON");
    let parse_time = started.elapsed();
    stages.push(("JSON parsed", memory().0));

    let started = Instant::now();
    let compiled = compile(&parsed);
    let compile_time = started.elapsed();
    stages.push(("compiled", memory().0));
    assert!(
        compiled.issues.is_empty(),
        "the generated model has issues: {:?}",
        compiled
            .issues
            .iter()
            .take(5)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    let load_total = parse_time + compile_time;

    // --- 2. Solver load -----------------------------------------------------
    let to_load = compiled.clone();
    let started = Instant::now();
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    let spawn_time = started.elapsed();
    worker
        .load(to_load)
        .expect("load the model into the solver");
    let solver_load_time = started.elapsed();
    stages.push(("solver loaded", memory().0));

    // Consistency: with premise `true` the model must be satisfiable.
    let started = Instant::now();
    let consistency = worker.verify(parse(&compiled, "true"), parse(&compiled, "true"));
    let consistency_time = started.elapsed();
    assert!(
        !matches!(
            consistency.kind,
            FindingKind::Impossible | FindingKind::TooComplex
        ),
        "the generated policy is not consistent: {consistency:?}"
    );

    // --- 3. Verify latency --------------------------------------------------
    let claim_count: usize = std::env::var("SCALE_CLAIMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CLAIMS);
    let mut latencies = Vec::with_capacity(claim_count);
    let mut check_times = Vec::with_capacity(claim_count);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut slowest: Vec<(Duration, String, String, FindingKind, usize)> = Vec::new();
    let mut claims: Vec<(String, String, FindingKind)> = Vec::new();
    for _ in 0..claim_count {
        let (premise_text, claim_text) = random_claim(&mut rng, &sections);
        let started = Instant::now();
        let premise = parse(&compiled, &premise_text);
        let claim = parse(&compiled, &claim_text);
        check_times.push(started.elapsed());
        let started = Instant::now();
        let finding = worker.verify(premise, claim);
        let elapsed = started.elapsed();
        latencies.push(elapsed);
        *kinds.entry(finding.kind.name()).or_default() += 1;
        claims.push((premise_text.clone(), claim_text.clone(), finding.kind));
        slowest.push((
            elapsed,
            premise_text,
            claim_text,
            finding.kind,
            finding.rules().len(),
        ));
    }
    stages.push(("claims verified", memory().0));
    let mut sorted = latencies.clone();
    sorted.sort_unstable();
    let verify_median = quantile(&sorted, 0.5);
    let verify_p95 = quantile(&sorted, 0.95);
    let verify_max = *sorted.last().unwrap();
    check_times.sort_unstable();
    assert!(
        kinds.len() > 1,
        "every claim got the same finding: {kinds:?}"
    );

    // --- 5. Edit one rule -----------------------------------------------------
    let mut edit_latencies = Vec::with_capacity(EDITS);
    let mut baseline_latencies = Vec::with_capacity(EDITS);
    for _ in 0..EDITS {
        let s = rng.below(sections.len());
        let sec = &sections[s];
        let id = format!("R{}", sec.amount_rule + 1);
        let threshold = rng.range(2, 10) * 50;
        let new_rule = parse(
            &compiled,
            &format!(
                "(=> (and (= tier_{s} {}) hasDocs_{s}) (>= amount_{s} {threshold}.0))",
                sec.tiers[0]
            ),
        );
        let premise_text = format!("(and (= tier_{s} {}) hasDocs_{s})", sec.tiers[0]);
        let claim_text = format!("(>= amount_{s} {}.0)", sec.amount_min.max(threshold));
        // The same verify without an edit, for comparison.
        let started = Instant::now();
        worker.verify(
            parse(&compiled, &premise_text),
            parse(&compiled, &claim_text),
        );
        baseline_latencies.push(started.elapsed());
        let (premise, claim) = (
            parse(&compiled, &premise_text),
            parse(&compiled, &claim_text),
        );
        let started = Instant::now();
        worker.replace_rule(&id, Some(new_rule));
        let finding = worker.verify(premise, claim);
        edit_latencies.push(started.elapsed());
        assert!(
            !matches!(
                finding.kind,
                FindingKind::Impossible | FindingKind::TooComplex
            ),
            "edit {id} broke the model: {finding:?}"
        );
    }
    stages.push(("20 edits", memory().0));
    edit_latencies.sort_unstable();
    baseline_latencies.sort_unstable();
    let edit_median = quantile(&edit_latencies, 0.5);
    let baseline_median = quantile(&baseline_latencies, 0.5);

    // The first claims again, now that the edits made the worker re-derive
    // what it caches about the model (on a warm solver).
    let mut again: Vec<Duration> = claims
        .iter()
        .take(40)
        .map(|(premise, claim, _)| {
            let (p, c) = (parse(&compiled, premise), parse(&compiled, claim));
            let started = Instant::now();
            worker.verify(p, c);
            started.elapsed()
        })
        .collect();
    again.sort_unstable();
    let again_median = quantile(&again, 0.5);

    // --- 4. Peak memory ---------------------------------------------------------
    let (_, hwm_kb) = memory();
    drop(worker);

    // --- Report -----------------------------------------------------------------
    let enum_values: usize = compiled.enums.iter().map(|(_, v)| v.len()).sum();
    println!();
    println!("Precept scale benchmark (seed {SEED:#x}, cross-section coupling {coupling}%)");
    println!(
        "model: {} enum types ({} values), {} variables, {} rules; JSON {:.1} KiB",
        compiled.enums.len(),
        enum_values,
        compiled.variables.len(),
        compiled.rules.len(),
        json.len() as f64 / 1024.0
    );
    let (groups, largest) = Groups::build(&compiled).sizes();
    println!(
        "rules sharing variables form {groups} group(s), the largest with {largest} rules (sections are coupled through shared variables)"
    );
    println!(
        "generate {:.1} ms, serialize {:.1} ms, solver thread spawn {:.2} ms, consistency check (true/true) {:.1} ms -> {}",
        ms(generate_time),
        ms(serialize_time),
        ms(spawn_time),
        ms(consistency_time),
        consistency.kind.name()
    );
    println!();

    let hwm_mb = hwm_kb as f64 / 1024.0;
    let rows = vec![
        row(
            "1a JSON parse (serde_json)",
            format!("{:.1} ms", ms(parse_time)),
            "",
            None,
        ),
        row(
            "1b compile (parse + type-check)",
            format!("{:.1} ms", ms(compile_time)),
            "",
            None,
        ),
        row(
            "1  load + parse + type-check",
            format!("{:.1} ms", ms(load_total)),
            "<= 1000 ms",
            Some(load_total <= Duration::from_secs(1)),
        ),
        row(
            "2  solver load (spawn + load)",
            format!("{:.1} ms", ms(solver_load_time)),
            "",
            None,
        ),
        row(
            &format!("3  verify median ({claim_count} claims)"),
            format!("{:.1} ms", ms(verify_median)),
            "<= 50 ms",
            Some(verify_median <= Duration::from_millis(50)),
        ),
        row(
            "3  verify p95",
            format!("{:.1} ms", ms(verify_p95)),
            "",
            None,
        ),
        row(
            "3  verify max",
            format!("{:.1} ms", ms(verify_max)),
            "",
            None,
        ),
        row(
            "3  premise+claim check_formula median",
            format!("{:.3} ms", ms(quantile(&check_times, 0.5))),
            "",
            None,
        ),
        row(
            "4  peak memory (VmHWM)",
            format!("{hwm_mb:.1} MB"),
            "<= 300 MB",
            Some(hwm_mb <= 300.0),
        ),
        row(
            &format!("3  verify median, first {} again after 5", again.len()),
            format!("{:.1} ms", ms(again_median)),
            "<= 50 ms",
            Some(again_median <= Duration::from_millis(50)),
        ),
        row(
            "5  edit one rule + verify median (20)",
            format!("{:.1} ms", ms(edit_median)),
            "",
            None,
        ),
        row(
            "5  same verify without edit, median",
            format!("{:.1} ms", ms(baseline_median)),
            "",
            None,
        ),
    ];
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
    println!(
        "{:<width$}  {:>12}  {:>10}  result",
        "measurement", "actual", "target"
    );
    println!("{}", "-".repeat(width + 36));
    for r in &rows {
        println!(
            "{:<width$}  {:>12}  {:>10}  {}",
            r.name, r.actual, r.target, r.verdict
        );
    }
    println!();
    println!(
        "edits use worker.replace_rule (one guarded assertion swapped); the model is not reloaded."
    );
    println!();

    let summary: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!("findings over {claim_count} claims: {}", summary.join(", "));
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    println!("slowest verifies:");
    for (elapsed, premise, claim, kind, rules) in slowest.iter().take(3) {
        println!(
            "  {:>8.1} ms  {:<12} ({rules} rules)  P: {premise}  C: {claim}",
            ms(*elapsed),
            kind.name()
        );
    }
    println!("resident memory (VmRSS) by stage:");
    for (stage, rss) in &stages {
        println!("  {:<22} {:>8.1} MB", stage, *rss as f64 / 1024.0);
    }
    println!("  {:<22} {:>8.1} MB", "peak (VmHWM)", hwm_mb);

    if verify_median > Duration::from_millis(50) || std::env::var_os("SCALE_BREAKDOWN").is_some() {
        breakdown(&compiled, &claims);
    }
}

/// Rules grouped by shared variables (transitively), as precept's cones.
struct Groups {
    rule_group: Vec<usize>,
    variable_group: std::collections::HashMap<String, usize>,
}

impl Groups {
    fn build(compiled: &CompiledModel) -> Groups {
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut parent: Vec<usize> = (0..compiled.rules.len()).collect();
        let mut first_rule: std::collections::HashMap<&str, usize> = Default::default();
        for (r, rule) in compiled.rules.iter().enumerate() {
            for name in rule.formula.symbols() {
                if compiled.vocabulary.variable_sort(name).is_none() {
                    continue;
                }
                match first_rule.get(name) {
                    Some(&other) => {
                        let (a, b) = (find(&mut parent, r), find(&mut parent, other));
                        parent[a] = b;
                    }
                    None => {
                        first_rule.insert(name, r);
                    }
                }
            }
        }
        let rule_group: Vec<usize> = (0..parent.len()).map(|r| find(&mut parent, r)).collect();
        let variable_group = first_rule
            .into_iter()
            .map(|(v, r)| (v.to_string(), rule_group[r]))
            .collect();
        Groups {
            rule_group,
            variable_group,
        }
    }

    /// (groups, rules in the largest).
    fn sizes(&self) -> (usize, usize) {
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for &g in &self.rule_group {
            *sizes.entry(g).or_default() += 1;
        }
        (sizes.len(), sizes.values().copied().max().unwrap_or(0))
    }

    /// The rules of the groups the expressions' variables belong to.
    fn cone(&self, exprs: &[&Expr]) -> Vec<usize> {
        let groups: std::collections::HashSet<usize> = exprs
            .iter()
            .flat_map(|e| e.symbols())
            .filter_map(|name| self.variable_group.get(name).copied())
            .collect();
        (0..self.rule_group.len())
            .filter(|&r| groups.contains(&self.rule_group[r]))
            .collect()
    }
}

/// Replays the first claims through the replica session with phase timers,
/// under precept's protocols and proposed changes.
fn breakdown(compiled: &CompiledModel, claims: &[(String, String, FindingKind)]) {
    use replica::Protocol;
    const REPLAYED: usize = 40;
    let replayed = claims.len().min(REPLAYED);
    let groups = Groups::build(compiled);
    let mut session = replica::Session::load(compiled);
    // What precept's cached consistency check costs on a freshly loaded
    // solver (it gets AUXILIARY_CHECK_BUDGET, 300 ms, or gives up).
    let cold_consistency = session.check_all();
    let mut cone_sizes = Vec::new();
    let mut runs = Vec::new();
    let mut preparation = Duration::ZERO;
    let protocols = [
        Protocol::PushPop,
        Protocol::Scratch,
        Protocol::NoPop,
        Protocol::Proposed,
    ];
    for protocol in protocols {
        if protocol == Protocol::Proposed {
            preparation = session.prepare_preferences();
        }
        let mut t = replica::Phases::default();
        let mut agree = 0;
        for (premise, claim, kind) in claims.iter().take(replayed) {
            let (p, c) = (parse(compiled, premise), parse(compiled, claim));
            let cone = groups.cone(&[&p, &c]);
            let cone_variables: std::collections::HashSet<String> = cone
                .iter()
                .flat_map(|&r| compiled.rules[r].formula.symbols())
                .chain(p.symbols())
                .chain(c.symbols())
                .filter(|name| compiled.vocabulary.variable_sort(name).is_some())
                .map(str::to_string)
                .collect();
            if protocol == Protocol::PushPop {
                cone_sizes.push(cone.len());
            }
            let found = session.verify(&p, &c, &cone, &cone_variables, protocol, &mut t);
            agree += usize::from(found == kind.name());
        }
        t.each.sort_unstable();
        runs.push((t, agree));
    }
    cone_sizes.sort_unstable();
    let n = replayed as f64;
    println!();
    println!(
        "where a verify spends its time: a replica of precept's solver session (same Z3 encoding, guards and"
    );
    println!(
        "checks), {replayed} claims; ms per verify, with checks per verify x ms per check. The question's cone"
    );
    println!(
        "(rules of the variable groups it touches) has median {} rules. The first check of all rules on a",
        cone_sizes[cone_sizes.len() / 2]
    );
    println!(
        "freshly loaded solver (precept's cached consistency check, budget 300 ms) took {:.1} ms.",
        ms(cold_consistency)
    );
    println!("  A: commit 73df416 (push/pop per verify, all rules)");
    println!(
        "  B: b19cd40, current (fresh solver per verify with the cone's rules; scenarios over the cone)"
    );
    println!("  C: A without push/pop (guards kept at base level)");
    println!(
        "  D: C + warnings on P, C alone + M∧P only if needed + prefer-zero once + get_const_interp"
    );
    println!(
        "     (D's one-off preparation at load: {:.1} ms)",
        ms(preparation)
    );
    let w = 24;
    println!(
        "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
        "phase (per verify)", "A", "B", "C", "D"
    );
    type Pick = fn(&replica::Phases) -> (Duration, usize);
    let phases: [(&str, Pick); 7] = [
        ("set-up: solver, guards", |t| (t.setup, 0)),
        ("logic warnings (4 checks)", |t| (t.warnings, 0)),
        ("main checks M∧P(∧C|¬C)", |t| (t.main, t.main_checks)),
        ("preferred-scenario checks", |t| {
            (t.preference, t.preference_checks)
        }),
        ("scenario: get_model + values", |t| (t.scenario, 0)),
        ("core minimization checks", |t| {
            (t.minimize, t.minimize_checks)
        }),
        ("pop / drop scratch solver", |t| (t.pop, 0)),
    ];
    let cell = |total: Duration, checks: usize| {
        if checks == 0 {
            format!("{:.1}", ms(total) / n)
        } else {
            format!(
                "{:.1} ({:.1} x {:.1})",
                ms(total) / n,
                checks as f64 / n,
                ms(total) / checks as f64
            )
        }
    };
    for (name, pick) in phases {
        let cells: Vec<String> = runs
            .iter()
            .map(|(t, _)| {
                let (total, checks) = pick(t);
                cell(total, checks)
            })
            .collect();
        println!(
            "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
            name, cells[0], cells[1], cells[2], cells[3]
        );
    }
    for (label, q) in [("mean", None), ("median", Some(0.5)), ("p95", Some(0.95))] {
        let cells: Vec<String> = runs
            .iter()
            .map(|(t, _)| {
                let value = match q {
                    None => ms(t.total) / n,
                    Some(q) => ms(quantile(&t.each, q)),
                };
                format!("{value:.1}")
            })
            .collect();
        println!(
            "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
            format!("total, {label}"),
            cells[0],
            cells[1],
            cells[2],
            cells[3]
        );
    }
    let agree: Vec<String> = runs
        .iter()
        .map(|(_, a)| format!("{a}/{replayed}"))
        .collect();
    println!(
        "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
        "same finding as the worker", agree[0], agree[1], agree[2], agree[3]
    );
}

// ---------------------------------------------------------------------------
// Breakdown: a stand-alone replica of precept's solver session (same Z3
// encoding, same guard literals, same sequence of checks) with a timer on
// each phase, to show where a verify spends its time.

mod replica {
    use precept::core::model::CompiledModel;
    use precept::core::smt::{Expr, ExprKind, Op, Sort};
    use std::collections::{HashMap, HashSet};
    use std::time::{Duration, Instant};
    use z3::ast::{Ast, Bool, Dynamic, Int, Real};
    use z3::{SatResult, Solver};

    pub struct Vocab {
        values: HashMap<String, Dynamic>,
        variables: HashMap<String, Dynamic>,
        order: Vec<(String, Sort)>,
    }

    impl Vocab {
        pub fn new(model: &CompiledModel) -> Vocab {
            let mut sorts = HashMap::new();
            let mut values = HashMap::new();
            for (name, names) in &model.enums {
                let symbols: Vec<z3::Symbol> = names
                    .iter()
                    .map(|v| z3::Symbol::String(v.clone()))
                    .collect();
                let (sort, constants, _) =
                    z3::Sort::enumeration(z3::Symbol::String(name.clone()), &symbols);
                for (value, constant) in names.iter().zip(constants) {
                    values.insert(value.clone(), constant.apply(&[]));
                }
                sorts.insert(name.clone(), sort);
            }
            let mut variables = HashMap::new();
            for (name, sort) in &model.variables {
                let constant = match sort {
                    Sort::Bool => Dynamic::from_ast(&Bool::new_const(name.as_str())),
                    Sort::Int => Dynamic::from_ast(&Int::new_const(name.as_str())),
                    Sort::Real => Dynamic::from_ast(&Real::new_const(name.as_str())),
                    Sort::Enum(t) => Dynamic::new_const(name.as_str(), &sorts[t]),
                };
                variables.insert(name.clone(), constant);
            }
            Vocab {
                values,
                variables,
                order: model.variables.clone(),
            }
        }

        pub fn formula(&self, expr: &Expr) -> Bool {
            self.term(expr).as_bool().expect("a Bool formula")
        }

        fn term(&self, expr: &Expr) -> Dynamic {
            match &expr.kind {
                ExprKind::Bool(b) => Dynamic::from_ast(&Bool::from_bool(*b)),
                ExprKind::Int(i) => {
                    Dynamic::from_ast(&Int::from_i64(i.to_string().parse().expect("small Int")))
                }
                ExprKind::Decimal(r) => Dynamic::from_ast(
                    &Real::from_rational_str(&r.numer().to_string(), &r.denom().to_string())
                        .expect("a rational"),
                ),
                ExprKind::Symbol(name) => self
                    .variables
                    .get(name)
                    .or_else(|| self.values.get(name))
                    .cloned()
                    .expect("a declared name"),
                ExprKind::App(op, args) => {
                    let args: Vec<Dynamic> = args.iter().map(|a| self.term(a)).collect();
                    apply(*op, &args)
                }
            }
        }

        /// The Int variables (in `scope`, if given), in declaration order.
        fn int_variables<'a>(
            &'a self,
            scope: Option<&'a HashSet<String>>,
        ) -> impl Iterator<Item = Int> + 'a {
            self.order
                .iter()
                .filter(|(_, sort)| *sort == Sort::Int)
                .filter(move |(name, _)| scope.is_none_or(|s| s.contains(name)))
                .filter_map(|(name, _)| self.variables.get(name)?.as_int())
        }

        /// What `Z3Vocabulary::scenario` does: evaluate and print every
        /// variable in `scope` (`fast_read`: the model's own value where it
        /// has one).
        fn scenario(
            &self,
            model: &z3::Model,
            scope: Option<&HashSet<String>>,
            fast_read: bool,
        ) -> usize {
            self.order
                .iter()
                .filter(|(name, _)| scope.is_none_or(|s| s.contains(name)))
                .filter_map(|(name, _)| {
                    let constant = &self.variables[name];
                    let value = if fast_read {
                        model.get_const_interp(constant)
                    } else {
                        None
                    };
                    value.or_else(|| model.eval(constant, true))
                })
                .map(|value| value.to_string().len())
                .sum()
        }
    }

    fn bools(args: &[Dynamic]) -> Vec<Bool> {
        args.iter().map(|a| a.as_bool().expect("Bool")).collect()
    }

    fn compare(op: Op, a: &Dynamic, b: &Dynamic) -> Bool {
        if let (Some(a), Some(b)) = (a.as_int(), b.as_int()) {
            return match op {
                Op::Lt => a.lt(&b),
                Op::Le => a.le(&b),
                Op::Gt => a.gt(&b),
                _ => a.ge(&b),
            };
        }
        let (a, b) = (a.as_real().expect("Real"), b.as_real().expect("Real"));
        match op {
            Op::Lt => a.lt(&b),
            Op::Le => a.le(&b),
            Op::Gt => a.gt(&b),
            _ => a.ge(&b),
        }
    }

    fn chain(args: &[Dynamic], relation: impl Fn(&Dynamic, &Dynamic) -> Bool) -> Dynamic {
        let links: Vec<Bool> = args.windows(2).map(|w| relation(&w[0], &w[1])).collect();
        Dynamic::from_ast(&Bool::and(&links))
    }

    fn apply(op: Op, args: &[Dynamic]) -> Dynamic {
        match op {
            Op::And => Dynamic::from_ast(&Bool::and(&bools(args))),
            Op::Or => Dynamic::from_ast(&Bool::or(&bools(args))),
            Op::Not => Dynamic::from_ast(&bools(args)[0].not()),
            Op::Implies => {
                let parts = bools(args);
                let (last, init) = parts.split_last().expect("=> arguments");
                Dynamic::from_ast(
                    &init
                        .iter()
                        .rev()
                        .fold(last.clone(), |acc, premise| premise.implies(&acc)),
                )
            }
            Op::Eq => chain(args, |a, b| a.safe_eq(b.clone()).expect("one sort")),
            Op::Distinct => Dynamic::from_ast(&Dynamic::distinct(args)),
            Op::Ite => args[0]
                .as_bool()
                .expect("Bool condition")
                .ite(&args[1], &args[2]),
            Op::Lt | Op::Le | Op::Gt | Op::Ge => chain(args, |a, b| compare(op, a, b)),
            Op::Add | Op::Sub | Op::Mul => {
                if let Some(ints) = args.iter().map(Dynamic::as_int).collect::<Option<Vec<_>>>() {
                    Dynamic::from_ast(&match (op, ints.len()) {
                        (Op::Sub, 1) => ints[0].unary_minus(),
                        (Op::Add, _) => Int::add(&ints),
                        (Op::Sub, _) => Int::sub(&ints),
                        _ => Int::mul(&ints),
                    })
                } else {
                    let reals: Vec<Real> =
                        args.iter().map(|a| a.as_real().expect("Real")).collect();
                    Dynamic::from_ast(&match (op, reals.len()) {
                        (Op::Sub, 1) => reals[0].unary_minus(),
                        (Op::Add, _) => Real::add(&reals),
                        (Op::Sub, _) => Real::sub(&reals),
                        _ => Real::mul(&reals),
                    })
                }
            }
            Op::Div => {
                let reals: Vec<Real> = args.iter().map(|a| a.as_real().expect("Real")).collect();
                let (first, rest) = reals.split_first().expect("/ arguments");
                Dynamic::from_ast(&rest.iter().fold(first.clone(), |acc, d| acc.div(d)))
            }
            Op::ToReal => Dynamic::from_ast(&args[0].as_int().expect("Int").to_real()),
            Op::ToInt => Dynamic::from_ast(&args[0].as_real().expect("Real").to_int()),
        }
    }

    /// Phase timers, summed over requests.
    #[derive(Default)]
    pub struct Phases {
        pub setup: Duration,
        pub warnings: Duration,
        pub main: Duration,
        pub main_checks: usize,
        pub preference: Duration,
        pub preference_checks: usize,
        pub scenario: Duration,
        pub scenarios: usize,
        pub minimize: Duration,
        pub minimize_checks: usize,
        pub pop: Duration,
        pub total: Duration,
        pub each: Vec<Duration>,
    }

    /// How a request uses the solver.
    #[derive(Clone, Copy, PartialEq)]
    pub enum Protocol {
        /// precept at commit 73df416: push, guards, every rule assumed,
        /// warnings with every rule switched off, pop.
        PushPop,
        /// precept since b19cd40: a fresh solver per request holding the
        /// rules of the question's variable groups (its cone); preferences
        /// and scenarios limited to the cone's variables.
        Scratch,
        /// PushPop without the push and pop: the guards stay asserted at
        /// base level (inert unless assumed); everything else unchanged.
        NoPop,
        /// NoPop plus: warnings in a solver holding only P and C; M ∧ P
        /// checked only when M ∧ P ∧ C and M ∧ P ∧ ¬C are both unsat;
        /// prefer-zero guards made once at load, minus those the rules
        /// alone refute, and assumed in those two checks directly;
        /// scenario values read with get_const_interp.
        Proposed,
    }

    pub struct Session {
        solver: Solver,
        vocab: Vocab,
        formulas: Vec<Bool>,
        literals: Vec<Bool>,
        off: Vec<Bool>,
        owner: HashMap<String, usize>,
        preferences: Vec<Bool>,
    }

    impl Session {
        pub fn load(model: &CompiledModel) -> Session {
            let solver = Solver::new();
            let vocab = Vocab::new(model);
            let mut literals = Vec::new();
            let mut formulas = Vec::new();
            let mut owner = HashMap::new();
            for rule in &model.rules {
                let literal = Bool::fresh_const("rule");
                let formula = vocab.formula(&rule.formula);
                solver.assert(literal.implies(&formula));
                owner.insert(literal.to_string(), literals.len());
                literals.push(literal);
                formulas.push(formula);
            }
            let off = literals.iter().map(Bool::not).collect();
            Session {
                solver,
                vocab,
                formulas,
                literals,
                off,
                owner,
                preferences: Vec::new(),
            }
        }

        /// One check with every rule assumed.
        pub fn check_all(&self) -> Duration {
            let started = Instant::now();
            self.solver.check_assumptions(&self.literals);
            started.elapsed()
        }

        /// Proposed: prefer-zero guards made once, keeping those the rules
        /// alone allow (a few cores dropped, as per request today).
        pub fn prepare_preferences(&mut self) -> Duration {
            let started = Instant::now();
            let mut active: Vec<Bool> = self
                .vocab
                .int_variables(None)
                .take(64)
                .map(|v| {
                    let literal = Bool::fresh_const("prefer_zero");
                    self.solver.assert(literal.implies(v.eq(Int::from_i64(0))));
                    literal
                })
                .collect();
            for _ in 0..64 {
                let mut all = self.literals.clone();
                all.extend(active.iter().cloned());
                if self.solver.check_assumptions(&all) != SatResult::Unsat {
                    break;
                }
                let core: Vec<String> = self
                    .solver
                    .get_unsat_core()
                    .iter()
                    .map(|l| l.to_string())
                    .collect();
                active.retain(|l| !core.contains(&l.to_string()));
            }
            self.preferences = active;
            started.elapsed()
        }

        fn timed(
            solver: &Solver,
            assumptions: &[Bool],
            clock: &mut Duration,
            count: &mut usize,
        ) -> SatResult {
            let started = Instant::now();
            let result = solver.check_assumptions(assumptions);
            *clock += started.elapsed();
            *count += 1;
            result
        }

        fn core(&self, solver: &Solver) -> Vec<usize> {
            let mut core: Vec<usize> = solver
                .get_unsat_core()
                .iter()
                .filter_map(|l| self.owner.get(&l.to_string()).copied())
                .collect();
            core.sort_unstable();
            core.dedup();
            core
        }

        /// Deletion-based, each check with the candidate rules on and the
        /// dropped one (at 73df416: every other rule too) switched off.
        fn minimize(
            &self,
            solver: &Solver,
            mut core: Vec<usize>,
            fixed: &[Bool],
            all_off: bool,
            t: &mut Phases,
        ) {
            let mut i = 0;
            while i < core.len() {
                let candidate: Vec<usize> = core
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &r)| r)
                    .collect();
                let mut assumptions = fixed.to_vec();
                assumptions.extend(candidate.iter().map(|&r| self.literals[r].clone()));
                if all_off {
                    let mut on = vec![false; self.literals.len()];
                    for &r in &candidate {
                        on[r] = true;
                    }
                    assumptions.extend(
                        (0..on.len())
                            .filter(|&r| !on[r])
                            .map(|r| self.off[r].clone()),
                    );
                } else {
                    assumptions.push(self.off[core[i]].clone());
                }
                match Self::timed(
                    solver,
                    &assumptions,
                    &mut t.minimize,
                    &mut t.minimize_checks,
                ) {
                    SatResult::Unsat => {
                        let smaller = self.core(solver);
                        core = candidate
                            .into_iter()
                            .filter(|r| smaller.contains(r))
                            .collect();
                    }
                    _ => i += 1,
                }
            }
        }

        /// Preference rounds, then every variable's value read and printed.
        fn scenario(
            &self,
            solver: &Solver,
            assumptions: &[Bool],
            preferences: &[Bool],
            scope: Option<&HashSet<String>>,
            fast_read: bool,
            t: &mut Phases,
        ) {
            let mut active = preferences.to_vec();
            let mut found = false;
            for _ in 0..4 {
                if active.is_empty() {
                    break;
                }
                let mut all = assumptions.to_vec();
                all.extend(active.iter().cloned());
                match Self::timed(solver, &all, &mut t.preference, &mut t.preference_checks) {
                    SatResult::Sat => {
                        found = true;
                        break;
                    }
                    SatResult::Unsat => {
                        let core: Vec<String> = solver
                            .get_unsat_core()
                            .iter()
                            .map(|l| l.to_string())
                            .collect();
                        let before = active.len();
                        active.retain(|l| !core.contains(&l.to_string()));
                        if active.len() == before {
                            break;
                        }
                    }
                    SatResult::Unknown => break,
                }
            }
            if !found {
                Self::timed(
                    solver,
                    assumptions,
                    &mut t.preference,
                    &mut t.preference_checks,
                );
            }
            let started = Instant::now();
            if let Some(model) = solver.get_model() {
                self.vocab.scenario(&model, scope, fast_read);
            }
            t.scenario += started.elapsed();
            t.scenarios += 1;
        }

        /// One verify under `protocol`; `cone` lists the rules of the
        /// question's variable groups. Returns the finding name.
        pub fn verify(
            &self,
            premise: &Expr,
            claim: &Expr,
            cone: &[usize],
            cone_variables: &HashSet<String>,
            protocol: Protocol,
            t: &mut Phases,
        ) -> &'static str {
            use Protocol::*;
            let begin = Instant::now();
            // Only the working tree limits preferences and scenarios to the cone.
            let scope = (protocol == Scratch).then_some(cone_variables);
            if protocol == PushPop {
                self.solver.push();
            }
            let scratch = (protocol == Scratch).then(|| {
                let scratch = Solver::new();
                for &r in cone {
                    scratch.assert(self.literals[r].implies(&self.formulas[r]));
                }
                scratch
            });
            let solver = scratch.as_ref().unwrap_or(&self.solver);
            let rules: Vec<usize> = match protocol {
                Scratch => cone.to_vec(),
                _ => (0..self.literals.len()).collect(),
            };
            let p = self.vocab.formula(premise);
            let c = self.vocab.formula(claim);
            let guard = |solver: &Solver, name: &str, formula: &Bool| {
                let literal = Bool::fresh_const(name);
                solver.assert(literal.implies(formula));
                literal
            };
            let (ph, ch, cf) = (
                guard(solver, "premise", &p),
                guard(solver, "claim", &c),
                guard(solver, "not_claim", &c.not()),
            );
            let preferences: Vec<Bool> = if protocol == Proposed {
                self.preferences.clone()
            } else {
                self.vocab
                    .int_variables(scope)
                    .take(64)
                    .map(|v| guard(solver, "prefer_zero", &v.eq(Int::from_i64(0))))
                    .collect()
            };
            t.setup += begin.elapsed();

            let started = Instant::now();
            if protocol == Proposed {
                let alone = Solver::new();
                for formula in [p.not(), p.clone(), c.not(), c.clone()] {
                    let literal = guard(&alone, "alone", &formula);
                    alone.check_assumptions(&[literal]);
                }
            } else {
                let pf = guard(solver, "not_premise", &p.not());
                for literal in [&pf, &ph, &cf, &ch] {
                    let mut assumptions = if protocol == Scratch {
                        Vec::new()
                    } else {
                        self.off.clone()
                    };
                    assumptions.push(literal.clone());
                    solver.check_assumptions(&assumptions);
                }
            }
            t.warnings += started.elapsed();

            let with = |extra: &[&Bool]| {
                let mut all: Vec<Bool> = rules.iter().map(|&r| self.literals[r].clone()).collect();
                all.extend(extra.iter().map(|b| (*b).clone()));
                all
            };
            let all_off = protocol == PushPop || protocol == NoPop;
            let impossible = |t: &mut Phases| {
                let core = self.core(solver);
                self.minimize(solver, core, std::slice::from_ref(&ph), all_off, t);
                if protocol != Proposed {
                    Self::timed(
                        solver,
                        &self.literals,
                        &mut t.minimize,
                        &mut t.minimize_checks,
                    );
                }
                "IMPOSSIBLE"
            };
            let mut kind = "SATISFIABLE";
            let skip_first = protocol == Proposed;
            if !skip_first
                && Self::timed(solver, &with(&[&ph]), &mut t.main, &mut t.main_checks)
                    == SatResult::Unsat
            {
                kind = impossible(t);
            } else {
                let mut unsat = Vec::new();
                for (literal, name) in [(&cf, "VALID"), (&ch, "INVALID")] {
                    let assumptions = with(&[&ph, literal]);
                    if protocol == Proposed {
                        // The preferences ride along: a sat answer is the
                        // preferred scenario at once.
                        let mut all = assumptions.clone();
                        all.extend(preferences.iter().cloned());
                        match Self::timed(solver, &all, &mut t.main, &mut t.main_checks) {
                            SatResult::Sat => {
                                let started = Instant::now();
                                if let Some(model) = solver.get_model() {
                                    self.vocab.scenario(&model, None, true);
                                }
                                t.scenario += started.elapsed();
                                t.scenarios += 1;
                                continue;
                            }
                            _ => {
                                let core = solver.get_unsat_core();
                                let blames_preferences = core
                                    .iter()
                                    .any(|l| l.to_string().starts_with("prefer_zero"));
                                if !blames_preferences {
                                    unsat.push((self.core(solver), literal, name));
                                    continue;
                                }
                            }
                        }
                    }
                    match Self::timed(solver, &assumptions, &mut t.main, &mut t.main_checks) {
                        SatResult::Unsat => unsat.push((self.core(solver), literal, name)),
                        _ => {
                            self.scenario(solver, &assumptions, &preferences, scope, skip_first, t)
                        }
                    }
                }
                if unsat.len() == 2
                    && Self::timed(solver, &with(&[&ph]), &mut t.main, &mut t.main_checks)
                        == SatResult::Unsat
                {
                    kind = impossible(t);
                } else {
                    for (core, literal, name) in unsat {
                        self.minimize(solver, core, &[ph.clone(), literal.clone()], all_off, t);
                        kind = name;
                    }
                }
            }
            let started = Instant::now();
            if protocol == PushPop {
                self.solver.pop(1);
            }
            drop(scratch);
            t.pop += started.elapsed();
            let elapsed = begin.elapsed();
            t.total += elapsed;
            t.each.push(elapsed);
            kind
        }
    }
}

//! Variable clustering and unification (ARC §3.1.1): a labelled set of
//! same-meaning / different-meaning variable pairs evaluated with the offline
//! lexical embedder, plus the structural guarantees of `cluster_variables`
//! and `unify`.

use std::collections::HashMap;
use std::time::Instant;

use precept::core::formalize::cluster::{
    Cluster, DEFAULT_THRESHOLD, VariableCandidate, cluster_names, cluster_variables, unify,
};
use precept::core::formalize::embed::{Embedder, LexicalEmbedder, cosine, variable_text};

/// (name, sort, description) of one variable.
type Var = (&'static str, &'static str, &'static str);

/// Labelled pairs: `true` = the two variables mean the same thing and should
/// be unified. Written by hand from the sample models (fees, discounts,
/// refunds, eligibility, ages, income) and ConditionalQA topics (benefits,
/// loans, visas, taxes, pay and leave), including hard cases: paraphrases
/// with different words, shared words with different meaning, and the same
/// concept with a different sort.
#[rustfmt::skip]
const PAIRS: &[(Var, Var, bool)] = &[
    // ---- same meaning, lexically close ----
    (("applicantAge", "Int", "Applicant's age in completed years"), ("ageOfApplicant", "Int", "The age of the applicant in years"), true),
    (("householdIncome", "Real", "Annual household income in dollars"), ("annualHouseholdIncome", "Real", "Total yearly income of the household in dollars"), true),
    (("refundAmount", "Real", "Refund in dollars paid to the passenger"), ("passengerRefund", "Real", "Amount of the refund paid to the passenger"), true),
    (("adminFee", "Real", "Administration fee in dollars for the ticket's fare type"), ("administrationFee", "Real", "The administration fee charged for the fare type"), true),
    (("isRefundEligible", "Bool", "Whether the passenger is entitled to a refund of the fare"), ("refundEligible", "Bool", "Whether the passenger is eligible for a refund"), true),
    (("delayHours", "Real", "Delay of the flight in hours"), ("flightDelayHours", "Real", "How many hours the flight was delayed"), true),
    (("numChildren", "Int", "Number of children under 16 in the household"), ("childrenCount", "Int", "Count of children under 16 living in the household"), true),
    (("savings", "Real", "Household savings in dollars"), ("householdSavings", "Real", "Total savings of the household in dollars"), true),
    (("incomeLimit", "Real", "Income limit in dollars for the household"), ("householdIncomeLimit", "Real", "Maximum household income allowed, in dollars"), true),
    (("discountRate", "Real", "Discount rate granted on the admission fee, as a fraction"), ("admissionDiscountRate", "Real", "Fraction of the admission fee given as a discount"), true),
    (("processingFee", "Real", "Discount processing fee in dollars"), ("discountProcessingFee", "Real", "Fee in dollars for processing a discount"), true),
    (("isLowSeason", "Bool", "Whether the visit falls in the low season"), ("lowSeason", "Bool", "Whether the visit date is in the low season"), true),
    (("requestDay", "Int", "Day number of the refund request"), ("refundRequestDay", "Int", "Day on which the refund was requested"), true),
    (("departureDay", "Int", "Day number of the departure day"), ("flightDepartureDay", "Int", "Day the flight departs"), true),
    (("fareAmount", "Real", "Fare in dollars paid for the ticket"), ("ticketFare", "Real", "Price of the ticket fare in dollars"), true),
    (("hasDisabilityBenefit", "Bool", "Whether a household member receives a disability benefit"), ("receivesDisabilityBenefit", "Bool", "Whether someone in the household gets disability benefits"), true),
    (("grantAmount", "Real", "Grant in dollars paid to the household"), ("householdGrant", "Real", "Amount of grant paid to the household"), true),
    (("householdSize", "Int", "Number of household members counting the applicant"), ("householdMembers", "Int", "How many members the household has, including the applicant"), true),
    (("isEligible", "Bool", "Whether the household is eligible for the grant"), ("grantEligible", "Bool", "Whether the household qualifies for the grant"), true),
    (("weeklyEarnings", "Real", "Average weekly earnings of the employee in pounds"), ("averageWeeklyEarnings", "Real", "The employee's average earnings per week"), true),
    (("loanAmount", "Real", "Amount of the Master's Loan in pounds"), ("mastersLoanAmount", "Real", "Total Master's loan borrowed in pounds"), true),
    (("visaExpiryDay", "Int", "Day number on which the visa expires"), ("visaExpiry", "Int", "Day the applicant's visa expires"), true),
    (("isUkResident", "Bool", "Whether the applicant lives in the UK"), ("livesInUk", "Bool", "Whether the person is resident in the UK"), true),
    (("statePensionAge", "Int", "State Pension age of the claimant in years"), ("pensionAge", "Int", "The claimant's State Pension age"), true),
    (("weeksOfService", "Int", "Continuous employment with the employer in weeks"), ("continuousEmploymentWeeks", "Int", "Weeks of continuous employment with the same employer"), true),
    (("corporationTaxRate", "Real", "Corporation Tax rate applied to profits"), ("taxRate", "Real", "Rate of Corporation Tax on the company's profits"), true),
    (("vatThreshold", "Real", "VAT registration threshold in pounds"), ("vatRegistrationThreshold", "Real", "Turnover threshold in pounds for VAT registration"), true),
    (("taxableTurnover", "Real", "VAT taxable turnover over the last 12 months"), ("vatTaxableTurnover", "Real", "Taxable turnover for VAT in the last 12 months"), true),
    (("isClaimingHousingBenefit", "Bool", "Whether the person claims Housing Benefit"), ("receivesHousingBenefit", "Bool", "Whether the claimant gets Housing Benefit"), true),
    (("rentAmount", "Real", "Weekly rent paid by the tenant"), ("weeklyRent", "Real", "Rent in pounds the tenant pays each week"), true),
    (("funeralCost", "Real", "Cost of the funeral in pounds"), ("funeralExpenses", "Real", "Funeral expenses in pounds"), true),
    (("isPartnerDeceased", "Bool", "Whether the claimant's husband, wife or civil partner has died"), ("partnerDied", "Bool", "Whether the claimant's partner died"), true),
    (("maternityPayWeeks", "Int", "Number of weeks Statutory Maternity Pay is paid"), ("smpWeeks", "Int", "Weeks of statutory maternity pay"), true),
    (("giftAidAmount", "Real", "Gift Aid claimed on donations in pounds"), ("giftAidClaimed", "Real", "Amount of Gift Aid the charity claims"), true),
    (("directorLoanBalance", "Real", "Balance owed by the director on the director's loan account"), ("directorsLoanBalance", "Real", "Outstanding balance of the director's loan"), true),
    (("inheritedPropertyValue", "Real", "Value of the property inherited"), ("valueOfInheritedProperty", "Real", "Market value of the inherited property"), true),
    (("visitorAge", "Int", "The visitor's age in years"), ("ageOfVisitor", "Int", "Age of the visitor"), true),
    (("totalPayment", "Real", "Total in dollars paid to the passenger"), ("totalPaidToPassenger", "Real", "Total payment in dollars to the passenger"), true),
    (("deathDay", "Int", "Day number of the death"), ("dayOfDeath", "Int", "Day on which the death occurred"), true),
    (("isEntryAllowed", "Bool", "Whether the visitor may enter the park"), ("parkEntryAllowed", "Bool", "Whether the visitor is allowed to enter the park"), true),
    (("fareType", "FareType", "The fare type of the ticket"), ("ticketFareType", "FareType", "Fare type the ticket was sold as"), true),
    (("tenure", "Tenure", "The applicant's housing tenure"), ("housingTenure", "Tenure", "Housing tenure of the applicant"), true),
    (("capitalAllowance", "Real", "Capital allowances claimed on business assets"), ("capitalAllowancesClaimed", "Real", "Amount of capital allowances claimed for business assets"), true),
    (("carersAllowanceWeekly", "Real", "Weekly amount of Carer's Allowance"), ("weeklyCarersAllowance", "Real", "Carer's Allowance paid per week"), true),
    // ---- same meaning, paraphrased with different words (hard) ----
    (("isSenior", "Bool", "Whether the visitor is 65 or older"), ("visitorIsElderly", "Bool", "Whether the guest is a senior citizen"), true),
    (("didPassengerTravel", "Bool", "Whether the passenger travelled on the flight"), ("flewOnFlight", "Bool", "Whether the traveller actually flew"), true),
    (("cashPayment", "Real", "Cash in dollars paid towards the admission fee"), ("paidInCash", "Real", "Money handed over in cash for entry"), true),
    (("isMarried", "Bool", "Whether the applicant is married"), ("hasSpouse", "Bool", "Whether the claimant has a husband or wife"), true),
    (("isSelfEmployed", "Bool", "Whether the worker is self-employed"), ("runsOwnBusiness", "Bool", "Whether the person works for themselves"), true),
    (("hasCriminalRecord", "Bool", "Whether the applicant has criminal convictions"), ("convicted", "Bool", "Whether the person was convicted of an offence"), true),
    (("monthlySalary", "Real", "Gross monthly salary"), ("payPerMonth", "Real", "Gross pay received each month"), true),
    (("isStudent", "Bool", "Whether the applicant is in full-time education"), ("fullTimeEducation", "Bool", "Whether the person studies full time"), true),
    (("dependantsCount", "Int", "Number of dependants the claimant supports"), ("numDependents", "Int", "How many dependents rely on the claimant"), true),
    (("residenceStartDay", "Int", "Day number of the start of the applicant's unbroken residence in the county"), ("movedInDay", "Int", "Day the applicant began living in the county"), true),
    // ---- different meaning, shared words (hard) ----
    (("refundAmount", "Real", "Amount refunded to the passenger"), ("refundFee", "Real", "Fee charged for processing a refund"), false),
    (("adminFee", "Real", "Administration fee in dollars for the ticket's fare type"), ("adminFeeCharged", "Real", "Administration fee in dollars deducted from the refund"), false),
    (("baseFee", "Real", "Standard admission fee in dollars"), ("finalAdmissionFee", "Real", "Admission fee in dollars the visitor owes, including the processing fee, before tax"), false),
    (("seasonalFee", "Real", "Admission fee in dollars after the seasonal adjustment, before discounts"), ("discountedFee", "Real", "Admission fee in dollars after the discount, before the processing fee"), false),
    (("bookingDay", "Int", "Day number of the booking day"), ("departureDay", "Int", "Day number of the departure day"), false),
    (("requestDay", "Int", "Day number of the refund request"), ("restrictionDay", "Int", "Day number on which the government restriction was issued"), false),
    (("incomeLimit", "Real", "Income limit in dollars for the household"), ("savingsLimit", "Real", "Savings limit in dollars for the household"), false),
    (("householdIncome", "Real", "Annual household income in dollars"), ("incomeReduction", "Real", "Income reduction in dollars"), false),
    (("childSupplement", "Real", "Child supplement in dollars"), ("pensionSupplement", "Real", "Pension-age supplement in dollars"), false),
    (("disabilitySupplement", "Real", "Disability supplement in dollars"), ("hasDisabilityBenefit", "Real", "Disability benefit in dollars received by the household"), false),
    (("fullAmount", "Real", "Full amount in dollars before the income reduction"), ("grantAmount", "Real", "Grant in dollars paid to the household after the income reduction"), false),
    (("creditUnits", "Int", "Number of 5-credit units the visitor uses"), ("customerCredits", "Int", "Number of park credits used"), false),
    (("creditCost", "Real", "Price in dollars the visitor pays for the credits used"), ("cashPayment", "Real", "Cash in dollars the visitor pays"), false),
    (("totalExpense", "Real", "Visitor's total expense in dollars, including tax"), ("totalAdmissionFund", "Real", "Funds in dollars the visitor has available"), false),
    (("applicantAge", "Int", "Applicant's age in completed years"), ("partnerAge", "Int", "Age of the applicant's partner in completed years"), false),
    (("childAge", "Int", "Age of the youngest child in years"), ("minimumChildAge", "Int", "Minimum age in years a child must reach to qualify"), false),
    (("loanAmount", "Real", "Amount of the Master's Loan in pounds"), ("loanRepayment", "Real", "Monthly repayment of the Master's Loan in pounds"), false),
    (("directorLoanBalance", "Real", "Balance owed by the director on the director's loan account"), ("directorLoanInterest", "Real", "Interest charged on the director's loan"), false),
    (("visaExpiryDay", "Int", "Day number on which the visa expires"), ("visaApplicationDay", "Int", "Day number on which the visa application was made"), false),
    (("maternityPay", "Real", "Weekly Statutory Maternity Pay in pounds"), ("paternityPay", "Real", "Weekly Statutory Paternity Pay in pounds"), false),
    (("maternityLeaveWeeks", "Int", "Weeks of maternity leave taken"), ("maternityPayWeeks", "Int", "Weeks of maternity pay received"), false),
    (("taxableIncome", "Real", "Income subject to income tax"), ("taxFreeAllowance", "Real", "Income not subject to income tax (personal allowance)"), false),
    (("vatThreshold", "Real", "VAT registration threshold in pounds"), ("vatDeregistrationThreshold", "Real", "VAT deregistration threshold in pounds"), false),
    (("employeeNotice", "Int", "Weeks of notice the employee must give"), ("employerNotice", "Int", "Weeks of notice the employer must give"), false),
    (("statePensionWeekly", "Real", "Weekly State Pension paid"), ("pensionCreditWeekly", "Real", "Weekly Pension Credit paid"), false),
    (("isEligible", "Bool", "Whether the household is eligible for the grant"), ("isRefundEligible", "Bool", "Whether the passenger is eligible for a refund"), false),
    (("housingBenefit", "Real", "Housing Benefit paid per week"), ("housingCosts", "Real", "Housing costs paid per week"), false),
    (("funeralCost", "Real", "Cost of the funeral in pounds"), ("funeralPayment", "Real", "Funeral Expenses Payment awarded in pounds"), false),
    (("propertyValue", "Real", "Value of the property before the new road"), ("propertyValueLoss", "Real", "Loss in value of the property caused by the new road"), false),
    (("rentAmount", "Real", "Weekly rent paid by the tenant"), ("rentDeposit", "Real", "Tenancy deposit paid by the tenant"), false),
    (("inheritanceTax", "Real", "Inheritance Tax due on the estate"), ("capitalGainsTax", "Real", "Capital Gains Tax due on selling inherited shares"), false),
    (("isLowSeason", "Bool", "Whether the visit falls in the low season"), ("isHighSeason", "Bool", "Whether the visit falls in the high season"), false),
    // ---- different meaning, unrelated ----
    (("householdIncome", "Real", "Annual household income in dollars"), ("delayHours", "Real", "Delay of the flight in hours"), false),
    (("isSenior", "Bool", "Whether the visitor is 65 or older"), ("didFlightOperate", "Bool", "Whether the flight operated"), false),
    (("numChildren", "Int", "Number of children under 16 in the household"), ("weeksOfService", "Int", "Continuous employment with the employer in weeks"), false),
    (("vatThreshold", "Real", "VAT registration threshold in pounds"), ("funeralCost", "Real", "Cost of the funeral in pounds"), false),
    (("hasCriminalRecord", "Bool", "Whether the applicant has criminal convictions"), ("isLowSeason", "Bool", "Whether the visit falls in the low season"), false),
    // ---- same concept, different sort (never unified) ----
    (("applicantAge", "Int", "Applicant's age in completed years"), ("applicantAge", "Real", "Applicant's age in years"), false),
    (("isSenior", "Bool", "Whether the visitor is a senior"), ("ageClass", "AgeClass", "The visitor's age class (child, adult, senior)"), false),
    (("delayHours", "Real", "Delay of the flight in hours"), ("delayHours", "Int", "Delay of the flight in whole hours"), false),
    (("isEligible", "Bool", "Whether the household is eligible for the grant"), ("eligibility", "EligibilityStatus", "The household's eligibility status for the grant"), false),
    (("fareType", "FareType", "The fare type of the ticket"), ("fareType", "String", "The fare type of the ticket"), false),
    (("savings", "Real", "Household savings in dollars"), ("savings", "Int", "Household savings in whole dollars"), false),
];

/// Embeds every variable of the labelled set in one batch (so the tf-idf is
/// fitted on the whole set, as it would be on all candidates of a document)
/// and returns (predicted-same?, label) per pair at `threshold`, using the
/// same predicate as a clustering edge: equal sorts and cosine ≥ threshold.
fn pair_similarities() -> Vec<(f32, bool, bool)> {
    let mut texts = Vec::new();
    for ((na, _, da), (nb, _, db), _) in PAIRS {
        texts.push(variable_text(na, da));
        texts.push(variable_text(nb, db));
    }
    let emb = LexicalEmbedder::new().embed(&texts).unwrap();
    PAIRS
        .iter()
        .enumerate()
        .map(|(k, ((_, sa, _), (_, sb, _), same))| {
            (cosine(&emb[2 * k], &emb[2 * k + 1]), sa == sb, *same)
        })
        .collect()
}

fn precision_recall(sims: &[(f32, bool, bool)], threshold: f32) -> (f64, f64, usize, usize, usize) {
    let (mut tp, mut fp, mut fne) = (0usize, 0usize, 0usize);
    for &(s, same_sort, label) in sims {
        let pred = same_sort && s >= threshold;
        match (pred, label) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fne += 1,
            _ => {}
        }
    }
    let p = if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    };
    let r = if tp + fne == 0 {
        1.0
    } else {
        tp as f64 / (tp + fne) as f64
    };
    (p, r, tp, fp, fne)
}

#[test]
fn labelled_pairs_precision_recall() {
    let sims = pair_similarities();
    let positives = PAIRS.iter().filter(|p| p.2).count();
    println!(
        "labelled pairs: {} ({} same-meaning, {} different)",
        PAIRS.len(),
        positives,
        PAIRS.len() - positives
    );
    for t in [0.40f32, 0.50, 0.55, 0.60, DEFAULT_THRESHOLD, 0.70, 0.75] {
        let (p, r, tp, fp, fne) = precision_recall(&sims, t);
        let marker = if t == DEFAULT_THRESHOLD {
            " (default)"
        } else {
            ""
        };
        println!(
            "threshold {t:.2}{marker}: precision {p:.3} recall {r:.3} (tp {tp}, fp {fp}, fn {fne})"
        );
    }
    // Errors at the default threshold, for inspection.
    for (((na, sa, _), (nb, sb, _), label), (s, same_sort, _)) in PAIRS.iter().zip(&sims) {
        let pred = *same_sort && *s >= DEFAULT_THRESHOLD;
        if pred != *label {
            let kind = if pred { "FP" } else { "FN" };
            println!("  {kind} {s:.3} {na}:{sa} ~ {nb}:{sb}");
        }
    }
    let (p, r, ..) = precision_recall(&sims, DEFAULT_THRESHOLD);
    assert!(p >= 0.8, "precision {p:.3} < 0.8 at the default threshold");
    assert!(r >= 0.5, "recall {r:.3} < 0.5 at the default threshold");
}

fn cand(unit: usize, name: &str, sort: &str, description: &str) -> VariableCandidate {
    VariableCandidate {
        unit,
        name: name.to_string(),
        sort: sort.to_string(),
        description: description.to_string(),
    }
}

fn embed_candidates(cands: &[VariableCandidate]) -> Vec<Vec<f32>> {
    let texts: Vec<String> = cands
        .iter()
        .map(|c| variable_text(&c.name, &c.description))
        .collect();
    LexicalEmbedder::new().embed(&texts).unwrap()
}

fn cluster_of(clusters: &[Cluster], i: usize) -> usize {
    clusters
        .iter()
        .position(|c| c.members.contains(&i))
        .expect("every candidate is in a cluster")
}

#[test]
fn different_sorts_never_cluster() {
    // Identical text, different sorts, different units.
    let cands = vec![
        cand(0, "applicantAge", "Int", "Age of the applicant in years"),
        cand(1, "applicantAge", "Real", "Age of the applicant in years"),
        cand(2, "applicantAge", "Int", "Age of the applicant in years"),
    ];
    let emb = embed_candidates(&cands);
    // Even at threshold -1 (everything similar enough) sorts stay apart.
    for t in [-1.0, DEFAULT_THRESHOLD] {
        let clusters = cluster_variables(&cands, &emb, t);
        assert_eq!(clusters.len(), 2);
        assert_eq!(cluster_of(&clusters, 0), cluster_of(&clusters, 2));
        assert_ne!(cluster_of(&clusters, 0), cluster_of(&clusters, 1));
        for c in &clusters {
            assert!(c.members.iter().all(|&m| cands[m].sort == c.sort));
        }
        let map = unify(&cands, &clusters);
        assert_eq!(map[&(0, "applicantAge".to_string())], "applicantAge");
        assert_eq!(map[&(1, "applicantAge".to_string())], "applicantAge_2");
    }
}

#[test]
fn same_unit_never_clusters_even_through_a_chain() {
    // Units 0 has two near-identical variables; unit 1 has one similar to
    // both. Single linkage would chain all three together.
    let cands = vec![
        cand(
            0,
            "refundAmount",
            "Real",
            "Refund in dollars paid to the passenger",
        ),
        cand(
            0,
            "refundTotal",
            "Real",
            "Refund in dollars paid to the passenger in total",
        ),
        cand(
            1,
            "passengerRefund",
            "Real",
            "Refund in dollars paid to the passenger",
        ),
    ];
    let emb = embed_candidates(&cands);
    let clusters = cluster_variables(&cands, &emb, -1.0);
    assert_ne!(cluster_of(&clusters, 0), cluster_of(&clusters, 1));
    for c in &clusters {
        let mut units: Vec<usize> = c.members.iter().map(|&m| cands[m].unit).collect();
        let n = units.len();
        units.dedup();
        assert_eq!(units.len(), n, "a cluster holds two variables of one unit");
    }
    // The unit-1 variable joins the closer of the two (identical text).
    assert_eq!(cluster_of(&clusters, 2), cluster_of(&clusters, 0));
}

#[test]
fn unify_and_rename_apart() {
    let cands = vec![
        // Unit 0 and 1 agree on householdIncome; unit 2 uses the name
        // "income" for the same concept.
        cand(
            0,
            "householdIncome",
            "Real",
            "Annual household income in dollars",
        ),
        cand(
            1,
            "householdIncome",
            "Real",
            "Annual income of the household in dollars",
        ),
        cand(
            2,
            "income",
            "Real",
            "Annual household income in dollars, all members",
        ),
        // "fee" means two unrelated things in units 0 and 1.
        cand(
            0,
            "fee",
            "Real",
            "Administration fee charged for cancelling the ticket",
        ),
        cand(1, "fee", "Real", "Park admission for a child visitor"),
        // An existing "fee_2" must not be clobbered by the renaming.
        cand(3, "fee_2", "Bool", "Whether the weekend surcharge applies"),
    ];
    let emb = embed_candidates(&cands);
    let clusters = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let inc = cluster_of(&clusters, 0);
    assert_eq!(inc, cluster_of(&clusters, 1));
    assert_eq!(inc, cluster_of(&clusters, 2));
    assert_eq!(clusters[inc].canonical_name, "householdIncome");
    assert_eq!(
        clusters[inc].description,
        "Annual income of the household in dollars"
    );
    assert_ne!(cluster_of(&clusters, 3), cluster_of(&clusters, 4));

    let map = unify(&cands, &clusters);
    assert_eq!(map.len(), cands.len());
    assert_eq!(map[&(2, "income".to_string())], "householdIncome");
    assert_eq!(map[&(1, "householdIncome".to_string())], "householdIncome");
    let f0 = &map[&(0, "fee".to_string())];
    let f1 = &map[&(1, "fee".to_string())];
    assert_ne!(f0, f1);
    let mut fees = [f0.as_str(), f1.as_str()];
    fees.sort();
    assert_eq!(fees, ["fee", "fee_3"]);
    assert_eq!(map[&(3, "fee_2".to_string())], "fee_2");

    // No two clusters share a final name.
    let names = cluster_names(&clusters);
    let mut dedup = names.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), names.len());
}

/// Candidates spread over units from the labelled set.
fn sample_candidates() -> Vec<VariableCandidate> {
    let mut cands = Vec::new();
    for (k, (a, b, _)) in PAIRS.iter().enumerate() {
        cands.push(cand(2 * k % 7, a.0, a.1, a.2));
        cands.push(cand((2 * k + 1) % 7, b.0, b.1, b.2));
    }
    cands
}

/// (final name, sort, description, sorted (unit, member)) of one cluster.
type Rendered = (String, String, String, Vec<(usize, String)>);

/// Canonical, order-independent rendering of a clustering.
fn render(cands: &[VariableCandidate], clusters: &[Cluster]) -> Vec<Rendered> {
    let names = cluster_names(clusters);
    let mut out: Vec<_> = clusters
        .iter()
        .zip(names)
        .map(|(c, n)| {
            let mut m: Vec<(usize, String)> = c
                .members
                .iter()
                .map(|&i| {
                    (
                        cands[i].unit,
                        format!("{}:{}", cands[i].name, cands[i].description),
                    )
                })
                .collect();
            m.sort();
            (n, c.sort.clone(), c.description.clone(), m)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn deterministic_and_input_order_independent() {
    let cands = sample_candidates();
    let emb = embed_candidates(&cands);
    let a = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let b = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    assert_eq!(a, b);
    assert_eq!(unify(&cands, &a), unify(&cands, &b));

    // Reverse and shuffle (deterministically) the input: same clusters, same
    // canonical names, same final names.
    let mut perm: Vec<usize> = (0..cands.len()).collect();
    perm.reverse();
    perm.rotate_left(37);
    let shuffled: Vec<VariableCandidate> = perm.iter().map(|&i| cands[i].clone()).collect();
    let emb2 = embed_candidates(&shuffled);
    let c = cluster_variables(&shuffled, &emb2, DEFAULT_THRESHOLD);
    assert_eq!(render(&cands, &a), render(&shuffled, &c));
    let u1: HashMap<_, _> = unify(&cands, &a);
    let u2: HashMap<_, _> = unify(&shuffled, &c);
    assert_eq!(u1, u2);
}

#[test]
fn canonical_name_choice() {
    // Three units call it "age", one "applicantAge", one "ageYears":
    // most frequent wins; on a tie, the shortest, then alphabetical. The
    // threshold -1 makes everything similar: this tests naming only.
    let e = "Age of the applicant in years";
    let cands = vec![
        cand(0, "applicantAge", "Int", e),
        cand(1, "age", "Int", e),
        cand(
            2,
            "age",
            "Int",
            "Age of the applicant in whole years, as declared",
        ),
        cand(3, "ageYears", "Int", e),
        cand(4, "age", "Int", e),
    ];
    let emb = embed_candidates(&cands);
    let cl = cluster_variables(&cands, &emb, -1.0);
    assert_eq!(cl.len(), 1);
    assert_eq!(cl[0].canonical_name, "age");
    assert_eq!(
        cl[0].description,
        "Age of the applicant in whole years, as declared"
    );

    let tie = vec![
        cand(0, "ageYears", "Int", e),
        cand(1, "ageOfApplicant", "Int", e),
        cand(2, "applicantAge", "Int", e),
    ];
    let emb = embed_candidates(&tie);
    let cl = cluster_variables(&tie, &emb, -1.0);
    assert_eq!(cl.len(), 1);
    // All names occur once: the shortest ("ageYears", 8 chars) wins.
    assert_eq!(cl[0].canonical_name, "ageYears");
    let tie2 = vec![cand(0, "bb", "Int", e), cand(1, "ab", "Int", e)];
    let emb = embed_candidates(&tie2);
    let cl = cluster_variables(&tie2, &emb, -1.0);
    assert_eq!(cl[0].canonical_name, "ab");
}

#[test]
fn timing_2000_variables() {
    // 2,000 synthetic variables over 200 units, built from the labelled
    // vocabulary with unit-specific qualifiers (measured, not asserted).
    let base: Vec<Var> = PAIRS.iter().flat_map(|(a, b, _)| [*a, *b]).collect();
    let qualifiers = [
        "", "current", "previous", "claimed", "annual", "weekly", "net", "gross",
    ];
    let mut cands = Vec::with_capacity(2000);
    for i in 0..2000 {
        let (n, s, d) = base[i % base.len()];
        let q = qualifiers[(i / base.len()) % qualifiers.len()];
        cands.push(cand(i % 200, n, s, &format!("{d} {q}")));
    }
    let texts: Vec<String> = cands
        .iter()
        .map(|c| variable_text(&c.name, &c.description))
        .collect();
    let t0 = Instant::now();
    let emb = LexicalEmbedder::new().embed(&texts).unwrap();
    let t_embed = t0.elapsed();
    let t1 = Instant::now();
    let clusters = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let t_cluster = t1.elapsed();
    let t2 = Instant::now();
    let map = unify(&cands, &clusters);
    let t_unify = t2.elapsed();
    println!(
        "2000 variables: embed {:?}, cluster {:?} ({} clusters), unify {:?} ({} names)",
        t_embed,
        t_cluster,
        clusters.len(),
        t_unify,
        map.len()
    );
}

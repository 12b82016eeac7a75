//! DMN decision tables as rules: each hit policy, the FEEL unary tests and
//! literal-expression decisions mean what DMN says, checked by asking the
//! real Z3 what the imported model proves.

use crate::support;

use precept::formats::dmn::import_dmn;
use precept::model::{CompiledModel, HitPolicy, compile};
use precept::solve::{FindingKind, SolverWorker};
use std::time::Duration;
use support::dmn::one_table;
use support::{formula, worker};

struct Imported {
    compiled: CompiledModel,
    worker: SolverWorker,
}

fn import(xml: &str) -> Imported {
    let imported = import_dmn(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let compiled = compile(&imported.model);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    let worker = worker(&compiled, Duration::from_secs(10));
    Imported { compiled, worker }
}

impl Imported {
    fn finding(&self, premise: &str, claim: &str) -> FindingKind {
        self.worker
            .verify(
                formula(&self.compiled, premise),
                formula(&self.compiled, claim),
            )
            .kind
    }

    /// The premise proves the claim.
    fn proves(&self, premise: &str, claim: &str) {
        assert_eq!(
            self.finding(premise, claim),
            FindingKind::Valid,
            "{premise} ⊢ {claim}"
        );
    }
}

const AGE: &[(&str, &str)] = &[("Age", "number")];

fn age_table(
    attributes: &str,
    output_type: &str,
    output: &str,
    rows: &[(&[&str], &str)],
) -> Imported {
    import(&one_table(attributes, AGE, output_type, output, rows))
}

#[test]
fn first_takes_the_earliest_matching_row_and_skips_unreachable_ones() {
    let model = age_table(
        "hitPolicy=\"FIRST\"",
        "string",
        "",
        &[
            (&[">18"], "\"Cars\""),
            (&[">12"], "\"Games\""),
            (&[">0"], "\"Toys\""),
            (&[">50"], "\"Boats\""),
        ],
    );
    model.proves("(= age 30.0)", "(= result Cars)");
    model.proves("(= age 13.0)", "(= result Games)");
    model.proves("(= age 18.0)", "(= result Games)");
    model.proves("(= age 1.0)", "(= result Toys)");
    // Row 4 is shadowed by row 1: Boats is never the answer.
    assert_eq!(
        model.finding("(= age 60.0)", "(= result Boats)"),
        FindingKind::Invalid
    );
}

#[test]
fn unique_and_any_rows_imply_their_outputs_and_clash_when_they_disagree() {
    let unique = age_table(
        "hitPolicy=\"UNIQUE\"",
        "string",
        "",
        &[
            (&["<18"], "\"Minor\""),
            (&["[18..65)"], "\"Adult\""),
            (&[">=65"], "\"Senior\""),
        ],
    );
    unique.proves("(= age 64.5)", "(= result Adult)");
    unique.proves("(= age 65.0)", "(= result Senior)");
    let any = age_table(
        "hitPolicy=\"ANY\"",
        "string",
        "",
        &[
            (&[">=18"], "\"Adult\""),
            (&[">=21"], "\"Adult\""),
            (&[">=65"], "\"Senior\""),
        ],
    );
    any.proves("(= age 30.0)", "(= result Adult)");
    // Rows 1 and 3 both match at 70 with different outputs: no value fits.
    assert_eq!(
        any.finding("(= age 70.0)", "(= result Senior)"),
        FindingKind::Impossible
    );
}

#[test]
fn priority_takes_the_output_listed_first_among_the_matching_rows() {
    let model = age_table(
        "hitPolicy=\"PRIORITY\"",
        "string",
        "<outputValues><text>\"High\", \"Medium\", \"Low\"</text></outputValues>",
        &[
            (&[">=0"], "\"Low\""),
            (&[">=18"], "\"Medium\""),
            (&[">=65"], "\"High\""),
        ],
    );
    model.proves("(= age 70.0)", "(= result High)");
    model.proves("(= age 30.0)", "(= result Medium)");
    model.proves("(= age 3.0)", "(= result Low)");
}

#[test]
fn collect_without_an_aggregator_says_which_outputs_the_list_holds() {
    let model = age_table(
        "hitPolicy=\"COLLECT\"",
        "string",
        "",
        &[
            (&[">=18"], "\"Vote\""),
            (&[">=16"], "\"Drive\""),
            (&[">=65"], "\"Pension\""),
        ],
    );
    model.proves(
        "(= age 17.0)",
        "(and resultIncludesDrive (not resultIncludesVote) (not resultIncludesPension))",
    );
    model.proves(
        "(= age 70.0)",
        "(and resultIncludesDrive resultIncludesVote resultIncludesPension)",
    );
}

const BONUSES: &[(&[&str], &str)] = &[(&[">=18"], "10"), (&[">=65"], "5"), (&[">=60"], "5")];

#[test]
fn collect_aggregates_the_distinct_outputs() {
    let sum = age_table(
        "hitPolicy=\"COLLECT\" aggregation=\"SUM\"",
        "number",
        "",
        BONUSES,
    );
    sum.proves("(= age 70.0)", "(= result 15.0)");
    sum.proves("(= age 20.0)", "(= result 10.0)");
    // No row matches: DMN's null, so nothing is proved about the result.
    assert_eq!(
        sum.finding("(= age 5.0)", "(= result 0.0)"),
        FindingKind::Satisfiable
    );
    let count = age_table(
        "hitPolicy=\"COLLECT\" aggregation=\"COUNT\"",
        "number",
        "",
        BONUSES,
    );
    count.proves("(= age 70.0)", "(= result 2.0)");
    count.proves("(= age 5.0)", "(= result 0.0)");
    let max = age_table(
        "hitPolicy=\"COLLECT\" aggregation=\"MAX\"",
        "number",
        "",
        BONUSES,
    );
    max.proves("(= age 70.0)", "(= result 10.0)");
    let min = age_table(
        "hitPolicy=\"COLLECT\" aggregation=\"MIN\"",
        "number",
        "",
        BONUSES,
    );
    min.proves("(= age 70.0)", "(= result 5.0)");
    min.proves("(= age 61.0)", "(= result 5.0)");
    min.proves("(= age 20.0)", "(= result 10.0)");
    let with_default = age_table(
        "hitPolicy=\"COLLECT\" aggregation=\"MIN\"",
        "number",
        "<defaultOutputEntry><text>-1</text></defaultOutputEntry>",
        BONUSES,
    );
    with_default.proves("(= age 5.0)", "(= result (- 1.0))");
}

#[test]
fn min_and_max_over_computed_outputs_bound_and_attain() {
    let model = import(&one_table(
        "hitPolicy=\"COLLECT\" aggregation=\"MAX\"",
        &[("Age", "number"), ("Years", "number")],
        "number",
        "",
        &[(&["-", ">=0"], "Years * 2"), (&[">=60", "-"], "Age - 50")],
    ));
    model.proves("(and (= age 70.0) (= years 3.0))", "(= result 20.0)");
    model.proves("(and (= age 61.0) (= years 30.0))", "(= result 60.0)");
}

#[test]
fn unary_tests_cover_negation_lists_ranges_strings_and_booleans() {
    let model = import(&one_table(
        "hitPolicy=\"FIRST\"",
        &[
            ("Score", "number"),
            ("Tier", "string"),
            ("Member", "boolean"),
        ],
        "string",
        "",
        &[
            (&["not([0..10])", "\"Gold\",\"Silver\"", "true"], "\"A\""),
            (&["(0..10]", "not(\"Gold\")", "-"], "\"B\""),
            (&["-", "-", "false"], "\"C\""),
            (&["-", "-", "-"], "\"D\""),
        ],
    ));
    model.proves(
        "(and (= score 11.0) (= tier Silver) member)",
        "(= result A)",
    );
    model.proves(
        "(and (= score 10.0) (= tier Silver) member)",
        "(= result B)",
    );
    // A tier the table never names is still a possible value ("other"),
    // and not("Gold") holds for it.
    model.proves(
        "(and (= score 5.0) (= tier OtherTier) member)",
        "(= result B)",
    );
    model.proves(
        "(and (= score 0.0) (= tier Gold) (not member))",
        "(= result C)",
    );
    model.proves("(and (= score 0.0) (= tier Gold) member)", "(= result D)");
    model.proves(
        "(and (= score (- 3.0)) (= tier Gold) member)",
        "(= result A)",
    );
}

#[test]
fn each_table_is_recorded_with_its_hit_policy() {
    let imported = import_dmn(&one_table(
        "hitPolicy=\"PRIORITY\"",
        AGE,
        "string",
        "<outputValues><text>\"High\",\"Low\"</text></outputValues>",
        &[(&[">=0"], "\"Low\""), (&[">=65"], "\"High\"")],
    ))
    .unwrap();
    let tables = &imported.model.decision_tables;
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].hit_policy, HitPolicy::Priority);
    assert_eq!(tables[0].rows, vec!["R1", "R2"]);
    assert!(imported.model.rules[0].note.contains("rule 1 (row1)"));
}

#[test]
fn what_the_encoding_cannot_say_is_refused_with_the_place() {
    let rule_order = import_dmn(&one_table(
        "hitPolicy=\"RULE ORDER\"",
        AGE,
        "string",
        "",
        &[(&["-"], "\"x\"")],
    ))
    .unwrap_err();
    assert!(
        rule_order.to_string().contains("found 'RULE ORDER'"),
        "{rule_order}"
    );
    let mismatch = import_dmn(&one_table(
        "",
        AGE,
        "string",
        "",
        &[(&["-"], "\"x\""), (&["\"old\""], "\"y\"")],
    ))
    .unwrap_err();
    let text = mismatch.to_string();
    assert!(
        text.contains("rule 2, input 'Age'") && text.contains("expected a number, found \"old\""),
        "{text}"
    );
    assert_eq!(mismatch.place.line, 14);
    let closed = import_dmn(
        &one_table(
            "",
            &[("Tier", "string")],
            "string",
            "",
            &[(&["\"Gold\""], "\"x\""), (&["\"Bronze\""], "\"y\"")],
        )
        .replace(
            "</inputExpression>",
            "</inputExpression><inputValues><text>\"Gold\",\"Silver\"</text></inputValues>",
        ),
    )
    .unwrap_err();
    assert!(closed.to_string().contains("found \"Bronze\""), "{closed}");
    let priority = import_dmn(&one_table(
        "hitPolicy=\"PRIORITY\"",
        AGE,
        "string",
        "",
        &[(&["-"], "\"x\"")],
    ))
    .unwrap_err();
    assert!(priority.to_string().contains("output values"), "{priority}");
}

const LITERALS: &str = r##"<?xml version="1.0"?>
<definitions xmlns="http://www.omg.org/spec/DMN/20151101/dmn.xsd" name="literals" id="d" namespace="urn:t">
  <inputData name="Price" id="p"><variable name="Price" typeRef="number"/></inputData>
  <inputData name="Cap" id="c"><variable name="Cap" typeRef="number"/></inputData>
  <decision name="Discounted" id="disc">
    <variable name="Discounted" typeRef="number"/>
    <literalExpression><text>Price * 0.9 - 1</text></literalExpression>
  </decision>
  <decision name="Charged" id="charged">
    <variable name="Charged" typeRef="number"/>
    <informationRequirement><requiredDecision href="#disc"/></informationRequirement>
    <literalExpression><text>min(Discounted, Cap, 100)</text></literalExpression>
  </decision>
</definitions>"##;

#[test]
fn literal_decisions_compute_arithmetic_and_min_over_required_decisions() {
    let model = import(LITERALS);
    model.proves("(and (= price 50.0) (= cap 200.0))", "(= charged 44.0)");
    model.proves("(and (= price 50.0) (= cap 20.0))", "(= charged 20.0)");
    model.proves("(and (= price 500.0) (= cap 200.0))", "(= charged 100.0)");
    let unknown = import_dmn(&LITERALS.replace("min(Discounted", "min(Discount")).unwrap_err();
    assert!(
        unknown.to_string().contains("found 'Discount'"),
        "{unknown}"
    );
    assert_eq!((unknown.place.line, unknown.place.column), (12, 34));
    let missing = import_dmn(&LITERALS.replace("href=\"#disc\"", "href=\"#nowhere\"")).unwrap_err();
    assert!(missing.to_string().contains("'#nowhere'"), "{missing}");
}

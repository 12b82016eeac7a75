//! The syntactic lint checks (L1xx) on small models built from SMT-LIB, and
//! on the shipped samples. Run with `--nocapture` to see the samples'
//! diagnostics.

use precept::lint::syntactic::check;
use precept::lint::{Diagnostic, LintCode, ModelEdit, Severity};
use precept::model::import::import_smtlib;
use precept::model::{PolicyModel, Project, ReviewStatus, Rule, Variable, compile};
use std::path::Path;

/// A model from SMT-LIB, with a distinct description on every variable,
/// type and value so that only the checks under test fire.
fn model(source: &str) -> PolicyModel {
    let mut model = import_smtlib(source).expect("valid SMT-LIB");
    describe_all(&mut model);
    model
}

fn describe_all(model: &mut PolicyModel) {
    for type_def in &mut model.types {
        type_def.description = format!("the kind of {}", type_def.name);
        for value in &mut type_def.values {
            value.description = format!("the case {}", value.value);
        }
    }
    for variable in &mut model.variables {
        variable.description = format!("the quantity {}", variable.name);
    }
}

fn rule(id: &str, expression: &str) -> Rule {
    Rule {
        id: id.into(),
        expression: expression.into(),
        source_span: None,
        also_from: Vec::new(),
        review: ReviewStatus::Unreviewed,
        note: String::new(),
    }
}

fn lint(model: &PolicyModel) -> Vec<Diagnostic> {
    check(model, &compile(model))
}

/// Prints diagnostics (shown when a test fails, or with --nocapture).
fn show(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let subject = d
            .rules
            .first()
            .or(d.variables.first())
            .cloned()
            .unwrap_or_default();
        let fix = d
            .fix
            .as_ref()
            .map(|f| format!(" [fix: {}]", f.description))
            .unwrap_or_default();
        println!(
            "{} {} {:?} [{subject}] {}{fix}",
            d.code.code(),
            d.name,
            d.severity,
            d.message
        );
    }
}

fn of(diagnostics: &[Diagnostic], code: LintCode) -> Vec<&Diagnostic> {
    diagnostics.iter().filter(|d| d.code == code).collect()
}

fn same(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.code == b.code && a.rules == b.rules && a.variables == b.variables && a.message == b.message
}

/// Applies every fix on its own to a fresh copy of the model and checks that
/// the diagnostic it fixes is gone afterwards. Returns how many fixes ran.
fn every_fix_removes_its_diagnostic(model: &PolicyModel) -> usize {
    let diagnostics = lint(model);
    let mut applied = 0;
    for diagnostic in &diagnostics {
        let Some(fix) = &diagnostic.fix else {
            continue;
        };
        let mut fixed = model.clone();
        fix.edit
            .apply(&mut fixed)
            .unwrap_or_else(|e| panic!("fix '{}' failed: {e}", fix.description));
        let after = lint(&fixed);
        assert!(
            !after.iter().any(|d| same(d, diagnostic)),
            "fix '{}' left {} in place: {}",
            fix.description,
            diagnostic.code.code(),
            diagnostic.message
        );
        applied += 1;
    }
    applied
}

fn assert_sorted(diagnostics: &[Diagnostic]) {
    for pair in diagnostics.windows(2) {
        assert!(pair[0].code <= pair[1].code, "not ordered by code");
    }
}

#[test]
fn unused_declarations() {
    let model = model(
        "(declare-datatype Tier ((GOLD) (SILVER) (BRONZE)))
         (declare-datatype Color ((RED) (BLUE)))
         (declare-datatype Solo ((ONLY)))
         (declare-const tier Tier)
         (declare-const solo Solo)
         (declare-const fee Real)
         (declare-const spare Int)
         (declare-const aSpare Bool)
         (assert (=> (= tier GOLD) (> fee 10.0)))
         (assert (=> (= tier SILVER) (>= fee 5.0)))
         (assert (=> (= solo solo) (>= fee 0.0)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    assert_sorted(&diagnostics);

    let unused = of(&diagnostics, LintCode::UnusedVariable);
    let names: Vec<&str> = unused.iter().map(|d| d.variables[0].as_str()).collect();
    assert_eq!(names, vec!["aSpare", "spare"]);
    assert!(unused.iter().all(|d| d.severity == Severity::Warning));
    assert!(unused[1].message.contains("spare (Int"));
    assert_eq!(
        unused[1].fix.as_ref().unwrap().edit,
        ModelEdit::DeleteVariable {
            name: "spare".into()
        }
    );

    let types = of(&diagnostics, LintCode::UnusedType);
    assert_eq!(types.len(), 1);
    assert_eq!(types[0].severity, Severity::Warning);
    assert!(types[0].message.contains("Color"));
    assert_eq!(
        types[0].fix.as_ref().unwrap().edit,
        ModelEdit::DeleteType {
            name: "Color".into()
        }
    );

    let values = of(&diagnostics, LintCode::UnusedEnumValue);
    assert_eq!(values.len(), 2, "{values:#?}");
    // Solo sorts before Tier; ONLY is Solo's last value, so no fix.
    assert!(values[0].message.contains("ONLY"));
    assert_eq!(values[0].variables, vec!["solo"]);
    assert!(values[0].fix.is_none());
    assert!(values[1].message.contains("BRONZE"));
    assert_eq!(values[1].variables, vec!["tier"]);
    assert_eq!(values[1].severity, Severity::Info);
    assert_eq!(
        values[1].fix.as_ref().unwrap().edit,
        ModelEdit::DeleteEnumValue {
            type_name: "Tier".into(),
            value: "BRONZE".into()
        }
    );

    assert_eq!(every_fix_removes_its_diagnostic(&model), 4);
}

#[test]
fn a_type_whose_values_only_rules_mention_has_no_fix() {
    let model = model(
        "(declare-datatype Color ((RED) (BLUE)))
         (declare-const x Int)
         (assert (=> (= RED BLUE) (> x 1)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    let types = of(&diagnostics, LintCode::UnusedType);
    assert_eq!(types.len(), 1);
    assert!(types[0].fix.is_none());
    assert_eq!(types[0].rules, vec!["R1"]);
    // Values of an unused type are not reported one by one.
    assert!(of(&diagnostics, LintCode::UnusedEnumValue).is_empty());
}

#[test]
fn rules_that_do_not_compile() {
    let mut model = model(
        "(declare-const fee Real)
         (declare-const isLow Bool)
         (declare-const units Int)
         (assert (=> isLow (> fee (to_real units))))",
    );
    model.types.push(precept::model::TypeDef {
        name: "Empty".into(),
        description: "nothing".into(),
        values: Vec::new(),
    });
    model.variables.push(Variable {
        reading: Default::default(),
        name: "cost".into(),
        sort: "Money".into(),
        description: "the cost".into(),
    });
    model.variables.push(Variable {
        reading: Default::default(),
        name: "fee".into(),
        sort: "Int".into(),
        description: "the fee again".into(),
    });
    model.rules.extend([
        rule("R2", "(> feee 3.0)"),
        rule("R3", "(not fee)"),
        rule("R4", "(> fee 1"),
        rule("R5", "(> price 1)"),
        rule("R6", "(> cost 1)"),
        rule("R1", "true"),
        rule("R10", "(or (> fee (* 2.0 Fee)) (< Fee 1.0))"),
    ]);
    let diagnostics = lint(&model);
    show(&diagnostics);
    assert_sorted(&diagnostics);

    let undeclared = of(&diagnostics, LintCode::UndeclaredName);
    let rules: Vec<&str> = undeclared.iter().map(|d| d.rules[0].as_str()).collect();
    assert_eq!(rules, vec!["R2", "R5", "R6", "R10"]);
    assert!(undeclared.iter().all(|d| d.severity == Severity::Error));
    assert!(
        undeclared[0].message.contains(
            "1:4: expected a declared variable or enum value, found the unknown name 'feee'"
        ),
        "{}",
        undeclared[0].message
    );
    assert_eq!(undeclared[0].variables, vec!["feee"]);
    assert_eq!(
        undeclared[0].fix.as_ref().unwrap().edit,
        ModelEdit::ReplaceRule {
            id: "R2".into(),
            expression: "(> fee 3.0)".into()
        }
    );
    assert!(
        undeclared[1].fix.is_none(),
        "price is not close to any name"
    );
    assert!(undeclared[2].message.contains("declaration has a problem"));
    assert!(undeclared[2].fix.is_none());
    // Every occurrence of a misspelling is replaced, keeping the text as written.
    assert_eq!(
        undeclared[3].fix.as_ref().unwrap().edit,
        ModelEdit::ReplaceRule {
            id: "R10".into(),
            expression: "(or (> fee (* 2.0 fee)) (< fee 1.0))".into()
        }
    );

    let mismatches = of(&diagnostics, LintCode::TypeMismatch);
    let subjects: Vec<String> = mismatches
        .iter()
        .map(|d| {
            d.rules
                .first()
                .or(d.variables.first())
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    // Empty (a type), R1 (the repeated id), R3, R4, then the variables cost
    // (of an unknown type) and fee (declared twice).
    assert_eq!(subjects, vec!["", "R1", "R3", "R4", "cost", "fee"]);
    assert!(mismatches[0].message.contains("The type Empty"));
    assert!(mismatches[1].message.contains("used twice"));
    assert!(mismatches[2].message.contains("does not type-check: 1:6:"));
    assert_eq!(mismatches[2].variables, vec!["fee"]);
    assert!(mismatches[3].message.contains("cannot be read: 1:9:"));
    assert!(mismatches[4].message.contains("'Money' is not declared"));
    assert!(
        mismatches[4]
            .message
            .contains("Every rule that mentions cost")
    );
    assert!(
        mismatches[5]
            .message
            .contains("The first declaration stands")
    );
    assert!(mismatches.iter().all(|d| d.severity == Severity::Error));
    assert!(mismatches.iter().all(|d| d.fix.is_none()));

    assert!(every_fix_removes_its_diagnostic(&model) >= 2);
}

#[test]
fn duplicate_and_equivalent_rules() {
    let model = model(
        "(declare-const a Bool)
         (declare-const b Bool)
         (declare-const p Bool)
         (declare-const q Bool)
         (declare-const x Real)
         (declare-const y Real)
         (assert (=> a (> x 1.0)))
         (assert (=> a (> x 1.0)))
         (assert (=> a (< 1.0 x)))
         (assert (=> (and a b) (= x (+ y 2.0))))
         (assert (=> (and b a) (= (+ 2.0 y) x)))
         (assert (=> b (> y 1.0)))
         (assert (=> a (> x 1.0)))
         (assert (=> (and p q) (>= x 3.0)))
         (assert (=> (and q p) (>= y 3.0)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    assert_sorted(&diagnostics);

    let duplicates = of(&diagnostics, LintCode::DuplicateRule);
    let pairs: Vec<Vec<String>> = duplicates.iter().map(|d| d.rules.clone()).collect();
    assert_eq!(pairs, vec![vec!["R2", "R1"], vec!["R7", "R1"]]);
    assert!(duplicates.iter().all(|d| d.severity == Severity::Warning));
    assert_eq!(
        duplicates[1].fix.as_ref().unwrap().edit,
        ModelEdit::DeleteRule {
            id: "R7".into(),
            into: Some("R1".into()),
        },
        "the copy's sentence goes to the rule it copies"
    );

    let equivalent = of(&diagnostics, LintCode::EquivalentRule);
    let found: Vec<(Vec<String>, Severity, bool)> = equivalent
        .iter()
        .map(|d| (d.rules.clone(), d.severity, d.fix.is_some()))
        .collect();
    let pair = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    assert_eq!(
        found,
        vec![
            (pair("R3", "R1"), Severity::Warning, true),
            (pair("R5", "R4"), Severity::Warning, true),
            (pair("R6", "R1"), Severity::Info, false),
            (pair("R9", "R8"), Severity::Info, false),
        ]
    );
    assert_eq!(equivalent[2].variables, vec!["b", "y", "a", "x"]);
    assert!(
        equivalent[2]
            .message
            .contains("b where R1 has a and y where R1 has x")
    );
    // Reordered arguments of `and` are not a renaming: only y replaces x.
    assert_eq!(equivalent[3].variables, vec!["y", "x"]);

    assert_eq!(every_fix_removes_its_diagnostic(&model), 4);
}

#[test]
fn rules_of_a_bare_shape_are_not_reported_as_renamings() {
    // Every `A ⇒ B` rule has the same shape; only rules that repeat a
    // number or an enum value can be a copy adapted halfway.
    let model = model(
        "(declare-datatype Tier ((GOLD) (SILVER)))
         (declare-const a Bool)
         (declare-const b Bool)
         (declare-const c Bool)
         (declare-const d Bool)
         (declare-const t Tier)
         (declare-const u Tier)
         (assert (=> a b))
         (assert (=> c d))
         (assert (=> (and a (not b)) d))
         (assert (=> (and c (not d)) b))
         (assert (=> a (= t GOLD)))
         (assert (=> c (= u GOLD)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    let equivalent = of(&diagnostics, LintCode::EquivalentRule);
    let pairs: Vec<Vec<String>> = equivalent.iter().map(|d| d.rules.clone()).collect();
    assert_eq!(pairs, vec![vec!["R6".to_string(), "R5".to_string()]]);
}

#[test]
fn renaming_must_keep_sorts() {
    let model = model(
        "(declare-const n Int)
         (declare-const x Real)
         (declare-const m Int)
         (assert (=> (> n 0) (>= n 1)))
         (assert (=> (> x 0) (>= x 1)))
         (assert (=> (> m 0) (>= m 1)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    let equivalent = of(&diagnostics, LintCode::EquivalentRule);
    assert_eq!(equivalent.len(), 1, "{equivalent:#?}");
    assert_eq!(equivalent[0].rules, vec!["R3", "R1"]);
}

#[test]
fn bare_assertions() {
    let model = model(
        "(declare-const baseFee Real)
         (declare-const fee Real)
         (declare-const low Bool)
         (declare-const n Int)
         (assert (= baseFee 50.0))
         (assert (and (>= n 0) (<= n 10)))
         (assert (=> low (= fee (* 0.5 baseFee))))
         (assert (and (=> low (> n 1)) (=> (not low) (< n 5))))
         (assert (= n (+ n 0)))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    let bare = of(&diagnostics, LintCode::BareAssertion);
    let rules: Vec<&str> = bare.iter().map(|d| d.rules[0].as_str()).collect();
    assert_eq!(rules, vec!["R1", "R2", "R5"]);
    assert!(bare.iter().all(|d| d.severity == Severity::Info));
    assert!(bare.iter().all(|d| d.fix.is_none()));
    assert!(bare[0].message.contains("definition"));
    assert!(bare[0].message.contains("sets baseFee to 50.0"));
    assert!(bare[0].message.contains("IMPOSSIBLE"));
    assert_eq!(bare[0].variables, vec!["baseFee"]);
    assert!(bare[1].message.contains("constraint"));
    assert_eq!(bare[1].variables, vec!["n"]);
    // n occurs on both sides: a constraint, not a definition.
    assert!(bare[2].message.contains("constraint"));
}

#[test]
fn descriptions() {
    let mut model = model(
        "(declare-datatype Tier ((GOLD) (SILVER)))
         (declare-const tier Tier)
         (declare-const fee Real)
         (declare-const cost Real)
         (declare-const price Real)
         (declare-const extra Real)
         (assert (=> (= tier GOLD) (> fee (+ cost price extra))))
         (assert (=> (= tier SILVER) (< fee (+ cost price extra))))",
    );
    model.types[0].description = "  ".into();
    model.types[0].values[1].description = String::new();
    model.variables[1].description = "Fee in dollars".into();
    model.variables[2].description = " fee  IN\tdollars ".into();
    model.variables[3].description = "fee in dollars".into();
    model.variables[4].description = "\n".into();
    let diagnostics = lint(&model);
    show(&diagnostics);
    assert_sorted(&diagnostics);

    let empty = of(&diagnostics, LintCode::EmptyDescription);
    assert_eq!(empty.len(), 3, "{empty:#?}");
    assert!(empty.iter().all(|d| d.severity == Severity::Warning));
    assert!(empty[0].message.contains("The type Tier"));
    assert!(
        empty[1]
            .message
            .contains("The value SILVER of the type Tier")
    );
    assert!(empty[2].message.contains("The variable extra"));
    assert_eq!(empty[2].variables, vec!["extra"]);

    let shared = of(&diagnostics, LintCode::SharedDescription);
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0].severity, Severity::Warning);
    assert_eq!(shared[0].variables, vec!["cost", "fee", "price"]);
    assert!(shared[0].message.contains("\"Fee in dollars\""));
}

#[test]
fn a_fresh_import_has_no_descriptions() {
    let model = import_smtlib(
        "(declare-datatype Tier ((GOLD) (SILVER)))
         (declare-const tier Tier)
         (assert (=> (= tier GOLD) (not (= tier SILVER))))",
    )
    .unwrap();
    let diagnostics = lint(&model);
    show(&diagnostics);
    // The type, its two values, and the variable.
    assert_eq!(of(&diagnostics, LintCode::EmptyDescription).len(), 4);
    assert!(of(&diagnostics, LintCode::SharedDescription).is_empty());
}

#[test]
fn the_order_is_stable() {
    let model = model(
        "(declare-const r10 Int)
         (declare-const r2 Int)
         (declare-const x Int)
         (assert (= x 1))
         (assert (= x 2))
         (assert (= x 3))
         (assert (= x 4))
         (assert (= x 5))
         (assert (= x 6))
         (assert (= x 7))
         (assert (= x 8))
         (assert (= x 9))
         (assert (= x 10))",
    );
    let diagnostics = lint(&model);
    show(&diagnostics);
    assert_eq!(diagnostics, lint(&model));
    let unused: Vec<&str> = of(&diagnostics, LintCode::UnusedVariable)
        .iter()
        .map(|d| d.variables[0].as_str())
        .collect();
    assert_eq!(unused, vec!["r2", "r10"]);
    let bare: Vec<&str> = of(&diagnostics, LintCode::BareAssertion)
        .iter()
        .map(|d| d.rules[0].as_str())
        .collect();
    assert_eq!(
        bare,
        vec!["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"]
    );
}

#[test]
fn samples_have_no_errors_and_no_unused_or_shared_names() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut names: Vec<_> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("model.json").exists())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3);
    for dir in names {
        let project = Project::load(&dir).unwrap();
        let diagnostics = lint(&project.model);
        println!(
            "== {} ({} diagnostics)",
            dir.file_name().unwrap().to_string_lossy(),
            diagnostics.len()
        );
        show(&diagnostics);
        assert!(
            diagnostics.iter().all(|d| d.severity != Severity::Error),
            "{}: errors",
            dir.display()
        );
        for code in [
            LintCode::UnusedVariable,
            LintCode::UnusedType,
            LintCode::SharedDescription,
        ] {
            assert!(
                of(&diagnostics, code).is_empty(),
                "{}: {}",
                dir.display(),
                code.code()
            );
        }
        every_fix_removes_its_diagnostic(&project.model);
    }
}

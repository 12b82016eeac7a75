//! The DMN TCK's test cases (`*-test-01.xml`) as logic tests: the input
//! nodes are the premise, the expected results the claim, and the finding
//! expected is VALID (the model proves the result).

use super::error::{DmnError, Place};
use super::feel_lexer::Number;
use super::terms::number_term;
use super::vocabulary::{Kind, Vocabulary};
use super::xml::{Source, child, children, parse_xml, place_of};
use crate::model::LogicTest;
use crate::model::finding::FindingKind;
use roxmltree::Node;

/// Reads the test cases in `source` against the imported vocabulary. Test
/// ids continue from `first_id` (T1 for the first file).
pub fn import_test_cases(
    source: &str,
    vocabulary: &Vocabulary,
    first_id: usize,
) -> Result<Vec<LogicTest>, DmnError> {
    let document = parse_xml(source)?;
    let root = document.root_element();
    if root.tag_name().name() != "testCases" {
        return Err(DmnError::new(
            place_of(&document, root),
            format!("element <{}>", root.tag_name().name()),
            "a TCK <testCases> element",
        ));
    }
    let model_name = child(root, "modelName")
        .and_then(|n| n.text())
        .unwrap_or("")
        .trim()
        .to_string();
    let mut tests = Vec::new();
    for case in children(root, "testCase") {
        let case_id = case.attribute("id").unwrap_or("?").to_string();
        let context = format!("test case {case_id}");
        let mut premise = Vec::new();
        for input in children(case, "inputNode") {
            premise.push(fact(&document, input, None, vocabulary, &context)?);
        }
        let mut claim = Vec::new();
        for result in children(case, "resultNode") {
            let Some(expected) = child(result, "expected") else {
                return Err(DmnError::new(
                    place_of(&document, result),
                    context,
                    "an <expected> inside <resultNode>",
                ));
            };
            let name = node_name(&document, result, &context)?;
            let components: Vec<Node> = children(expected, "component").collect();
            if components.is_empty() {
                claim.push(fact(
                    &document,
                    expected,
                    Some(&name),
                    vocabulary,
                    &context,
                )?);
            }
            for component in components {
                let part = node_name(&document, component, &context)?;
                claim.push(fact(
                    &document,
                    component,
                    Some(&format!("{name}.{part}")),
                    vocabulary,
                    &context,
                )?);
            }
        }
        let mut test = LogicTest::new(
            format!("T{}", first_id + tests.len()),
            format!("TCK {model_name} case {case_id}"),
            conjunction(premise),
            conjunction(claim),
            FindingKind::Valid,
        );
        test.note = case
            .children()
            .find(|c| c.tag_name().name() == "description")
            .and_then(|d| d.text())
            .map(|d| d.trim().to_string())
            .unwrap_or_else(|| format!("From the DMN TCK test cases of {model_name}."));
        tests.push(test);
    }
    Ok(tests)
}

fn conjunction(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

fn node_name(document: &Source, node: Node, context: &str) -> Result<String, DmnError> {
    node.attribute("name")
        .map(|n| n.trim().to_string())
        .ok_or_else(|| {
            DmnError::new(
                place_of(document, node),
                context.to_string(),
                "a name attribute",
            )
        })
}

/// `(= variable value)` for a node holding a `<value>` (named by its own
/// name attribute unless `name` is given).
fn fact(
    document: &Source,
    node: Node,
    name: Option<&str>,
    vocabulary: &Vocabulary,
    context: &str,
) -> Result<String, DmnError> {
    let name = match name {
        Some(n) => n.to_string(),
        None => node_name(document, node, context)?,
    };
    let place = place_of(document, node);
    let error = |place: Place, message: String| {
        DmnError::new(place, format!("{context}, '{name}'"), message)
    };
    let Some(index) = vocabulary.find(&name) else {
        return Err(error(
            place,
            "the name of an input data or decision of the model".into(),
        ));
    };
    let variable = &vocabulary.variables[index];
    let Some(value) = child(node, "value") else {
        return Err(error(
            place,
            "a single <value> (lists and nested structures are not supported)".into(),
        ));
    };
    let value_place = place_of(document, value);
    if value.attribute(("http://www.w3.org/2001/XMLSchema-instance", "nil")) == Some("true") {
        return Err(error(value_place, "a value (null is not supported)".into()));
    }
    let text = value.text().unwrap_or("").trim();
    let term = match variable.kind {
        Kind::Real | Kind::Int | Kind::Unknown => {
            let (negative, digits) = match text.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, text),
            };
            let number = Number::parse(digits)
                .ok_or_else(|| error(value_place, format!("a number, found '{text}'")))?;
            number_term(negative, &number, variable.kind)
                .map_err(|m| error(value_place, m.to_string()))?
                .text
        }
        Kind::Bool => match text {
            "true" | "false" => text.to_string(),
            _ => return Err(error(value_place, format!("true or false, found '{text}'"))),
        },
        Kind::Enum(e) => vocabulary
            .value_symbol(e, text)
            .map(str::to_string)
            .ok_or_else(|| {
                let values: Vec<String> = vocabulary.enums[e]
                    .values
                    .iter()
                    .map(|(v, _)| v.clone())
                    .collect();
                error(
                    value_place,
                    format!("one of {}, found '{text}'", values.join(", ")),
                )
            })?,
    };
    Ok(match (variable.kind, term.as_str()) {
        (Kind::Bool, "true") => variable.symbol.clone(),
        (Kind::Bool, _) => format!("(not {})", variable.symbol),
        _ => format!("(= {} {term})", variable.symbol),
    })
}

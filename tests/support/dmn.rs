//! Small DMN files written out for tests: one decision table over given
//! inputs, rows and hit policy.

/// A DMN 1.3 file with input data `inputs` (name, typeRef) and one
/// decision `Result` whose table has `table_attributes` (e.g.
/// `hitPolicy="FIRST"`), one output (`output` is the inner XML of
/// `<output>`, e.g. output values) and `rows` (input cells, output cell).
pub fn one_table(
    table_attributes: &str,
    inputs: &[(&str, &str)],
    output_type: &str,
    output: &str,
    rows: &[(&[&str], &str)],
) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" name=\"generated\" id=\"generated\" namespace=\"urn:test\">\n",
    );
    for (name, type_ref) in inputs {
        xml.push_str(&format!(
            "  <inputData name=\"{name}\" id=\"in_{}\"><variable name=\"{name}\" typeRef=\"{type_ref}\"/></inputData>\n",
            name.replace(' ', "_")
        ));
    }
    xml.push_str(&format!(
        "  <decision name=\"Result\" id=\"result\">\n    <variable name=\"Result\" typeRef=\"{output_type}\"/>\n    <decisionTable id=\"table\" {table_attributes}>\n"
    ));
    for (name, type_ref) in inputs {
        xml.push_str(&format!(
            "      <input id=\"col_{0}\" label=\"{name}\"><inputExpression typeRef=\"{type_ref}\"><text>{name}</text></inputExpression></input>\n",
            name.replace(' ', "_")
        ));
    }
    xml.push_str(&format!("      <output id=\"out\">{output}</output>\n"));
    for (r, (cells, result)) in rows.iter().enumerate() {
        xml.push_str(&format!("      <rule id=\"row{}\">\n", r + 1));
        for (c, cell) in cells.iter().enumerate() {
            xml.push_str(&format!(
                "        <inputEntry id=\"row{}_in{}\"><text>{}</text></inputEntry>\n",
                r + 1,
                c + 1,
                escape(cell)
            ));
        }
        xml.push_str(&format!(
            "        <outputEntry id=\"row{}_out\"><text>{}</text></outputEntry>\n      </rule>\n",
            r + 1,
            escape(result)
        ));
    }
    xml.push_str("    </decisionTable>\n  </decision>\n</definitions>\n");
    xml
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

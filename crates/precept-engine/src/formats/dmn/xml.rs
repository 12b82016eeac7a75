//! Reads DMN XML into [`Definitions`]. The file is read only up to a size
//! cap, and the parser refuses DTDs, so an entity-expansion bomb or a huge
//! file is refused quickly with bounded memory. Elements are matched by
//! local name, so the namespaces of DMN 1.1 to 1.5 all read the same.

use super::definitions::{
    Decision, DecisionLogic, Definitions, FeelText, InputData, ItemDefinition, Row, Table,
    TableInput, TableOutput,
};
use super::error::{DmnError, Place};
use roxmltree::{Document, Node, ParsingOptions};
use std::io::Read;
use std::path::Path;

/// The largest XML file read (a DMN model of tens of thousands of rows).
pub const MAX_XML_BYTES: u64 = 16 * 1024 * 1024;

/// The most XML nodes one file may hold.
const MAX_NODES: u32 = 2_000_000;

/// Reads `path` as UTF-8, refusing files over [`MAX_XML_BYTES`] without
/// reading them.
pub fn read_capped(path: &Path) -> Result<String, DmnError> {
    let at_start = Place { line: 1, column: 1 };
    let file = std::fs::File::open(path)
        .map_err(|e| DmnError::new(at_start, "the file", format!("a readable file ({e})")))?;
    let mut bytes = Vec::new();
    file.take(MAX_XML_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| DmnError::new(at_start, "the file", format!("a readable file ({e})")))?;
    if bytes.len() as u64 > MAX_XML_BYTES {
        return Err(DmnError::new(
            at_start,
            "the file",
            format!(
                "a file of at most {} MiB; this one is larger, so it was not read",
                MAX_XML_BYTES / (1024 * 1024)
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.into_bytes()[..offset]).into_owned();
        DmnError::new(at_start.within(&text, offset), "the file", "UTF-8 text")
    })
}

/// A parsed XML document with an index of its line starts, so that the
/// place of a node is found without rescanning the text.
pub struct Source<'input> {
    document: Document<'input>,
    line_starts: Vec<usize>,
}

impl<'input> std::ops::Deref for Source<'input> {
    type Target = Document<'input>;

    fn deref(&self) -> &Document<'input> {
        &self.document
    }
}

impl Source<'_> {
    /// The line and column (in characters) of byte `offset`.
    pub fn place_at(&self, offset: usize) -> Place {
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = self.line_starts[line.saturating_sub(1)];
        let text = self.document.input_text();
        let end = offset.min(text.len());
        Place {
            line: line as u32,
            column: text.get(start..end).map_or(0, |s| s.chars().count()) as u32 + 1,
        }
    }
}

/// Parses XML text with the limits every reader here uses.
pub fn parse_xml(source: &str) -> Result<Source<'_>, DmnError> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
    };
    let line_starts = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let document = Document::parse_with_options(source, options).map_err(|e| {
        let pos = e.pos();
        let message = match e {
            roxmltree::Error::DtdDetected => {
                "XML without a DTD (DTDs and their entities are refused: they can expand without bound)"
                    .to_string()
            }
            roxmltree::Error::NodesLimitReached => {
                format!("at most {MAX_NODES} XML nodes")
            }
            other => format!("well-formed XML ({other})"),
        };
        DmnError::new(
            Place {
                line: pos.row,
                column: pos.col,
            },
            "the XML",
            message,
        )
    })?;
    Ok(Source {
        document,
        line_starts,
    })
}

/// Where `node` starts.
pub fn place_of(source: &Source, node: Node) -> Place {
    source.place_at(node.range().start)
}

/// The children of `node` with local name `name`.
pub fn children<'a, 'input>(
    node: Node<'a, 'input>,
    name: &'static str,
) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

pub fn child<'a, 'input>(node: Node<'a, 'input>, name: &'static str) -> Option<Node<'a, 'input>> {
    children(node, name).next()
}

/// The FEEL text of `node`'s `<text>` child, placed where its text starts.
pub fn feel_text(document: &Source, node: Node) -> Option<FeelText> {
    let text = child(node, "text")?;
    let (place, raw) = match text.first_child() {
        Some(content) => (
            place_of(document, content),
            document.input_text()[content.range()].to_string(),
        ),
        None => (place_of(document, text), String::new()),
    };
    Some(FeelText {
        text: text.text().unwrap_or("").to_string(),
        place,
        element_id: node.attribute("id").unwrap_or("").to_string(),
        raw,
    })
}

/// Reads the DMN `<definitions>` in `source`.
pub fn read_definitions(source: &str) -> Result<Definitions, DmnError> {
    let document = parse_xml(source)?;
    let root = document.root_element();
    let namespace = root.tag_name().namespace().unwrap_or("");
    if root.tag_name().name() != "definitions" || !namespace.to_ascii_lowercase().contains("dmn") {
        return Err(DmnError::new(
            place_of(&document, root),
            format!("element <{}>", root.tag_name().name()),
            "a DMN <definitions> element in a DMN namespace (DMN 1.1 to 1.5)",
        ));
    }
    let mut definitions = Definitions {
        name: root.attribute("name").unwrap_or("").to_string(),
        ..Definitions::default()
    };
    for node in root.children().filter(Node::is_element) {
        match node.tag_name().name() {
            "inputData" => definitions.inputs.push(InputData {
                name: required_name(&document, node, "inputData")?,
                type_ref: child(node, "variable")
                    .and_then(|v| v.attribute("typeRef"))
                    .map(str::to_string),
                place: place_of(&document, node),
            }),
            "itemDefinition" => definitions.item_definitions.push(ItemDefinition {
                name: required_name(&document, node, "itemDefinition")?,
                type_ref: child(node, "typeRef")
                    .and_then(|t| t.text())
                    .map(|t| t.trim().to_string()),
                allowed_values: child(node, "allowedValues").and_then(|a| feel_text(&document, a)),
            }),
            "decision" => definitions.decisions.push(read_decision(&document, node)?),
            _ => {}
        }
    }
    Ok(definitions)
}

fn required_name(document: &Source, node: Node, what: &str) -> Result<String, DmnError> {
    match node.attribute("name") {
        Some(name) if !name.trim().is_empty() => Ok(name.trim().to_string()),
        _ => Err(DmnError::new(
            place_of(document, node),
            format!("<{what}>"),
            "a name attribute",
        )),
    }
}

fn read_decision(document: &Source, node: Node) -> Result<Decision, DmnError> {
    let name = required_name(document, node, "decision")?;
    let context = format!("decision '{name}'");
    let place = place_of(document, node);
    let required_decisions = children(node, "informationRequirement")
        .filter_map(|r| child(r, "requiredDecision"))
        .filter_map(|r| r.attribute("href"))
        .map(|href| href.trim_start_matches('#').to_string())
        .collect();
    let logic = if let Some(table) = child(node, "decisionTable") {
        DecisionLogic::Table(read_table(document, table, &context)?)
    } else if let Some(literal) = child(node, "literalExpression") {
        match feel_text(document, literal) {
            Some(text) => DecisionLogic::Literal(text),
            None => {
                return Err(DmnError::new(
                    place_of(document, literal),
                    context,
                    "a <text> inside <literalExpression>",
                ));
            }
        }
    } else {
        return Err(DmnError::new(
            place,
            context,
            "a <decisionTable> or a <literalExpression> (other kinds of decision logic are not supported)",
        ));
    };
    Ok(Decision {
        id: node.attribute("id").unwrap_or("").to_string(),
        type_ref: child(node, "variable")
            .and_then(|v| v.attribute("typeRef"))
            .map(str::to_string),
        name,
        required_decisions,
        logic,
        place,
    })
}

fn read_table(document: &Source, node: Node, context: &str) -> Result<Table, DmnError> {
    let mut inputs = Vec::new();
    for (i, input) in children(node, "input").enumerate() {
        let Some(expression) = child(input, "inputExpression") else {
            return Err(DmnError::new(
                place_of(document, input),
                format!("{context}, input {}", i + 1),
                "an <inputExpression>",
            ));
        };
        let Some(text) = feel_text(document, expression) else {
            return Err(DmnError::new(
                place_of(document, expression),
                format!("{context}, input {}", i + 1),
                "a <text> inside <inputExpression>",
            ));
        };
        inputs.push(TableInput {
            label: input
                .attribute("label")
                .map(str::to_string)
                .unwrap_or_else(|| text.text.trim().to_string()),
            expression: text,
            type_ref: expression.attribute("typeRef").map(str::to_string),
            input_values: child(input, "inputValues").and_then(|v| feel_text(document, v)),
        });
    }
    let outputs: Vec<TableOutput> = children(node, "output")
        .map(|output| TableOutput {
            name: output.attribute("name").map(str::to_string),
            type_ref: output.attribute("typeRef").map(str::to_string),
            output_values: child(output, "outputValues").and_then(|v| feel_text(document, v)),
            default: child(output, "defaultOutputEntry").and_then(|d| feel_text(document, d)),
            place: place_of(document, output),
        })
        .collect();
    if outputs.is_empty() {
        return Err(DmnError::new(
            place_of(document, node),
            context.to_string(),
            "a decision table with at least one <output>",
        ));
    }
    let mut rows = Vec::new();
    for (r, rule) in children(node, "rule").enumerate() {
        let cells = |name: &'static str| -> Result<Vec<FeelText>, DmnError> {
            children(rule, name)
                .enumerate()
                .map(|(c, entry)| {
                    feel_text(document, entry).ok_or_else(|| {
                        DmnError::new(
                            place_of(document, entry),
                            format!("{context}, rule {}, {name} {}", r + 1, c + 1),
                            "a <text> inside the entry",
                        )
                    })
                })
                .collect()
        };
        let row = Row {
            id: rule.attribute("id").unwrap_or("").to_string(),
            input_entries: cells("inputEntry")?,
            output_entries: cells("outputEntry")?,
            place: place_of(document, rule),
        };
        if row.input_entries.len() != inputs.len() || row.output_entries.len() != outputs.len() {
            return Err(DmnError::new(
                row.place,
                format!("{context}, rule {}", r + 1),
                format!(
                    "{} input entries and {} output entries (one per column), found {} and {}",
                    inputs.len(),
                    outputs.len(),
                    row.input_entries.len(),
                    row.output_entries.len()
                ),
            ));
        }
        rows.push(row);
    }
    Ok(Table {
        hit_policy: node.attribute("hitPolicy").unwrap_or("UNIQUE").to_string(),
        aggregation: node.attribute("aggregation").map(str::to_string),
        type_ref: node.attribute("typeRef").map(str::to_string),
        inputs,
        outputs,
        rows,
        place: place_of(document, node),
    })
}

//! A DMN file as plain data: the parts of `<definitions>` that carry
//! meaning (input data, decisions with their tables or literal
//! expressions, item definitions), each with its place in the file.

use super::error::Place;

/// A piece of FEEL text and where its first character is in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FeelText {
    pub text: String,
    pub place: Place,
    /// The id of the element that holds it (e.g. an `inputEntry`).
    pub element_id: String,
    /// The text as written in the file (with `&gt;` and the like).
    pub raw: String,
}

impl FeelText {
    /// Where byte `offset` of the (decoded) text is in the file.
    pub fn place_at(&self, offset: usize) -> Place {
        if self.raw.is_empty() || self.raw.starts_with("<![CDATA[") {
            return self.place.within(&self.text, offset);
        }
        let mut raw = 0;
        for (i, c) in self.text.char_indices() {
            if i >= offset || raw >= self.raw.len() {
                break;
            }
            let rest = &self.raw[raw..];
            raw += if rest.starts_with('&') {
                rest.find(';').map_or(1, |end| end + 1)
            } else if c == '\n' && rest.starts_with("\r\n") {
                2
            } else {
                rest.chars().next().map_or(1, char::len_utf8)
            };
        }
        self.place.within(&self.raw, raw)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Definitions {
    pub name: String,
    pub inputs: Vec<InputData>,
    pub decisions: Vec<Decision>,
    pub item_definitions: Vec<ItemDefinition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct InputData {
    pub name: String,
    pub type_ref: Option<String>,
    pub place: Place,
}

/// A simple item definition: a base type, perhaps with allowed values.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDefinition {
    pub name: String,
    pub type_ref: Option<String>,
    pub allowed_values: Option<FeelText>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub name: String,
    pub id: String,
    pub type_ref: Option<String>,
    /// The ids (without `#`) of the decisions this one requires.
    pub required_decisions: Vec<String>,
    pub logic: DecisionLogic,
    pub place: Place,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DecisionLogic {
    Table(Table),
    Literal(FeelText),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// As written in `hitPolicy` (UNIQUE when absent).
    pub hit_policy: String,
    pub aggregation: Option<String>,
    pub type_ref: Option<String>,
    pub inputs: Vec<TableInput>,
    pub outputs: Vec<TableOutput>,
    pub rows: Vec<Row>,
    pub place: Place,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TableInput {
    pub label: String,
    pub expression: FeelText,
    pub type_ref: Option<String>,
    pub input_values: Option<FeelText>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TableOutput {
    pub name: Option<String>,
    pub type_ref: Option<String>,
    pub output_values: Option<FeelText>,
    pub default: Option<FeelText>,
    pub place: Place,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub input_entries: Vec<FeelText>,
    pub output_entries: Vec<FeelText>,
    pub place: Place,
}

//! The variables and enumeration types a DMN model becomes: one variable per
//! input data and per decision output, typed from `typeRef` (or, where the
//! file gives none, from the literals its cells compare with), and an enum
//! for each string, whose values are the declared input/output values or
//! the strings the cells use. An input string without declared values also
//! gets an "other" value: DMN allows any string there.

use super::definitions::{FeelText, ItemDefinition};
use super::names::{Symbols, camel, pascal, value_symbol};
use crate::model::{EnumValue, TypeDef, Variable};
use std::collections::HashMap;

/// A variable's type while the model is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Not yet known: the cells will tell.
    Unknown,
    Real,
    Int,
    Bool,
    /// An enumeration: the index of its type.
    Enum(usize),
}

/// A type as `typeRef` declares it.
#[derive(Debug, Clone, PartialEq)]
pub enum Declared {
    Real,
    Int,
    Bool,
    /// A string, perhaps with its allowed values.
    Text(Option<FeelText>),
}

/// What `type_ref` means: a FEEL base type, or an item definition of one.
/// `None` for anything else (structures, dates), which callers refuse or
/// infer.
pub fn declared_kind(type_ref: &str, items: &[ItemDefinition]) -> Option<Declared> {
    let local = type_ref.rsplit(':').next().unwrap_or(type_ref).trim();
    match local {
        "number" | "decimal" | "double" | "float" => Some(Declared::Real),
        "integer" | "int" | "long" => Some(Declared::Int),
        "boolean" => Some(Declared::Bool),
        "string" => Some(Declared::Text(None)),
        _ => {
            let item = items.iter().find(|i| i.name == local)?;
            match declared_kind(item.type_ref.as_deref()?, &[])? {
                Declared::Text(_) => Some(Declared::Text(item.allowed_values.clone())),
                other => Some(other),
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct EnumType {
    pub name: String,
    pub description: String,
    /// DMN values in first-seen order, with their symbols once finalized.
    pub values: Vec<(String, String)>,
    /// Whether values outside the list are possible (an input without
    /// declared values): then an "other" value stands for them.
    pub open: bool,
    /// Whether the file lists the values (input, output or allowed
    /// values): then a cell naming another value is a mistake.
    pub declared: bool,
    pub other: Option<String>,
}

#[derive(Debug, Clone)]
pub struct DmnVariable {
    pub dmn_name: String,
    pub symbol: String,
    pub kind: Kind,
    pub description: String,
}

#[derive(Debug, Default)]
pub struct Vocabulary {
    pub variables: Vec<DmnVariable>,
    by_name: HashMap<String, usize>,
    pub enums: Vec<EnumType>,
    symbols: Symbols,
}

impl Vocabulary {
    /// The variable for a DMN name, declaring it on first use.
    pub fn declare(&mut self, dmn_name: &str, description: &str) -> usize {
        if let Some(&index) = self.by_name.get(dmn_name) {
            return index;
        }
        let symbol = camel(dmn_name);
        let symbol = self.symbols.claim(symbol.clone(), format!("{symbol}Value"));
        self.variables.push(DmnVariable {
            dmn_name: dmn_name.to_string(),
            symbol,
            kind: Kind::Unknown,
            description: description.to_string(),
        });
        self.by_name
            .insert(dmn_name.to_string(), self.variables.len() - 1);
        self.variables.len() - 1
    }

    pub fn find(&self, dmn_name: &str) -> Option<usize> {
        self.by_name.get(dmn_name).copied()
    }

    /// Gives a variable of unknown type the declared type; a known type
    /// stays. Returns the kind now held.
    pub fn settle(&mut self, variable: usize, declared: &Declared, open: bool) -> Kind {
        let current = self.variables[variable].kind;
        if current != Kind::Unknown {
            return current;
        }
        let kind = match declared {
            Declared::Real => Kind::Real,
            Declared::Int => Kind::Int,
            Declared::Bool => Kind::Bool,
            Declared::Text(allowed) => {
                let name = pascal(&self.variables[variable].dmn_name);
                let name = self.symbols.claim(name.clone(), format!("{name}Type"));
                let description = format!(
                    "The possible values of {}",
                    self.variables[variable]
                        .description
                        .replace("DMN ", "the DMN ")
                );
                self.enums.push(EnumType {
                    name,
                    description,
                    values: Vec::new(),
                    open: open && allowed.is_none(),
                    declared: false,
                    other: None,
                });
                Kind::Enum(self.enums.len() - 1)
            }
        };
        self.variables[variable].kind = kind;
        kind
    }

    /// Adds a DMN string value to an enum (if new).
    pub fn add_value(&mut self, enum_index: usize, value: &str) {
        let values = &mut self.enums[enum_index].values;
        if !values.iter().any(|(v, _)| v == value) {
            values.push((value.to_string(), String::new()));
        }
    }

    /// Marks an enum's values as complete (declared input or output values).
    pub fn close(&mut self, enum_index: usize) {
        self.enums[enum_index].open = false;
        self.enums[enum_index].declared = true;
    }

    /// Gives every value its symbol, adds "other" to open enums, and settles
    /// still-unknown variables as numbers.
    pub fn finalize(&mut self) {
        for variable in &mut self.variables {
            if variable.kind == Kind::Unknown {
                variable.kind = Kind::Real;
            }
        }
        for e in 0..self.enums.len() {
            let type_name = self.enums[e].name.clone();
            let mut symbols = Vec::new();
            for (value, _) in &self.enums[e].values {
                let wanted = value_symbol(value);
                symbols.push(
                    self.symbols
                        .claim(wanted.clone(), format!("{type_name}_{wanted}")),
                );
            }
            for (slot, symbol) in self.enums[e].values.iter_mut().zip(symbols) {
                slot.1 = symbol;
            }
            if self.enums[e].open || self.enums[e].values.is_empty() {
                let other = self
                    .symbols
                    .claim(format!("Other{type_name}"), format!("{type_name}_Other"));
                self.enums[e].other = Some(other);
            }
        }
    }

    /// The symbol of a DMN string value of an enum: its own, or the
    /// "other" value of an open enum.
    pub fn value_symbol(&self, enum_index: usize, value: &str) -> Option<&str> {
        let e = &self.enums[enum_index];
        e.values
            .iter()
            .find(|(v, _)| v == value)
            .map(|(_, s)| s.as_str())
            .or(e.other.as_deref())
    }

    pub fn sort_name(&self, kind: Kind) -> String {
        match kind {
            Kind::Unknown | Kind::Real => "Real".into(),
            Kind::Int => "Int".into(),
            Kind::Bool => "Bool".into(),
            Kind::Enum(e) => self.enums[e].name.clone(),
        }
    }

    /// The model's types and variables.
    pub fn declarations(&self) -> (Vec<TypeDef>, Vec<Variable>) {
        let types = self
            .enums
            .iter()
            .map(|e| {
                let mut values: Vec<EnumValue> = e
                    .values
                    .iter()
                    .map(|(value, symbol)| EnumValue {
                        reading: Default::default(),
                        value: symbol.clone(),
                        description: format!("\"{value}\""),
                    })
                    .collect();
                if let Some(other) = &e.other {
                    values.push(EnumValue {
                        reading: Default::default(),
                        value: other.clone(),
                        description: "any other string".into(),
                    });
                }
                TypeDef {
                    name: e.name.clone(),
                    description: e.description.clone(),
                    values,
                }
            })
            .collect();
        let variables = self
            .variables
            .iter()
            .map(|v| Variable {
                reading: Default::default(),
                name: v.symbol.clone(),
                sort: self.sort_name(v.kind),
                description: v.description.clone(),
            })
            .collect();
        (types, variables)
    }
}

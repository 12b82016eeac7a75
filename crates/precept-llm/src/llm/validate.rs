//! A small JSON Schema checker: enough of the vocabulary for our reply
//! schemas (`type`, `properties`, `required`, `items`, `enum`,
//! `additionalProperties: false`). Servers may ignore the schema they were
//! given, so every reply goes through here before anyone uses it.

use serde_json::Value;

/// Where a reply departs from its schema, and how.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaMismatch {
    #[error("the reply is {found} where an object was expected")]
    NotAnObject { found: &'static str },
    #[error("{path}: expected {expected}, found {found}")]
    WrongType {
        path: String,
        expected: String,
        found: &'static str,
    },
    #[error("{path}: {value} is not one of the allowed values")]
    NotAllowed { path: String, value: String },
    #[error("{path}: missing required property '{name}'")]
    Missing { path: String, name: String },
    #[error("{path}: unexpected property '{name}'")]
    Unexpected { path: String, name: String },
}

/// Checks `value` against `schema`. The top level must be an object. The
/// error names the first offending place as a JSON pointer-like path.
pub fn validate_reply(value: &Value, schema: &Value) -> Result<(), SchemaMismatch> {
    if !value.is_object() {
        return Err(SchemaMismatch::NotAnObject {
            found: type_name(value),
        });
    }
    validate(value, schema, "$")
}

/// Checks `value` against `schema` at `path` (used in messages).
pub fn validate(value: &Value, schema: &Value, path: &str) -> Result<(), SchemaMismatch> {
    let Some(schema) = schema.as_object() else {
        // `true` or a non-object schema accepts anything.
        return Ok(());
    };
    if let Some(expected) = schema.get("type") {
        let allowed: Vec<&str> = match expected {
            Value::String(name) => vec![name.as_str()],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !allowed.is_empty() && !allowed.iter().any(|name| has_type(value, name)) {
            return Err(SchemaMismatch::WrongType {
                path: path.to_string(),
                expected: allowed.join(" or "),
                found: type_name(value),
            });
        }
    }
    if let Some(Value::Array(options)) = schema.get("enum")
        && !options.contains(value)
    {
        return Err(SchemaMismatch::NotAllowed {
            path: path.to_string(),
            value: value.to_string(),
        });
    }
    if let Value::Object(fields) = value {
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                // A property that may be null may also be left out (a
                // server that does not follow the schema strictly).
                let nullable = schema
                    .get("properties")
                    .and_then(|p| p.get(name))
                    .and_then(|p| p.get("type"))
                    .is_some_and(|t| {
                        t == "null" || t.as_array().is_some_and(|a| a.contains(&"null".into()))
                    });
                if !fields.contains_key(name) && !nullable {
                    return Err(SchemaMismatch::Missing {
                        path: path.to_string(),
                        name: name.to_string(),
                    });
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, field) in fields {
            match properties.and_then(|p| p.get(name)) {
                Some(sub) => validate(field, sub, &format!("{path}.{name}"))?,
                None => {
                    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                        return Err(SchemaMismatch::Unexpected {
                            path: path.to_string(),
                            name: name.clone(),
                        });
                    }
                }
            }
        }
    }
    if let (Value::Array(elements), Some(items)) = (value, schema.get("items")) {
        for (index, element) in elements.iter().enumerate() {
            validate(element, items, &format!("{path}[{index}]"))?;
        }
    }
    Ok(())
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64()
                || value.is_u64()
                || value
                    .as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.is_finite())
        }
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_required_property_that_may_be_null_may_be_left_out_and_no_other() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "reading": {"type": ["object", "null"]}
            },
            "required": ["name", "reading"],
            "additionalProperties": false
        });
        assert_eq!(validate_reply(&json!({"name": "x"}), &schema), Ok(()));
        assert_eq!(
            validate_reply(&json!({"name": "x", "reading": null}), &schema),
            Ok(())
        );
        assert_eq!(
            validate_reply(&json!({"reading": null}), &schema),
            Err(SchemaMismatch::Missing {
                path: "$".into(),
                name: "name".into()
            })
        );
        assert!(validate_reply(&json!({"name": "x", "reading": "no"}), &schema).is_err());
    }
}

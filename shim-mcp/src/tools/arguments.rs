//! A call's arguments against its tool's schema, before any handler sees them.
//!
//! MCP (2025-11-25, SEP-1303) answers arguments that do not fit as a tool
//! error, which the model reads and corrects, not as a protocol error, which
//! a host shows to no one. So every tool's arguments are checked here, by
//! its table entry, and each misfit is named: the parameter, the value given,
//! and what the parameter takes. What the schema cannot say (a mode's
//! syntax, a range that depends on the action) is left to the capability.

use rmcp::model::JsonObject;
use serde_json::Value;

use super::{Kind, ToolSpec};

/// Checks `args` against `spec`'s parameters, and leaves them as the
/// handlers read them: a null is an absent argument, and an integer written
/// as a whole float (`5.0`, `1e3`, integers to JSON Schema) is that integer.
/// Unknown names are left alone (the answer names them). The error lists
/// every misfit.
pub fn check(spec: &ToolSpec, args: &mut JsonObject) -> Result<(), String> {
    let mut misfits = Vec::new();
    for param in spec.params {
        if args.get(param.name).is_some_and(Value::is_null) {
            args.remove(param.name);
        }
        let Some(value) = args.get_mut(param.name) else {
            if param.required {
                misfits.push(format!("{} is required", param.name));
            }
            continue;
        };
        if let Err(why) = fit(&param.kind, value) {
            misfits.push(format!("{} {why}", param.name));
        }
    }
    if misfits.is_empty() { Ok(()) } else { Err(misfits.join("; ")) }
}

/// Whether `value` is one of `kind`'s, made the integer it stands for when
/// it is one; else why not, after the parameter's name.
fn fit(kind: &Kind, value: &mut Value) -> Result<(), String> {
    let fits = match kind {
        Kind::Int(range) | Kind::Ranged(range) => {
            let Some(n) = whole(value) else { return Err(format!("must be {}, not {}", takes(kind), shown(value))) };
            if !(i128::from(*range.start())..=i128::from(*range.end())).contains(&n) {
                return Err(format!("{} is out of range: use {} to {}", shown(value), range.start(), range.end()));
            }
            // In range, so within u64.
            *value = Value::from(n as u64);
            true
        }
        Kind::Str | Kind::OneOf(_) | Kind::Matching(_) => value.is_string(),
        Kind::Num => value.is_number(),
        Kind::Bool => value.is_boolean(),
        Kind::List => strings(value),
        Kind::Map => value.as_object().is_some_and(|map| map.values().all(Value::is_string)),
        Kind::StrOrList => value.is_string() || strings(value),
        Kind::StrOrInt => value.is_string() || whole(value).is_some(),
    };
    if fits { Ok(()) } else { Err(format!("must be {}, not {}", takes(kind), shown(value))) }
}

/// What a parameter of `kind` takes, as an error names it.
fn takes(kind: &Kind) -> String {
    match kind {
        Kind::Int(range) | Kind::Ranged(range) => format!("an integer from {} to {}", range.start(), range.end()),
        Kind::Str | Kind::Matching(_) => "a string".into(),
        Kind::OneOf(values) => format!("one of {}", values.join(", ")),
        Kind::Num => "a number".into(),
        Kind::Bool => "true or false".into(),
        Kind::List => "an array of strings".into(),
        Kind::Map => "an object of string values".into(),
        Kind::StrOrList => "a string or an array of strings".into(),
        Kind::StrOrInt => "a string or an integer".into(),
    }
}

/// The integer `value` is, if it is one. A float is one when it has no
/// fraction; one too large for i128 saturates, which is out of every range.
fn whole(value: &Value) -> Option<i128> {
    let Value::Number(n) = value else { return None };
    if let Some(n) = n.as_i64() {
        return Some(n.into());
    }
    if let Some(n) = n.as_u64() {
        return Some(n.into());
    }
    n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i128)
}

fn strings(value: &Value) -> bool {
    value.as_array().is_some_and(|items| items.iter().all(Value::is_string))
}

/// The longest value an error repeats: a misplaced file body is not echoed back whole.
const SHOWN_MAX: usize = 60;

/// `value` as it was given (JSON), cut short when long.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN_MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tools::find;

    fn checked(tool: &str, args: Value) -> Result<Value, String> {
        let Value::Object(mut args) = args else { panic!("arguments are an object") };
        check(find(tool).unwrap(), &mut args).map(|()| Value::Object(args))
    }

    #[test]
    fn an_integer_out_of_its_range_names_the_parameter_the_value_and_the_range() {
        for (args, said) in [
            (json!({"start_line": -1}), "start_line -1 is out of range: use 1 to 4294967295"),
            (json!({"limit": 4_294_967_296_u64}), "limit 4294967296 is out of range: use 1 to 4294967295"),
            (json!({"limit": 1e12}), "limit 1000000000000.0 is out of range: use 1 to 4294967295"),
            (json!({"limit": 1.5}), "limit must be an integer from 1 to 4294967295, not 1.5"),
            (json!({"limit": "5"}), r#"limit must be an integer from 1 to 4294967295, not "5""#),
            (json!({"limit": true}), "limit must be an integer from 1 to 4294967295, not true"),
        ] {
            assert_eq!(checked("ctx_read", args.clone()), Err(said.to_string()), "{args}");
        }
        assert_eq!(
            checked("ctx_repomap", json!({"max_tokens": -5})),
            Err("max_tokens -5 is out of range: use 64 to 16384".into())
        );
        assert_eq!(
            checked("ctx_shell", json!({"command": "true", "timeout_ms": 3_600_001})),
            Err("timeout_ms 3600001 is out of range: use 1 to 3600000".into())
        );
    }

    /// The schema says `minimum: 1`; a host that ignores it gets the range named, never a panic,
    /// and a 0 is the default only where the field takes it as such.
    #[test]
    fn a_count_or_position_under_one_is_refused_naming_its_range_unless_0_is_its_default() {
        use crate::tools::{Kind, table::TOOLS};
        for spec in TOOLS {
            for param in spec.params {
                let Kind::Int(range) = &param.kind else { continue };
                // With the tool's required arguments, so the misfit named is this one alone.
                let given = |n: i64| {
                    let mut args = json!({param.name: n});
                    for required in spec.params.iter().filter(|p| p.required) {
                        args[required.name] = match required.kind {
                            Kind::OneOf(values) => json!(values[0]),
                            _ => json!("x"),
                        };
                    }
                    checked(spec.name, args)
                };
                let refused =
                    |n: i64| format!("{} {n} is out of range: use {} to {}", param.name, range.start(), range.end());
                assert_eq!(given(-3), Err(refused(-3)), "{} {}", spec.name, param.name);
                match range.start() {
                    0 => assert_eq!(given(0).unwrap()[param.name], 0, "{} {}", spec.name, param.name),
                    _ => assert_eq!(given(0), Err(refused(0)), "{} {}", spec.name, param.name),
                }
            }
        }
        assert_eq!(
            checked("ctx_edit", json!({"path": "a", "new_string": "b", "end_line": 0})),
            Err("end_line 0 is out of range: use 1 to 4294967295".into())
        );
    }

    #[test]
    fn the_ends_of_a_range_and_whole_floats_are_integers() {
        let fits = checked("ctx_read", json!({"path": "a", "start_line": 1, "limit": 4_294_967_295_u64})).unwrap();
        assert_eq!(fits, json!({"path": "a", "start_line": 1, "limit": 4_294_967_295_u64}));
        assert_eq!(checked("ctx_read", json!({"limit": 5.0})).unwrap(), json!({"limit": 5}));
        assert_eq!(checked("ctx_repomap", json!({"max_tokens": 16384})).unwrap(), json!({"max_tokens": 16384}));
    }

    #[test]
    fn every_misfit_is_named_at_once_and_a_null_is_an_absent_argument() {
        assert_eq!(
            checked("ctx_edit", json!({"path": 5, "new_string": null, "replace_all": "yes"})),
            Err("path must be a string, not 5; new_string is required; replace_all must be true or false, not \"yes\""
                .into())
        );
        assert_eq!(checked("ctx_tree", json!({"depth": null, "path": "src"})).unwrap(), json!({"path": "src"}));
        assert_eq!(
            checked("ctx_search", json!({"pattern": "x", "action": 3})),
            Err("action must be one of regex, bm25, symbol, not 3".into())
        );
    }

    #[test]
    fn the_leniencies_of_lean_ctx_stay_accepted() {
        assert!(checked("ctx_search", json!({"pattern": "x", "include": ["*.rs", "*.py"]})).is_ok());
        assert!(checked("ctx_shell", json!({"background_action": "status", "job_id": 7})).is_ok());
        assert!(checked("ctx_shell", json!({"background_action": "status", "job_id": "7"})).is_ok());
        assert!(checked("ctx_read", json!({"path": "a", "what": [1]})).is_ok(), "unknown names are left alone");
        assert_eq!(
            checked("ctx_search", json!({"pattern": "x", "include": [1]})),
            Err("include must be a string or an array of strings, not [1]".into())
        );
    }

    #[test]
    fn a_long_value_is_cut_short() {
        let long = "x".repeat(1000);
        let said = checked("ctx_read", json!({"limit": long})).unwrap_err();
        assert!(said.ends_with(&format!("not \"{}…", "x".repeat(SHOWN_MAX - 1))), "{said}");
    }
}

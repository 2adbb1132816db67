//! The MCP tools: one [`ToolSpec`] each in [`table::TOOLS`], with the
//! handler that turns lean-ctx's parameters into a capability's neutral
//! arguments (`lctx::capability`), which builds the request and renders the
//! answer exactly as `lctx` shows it.
//!
//! Adding a tool is one table entry plus a handler in the module of its
//! service. Names and parameter names follow lean-ctx so users can switch.

pub mod arguments;
mod graph;
mod impact;
mod memory;
mod read;
mod repomap;
mod search;
mod shell;
pub mod table;

use std::future::Future;
use std::ops::RangeInclusive;
use std::pin::Pin;
use std::sync::Arc;

use lctx::backend::Backend;
use lctx::capability::{self, Answer};
use lean_ctx_proto::v1::RequestContext;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::profile::{Profile, Selection};

/// Why a call produced no [`Output`].
#[derive(Debug)]
pub enum Failure {
    /// The daemon (or the fallback child) refused or failed the call.
    Status(tonic::Status),
    /// A tool error with this message: an argument that does not fit the
    /// schema or that the tool cannot use, or no engine to be had (no
    /// `lean-ctxd` to run).
    Refused(String),
}

impl From<capability::Error> for Failure {
    fn from(e: capability::Error) -> Self {
        match e {
            capability::Error::Usage(message) => Failure::Refused(message),
            capability::Error::Status(status) => Failure::Status(status),
        }
    }
}

/// One call of a handler; handlers may run twice (see `retry`), so they only
/// borrow the arguments.
pub struct Call<'a> {
    pub ctx: RequestContext,
    pub args: &'a Value,
}

impl Call<'_> {
    /// The arguments, already checked against the schema (`arguments`), as
    /// the handler's own type; a mismatch left is a table entry and a handler
    /// that disagree, said as a tool error all the same.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Failure> {
        T::deserialize(self.args).map_err(|e| Failure::Refused(format!("arguments: {e}")))
    }
}

pub type Reply<'a> = Pin<Box<dyn Future<Output = Result<Answer, Failure>> + Send + 'a>>;
pub type Run = for<'a> fn(&'a Backend, Call<'a>) -> Reply<'a>;

/// JSON type of a parameter, as the schema states it.
pub enum Kind {
    Str,
    /// A count or a 1-based position within this range: what its field holds,
    /// narrowed to what the tool accepts whatever the other arguments say.
    /// The schema states `minimum: 1`, so an agent does not send 0 or less
    /// (a range starting at 0 takes 0 as its default, what a host filling in
    /// every parameter sends), and no cap, which nobody reaches and would
    /// cost tokens on every turn. A value out of range is refused naming it.
    Int(RangeInclusive<u64>),
    /// [`Kind::Int`] whose range the schema states as `minimum` and
    /// `maximum`: a range an agent chooses within (a depth, a budget, a
    /// timeout), not a count's floor or a cap nobody reaches.
    Ranged(RangeInclusive<u64>),
    Num,
    Bool,
    /// An array of strings.
    List,
    /// An object of string values.
    Map,
    /// A string out of a fixed set.
    OneOf(&'static [&'static str]),
    /// A string matching this regular expression.
    Matching(&'static str),
    /// A string in lean-ctx's schema, which is all that is listed; an array
    /// of strings is accepted too.
    StrOrList,
    /// A string in lean-ctx's schema, which is all that is listed; an
    /// integer is accepted too.
    StrOrInt,
}

pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
    /// Empty when the name says it all: every word costs tokens on every turn.
    pub doc: &'static str,
    pub required: bool,
    /// The `action`s that use the parameter; empty: every call. Given to another action, it is
    /// ignored, and the answer says so.
    pub actions: &'static [&'static str],
}

/// When a call may be repeated after the daemon went away mid-call.
pub enum Idempotent {
    Always,
    Never,
    /// Only for these values of the `action` argument.
    Actions(&'static [&'static str]),
}

impl Idempotent {
    pub fn holds(&self, args: &Value) -> bool {
        match self {
            Idempotent::Always => true,
            Idempotent::Never => false,
            Idempotent::Actions(actions) => {
                let action = args.get("action").and_then(Value::as_str).unwrap_or_default();
                actions.contains(&action.trim())
            }
        }
    }
}

pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// A line for the server instructions while this tool is advertised.
    pub hint: &'static str,
    pub params: &'static [Param],
    /// The smallest profile that advertises the tool.
    pub profile: Profile,
    /// Touches no file and runs nothing (`readOnlyHint`).
    pub read_only: bool,
    pub idempotent: Idempotent,
    pub run: Run,
}

impl ToolSpec {
    /// The tool as `tools/list` shows it.
    pub fn tool(&self) -> Tool {
        let mut properties = JsonObject::new();
        for p in self.params {
            let mut schema = match p.kind {
                Kind::Str | Kind::StrOrList | Kind::StrOrInt => json!({"type": "string"}),
                Kind::Int(_) => json!({"type": "integer", "minimum": 1}),
                Kind::Ranged(ref range) => {
                    json!({"type": "integer", "minimum": range.start(), "maximum": range.end()})
                }
                Kind::Num => json!({"type": "number"}),
                Kind::Bool => json!({"type": "boolean"}),
                Kind::List => json!({"type": "array", "items": {"type": "string"}}),
                Kind::Map => json!({"type": "object", "additionalProperties": {"type": "string"}}),
                Kind::OneOf(values) => json!({"type": "string", "enum": values}),
                Kind::Matching(pattern) => json!({"type": "string", "pattern": pattern}),
            };
            if !p.doc.is_empty() {
                schema["description"] = json!(p.doc);
            }
            properties.insert(p.name.to_string(), schema);
        }
        let mut schema = JsonObject::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        let required: Vec<_> = self.params.iter().filter(|p| p.required).map(|p| p.name).collect();
        if !required.is_empty() {
            schema.insert("required".into(), json!(required));
        }
        let mut tool = Tool::default();
        tool.name = self.name.into();
        tool.description = Some(self.description.into());
        tool.input_schema = Arc::new(schema);
        tool.annotations = self.read_only.then(|| ToolAnnotations::new().read_only(true));
        tool
    }

    /// Argument names the schema does not know; they are ignored, and the
    /// answer says so rather than letting the model believe they took effect.
    pub fn unknown_params<'a>(&self, args: &'a Value) -> Vec<&'a str> {
        let Some(object) = args.as_object() else { return Vec::new() };
        object.keys().map(String::as_str).filter(|k| !self.params.iter().any(|p| p.name == *k)).collect()
    }

    /// The call's `action`, or without one the action the tool takes by default (its `action`
    /// parameter's `default X`); `""` for neither.
    pub fn action<'a>(&self, args: &'a Value) -> &'a str
    where
        Self: 'a,
    {
        let default = self.params.iter().find(|p| p.name == "action").and_then(|p| p.doc.strip_prefix("default "));
        let given = args.get("action").and_then(Value::as_str).map(str::trim).filter(|a| !a.is_empty());
        given.or(default).unwrap_or_default()
    }

    /// Parameters given a value (not `""` or 0, what a host fills in for "none") that the call's
    /// `action` does not use: `value` means nothing to ctx_session's `status`, and an agent that
    /// passed it should learn that rather than believe it took effect. None for a call without a
    /// valid action, whose answer already says what the actions are.
    pub fn unused_params<'a>(&self, args: &'a Value) -> Vec<&'a str> {
        let Some(object) = args.as_object() else { return Vec::new() };
        let action = self.action(args);
        let known = self
            .params
            .iter()
            .any(|p| matches!(p.kind, Kind::OneOf(actions) if p.name == "action" && actions.contains(&action)));
        if !known {
            return Vec::new();
        }
        // An empty string, a zero (`0` or `0.0`, as some hosts send numbers) or null: a host
        // filling in every parameter, not an agent asking for something.
        let says_nothing = |value: &Value| value.is_null() || value.as_str() == Some("") || value.as_f64() == Some(0.0);
        object
            .iter()
            .filter(|(name, value)| {
                !says_nothing(value)
                    && self
                        .params
                        .iter()
                        .any(|p| p.name == *name && !p.actions.is_empty() && !p.actions.contains(&action))
            })
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// The unknown argument `name` as the answer names it, with the parameters it may have
    /// meant: those whose name holds it or is held by it (`timeout` → `timeout_ms`), so a
    /// model that guessed a name learns the right one instead of believing it took effect.
    pub fn unknown_with_hint(&self, name: &str) -> String {
        let folded = |s: &str| s.to_ascii_lowercase().replace(['_', '-'], "");
        let asked = folded(name);
        let meant: Vec<&str> = self
            .params
            .iter()
            .map(|p| p.name)
            .filter(|known| {
                let known = folded(known);
                asked.len() >= 3 && (known.contains(&asked) || asked.contains(&known))
            })
            .collect();
        match meant.as_slice() {
            [] => name.to_string(),
            _ => format!("{name} (did you mean {}?)", meant.join(" or ")),
        }
    }
}

pub fn find(name: &str) -> Option<&'static ToolSpec> {
    table::TOOLS.iter().find(|t| t.name == name)
}

/// The advertised tools, in table order.
pub fn listed(selection: &Selection) -> impl Iterator<Item = &'static ToolSpec> + '_ {
    table::TOOLS.iter().filter(|t| selection.lists(t.name, t.profile))
}

/// The server instructions: what the advertised tools are for, in a few lines.
pub fn instructions(selection: &Selection) -> String {
    let mut text = String::from(table::INSTRUCTIONS);
    for tool in listed(selection).filter(|t| !t.hint.is_empty()) {
        text.push('\n');
        text.push_str(tool.hint);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_states_the_ranges_an_agent_chooses_within() {
        let schema = |tool: &str, param: &str| {
            let spec = table::TOOLS.iter().find(|t| t.name == tool).unwrap();
            spec.tool().input_schema["properties"][param].clone()
        };
        let bounds = |tool: &str, param: &str| {
            let p = schema(tool, param);
            (p["minimum"].as_u64(), p["maximum"].as_u64())
        };
        // They were only in the descriptions, which a host's validation does not read.
        assert_eq!(bounds("ctx_shell", "timeout_ms"), (Some(1), Some(3_600_000)));
        assert_eq!(bounds("ctx_repomap", "max_tokens"), (Some(64), Some(16_384)));
        assert_eq!(bounds("ctx_callgraph", "depth"), (Some(1), Some(5)));
        assert_eq!(bounds("ctx_impact", "depth"), (Some(1), Some(5)));
        // A count's or a position's floor; its cap, which nobody reaches, is left to the error.
        assert_eq!(bounds("ctx_read", "limit"), (Some(1), None));
        for spec in table::TOOLS {
            for param in spec.params {
                if let Kind::Int(range) = &param.kind {
                    assert!(*range.start() <= 1, "{}: {} states a floor below its own", spec.name, param.name);
                    assert_eq!(bounds(spec.name, param.name), (Some(1), None), "{} {}", spec.name, param.name);
                }
            }
        }
        assert_eq!(schema("ctx_edit", "end_line")["description"], "default start_line");
    }

    #[test]
    fn every_tool_has_a_unique_name_and_valid_schema() {
        let mut names: Vec<_> = table::TOOLS.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), table::TOOLS.len(), "duplicate tool names");
        for spec in table::TOOLS {
            let tool = spec.tool();
            assert_eq!(tool.input_schema["type"], "object", "{}", spec.name);
            let limit = if spec.name == "ctx_read" { 900 } else { 400 };
            assert!(spec.description.len() < limit, "{} has a long description", spec.name);
        }
    }

    /// Shortened to make room, ctx_read still says what each mode sends and when a re-read is a stub.
    #[test]
    fn each_read_mode_has_its_line_and_the_stub_is_described() {
        let description = find("ctx_read").unwrap().description;
        for (name, _) in lctx::capability::read::MODES {
            assert!(description.lines().any(|line| line.starts_with(name)), "{name}: {description}");
        }
        // Code loses its comments; a text file in no syntax the outline knows is shortened as auto does.
        let aggressive = description.lines().find(|line| line.starts_with("aggressive")).unwrap();
        assert_eq!(aggressive, "aggressive: code without comments and blank lines; plain text as auto");
        assert!(description.contains("[unchanged] stub; fresh=true or lines: sends content."), "{description}");
    }

    #[test]
    fn the_config_knows_every_tool_by_name() {
        let names: Vec<_> = table::TOOLS.iter().map(|t| t.name).collect();
        assert_eq!(names, lean_ctx_common::config::MCP_TOOLS, "`lctx config set mcp_disabled_tools` checks these");
    }

    #[test]
    fn profiles_nest() {
        let names = |profile| listed(&Selection { profile, disabled: Vec::new() }).map(|t| t.name).collect::<Vec<_>>();
        let (minimal, standard, all) = (names(Profile::Minimal), names(Profile::Standard), names(Profile::All));
        let code = names(Profile::Code);
        assert!(minimal.iter().all(|n| standard.contains(n)));
        assert!(standard.iter().all(|n| code.contains(n)));
        assert!(code.iter().all(|n| all.contains(n)));
        for tool in ["ctx_callgraph", "ctx_repomap", "ctx_graph", "ctx_gain"] {
            assert!(code.contains(&tool) && !standard.contains(&tool), "{tool} is in code, not the default");
        }
        // What a change reaches and the tests to run: the code tool an agent needs most.
        assert!(standard.contains(&"ctx_impact"));
        assert_eq!(all.len(), table::TOOLS.len());
        assert!(minimal.contains(&"ctx_read") && minimal.contains(&"ctx_shell"));
    }

    #[test]
    fn unknown_arguments_are_named() {
        let spec = find("ctx_read").unwrap();
        assert_eq!(spec.unknown_params(&json!({"path": "a", "offset": 3})), vec!["offset"]);
        assert_eq!(spec.unknown_with_hint("offset"), "offset");
        assert_eq!(spec.unknown_with_hint("startLine"), "startLine (did you mean start_line?)");
        let shell = find("ctx_shell").unwrap();
        assert_eq!(shell.unknown_with_hint("timeout"), "timeout (did you mean timeout_ms?)");
        assert_eq!(shell.unknown_with_hint("id"), "id", "too short to guess from");
    }

    #[test]
    fn parameters_an_action_does_not_use_are_named() {
        let session = find("ctx_session").unwrap();
        assert_eq!(session.unused_params(&json!({"action": "status", "value": "x"})), vec!["value"]);
        assert_eq!(
            session.unused_params(&json!({"action": " list ", "session_id": "s", "limit": 3})),
            vec!["session_id"]
        );
        assert!(session.unused_params(&json!({"action": "status", "value": "", "limit": 0})).is_empty());
        assert!(session.unused_params(&json!({"action": "status", "value": null, "limit": 0.0})).is_empty());
        assert!(session.unused_params(&json!({"action": "task", "value": "t", "bogus": 1})).is_empty());
        assert!(session.unused_params(&json!({"limit": 3})).is_empty(), "no action: the error says which there are");
        assert!(session.unused_params(&json!({"action": "dance", "limit": 3})).is_empty());
        // QA: ctx_graph's and ctx_impact's actions dropped parameters silently, the default action too.
        let graph = find("ctx_graph").unwrap();
        assert_eq!(graph.unused_params(&json!({"path": "a.rs", "to": "b.rs", "depth": 2})), vec!["depth", "to"]);
        assert_eq!(graph.action(&json!({"path": "a.rs"})), "related");
        assert!(graph.unused_params(&json!({"action": "path", "path": "a.rs", "to": "b.rs", "depth": 2})).is_empty());
        let impact = find("ctx_impact").unwrap();
        assert_eq!(impact.unused_params(&json!({"action": "diff", "path": "a.rs"})), vec!["path"]);
        let knowledge = find("ctx_knowledge").unwrap();
        assert_eq!(
            knowledge.unused_params(&json!({"action": "list", "query": "q", "confidence": 0.5, "category": "c"})),
            vec!["confidence", "query"]
        );
    }

    #[test]
    fn a_parameter_is_used_by_actions_its_tool_has() {
        for spec in table::TOOLS {
            let actions = spec.params.iter().find_map(|p| match p.kind {
                Kind::OneOf(values) if p.name == "action" => Some(values),
                _ => None,
            });
            for param in spec.params.iter().filter(|p| !p.actions.is_empty()) {
                let actions = actions.unwrap_or_else(|| panic!("{} has no action for {}", spec.name, param.name));
                for action in param.actions {
                    assert!(actions.contains(action), "{}: {} names no action `{action}`", spec.name, param.name);
                }
            }
        }
    }

    #[test]
    fn idempotency_can_depend_on_the_action() {
        let recall = Idempotent::Actions(&["recall"]);
        assert!(recall.holds(&json!({"action": "recall"})));
        assert!(!recall.holds(&json!({"action": "remember"})));
        assert!(!recall.holds(&json!({})));
    }

    /// What a host loads each turn: the tools/list result plus the
    /// instructions, in o200k tokens. The default profile must stay within
    /// 1,500.
    #[test]
    fn per_turn_token_cost_stays_within_budget() {
        let bpe = bpe_openai::o200k_base();
        for profile in Profile::EVERY {
            let selection = Selection { profile, disabled: Vec::new() };
            let tools: Vec<Tool> = listed(&selection).map(ToolSpec::tool).collect();
            let list = serde_json::to_string(&json!({"tools": tools})).unwrap();
            let instructions = instructions(&selection);
            let cost = bpe.count(&list) + bpe.count(&instructions);
            eprintln!("profile {:<8} {:>2} tools  {cost:>5} tokens", profile.name(), tools.len());
            if profile == Profile::DEFAULT {
                assert!(cost <= 1500, "the default profile costs {cost} tokens per turn");
            }
        }
    }
}

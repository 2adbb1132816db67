//! Runs of CommonJS exports of names, printed as one line each. A CommonJS entry file, written
//! or compiled, often exports each name on a line of its own (`exports.isObject = isObject;`:
//! underscore's `cjs/index.js` has 146 such lines), and a line each costs about eight tokens. A
//! run's line keeps every exported name and the value it is given, which is the name itself
//! unless written: `exports.{VERSION = _setup.VERSION, isObject, isFinite = _isFinite}`.

use crate::model::{Definition, Kind};

/// The length of a run of at least two exports of names on one object (`exports` or
/// `module.exports`), and its line.
pub fn run(definitions: &[Definition]) -> Option<(usize, String)> {
    let first = Exported::parse(definitions.first()?)?;
    let run: Vec<Exported> = definitions
        .iter()
        .map_while(|definition| Exported::parse(definition).filter(|next| next.object == first.object))
        .collect();
    let names: Vec<String> = run
        .iter()
        .map(|export| match export.value == export.name {
            true => export.name.to_string(),
            false => format!("{} = {}", export.name, export.value),
        })
        .collect();
    (run.len() >= 2).then(|| (run.len(), format!("{}.{{{}}}", first.object, names.join(", "))))
}

/// `<object>.<name> = <value>`, as the outline lists a name exported by assignment.
struct Exported<'d> {
    object: &'d str,
    name: &'d str,
    value: &'d str,
}

impl<'d> Exported<'d> {
    fn parse(definition: &'d Definition) -> Option<Self> {
        if definition.kind != Kind::Export {
            return None;
        }
        // An alias assigned with it (`exports.a = exports.b = c`) keeps its own line.
        let (target, value) = definition.signature.split_once(" = ").filter(|(_, value)| !value.contains(" = "))?;
        let (object, name) = target.rsplit_once('.')?;
        let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        (matches!(object, "exports" | "module.exports") && plain).then_some(Exported { object, name, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(signatures: &[&str]) -> Option<(usize, String)> {
        run(&Definition::exports_one_a_line(signatures))
    }

    #[test]
    fn names_exported_one_a_line_share_one() {
        let run = line(&[
            "exports.VERSION = _setup.VERSION",
            "exports.isObject = isObject",
            "exports.isFinite = _isFinite",
            "module.exports.other = other",
        ]);
        assert_eq!(run, Some((3, "exports.{VERSION = _setup.VERSION, isObject, isFinite = _isFinite}".to_string())));
    }

    #[test]
    fn other_exports_keep_their_lines() {
        // One alone, the module's own value, an alias, a computed name.
        assert_eq!(line(&["exports.a = a", "module.exports = b"]), None);
        assert_eq!(line(&["module.exports = a", "module.exports.default = a"]), None);
        assert_eq!(line(&["exports.a = exports.b = c", "exports.d = d"]), None);
        assert_eq!(line(&["exports[\"a-b\"] = a", "exports.d = d"]), None);
    }
}

//! Runs of JavaScript/TypeScript re-exports, printed as one line each. A package's entry file is
//! often nothing but re-exports, one a line, and a line each costs about ten tokens for a name or
//! a module. A run's line keeps every name and which module each comes from, and drops only what
//! they repeat:
//!
//! - `export { a } from './m'`, `export { b } from './m'` → `export { a, b } from './m'`;
//! - `export { a } from './a.js'`, `export { b } from './b.js'` → `export { <name> } from
//!   './<name>.js' for a, b` (each one name, its module's file name);
//! - `export * from './a.js'`, `export * from './b.js'` → `export * from './{a, b}.js'`;
//! - `export * as A from './A.js'`, `export * as B from './B.js'` → `export * as <name> from
//!   './<name>.js' for A, B`.
//!
//! Re-exports of different modules that fit none of these keep their own lines.
//!
//! Python's re-exports (`from .core import Command as Command`, one a line in click's
//! `__init__.py`) share a line per module the same way, named once each: `from .core import
//! Argument, Command`. A statement too long for a signature is printed whole the same way (see
//! [`python_statement`]): a cut one would lose the names it is there to give.

use crate::model::{Definition, Kind};

/// The length of a run of at least two re-exports that one of the forms above prints as one
/// line, and that line.
pub fn run(definitions: &[Definition]) -> Option<(usize, String)> {
    if let Some(run) = python_run(definitions) {
        return Some(run);
    }
    let first = ReExport::parse(definitions.first()?)?;
    let take = |joins: &dyn Fn(&ReExport) -> bool| -> Vec<ReExport> {
        definitions.iter().map_while(|definition| ReExport::parse(definition).filter(joins)).collect()
    };
    let quote = first.quote;
    let (run, line) = match first.clause {
        Clause::Names(_) => {
            let one_module = take(&|next| next.clause.names().is_some() && next.module == first.module);
            if one_module.len() >= 2 {
                let names: Vec<&str> = one_module.iter().filter_map(|export| export.clause.names()).collect();
                (one_module.len(), format!("export {{ {} }} from {quote}{}{quote}", names.join(", "), first.module))
            } else {
                let run = take(&|next| first.templated_with(next));
                let line = first.template("export { <name> }", &run)?;
                (run.len(), line)
            }
        }
        Clause::All => {
            // A stem holding a brace or a comma would read as more modules, or fewer.
            let plain = |export: &ReExport| !export.stem.contains(['{', '}', ',']);
            let run = take(&|next| first.same_place(next) && matches!(next.clause, Clause::All) && plain(next));
            let stems: Vec<&str> = run.iter().map(|export| export.stem).collect();
            let directory = first.directory?;
            let line = format!("export * from {quote}{directory}/{{{}}}{}{quote}", stems.join(", "), first.extension);
            (run.len(), line)
        }
        Clause::Namespace(_) => {
            let run = take(&|next| first.templated_with(next));
            let line = first.template("export * as <name>", &run)?;
            (run.len(), line)
        }
    };
    (run >= 2).then_some((run, line))
}

/// A run of at least two Python re-exports from one module (`from M import …`, each naming its
/// re-exported names), and its line. A statement that also imports a name for itself (`from
/// .decorators import pass_context as pass_context, pass_obj`) keeps its own line as written:
/// the run's line names re-exports only, and would lose `pass_obj`.
fn python_run(definitions: &[Definition]) -> Option<(usize, String)> {
    fn module(definition: &Definition) -> Option<&str> {
        let import = PythonImport::parse(definition, definition.uncut.as_deref().unwrap_or(&definition.signature))?;
        import.entries.iter().all(|entry| entry.re_exported().is_some()).then_some(import.module?)
    }
    let first = module(definitions.first()?)?;
    let run = definitions.iter().take_while(|definition| module(definition) == Some(first)).count();
    let names: Vec<&str> = definitions[..run].iter().map(|definition| definition.name.as_str()).collect();
    (run >= 2).then(|| (run, format!("from {first} import {}", names.join(", "))))
}

/// A Python re-export whose signature was cut, written whole with each re-exported name once
/// (`from .core import (A as A, B as B, helper)` → `from .core import A, B, helper`): the
/// statement's job is to name things, so none is left out however long the line gets.
pub fn python_statement(definition: &Definition) -> Option<String> {
    let import = PythonImport::parse(definition, definition.uncut.as_deref()?)?;
    let head = import.module.map_or_else(|| "import ".to_string(), |module| format!("from {module} import "));
    let names: Vec<&str> = import.entries.iter().map(|entry| entry.re_exported().unwrap_or(entry.0)).collect();
    Some(format!("{head}{}", names.join(", ")))
}

/// A Python import statement as written: `from M import (a as a, b)` or `import a as a`.
struct PythonImport<'d> {
    /// `M` of `from M import …`; `None` for `import …`.
    module: Option<&'d str>,
    /// What it imports, without the parentheses and a trailing comma.
    entries: Vec<Entry<'d>>,
}

impl<'d> PythonImport<'d> {
    /// `written`, the statement of the export `definition`.
    fn parse(definition: &Definition, written: &'d str) -> Option<Self> {
        if definition.kind != Kind::Export {
            return None;
        }
        let (module, names) = match written.strip_prefix("from ") {
            Some(from) => from.split_once(" import ").map(|(module, names)| (Some(module), names))?,
            None => (None, written.strip_prefix("import ")?),
        };
        let names = names.trim_start_matches('(').trim_end_matches(')');
        let entries = names.split(',').map(str::trim).filter(|entry| !entry.is_empty()).map(Entry).collect();
        Some(PythonImport { module, entries })
    }
}

/// One name a Python import takes, as written (`a as a`, `b as c`, `d`).
struct Entry<'d>(&'d str);

impl<'d> Entry<'d> {
    /// The name, when the entry imports it under its own name (`a as a`): Python's way of saying a
    /// module re-exports it.
    fn re_exported(&self) -> Option<&'d str> {
        self.0.split_once(" as ").filter(|(name, alias)| name == alias).map(|(name, _)| name)
    }
}

/// What a re-export takes from its module.
#[derive(Clone, Copy)]
enum Clause<'d> {
    /// `{ a, b as c }`, without the braces and a trailing comma.
    Names(&'d str),
    /// `*`.
    All,
    /// `* as ns`.
    Namespace(&'d str),
}

impl<'d> Clause<'d> {
    fn names(self) -> Option<&'d str> {
        match self {
            Clause::Names(names) => Some(names),
            _ => None,
        }
    }
}

/// `export <clause> from '<module>'`, the module read as `<directory>/<stem><extension>`.
struct ReExport<'d> {
    clause: Clause<'d>,
    module: &'d str,
    /// `None` for a module named without a `/` (a package: `'lodash'`).
    directory: Option<&'d str>,
    stem: &'d str,
    extension: &'d str,
    quote: char,
}

impl<'d> ReExport<'d> {
    fn parse(definition: &'d Definition) -> Option<Self> {
        if definition.kind != Kind::Export {
            return None;
        }
        // The last ` from `: a name may be spelled `from` (`export { from } from './from'`).
        let (clause, module) = definition.signature.strip_prefix("export ")?.rsplit_once(" from ")?;
        let quote = module.chars().next().filter(|quote| ['\'', '"'].contains(quote))?;
        // Import attributes (`with { type: 'json' }`) leave no closing quote last: not joined.
        let module = module.strip_prefix(quote)?.strip_suffix(quote)?;
        let (directory, file) = module.rsplit_once('/').map_or((None, module), |(dir, file)| (Some(dir), file));
        let (stem, extension) = match file.rfind('.') {
            Some(dot) if dot > 0 => file.split_at(dot),
            _ => (file, ""),
        };
        let clause = if clause == "*" {
            Clause::All
        } else if let Some(name) = clause.strip_prefix("* as ") {
            Clause::Namespace(name)
        } else {
            // Without the trailing comma of a list written one name a line: runs are joined with `, `.
            Clause::Names(clause.strip_prefix('{')?.strip_suffix('}')?.trim().trim_end_matches(',').trim_end())
        };
        Some(ReExport { clause, module, directory, stem, extension, quote })
    }

    /// Whether `other`'s module is in this one's directory, with its extension and quote: a line
    /// that prints them once is true of both.
    fn same_place(&self, other: &ReExport) -> bool {
        self.directory.is_some()
            && self.directory == other.directory
            && self.extension == other.extension
            && self.quote == other.quote
    }

    /// The one name a clause of this form takes, when it is its module's stem: `{ of }` from
    /// `'./of'`, `* as Array` from `'./Array.js'`.
    fn templated_name(&self) -> Option<&'d str> {
        let name = match self.clause {
            Clause::Names(names) => names,
            Clause::Namespace(name) => name,
            Clause::All => return None,
        };
        (name == self.stem).then_some(name)
    }

    fn templated_with(&self, next: &ReExport) -> bool {
        let same_form = std::mem::discriminant(&self.clause) == std::mem::discriminant(&next.clause);
        same_form && self.same_place(next) && self.templated_name().is_some() && next.templated_name().is_some()
    }

    /// `<head> from '<directory>/<name><extension>' for a, b`, naming each of `run`.
    fn template(&self, head: &str, run: &[ReExport]) -> Option<String> {
        let (quote, directory, extension) = (self.quote, self.directory?, self.extension);
        let names: Vec<&str> = run.iter().filter_map(ReExport::templated_name).collect();
        Some(format!("{head} from {quote}{directory}/<name>{extension}{quote} for {}", names.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(lines: &[&str]) -> Option<(usize, String)> {
        run(&Definition::exports_one_a_line(lines))
    }

    #[test]
    fn python_names_from_one_module_share_its_line() {
        let mut run = Definition::exports_one_a_line(&[
            "from .core import Argument as Argument",
            "from .core import ( Context as Context, Group as Group, )",
            "from .decorators import argument as argument",
        ]);
        for (definition, name) in run.iter_mut().zip(["Argument", "Context, Group", "argument"]) {
            definition.name = name.to_string();
        }
        assert_eq!(super::run(&run), Some((2, "from .core import Argument, Context, Group".to_string())));
        assert_eq!(super::run(&run[2..]), None);
    }

    #[test]
    fn python_statements_importing_a_name_for_themselves_keep_their_lines() {
        let mut run = Definition::exports_one_a_line(&[
            "from .decorators import pass_context as pass_context, pass_obj",
            "from .decorators import argument as argument",
            "from .core import ( Context as Context, helper as other, )",
            "from .core import Group as Group",
        ]);
        for (definition, name) in run.iter_mut().zip(["pass_context", "argument", "Context", "Group"]) {
            definition.name = name.to_string();
        }
        assert_eq!(super::run(&run), None);
        assert_eq!(super::run(&run[2..]), None);
    }

    #[test]
    fn names_from_one_module_share_its_line() {
        let run = line(&["export { a } from './m'", "export { b as c, } from \"./m\"", "export { d } from './n'"]);
        assert_eq!(run, Some((2, "export { a, b as c } from './m'".to_string())));
    }

    #[test]
    fn names_from_modules_named_for_them_are_a_template() {
        let run = line(&[
            "export { of } from './internal/observable/of'",
            "export { from } from './internal/observable/from'",
            "export { defer } from './internal/observable/defer'",
        ]);
        let expected = "export { <name> } from './internal/observable/<name>' for of, from, defer";
        assert_eq!(run, Some((3, expected.to_string())));
    }

    #[test]
    fn names_from_other_modules_keep_their_lines() {
        // Which module each name is from would be lost, and `default` twice says nothing.
        assert_eq!(line(&["export { a } from './x/b'", "export { c } from './x/d'"]), None);
        assert_eq!(line(&["export { default } from './y/A'", "export { default } from './y/B'"]), None);
        // A template needs one extension: `./x/a` and `./x/b.js` are not `./x/<name>`.
        assert_eq!(line(&["export { a } from './x/a'", "export { b } from './x/b.js'"]), None);
    }

    #[test]
    fn modules_of_one_directory_are_braced() {
        let run = line(&[
            "export * from './commands/blur.js'",
            "export * from './commands/foo.bar.js'",
            "export * from './commands/sub/x.js'",
        ]);
        assert_eq!(run, Some((2, "export * from './commands/{blur, foo.bar}.js'".to_string())));
        // Another quote, a package without a directory, attributes: not joined.
        assert_eq!(line(&["export * from './a'", "export * from \"./b\""]), None);
        assert_eq!(line(&["export * from 'lodash'", "export * from 'lodash'"]), None);
        assert_eq!(line(&["export * from './a.json' with { type: 'json' }", "export * from './b.json'"]), None);
        assert_eq!(line(&["export * from './{x}.js'", "export * from './y.js'"]), None);
        assert_eq!(line(&["export * from './y.js'", "export * from './p, q.js'"]), None);
    }

    #[test]
    fn namespaces_named_for_their_modules_are_a_template() {
        let run = line(&[
            "export * as Args from \"./Args.js\"",
            "export * as from from \"./from.js\"",
            "export * as Options from \"./internal/options.js\"",
        ]);
        assert_eq!(run, Some((2, "export * as <name> from \"./<name>.js\" for Args, from".to_string())));
        assert_eq!(line(&["export * as Opts from './Options.js'", "export * as B from './B.js'"]), None);
        // Forms do not mix: a template of namespaces takes no names.
        assert_eq!(line(&["export * as A from './A'", "export { B } from './B'"]), None);
    }
}

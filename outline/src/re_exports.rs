//! Runs of JavaScript/TypeScript re-exports, printed as one line each. A package's entry file is
//! often nothing but re-exports, one a line, and a line each costs about ten tokens for a name or
//! a module: the run's line keeps every name and every module and drops what they repeat.
//!
//! - `export { a } from './x'`, `export { b } from './y'` → `export { a, b } from './*'` (the
//!   module when they share it);
//! - `export * from './a.js'`, `export * from './b.js'` → `export * from './{a, b}.js'`;
//! - `export * as A from './A.js'`, `export * as B from './B.js'` → `export * as <name> from
//!   './<name>.js' for A, B`.

use crate::model::{Definition, Kind};

/// The length of a run of at least two re-exports of one form from modules of one directory,
/// and the line that stands for it.
pub fn run(definitions: &[Definition]) -> Option<(usize, String)> {
    let first = ReExport::parse(definitions.first()?)?;
    let run: Vec<ReExport> = definitions
        .iter()
        .map_while(|definition| ReExport::parse(definition).filter(|next| first.joins(next)))
        .collect();
    if run.len() < 2 {
        return None;
    }
    let quote = first.quote;
    let line = match first.clause {
        Clause::Names(_) => {
            let names: Vec<&str> = run.iter().filter_map(|export| export.clause.names()).collect();
            let from = if run.iter().all(|export| export.module == first.module) {
                first.module.to_string()
            } else {
                format!("{}/*", first.directory)
            };
            format!("export {{ {} }} from {quote}{from}{quote}", names.join(", "))
        }
        Clause::All => {
            let stems: Vec<&str> = run.iter().map(|export| export.stem).collect();
            format!("export * from {quote}{}/{{{}}}{}{quote}", first.directory, stems.join(", "), first.extension)
        }
        Clause::Namespace => {
            let stems: Vec<&str> = run.iter().map(|export| export.stem).collect();
            format!(
                "export * as <name> from {quote}{}/<name>{}{quote} for {}",
                first.directory,
                first.extension,
                stems.join(", ")
            )
        }
    };
    Some((run.len(), line))
}

/// What a re-export takes from its module.
#[derive(Clone, Copy)]
enum Clause<'d> {
    /// `{ a, b as c }`, without the braces and a trailing comma.
    Names(&'d str),
    /// `*`.
    All,
    /// `* as ns`, only where `ns` is the module's file name without its extension: a run of them
    /// is one template.
    Namespace,
}

impl<'d> Clause<'d> {
    fn names(self) -> Option<&'d str> {
        match self {
            Clause::Names(names) => Some(names),
            _ => None,
        }
    }

    fn same_form(self, other: Clause) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// `export <clause> from '<directory>/<stem><extension>'`.
struct ReExport<'d> {
    clause: Clause<'d>,
    module: &'d str,
    directory: &'d str,
    stem: &'d str,
    extension: &'d str,
    quote: char,
}

impl<'d> ReExport<'d> {
    fn parse(definition: &'d Definition) -> Option<Self> {
        if definition.kind != Kind::Export {
            return None;
        }
        let (clause, module) = definition.signature.strip_prefix("export ")?.split_once(" from ")?;
        let quote = module.chars().next().filter(|quote| ['\'', '"'].contains(quote))?;
        let module = module.strip_prefix(quote)?.strip_suffix(quote)?;
        let (directory, file) = module.rsplit_once('/')?;
        let (stem, extension) = match file.rfind('.') {
            Some(dot) if dot > 0 => file.split_at(dot),
            _ => (file, ""),
        };
        let clause = if clause == "*" {
            Clause::All
        } else if let Some(name) = clause.strip_prefix("* as ") {
            (name == stem).then_some(Clause::Namespace)?
        } else {
            // Without the trailing comma of a list written one name a line: runs are joined with `, `.
            Clause::Names(clause.strip_prefix('{')?.strip_suffix('}')?.trim().trim_end_matches(',').trim_end())
        };
        Some(ReExport { clause, module, directory, stem, extension, quote })
    }

    /// Whether `next` continues a run that `self` starts. Named re-exports need only share the
    /// directory, since their line names it; the other forms print one extension and quote.
    fn joins(&self, next: &ReExport) -> bool {
        let same = self.clause.same_form(next.clause) && self.directory == next.directory;
        match self.clause {
            Clause::Names(_) => same,
            Clause::All | Clause::Namespace => same && self.extension == next.extension && self.quote == next.quote,
        }
    }
}

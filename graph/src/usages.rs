//! Every use of a definition (calls, constructor uses, type uses), and the project files nearest
//! to a path that names none.

use lean_ctx_common::spelling::{edit_budget, edit_distance};

use crate::callgraph::DefSummary;
use crate::facts::RefKind;
use crate::graph::{DefId, Graph, Label};
use crate::interrupt::{Interrupt, Interrupted};

/// One use of a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub file: String,
    pub line: u32,
    pub kind: RefKind,
    /// The function the use is in; `None` at a file's top level.
    pub caller: Option<DefSummary>,
    pub label: Label,
    /// Every candidate when the use is ambiguous.
    pub candidates: Vec<DefSummary>,
}

impl Graph {
    /// The uses of `targets`, in file and line order, one per place and kind.
    pub fn uses(&self, targets: &[DefId], interrupt: Interrupt<'_>) -> Result<Vec<Use>, Interrupted> {
        let summary = |id: &DefId| self.summary(id);
        let mut out: Vec<Use> = Vec::new();
        for (file, r, resolution) in targets.iter().flat_map(|target| self.sites_of(target)) {
            interrupt.check()?;
            out.push(Use {
                file: file.to_string(),
                line: r.line,
                kind: r.kind,
                caller: r.caller.and_then(|i| summary(&DefId { file: file.to_string(), index: i })),
                label: resolution.label,
                candidates: match resolution.label {
                    Label::Ambiguous => resolution.targets.iter().filter_map(summary).collect(),
                    _ => Vec::new(),
                },
            });
        }
        out.sort_by(|a, b| (&a.file, a.line, a.kind as u8).cmp(&(&b.file, b.line, b.kind as u8)));
        out.dedup_by(|a, b| a.file == b.file && a.line == b.line && a.kind == b.kind);
        Ok(out)
    }

    /// Up to five project files whose path is nearest to `path` (a typo, a wrong directory):
    /// by the edit distance of the file names, then of the whole paths.
    pub fn closest_files(&self, path: &str) -> Vec<String> {
        let wanted = path.trim_start_matches("./").to_lowercase();
        let name = wanted.rsplit('/').next().unwrap_or(&wanted).to_string();
        let budget = edit_budget(name.chars().count());
        let mut scored: Vec<(usize, usize, &String)> = self
            .files()
            .keys()
            .filter_map(|file| {
                let lower = file.to_lowercase();
                let leaf = lower.rsplit('/').next().unwrap_or(&lower);
                let distance = edit_distance(&name, leaf);
                let stem = name.split('.').next().unwrap_or(&name);
                let contains = stem.len() >= 3 && leaf.contains(stem);
                (distance <= budget || contains).then(|| (distance, edit_distance(&wanted, &lower), file))
            })
            .collect();
        scored.sort();
        scored.into_iter().take(5).map(|(_, _, f)| f.clone()).collect()
    }
}

impl RefKind {
    /// How a use reads in an answer.
    pub fn name(self) -> &'static str {
        match self {
            RefKind::Call => "call",
            RefKind::Method => "method call",
            RefKind::New => "construction",
            RefKind::Type => "type use",
            RefKind::Read => "property read",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::callgraph::Lookup;
    use crate::graph::{FileEntry, Graph, Stamp};
    use crate::interrupt::Interrupt;
    use lean_ctx_outline::Language;

    #[test]
    fn a_go_types_constructions_are_new_composite_and_generic_literals() {
        let model = "package model\n\ntype Order struct{}\n\nfunc (o *Order) Total() int { return 0 }\n\n\
                     type Page[T any] struct{}\n";
        let shop = "package shop\n\nimport \"example.com/m/model\"\n\nfunc Make() {\n\to := new(model.Order)\n\
                    \to.Total()\n\tp := model.Page[int]{}\n\tq := &model.Order{}\n\t_, _ = p, q\n}\n";
        let mut graph = Graph::new();
        for (path, source) in [("model/model.go", model), ("shop/shop.go", shop)] {
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts: crate::extract(Language::Go, source) });
        }
        let uses = |symbol: &str| {
            let Lookup::Found(targets) = graph.lookup(symbol, None) else { panic!("{symbol}") };
            let uses = graph.uses(&targets, Interrupt::NEVER).unwrap();
            uses.iter()
                .map(|u| format!("{}:{} {} [{}]", u.file, u.line, u.kind.name(), u.label.name()))
                .collect::<Vec<_>>()
        };
        // `new(model.Order)` constructs one, as `&model.Order{}` does, so impact (its callers)
        // counts it too.
        assert_eq!(
            uses("Order"),
            [
                "model/model.go:5 type use [exact]",
                "shop/shop.go:6 construction [exact]",
                "shop/shop.go:9 construction [exact]"
            ]
        );
        let Lookup::Found(order) = graph.lookup("Order", None) else { panic!("Order") };
        let callers = graph.callers(&order, 1, 10, Interrupt::NEVER).unwrap();
        assert_eq!(callers.edges.iter().map(|e| e.line).collect::<Vec<_>>(), [6, 9]);
        assert_eq!(uses("Page"), ["shop/shop.go:8 construction [exact]"]);
        // And the value it makes is of that type.
        assert_eq!(uses("Order::Total"), ["shop/shop.go:7 method call [exact]"]);
    }
}

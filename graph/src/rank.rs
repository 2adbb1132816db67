//! Which definitions matter most: PageRank over the graph of resolved references.
//!
//! Nodes are the definitions, plus one node per file for what its top level references (a
//! Python script's calls, a module-level constant's type). A reference inside definition A that
//! resolves to definition B is an edge A → B weighted by how it was resolved — `exact` 1.0,
//! `likely` 0.8, `ambiguous` 1.0 split across its candidates (so is an exact overload set) — and
//! damped by how common the name is (÷ √ its definitions: `new` defined forty times tells little
//! about any one of them). A reference to a member also counts, with the same weight, for the
//! type it belongs to. A definition referencing itself adds nothing; a one-letter type (`T`) is
//! counted only when resolved `exact`, since it is nearly always a generic parameter.
//!
//! Personalisation gives half of the teleport mass to the nodes of a set of files (those a
//! session touched), the rest uniformly: rank flows toward what those files reach. A touched
//! file's own definitions are scored without the mass they were given directly, so the answer is
//! about what they connect to, not about the files the session already has.
//!
//! A reference resolved by its name alone reaches every definition of that name: a method named
//! `run` in 5,000 files makes each of its 5,000 call sites an edge to 5,000 definitions. Such a
//! reference is kept as one use of a *fan-out*, the name's candidates with their weights, built
//! once and shared by every reference of the same candidates; each iteration sums what flows
//! into a fan-out and spreads it once, so the walk is linear in references plus candidates, not
//! their product. The ranks are those of the edges spelled out, but for rounding: the sums are
//! taken in another order.
//!
//! A file a build generated (see [`crate::generated`]) is neither ranked nor a source of edges:
//! what it copies is ranked where it is written.
//!
//! Deterministic: nodes are numbered in path order, edges and fan-outs in the order references
//! are met (path order), and a fixed iteration bound with a tolerance ends the walk; ties are
//! broken by path, then line.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::facts::Def;
use crate::graph::{DefId, Graph, Label, Resolution};
use crate::interrupt::{Interrupt, Interrupted};

/// The probability of following a reference rather than jumping anywhere.
const DAMPING: f64 = 0.85;
/// Share of the teleport mass that goes to the personal files' nodes.
const PERSONAL_SHARE: f64 = 0.5;
/// Iterations at most; the walk stops earlier once the ranks move less than [`TOLERANCE`].
const MAX_ITERATIONS: usize = 100;
const TOLERANCE: f64 = 1e-10;

/// A definition and its score; scores are comparable within one ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub id: DefId,
    pub score: f64,
}

/// A ranking: every definition, most central first, and what it was computed from.
#[derive(Debug, Default)]
pub struct Ranking {
    pub defs: Vec<Ranked>,
    /// References that resolved to a definition, by label.
    pub exact: u64,
    pub likely: u64,
    pub ambiguous: u64,
    /// The personal files the graph holds, in path order.
    pub personal: Vec<String>,
}

/// What [`Graph::rank`] walks, worked out from the references once per version of the graph:
/// resolving every reference is most of a ranking's cost (seconds on a project of a thousand
/// files), and only a change to the graph changes it — personalisation does not.
#[derive(Debug)]
pub(crate) struct RankEdges {
    nodes: Nodes,
    /// Each node's weighted out-edges, in target order.
    edges: Vec<Vec<(usize, f64)>>,
    /// Each node's uses of fan-outs, in fan-out order: (fan-out, how many references use it, the
    /// weight it gives the node itself, which a reference does not count).
    uses: Vec<Vec<(usize, f64, f64)>>,
    fanouts: Vec<Fanout>,
    /// Each referring file's references by label: exact, likely, ambiguous.
    labels: BTreeMap<String, [u64; 3]>,
}

/// The nodes one reference resolved by its name alone reaches, with their weights, in node order.
#[derive(Debug)]
struct Fanout {
    targets: Vec<(usize, f64)>,
}

impl Fanout {
    /// The weight `node` gets; 0 when it is not reached.
    fn weight(&self, node: usize) -> f64 {
        self.targets.binary_search_by_key(&node, |(target, _)| *target).map_or(0.0, |at| self.targets[at].1)
    }

    fn total(&self) -> f64 {
        self.targets.iter().map(|(_, weight)| weight).sum()
    }
}

/// Node numbering: each file's top-level node, then its definitions, files in path order; a
/// generated file, which is not ranked, has none.
#[derive(Debug)]
struct Nodes {
    /// File → the index of its top-level node (its definitions follow it).
    base: BTreeMap<String, usize>,
    count: usize,
}

impl Nodes {
    fn new(graph: &Graph) -> Nodes {
        let mut base = BTreeMap::new();
        let mut count = 0;
        for (path, entry) in graph.files().iter().filter(|(path, _)| !graph.is_generated(path)) {
            base.insert(path.clone(), count);
            count += 1 + entry.facts.defs.len();
        }
        Nodes { base, count }
    }

    fn def(&self, id: &DefId) -> Option<usize> {
        self.base.get(&id.file).map(|base| base + 1 + id.index as usize)
    }
}

impl Graph {
    /// Every definition ranked by PageRank over the references, personalised by `personal`
    /// (root-relative paths; files the graph does not hold are ignored). The references of the
    /// files `silent` names count for nothing: a file the user's rules withhold must not move
    /// the ranking by what it calls.
    pub fn rank(
        &self,
        personal: &BTreeSet<String>,
        silent: &dyn Fn(&str) -> bool,
        interrupt: Interrupt<'_>,
    ) -> Result<Ranking, Interrupted> {
        let walked = self.rank_edges(interrupt)?;
        let nodes = &walked.nodes;
        let mut quiet = vec![false; nodes.count];
        for (path, entry) in self.files().iter().filter(|(path, _)| silent(path)) {
            if let Some(&base) = nodes.base.get(path) {
                quiet[base..=base + entry.facts.defs.len()].fill(true);
            }
        }
        let heard = walked.labels.iter().filter(|(file, _)| !silent(file)).map(|(_, counted)| counted);
        let [exact, likely, ambiguous] =
            heard.fold([0; 3], |sum, counted| std::array::from_fn(|at| sum[at] + counted[at]));
        let mut ranking = Ranking { exact, likely, ambiguous, ..Ranking::default() };
        let mut own = vec![0.0; nodes.count];
        for (path, entry) in self.files().iter().filter(|(path, _)| personal.contains(*path)) {
            ranking.personal.push(path.clone());
            let Some(&base) = nodes.base.get(path) else { continue };
            own[base..=base + entry.facts.defs.len()].fill(1.0);
        }
        let touched: f64 = own.iter().sum();
        if touched > 0.0 {
            own.iter_mut().for_each(|share| *share *= PERSONAL_SHARE / touched);
        }
        let uniform = if touched > 0.0 { 1.0 - PERSONAL_SHARE } else { 1.0 } / nodes.count.max(1) as f64;
        let (rank, dangling) = pagerank(walked, uniform, &own, &quiet, interrupt)?;
        // Sorted on (score, file's place in path order, line) before any id is built: most
        // definitions tie on score, and comparing their paths and looking up their lines made
        // the sort the costliest step of a ranking.
        let files: Vec<(&String, &crate::FileEntry)> = self.files().iter().collect();
        let mut scored = Vec::with_capacity(nodes.count);
        for (place, (path, entry)) in files.iter().enumerate().filter(|(_, (path, _))| !self.is_generated(path)) {
            let base = nodes.base[*path];
            for (index, def) in entry.facts.defs.iter().enumerate() {
                // A function nested in another's body is its detail, as in the outline's views:
                // not listed, though its calls count.
                if def.scope.is_some() {
                    continue;
                }
                let node = base + 1 + index;
                // What a touched definition was given for being touched, taken back.
                let score = rank[node] - (1.0 - DAMPING + DAMPING * dangling) * own[node];
                scored.push((score, place, def.line, index));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        // A function assigned to several members (`res.contentType = res.type = function`) is
        // one definition: listed once, under its highest-ranked name.
        let mut aliased: BTreeSet<(usize, u32)> = BTreeSet::new();
        scored.retain(|(_, place, line, index)| {
            files[*place].1.facts.defs[*index].aliases.is_empty() || aliased.insert((*place, *line))
        });
        ranking.defs = scored
            .into_iter()
            .map(|(score, place, _, index)| Ranked {
                id: DefId { file: files[place].0.clone(), index: index as u32 },
                score,
            })
            .collect();
        Ok(ranking)
    }

    /// Each node's weighted out-edges (target → weight, in target order) and uses of fan-outs,
    /// counting resolutions.
    pub(crate) fn reference_edges(&self, interrupt: Interrupt<'_>) -> Result<RankEdges, Interrupted> {
        let nodes = Nodes::new(self);
        let mut labels: BTreeMap<String, [u64; 3]> = BTreeMap::new();
        let mut edges = vec![BTreeMap::new(); nodes.count];
        let mut uses = vec![BTreeMap::new(); nodes.count];
        let mut fanouts = Vec::new();
        // By-name candidates are one shared list per name and kind of reference (see
        // `crate::names`): the list's address says which fan-out a reference uses. Each list is
        // held here too, so no address can be freed and reused by another list meanwhile.
        let mut fanout_of: HashMap<*const DefId, (Arc<[DefId]>, usize)> = HashMap::new();
        for (path, entry) in self.files() {
            interrupt.check()?;
            // A bundle's references are copies of the source's: counting them counts the source twice.
            if self.is_generated(path) {
                continue;
            }
            let base = nodes.base[path];
            for (index, r) in entry.facts.refs.iter().enumerate() {
                let Some(resolution) = self.resolve(path, index as u32) else { continue };
                let source = r.caller.map_or(base, |caller| base + 1 + caller as usize);
                let counted = labels.entry(path.clone()).or_insert([0; 3]);
                counted[match resolution.label {
                    Label::Exact => 0,
                    Label::Likely => 1,
                    Label::Ambiguous => 2,
                }] += 1;
                if resolution.by_name {
                    let (_, fanout) = *fanout_of.entry(resolution.targets.as_ptr()).or_insert_with(|| {
                        let mut targets = BTreeMap::new();
                        for (node, weight) in self.spread(&resolution, &nodes) {
                            *targets.entry(node).or_insert(0.0) += weight;
                        }
                        fanouts.push(Fanout { targets: targets.into_iter().collect() });
                        (resolution.targets.clone(), fanouts.len() - 1)
                    });
                    *uses[source].entry(fanout).or_insert(0.0) += 1.0;
                    continue;
                }
                for (node, weight) in self.spread(&resolution, &nodes).into_iter().filter(|(node, _)| *node != source) {
                    *edges[source].entry(node).or_insert(0.0) += weight;
                }
            }
        }
        let uses = uses
            .into_iter()
            .enumerate()
            .map(|(source, used)| {
                let with_self = |(fanout, count): (usize, f64)| (fanout, count, fanouts[fanout].weight(source));
                used.into_iter().map(with_self).collect()
            })
            .collect();
        Ok(RankEdges {
            nodes,
            edges: edges.into_iter().map(|targets| targets.into_iter().collect()).collect(),
            uses,
            fanouts,
            labels,
        })
    }

    /// The (node, weight) pairs one reference adds: its label's weight split across its targets,
    /// each damped by how common its name is, and each target's share given again to its type.
    fn spread(&self, resolution: &Resolution, nodes: &Nodes) -> Vec<(usize, f64)> {
        let label_weight = match resolution.label {
            Label::Exact | Label::Ambiguous => 1.0,
            Label::Likely => 0.8,
        };
        let split = label_weight / resolution.targets.len() as f64;
        let mut spread = Vec::new();
        for target in resolution.targets.iter() {
            let Some(def) = self.def(target) else { continue };
            if resolution.label != Label::Exact && looks_generic(def) {
                continue;
            }
            let weight = split / (self.def_count(&def.name).max(1) as f64).sqrt();
            let owners = self.owners(target, def, nodes);
            spread.extend(nodes.def(target).map(|node| (node, weight)));
            spread.extend(owners.iter().map(|owner| (*owner, weight / owners.len() as f64)));
        }
        spread
    }

    /// The node(s) of the type a member belongs to: in the member's file if defined there
    /// (a Rust impl beside its struct), else every type of that name. A use of a member is a
    /// use of its type, so a type whose methods are called everywhere ranks high.
    fn owners(&self, id: &DefId, def: &Def, nodes: &Nodes) -> Vec<usize> {
        let Some(container) = def.container.as_deref() else { return Vec::new() };
        let types: Vec<&DefId> = self.defs_named(container).filter(|t| self.def(t).is_some_and(Def::is_type)).collect();
        let local: Vec<&DefId> = types.iter().copied().filter(|t| t.file == id.file).collect();
        let chosen = if local.is_empty() { types } else { local };
        chosen.into_iter().filter_map(|t| nodes.def(t)).collect()
    }
}

/// A one-letter type (`T`, `R`): nearly always a generic parameter, which syntactic resolution
/// does not scope, so a reference to it is only counted when an import or scope decided it.
fn looks_generic(def: &Def) -> bool {
    def.is_type() && def.name.chars().count() == 1
}

/// PageRank with teleport vector `uniform + own[v]`; a node without out-edges gives its rank
/// back through the teleport vector. Returns the ranks and the last iteration's dangling mass.
fn pagerank(
    walked: &RankEdges,
    uniform: f64,
    own: &[f64],
    quiet: &[bool],
    interrupt: Interrupt<'_>,
) -> Result<(Vec<f64>, f64), Interrupted> {
    let (edges, uses, fanouts) = (&walked.edges, &walked.uses, &walked.fanouts);
    let n = edges.len();
    let totals: Vec<f64> = fanouts.iter().map(Fanout::total).collect();
    // A quiet node refers to nothing: what it holds is spread as a dangling node's is.
    let out: Vec<f64> = (0..n)
        .map(|u| {
            if quiet[u] {
                return 0.0;
            }
            let direct: f64 = edges[u].iter().map(|(_, weight)| weight).sum();
            direct + uses[u].iter().map(|(fanout, count, itself)| count * (totals[*fanout] - itself)).sum::<f64>()
        })
        .collect();
    let mut rank = vec![1.0 / n.max(1) as f64; n];
    let mut dangling = 0.0;
    let mut inflow = vec![0.0; fanouts.len()];
    for _ in 0..MAX_ITERATIONS {
        interrupt.check()?;
        dangling = (0..n).filter(|u| out[*u] == 0.0).map(|u| rank[u]).sum();
        let jump = 1.0 - DAMPING + DAMPING * dangling;
        let mut next: Vec<f64> = own.iter().map(|own| jump * (uniform + own)).collect();
        inflow.fill(0.0);
        for (u, targets) in edges.iter().enumerate() {
            if out[u] > 0.0 {
                let share = DAMPING * rank[u] / out[u];
                for (v, weight) in targets {
                    next[*v] += share * weight;
                }
                // A fan-out spreads to every candidate, the referring node too: what it would
                // give that node is taken back here (a definition referencing itself adds nothing).
                for (fanout, count, itself) in &uses[u] {
                    inflow[*fanout] += share * count;
                    next[u] -= share * count * itself;
                }
            }
        }
        for (fanout, flow) in fanouts.iter().zip(&inflow).filter(|(_, flow)| **flow != 0.0) {
            for (v, weight) in &fanout.targets {
                next[*v] += flow * weight;
            }
        }
        let moved: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
        rank = next;
        if moved < TOLERANCE {
            break;
        }
    }
    Ok((rank, dangling))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{FileEntry, Stamp};
    use lean_ctx_outline::Language;

    fn graph(files: &[(&str, &str)]) -> Graph {
        graph_in(Language::Python, files)
    }

    fn graph_in(language: Language, files: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (path, source) in files {
            let facts = crate::extract(language, source);
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts });
        }
        graph
    }

    fn names(graph: &Graph, ranking: &Ranking) -> Vec<String> {
        ranking.defs.iter().map(|r| graph.def(&r.id).unwrap().name.clone()).collect()
    }

    /// `core` is called from three places, `helper` from one (b.py neither defines nor imports it:
    /// in Python that bare name is a built-in's, no reference), `leaf` from none.
    const STAR: [(&str, &str); 4] = [
        ("core.py", "def core():\n    pass\n"),
        ("a.py", "from core import core\n\ndef alpha():\n    core()\n    helper()\n\ndef helper():\n    pass\n"),
        ("b.py", "from core import core\n\ndef beta():\n    core()\n    helper()\n"),
        ("c.py", "from core import core\n\ndef gamma():\n    core()\n\ndef leaf():\n    pass\n"),
    ];

    /// QA: what a file the Read rules withhold calls moved the ranking (four calls in a denied
    /// file swapped two definitions' ranks). Its references count for nothing.
    #[test]
    fn a_silent_files_references_do_not_move_the_ranking() {
        let lib = ("lib.py", "def alpha():\n    pass\n\ndef beta():\n    pass\n");
        let main = ("main.py", "from lib import alpha, beta\n\ndef run():\n    alpha()\n    beta()\n");
        let calling = |name: &str| format!("from lib import alpha, beta\n\ndef s1():\n    {name}()\n    {name}()\n");
        let (calls_beta, calls_alpha) = (calling("beta"), calling("alpha"));
        let scores = |secret: &str| {
            let graph = graph(&[lib, main, ("secret.py", secret)]);
            let ranking = graph.rank(&BTreeSet::new(), &|file| file == "secret.py", Interrupt::NEVER).unwrap();
            let mut scores: Vec<(String, f64)> = ranking
                .defs
                .iter()
                .filter(|r| r.id.file == "lib.py")
                .map(|r| (graph.def(&r.id).unwrap().name.clone(), r.score))
                .collect();
            scores.sort_by(|a, b| a.0.cmp(&b.0));
            scores
        };
        assert_eq!(scores(&calls_beta), scores(&calls_alpha));
        let silent = graph(&[lib, main, ("secret.py", &calls_beta)]);
        let counted = silent.rank(&BTreeSet::new(), &|file| file == "secret.py", Interrupt::NEVER).unwrap();
        assert_eq!(counted.exact, 2, "main.py's two calls, not the silent file's");
        let told = graph(&[lib, main, ("secret.py", &calls_beta)]);
        let heard = told.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&told, &heard)[0], "beta", "heard, the calls do count");
    }

    #[test]
    fn the_most_referenced_definition_ranks_first_and_ties_go_by_path_then_line() {
        let graph = graph(&STAR);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&graph, &ranking), ["core", "helper", "alpha", "beta", "gamma", "leaf"]);
        assert_eq!((ranking.exact, ranking.likely, ranking.ambiguous), (4, 0, 0));
        assert!(ranking.defs[0].score > ranking.defs[1].score, "{:?}", ranking.defs);
        assert!(ranking.defs[1].score > ranking.defs[2].score, "{:?}", ranking.defs);
        // alpha, beta, gamma and leaf are referenced by nothing: equal scores, path then line.
        assert_eq!(ranking.defs[2].score, ranking.defs[5].score);
        assert!(ranking.personal.is_empty());
    }

    #[test]
    fn a_change_to_the_graph_is_ranked_afresh() {
        let mut graph = graph(&STAR);
        let before = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        // Asked again unchanged: the same ranking (from the edges resolved the first time).
        assert_eq!(graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap().defs, before.defs);
        // Three calls of `leaf` (last so far) from two new definitions.
        assert_eq!(names(&graph, &before).last().map(String::as_str), Some("leaf"));
        let calls = "from c import leaf\n\ndef delta():\n    leaf()\n    leaf()\n\ndef epsilon():\n    leaf()\n";
        graph.upsert("d.py", FileEntry { stamp: Stamp::default(), facts: crate::extract(Language::Python, calls) });
        let after = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&graph, &after)[..2], ["core", "leaf"]);
        assert_eq!((after.exact, after.likely, after.ambiguous), (7, 0, 0));
        graph.remove("d.py");
        assert_eq!(graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap().defs, before.defs);
    }

    #[test]
    fn new_module_mappings_are_ranked_afresh() {
        let mut graph = graph_in(
            Language::TypeScript,
            &[
                ("src/price.ts", "export function target(value: number): number {\n  return value;\n}\n"),
                ("app/main.ts", "import { target } from '@/price';\nexport function first() { return target(1); }\n"),
            ],
        );
        // Unmapped, `@/price` is a dependency's module: the call is not the project's.
        assert_eq!(graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap().exact, 0);
        let config = r#"{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }"#;
        graph.set_js_modules(crate::JsModules::read(["tsconfig.json"], |_| Some(config.to_string())));
        assert!(
            graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap().exact > 0,
            "the mapped import resolves the call"
        );
    }

    #[test]
    fn a_bundle_a_build_generated_is_not_ranked_nor_counted() {
        let graph = graph_in(
            Language::JavaScript,
            &[
                ("lib/core.js", "export function request(c) {\n  return c;\n}\nexport function unused() {}\n"),
                (
                    "lib/api.js",
                    "import { request } from './core.js';\nexport function get(c) {\n  return request(c);\n}\n",
                ),
                (
                    "dist/axios.js",
                    "function request(c) {\n  return c;\n}\nfunction _regeneratorRuntime() {\n  request(1);\n  request(2);\n}\n",
                ),
            ],
        );
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert!(ranking.defs.iter().all(|r| r.id.file.starts_with("lib/")), "{:?}", ranking.defs);
        assert_eq!(names(&graph, &ranking), ["request", "get", "unused"]);
        assert_eq!((ranking.exact, ranking.likely, ranking.ambiguous), (1, 0, 0));
    }

    #[test]
    fn calls_resolved_to_a_stub_rank_the_implementation_it_declares() {
        let graph = graph(&[
            ("pkg/__init__.py", "from ._impl import compute\n"),
            ("pkg/__init__.pyi", "def compute(x: int) -> int: ...\n"),
            ("pkg/_impl.py", "def compute(x):\n    return x\n\ndef unused():\n    pass\n"),
            ("use.py", "from pkg import compute\n\ndef run():\n    compute(1)\n    compute(2)\n"),
        ]);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        let first = &ranking.defs[0].id;
        assert_eq!((first.file.as_str(), names(&graph, &ranking)[0].as_str()), ("pkg/_impl.py", "compute"));
    }

    #[test]
    fn a_common_name_counts_less_than_a_distinctive_one() {
        let graph = graph(&[
            ("a.py", "class A:\n    def load(self):\n        pass\n"),
            ("b.py", "class B:\n    def load(self):\n        pass\n"),
            ("c.py", "def parse():\n    pass\n"),
            ("use.py", "from a import A\nfrom c import parse\n\ndef run():\n    A.load()\n    parse()\n"),
        ]);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        let score = |name: &str, file: &str| {
            ranking.defs.iter().find(|r| r.id.file == file && graph.def(&r.id).unwrap().name == name).unwrap().score
        };
        assert!(score("parse", "c.py") > score("load", "a.py"), "{:?}", ranking.defs);
    }

    #[test]
    fn an_ambiguous_reference_is_split_across_its_candidates_and_their_types() {
        let graph = graph(&[
            ("a.py", "class Alpha:\n    def load(self):\n        pass\n"),
            ("b.py", "class Beta:\n    def load(self):\n        pass\n"),
            ("any.py", "def any_load(x):\n    x.load()\n"),
        ]);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!((ranking.exact, ranking.likely, ranking.ambiguous), (0, 0, 1));
        // Both methods, and with them their classes, get the same share; the caller gets none.
        let scores: Vec<f64> = ranking.defs.iter().map(|r| r.score).collect();
        assert_eq!(names(&graph, &ranking), ["Alpha", "load", "Beta", "load", "any_load"]);
        assert!(scores[..4].iter().all(|score| *score == scores[0]), "{scores:?}");
        assert!(scores[3] > scores[4], "{scores:?}");
    }

    #[test]
    fn a_call_by_name_gives_nothing_to_the_method_making_it() {
        // `other.load()` may reach either `load`, the one it is in too: that one gets nothing.
        let graph = graph(&[
            ("a.py", "class A:\n    def load(self, other):\n        other.load()\n"),
            ("b.py", "class B:\n    def load(self):\n        pass\n"),
        ]);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(ranking.ambiguous, 1);
        let score = |file: &str, name: &str| {
            ranking.defs.iter().find(|r| r.id.file == file && graph.def(&r.id).unwrap().name == name).unwrap().score
        };
        assert!(score("b.py", "load") > score("a.py", "load"), "{:?}", ranking.defs);
        // Its class still counts the use, as B does.
        assert_eq!(score("a.py", "A"), score("b.py", "B"));
    }

    #[test]
    fn an_interrupted_ranking_keeps_nothing() {
        let graph = graph(&STAR);
        let gone = || true;
        assert_eq!(graph.rank(&BTreeSet::new(), &|_| false, Interrupt::new(&gone)).err(), Some(Interrupted));
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&graph, &ranking), ["core", "helper", "alpha", "beta", "gamma", "leaf"]);
    }

    #[test]
    fn a_one_letter_type_counts_only_when_resolved_exactly() {
        // TypeScript: a type named without an import may still be a global declaration.
        let guessed = graph_in(Language::TypeScript, &[("t.ts", "class T {}\n"), ("use.ts", "function f(x: T) {}\n")]);
        let ranking = guessed.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(ranking.likely, 1);
        assert_eq!(ranking.defs[0].score, ranking.defs[1].score, "the guess adds nothing");
        let imported =
            graph(&[("t.py", "class T:\n    pass\n"), ("use.py", "from t import T\n\ndef f(x: T):\n    pass\n")]);
        let ranking = imported.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&imported, &ranking), ["T", "f"]);
        assert!(ranking.defs[0].score > ranking.defs[1].score);
    }

    #[test]
    fn personalisation_moves_rank_toward_what_the_touched_files_reach() {
        // Two clusters: x.py calls `near`, y.py calls `far` twice as often from two functions.
        let files = [
            ("far.py", "def far():\n    pass\n"),
            ("near.py", "def near():\n    pass\n"),
            ("x.py", "from near import near\n\ndef x():\n    near()\n"),
            ("y.py", "from far import far\n\ndef y1():\n    far()\n\ndef y2():\n    far()\n"),
        ];
        let graph = graph(&files);
        let plain = names(&graph, &graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap());
        assert_eq!(&plain[..2], ["far", "near"]);
        let touched = BTreeSet::from(["x.py".to_string()]);
        let personal = graph.rank(&touched, &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(personal.personal, ["x.py"]);
        assert_eq!(&names(&graph, &personal)[..2], ["near", "far"]);
        // The touched file's own function is still listed, scored without its teleport bonus.
        let x = personal.defs.iter().position(|r| r.id.file == "x.py").unwrap();
        assert!(x > 1, "{:?}", personal.defs);
        let unknown = BTreeSet::from(["gone.py".to_string()]);
        assert!(graph.rank(&unknown, &|_| false, Interrupt::NEVER).unwrap().personal.is_empty());
    }

    #[test]
    fn the_ranking_does_not_depend_on_the_order_files_arrived_in() {
        let forward = graph(&STAR);
        let mut reversed_files = STAR;
        reversed_files.reverse();
        let reversed = graph(&reversed_files);
        let touched = BTreeSet::from(["b.py".to_string()]);
        for personal in [BTreeSet::new(), touched] {
            let (one, two) = (
                forward.rank(&personal, &|_| false, Interrupt::NEVER).unwrap(),
                reversed.rank(&personal, &|_| false, Interrupt::NEVER).unwrap(),
            );
            assert_eq!(one.defs, two.defs);
            assert_eq!(one.defs, forward.rank(&personal, &|_| false, Interrupt::NEVER).unwrap().defs);
        }
    }

    /// `res.contentType = res.type = function` is one function: the map lists it once, under the
    /// name its callers use most.
    #[test]
    fn a_function_assigned_to_several_members_is_ranked_once() {
        let response = "var res = {};\n\nres.send = function send() {\n  this.type('html');\n  this.type('json');\n};\n\n\
                        res.contentType =\nres.type = function contentType(type) {\n  return type;\n};\n";
        let graph = graph_in(Language::JavaScript, &[("response.js", response)]);
        let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
        assert_eq!(names(&graph, &ranking), ["type", "send"]);
    }
}

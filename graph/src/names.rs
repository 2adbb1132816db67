//! The definitions of one name, and what resolution asks of them at every reference written with
//! that name, worked out once per version of them.
//!
//! A method name defined in thousands of files (`def run(self)`, `fn new()`: generated code,
//! plugins, test suites) is asked about at each of its thousands of call sites: which of its
//! definitions a call on a value of unknown type may reach, which one a type has. Filtering the
//! name's definitions afresh at each site, and copying the answer, made callers and the ranking
//! quadratic in the number of definitions. Here the by-name candidates are one shared list per
//! kind of reference, and the definitions are indexed by the type they are in (or none).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};

use crate::declarations::is_declaration;
use crate::facts::{Def, RefKind};
use crate::graph::{DefId, fits, is_ctor};

/// How many [`RefKind`]s there are.
const KINDS: usize = 5;

/// A [`RefKind`]'s place among them: a new kind must be given its own here.
fn slot(kind: RefKind) -> usize {
    match kind {
        RefKind::Call => 0,
        RefKind::Method => 1,
        RefKind::New => 2,
        RefKind::Type => 3,
        RefKind::Read => 4,
    }
}

/// How a reference written with the name stands: bare (`run()`) or on a receiver (`x.run()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    Bare,
    OnReceiver,
}

/// A name's definitions.
#[derive(Debug, Default)]
pub(crate) struct Named {
    pub(crate) ids: BTreeSet<DefId>,
    /// Dropped whenever `ids` changes.
    derived: OnceLock<Derived>,
}

#[derive(Debug, Default)]
struct Derived {
    /// Per (written, kind): the definitions a reference reaches by its name alone, in `DefId`
    /// order, each list shared by every such reference.
    unqualified: [OnceLock<Arc<[DefId]>>; 2 * KINDS],
    /// Type → its members of this name, in `DefId` order.
    members: HashMap<String, Vec<DefId>>,
    /// The definitions of this name in no type nor function body, in `DefId` order.
    top_level: Vec<DefId>,
    /// Whether a declaration file (a `.pyi` stub, a `.d.ts`) defines the name.
    declared: bool,
}

impl Named {
    pub(crate) fn insert(&mut self, id: DefId) {
        self.ids.insert(id);
        self.derived = OnceLock::new();
    }

    pub(crate) fn remove(&mut self, id: &DefId) {
        self.ids.remove(id);
        self.derived = OnceLock::new();
    }

    /// The definitions a reference of `kind`, written as `written`, reaches by the name alone
    /// (no import, scope or type said which): those it [`fits`], and for a call on a receiver
    /// only members, none a property or a member typed as a function (see `Def::typed_member`);
    /// a bare call reaches a function or a class, not a method. None in a `generated` file.
    pub(crate) fn unqualified<'a>(
        &self,
        written: Written,
        kind: RefKind,
        def: impl Fn(&DefId) -> Option<&'a Def>,
        generated: impl Fn(&str) -> bool,
    ) -> Arc<[DefId]> {
        let slot = slot(kind) * 2 + written as usize;
        let derived = self.derived(&def);
        let keep = |d: &Def| match written {
            Written::Bare => {
                d.scope.is_none() && fits(kind, d) && (kind != RefKind::Call || d.container.is_none() || is_ctor(d))
            }
            Written::OnReceiver => {
                d.container.is_some() && fits(kind, d) && !(kind == RefKind::Method && (d.property || d.typed_member))
            }
        };
        derived.unqualified[slot]
            .get_or_init(|| {
                self.ids.iter().filter(|id| !generated(&id.file) && def(id).is_some_and(keep)).cloned().collect()
            })
            .clone()
    }

    /// The members of type `container` with this name, in `DefId` order.
    pub(crate) fn members<'a>(&self, container: &str, def: impl Fn(&DefId) -> Option<&'a Def>) -> &[DefId] {
        self.derived(&def).members.get(container).map_or(&[], Vec::as_slice)
    }

    /// The definitions of this name in no type, in `DefId` order.
    pub(crate) fn top_level<'a>(&self, def: impl Fn(&DefId) -> Option<&'a Def>) -> &[DefId] {
        &self.derived(&def).top_level
    }

    /// Whether a declaration file (a `.pyi` stub, a `.d.ts`) defines the name.
    pub(crate) fn declared<'a>(&self, def: impl Fn(&DefId) -> Option<&'a Def>) -> bool {
        self.derived(&def).declared
    }

    fn derived<'a>(&self, def: &impl Fn(&DefId) -> Option<&'a Def>) -> &Derived {
        self.derived.get_or_init(|| {
            let mut derived = Derived::default();
            for id in &self.ids {
                derived.declared |= is_declaration(&id.file);
                // A function nested in another's body is no member and not the module's.
                match def(id).map(|d| (d.container.clone(), d.scope.is_some())) {
                    Some((Some(container), _)) => derived.members.entry(container).or_default().push(id.clone()),
                    Some((None, false)) => derived.top_level.push(id.clone()),
                    _ => {}
                }
            }
            derived
        })
    }
}

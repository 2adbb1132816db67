//! Node parents without tree-sitter's search from the root.
//!
//! tree-sitter's `Node::parent` searches down from the root, so one call costs the node's depth
//! and the siblings passed on the way. Asked for every reference and binding (is it among a
//! macro's tokens, which closure holds it), that made extraction quadratic in a file's nesting:
//! 20,000 chained calls `a.b().c()…` nest 20,000 deep, and took minutes. The queries hand their
//! nodes over in document order, so the path down to the node asked last is kept, and the next
//! search starts from the innermost node of it that holds the node asked: a step or two away.
//! (A table of every node's parent, made in one walk, cost a seventh of a typical file's
//! extraction; this costs nothing where nothing is asked.)

use std::cell::RefCell;

use lean_ctx_outline::tree_sitter::Node;

/// Parents in one tree, found from the path to the node asked last.
pub(crate) struct Parents<'t> {
    /// A chain of nodes from the root, each the parent of the next.
    path: RefCell<Vec<Node<'t>>>,
}

impl<'t> Parents<'t> {
    pub(crate) fn new(root: Node<'t>) -> Self {
        Self { path: RefCell::new(vec![root]) }
    }

    /// What `Node::parent` gives.
    pub(crate) fn of(&self, node: Node<'t>) -> Option<Node<'t>> {
        let mut path = self.path.borrow_mut();
        let bytes = node.byte_range();
        let holds = |n: &Node| n.start_byte() <= bytes.start && bytes.end <= n.end_byte();
        // Up to the innermost node of the path holding `node`'s bytes: an ancestor, `node`
        // itself, or one of its descendants spanning the same bytes (an only child).
        while path.len() > 1 && !path.last().is_some_and(holds) {
            path.pop();
        }
        let same_bytes = path.iter().rev().take_while(|n| n.byte_range() == bytes);
        if let Some(above) = same_bytes.into_iter().position(|n| n.id() == node.id()) {
            let at = path.len() - 1 - above;
            path.truncate(at + 1);
            return at.checked_sub(1).map(|parent| path[parent]);
        }
        loop {
            let from = path.len();
            let mut current = *path.last()?;
            while let Some(child) = current.child_with_descendant(node) {
                path.push(child);
                if child.id() == node.id() {
                    return Some(current);
                }
                current = child;
            }
            if from == 1 {
                // Not found from the root: what `ts_node_parent` answers then, the last node reached.
                return Some(current);
            }
            // A node holding the bytes of an empty `node` at its end without holding `node`.
            path.truncate(from - 1);
        }
    }

    /// `node`'s ancestors, innermost first.
    pub(crate) fn ancestors(&self, node: Node<'t>) -> impl Iterator<Item = Node<'t>> + '_ {
        std::iter::successors(self.of(node), |ancestor| self.of(*ancestor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_outline::Language;
    use lean_ctx_outline::tree_sitter::{Parser, Tree};

    fn parse(language: Language, source: &str) -> Tree {
        let mut parser = Parser::new();
        parser.set_language(&language.grammar()).expect("grammar loads");
        parser.parse(source, None).expect("parses")
    }

    fn every_node(tree: &Tree) -> Vec<Node<'_>> {
        let mut cursor = tree.walk();
        let mut nodes = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            nodes.push(node);
            stack.extend(node.children(&mut cursor));
        }
        nodes
    }

    /// Asked in any order, the answers are tree-sitter's own, in trees with only children
    /// spanning their parent's bytes, comments, errors and missing (empty) nodes.
    #[test]
    fn every_parent_is_tree_sitters_in_any_order() {
        let sources = [
            (Language::Rust, "fn f(x: &[u8]) { /* c */ let y = x.iter().map(|s| s + 1); assert!(g(y)); } fn ("),
            (Language::Python, "def f(a):\n    a.b(1).c\n    g(\n"),
            (Language::JavaScript, "function f(a) { return a.b().c((s) => s.d) }\nlet x = [1, 2"),
        ];
        for (language, source) in sources {
            let tree = parse(language, source);
            let mut nodes = every_node(&tree);
            assert!(nodes.len() > 20, "{language:?}: {} nodes", nodes.len());
            let orders = [nodes.clone(), nodes.iter().rev().copied().collect(), {
                nodes.sort_by_key(|n| (n.end_byte(), n.id()));
                nodes.clone()
            }];
            for order in orders {
                let parents = Parents::new(tree.root_node());
                for node in order {
                    assert_eq!(parents.of(node), node.parent(), "{language:?}: {node:?}");
                }
            }
        }
    }

    #[test]
    fn ancestors_run_to_the_root() {
        let tree = parse(Language::JavaScript, "f(a.b().c());");
        let root = tree.root_node();
        let c = root.descendant_for_byte_range(8, 9).expect("c");
        let parents = Parents::new(root);
        let kinds: Vec<&str> = parents.ancestors(c).map(|n| n.kind()).collect();
        assert_eq!(
            kinds,
            ["member_expression", "call_expression", "arguments", "call_expression", "expression_statement", "program"]
        );
    }
}

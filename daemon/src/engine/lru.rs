//! A map bounded by total weight (bytes, or entries with weight 1) that
//! evicts the least recently used entries first. Not synchronized: each
//! owner wraps it in its own ranked lock.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

pub struct Lru<K, V> {
    entries: HashMap<K, Entry<V>>,
    /// Last-use tick → key; the first entry is the eviction candidate.
    order: BTreeMap<u64, K>,
    tick: u64,
    weight: usize,
    budget: usize,
}

struct Entry<V> {
    value: V,
    tick: u64,
    weight: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    pub fn new(budget: usize) -> Self {
        Lru { entries: HashMap::new(), order: BTreeMap::new(), tick: 0, weight: 0, budget }
    }

    /// The value for `key`, marking it recently used.
    pub fn get(&mut self, key: &K) -> Option<V> {
        self.tick += 1;
        let entry = self.entries.get_mut(key)?;
        self.order.remove(&entry.tick);
        entry.tick = self.tick;
        self.order.insert(self.tick, key.clone());
        Some(entry.value.clone())
    }

    /// Inserts or replaces; an entry heavier than the whole budget is not
    /// kept at all.
    pub fn insert(&mut self, key: K, value: V, weight: usize) {
        self.remove(&key);
        if weight > self.budget {
            return;
        }
        self.tick += 1;
        self.order.insert(self.tick, key.clone());
        self.entries.insert(key, Entry { value, tick: self.tick, weight });
        self.weight += weight;
        while self.weight > self.budget {
            let Some((_, oldest)) = self.order.pop_first() else { break };
            if let Some(e) = self.entries.remove(&oldest) {
                self.weight -= e.weight;
            }
        }
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        let e = self.entries.remove(key)?;
        self.order.remove(&e.tick);
        self.weight -= e.weight;
        Some(e.value)
    }

    /// Changes the budget, evicting as needed.
    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        while self.weight > self.budget {
            let Some((_, oldest)) = self.order.pop_first() else { break };
            if let Some(e) = self.entries.remove(&oldest) {
                self.weight -= e.weight;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn weight(&self) -> usize {
        self.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_least_recently_used_by_weight() {
        let mut lru = Lru::new(10);
        lru.insert("a", 1, 4);
        lru.insert("b", 2, 4);
        assert_eq!(lru.get(&"a"), Some(1));
        lru.insert("c", 3, 4);
        assert_eq!(lru.get(&"b"), None, "b was least recently used");
        assert_eq!(lru.get(&"a"), Some(1));
        assert_eq!(lru.weight(), 8);
        lru.insert("huge", 9, 11);
        assert_eq!(lru.get(&"huge"), None);
        assert_eq!(lru.len(), 2);
        lru.set_budget(4);
        assert_eq!(lru.len(), 1);
        lru.set_budget(0);
        assert!(lru.is_empty());
    }

    #[test]
    fn replacing_updates_weight() {
        let mut lru = Lru::new(10);
        lru.insert("a", 1, 6);
        lru.insert("a", 2, 3);
        assert_eq!(lru.weight(), 3);
        assert_eq!(lru.remove(&"a"), Some(2));
        assert_eq!(lru.weight(), 0);
    }
}

//! Project knowledge: facts an agent learned about a project, keyed per project, with history.
//!
//! A key has at most one current fact. Remembering a new value for it supersedes the current one,
//! which stays queryable through [`Store::history`]; forgetting marks it forgotten but keeps it.
//! Nothing is ever deleted, so an agent's mistaken overwrite can always be traced and undone.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result, non_empty, sql_limit};
use crate::{Store, now_ms};

/// A fact to remember.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewFact<'a> {
    pub project: &'a str,
    pub category: &'a str,
    pub key: &'a str,
    pub value: &'a str,
    /// The session that learned the fact, if any.
    pub source_session: Option<&'a str>,
    /// How sure the agent is, from 0 to 1.
    pub confidence: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FactState {
    Current,
    /// Replaced by a newer value for the same key.
    Superseded,
    Forgotten,
}

impl FactState {
    fn parse(text: &str) -> Self {
        match text {
            "current" => FactState::Current,
            "superseded" => FactState::Superseded,
            _ => FactState::Forgotten,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    pub id: i64,
    pub project: String,
    pub category: String,
    pub key: String,
    pub value: String,
    pub source_session: Option<String>,
    pub confidence: f64,
    pub created_ms: i64,
    /// When the value was last remembered again (equals `created_ms` until then).
    pub confirmed_ms: i64,
    pub state: FactState,
    /// When it was superseded or forgotten; `None` while current.
    pub ended_ms: Option<i64>,
}

/// What [`Store::remember`] did; every variant carries the id of the now current fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remembered {
    /// The key had no current fact.
    Added(i64),
    /// The key already held this value (and category): only `confirmed_ms` and, if higher,
    /// the confidence changed.
    Confirmed(i64),
    /// The key held another value, now superseded and kept in the history.
    Superseded { id: i64, previous: i64 },
}

impl Remembered {
    /// The id of the current fact after the call.
    pub fn id(self) -> i64 {
        match self {
            Remembered::Added(id) | Remembered::Confirmed(id) | Remembered::Superseded { id, .. } => id,
        }
    }
}

const COLUMNS: &str = "f.id, f.project, f.category, f.key, f.value, f.source_session, f.confidence, f.created_ms, \
                       f.confirmed_ms, f.state, f.ended_ms";

/// Most search terms a recall query uses; the rest are ignored to keep the query cheap.
const MAX_TERMS: usize = 32;

impl Store {
    /// Remembers a fact for `(project, key)`: adds, confirms or supersedes (see [`Remembered`]).
    pub fn remember(&mut self, fact: &NewFact<'_>) -> Result<Remembered> {
        non_empty("project", fact.project)?;
        non_empty("key", fact.key)?;
        non_empty("value", fact.value)?;
        if !(0.0..=1.0).contains(&fact.confidence) {
            return Err(Error::InvalidInput(format!("confidence must be between 0 and 1, got {}", fact.confidence)));
        }
        let now = now_ms();
        let tx = self.write()?;
        let current = current(&tx, fact.project, fact.key)?;
        let outcome = match current {
            Some(old) if old.value == fact.value && old.category == fact.category => {
                tx.execute(
                    "UPDATE facts SET confirmed_ms = max(confirmed_ms, ?2), confidence = max(confidence, ?3)
                     WHERE id = ?1",
                    params![old.id, now, fact.confidence],
                )?;
                Remembered::Confirmed(old.id)
            }
            Some(old) => {
                retire(&tx, old.id, "superseded", now)?;
                Remembered::Superseded { id: insert(&tx, fact, now)?, previous: old.id }
            }
            None => Remembered::Added(insert(&tx, fact, now)?),
        };
        tx.commit()?;
        Ok(outcome)
    }

    /// The current facts of `project` that best match `query`, best first, at most `limit`.
    ///
    /// Ranking is FTS5's bm25 over key, value and category (a key match weighs most). The query is
    /// plain words, never FTS syntax: every run of letters and digits becomes a quoted prefix term
    /// and the terms are OR-ed, so quotes, parentheses or `OR` typed by a user cannot break it.
    /// A query without any word returns the most recently confirmed facts.
    pub fn recall(&self, project: &str, query: &str, category: Option<&str>, limit: usize) -> Result<Vec<Fact>> {
        let limit = sql_limit(limit);
        let Some(expression) = match_expression(query) else {
            let sql = format!(
                "SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.state = 'current'
                 AND (?2 IS NULL OR f.category = ?2) ORDER BY f.confirmed_ms DESC, f.id DESC LIMIT ?3"
            );
            return query_facts(&self.conn, &sql, params![project, category, limit]);
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid
             WHERE facts_fts MATCH ?1 AND f.project = ?2 AND f.state = 'current' AND (?3 IS NULL OR f.category = ?3)
             ORDER BY bm25(facts_fts, 4.0, 1.0, 2.0), f.confirmed_ms DESC, f.id DESC LIMIT ?4"
        );
        query_facts(&self.conn, &sql, params![expression, project, category, limit])
    }

    /// Marks the current fact of `(project, key)` forgotten; returns whether there was one.
    /// The fact stays in the history.
    pub fn forget(&mut self, project: &str, key: &str) -> Result<bool> {
        let tx = self.write()?;
        let forgotten = match current(&tx, project, key)? {
            Some(old) => {
                retire(&tx, old.id, "forgotten", now_ms())?;
                true
            }
            None => false,
        };
        tx.commit()?;
        Ok(forgotten)
    }

    /// The current facts of `project`, optionally of one category, by category then key.
    pub fn facts(&self, project: &str, category: Option<&str>) -> Result<Vec<Fact>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.state = 'current'
             AND (?2 IS NULL OR f.category = ?2) ORDER BY f.category, f.key"
        );
        query_facts(&self.conn, &sql, params![project, category])
    }

    /// Every fact ever remembered for `(project, key)`, oldest first, the current one (if any) last.
    pub fn history(&self, project: &str, key: &str) -> Result<Vec<Fact>> {
        let sql = format!("SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.key = ?2 ORDER BY f.id");
        query_facts(&self.conn, &sql, params![project, key])
    }
}

fn current(conn: &Connection, project: &str, key: &str) -> Result<Option<Fact>> {
    let sql = format!("SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.key = ?2 AND f.state = 'current'");
    Ok(conn.query_row(&sql, params![project, key], fact_from_row).optional()?)
}

fn insert(conn: &Connection, fact: &NewFact<'_>, now: i64) -> Result<i64> {
    conn.execute(
        "INSERT INTO facts (project, category, key, value, source_session, confidence, created_ms, confirmed_ms, state)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, 'current')",
        params![fact.project, fact.category, fact.key, fact.value, fact.source_session, fact.confidence, now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Ends a current fact; the `facts_fts_retire` trigger takes it out of the search index.
fn retire(conn: &Connection, id: i64, state: &str, now: i64) -> Result<()> {
    conn.execute("UPDATE facts SET state = ?2, ended_ms = ?3 WHERE id = ?1", params![id, state, now])?;
    Ok(())
}

fn query_facts(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> Result<Vec<Fact>> {
    let mut statement = conn.prepare(sql)?;
    let facts = statement.query_map(params, fact_from_row)?;
    Ok(facts.collect::<rusqlite::Result<_>>()?)
}

fn fact_from_row(row: &Row<'_>) -> rusqlite::Result<Fact> {
    let state: String = row.get(9)?;
    Ok(Fact {
        id: row.get(0)?,
        project: row.get(1)?,
        category: row.get(2)?,
        key: row.get(3)?,
        value: row.get(4)?,
        source_session: row.get(5)?,
        confidence: row.get(6)?,
        created_ms: row.get(7)?,
        confirmed_ms: row.get(8)?,
        state: FactState::parse(&state),
        ended_ms: row.get(10)?,
    })
}

/// The search terms of a user's query: each run of letters and digits (what the unicode61
/// tokenizer indexes), lowercased, duplicates dropped, at most [`MAX_TERMS`].
pub(crate) fn search_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for word in query.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()) {
        let word = word.to_lowercase();
        if terms.len() < MAX_TERMS && !terms.contains(&word) {
            terms.push(word);
        }
    }
    terms
}

/// Turns search terms into an FTS5 expression that cannot be a syntax error: each term becomes a
/// quoted prefix term (`"word"*`), OR-ed together. `None` when there is no term at all.
pub(crate) fn terms_expression(terms: &[String]) -> Option<String> {
    if terms.is_empty() {
        return None;
    }
    Some(terms.iter().map(|term| format!("\"{term}\"*")).collect::<Vec<_>>().join(" OR "))
}

/// Turns a user's words into an FTS5 expression that cannot be a syntax error (see
/// [`search_terms`] and [`terms_expression`]). `None` when the query has no word at all.
fn match_expression(query: &str) -> Option<String> {
    terms_expression(&search_terms(query))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::temp_store;

    fn fact<'a>(key: &'a str, value: &'a str) -> NewFact<'a> {
        NewFact { project: "/repo", category: "arch", key, value, source_session: Some("s1"), confidence: 0.8 }
    }

    #[test]
    fn remember_adds_confirms_and_supersedes() {
        let (_dir, mut store) = temp_store();
        let added = store.remember(&fact("db", "sqlite in WAL mode")).unwrap();
        assert!(matches!(added, Remembered::Added(_)));
        std::thread::sleep(std::time::Duration::from_millis(3));
        let confirmed = store.remember(&NewFact { confidence: 0.9, ..fact("db", "sqlite in WAL mode") }).unwrap();
        assert_eq!(confirmed, Remembered::Confirmed(added.id()));
        let current = &store.facts("/repo", None).unwrap()[0];
        assert!(current.confirmed_ms > current.created_ms);
        assert_eq!(current.confidence, 0.9);
        // A lower confidence on confirmation does not lower it.
        store.remember(&NewFact { confidence: 0.1, ..fact("db", "sqlite in WAL mode") }).unwrap();
        assert_eq!(store.facts("/repo", None).unwrap()[0].confidence, 0.9);

        let superseded = store.remember(&fact("db", "postgres")).unwrap();
        assert_eq!(superseded, Remembered::Superseded { id: superseded.id(), previous: added.id() });
        let history = store.history("/repo", "db").unwrap();
        let states: Vec<_> = history.iter().map(|f| (f.value.as_str(), f.state)).collect();
        assert_eq!(states, [("sqlite in WAL mode", FactState::Superseded), ("postgres", FactState::Current)]);
        assert!(history[0].ended_ms.is_some() && history[1].ended_ms.is_none());
        let current: Vec<_> = store.facts("/repo", None).unwrap().into_iter().map(|f| f.value).collect();
        assert_eq!(current, ["postgres"]);
    }

    #[test]
    fn superseded_values_leave_the_search_index() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("db", "sqlite")).unwrap();
        store.remember(&fact("db", "postgres")).unwrap();
        assert!(store.recall("/repo", "sqlite", None, 10).unwrap().is_empty());
        assert_eq!(store.recall("/repo", "postgres", None, 10).unwrap().len(), 1);
    }

    #[test]
    fn forget_keeps_history_and_a_new_value_starts_over() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("build", "make")).unwrap();
        assert!(store.forget("/repo", "build").unwrap());
        assert!(!store.forget("/repo", "build").unwrap(), "nothing current left to forget");
        assert!(store.facts("/repo", None).unwrap().is_empty());
        assert!(store.recall("/repo", "make", None, 10).unwrap().is_empty());
        assert!(matches!(store.remember(&fact("build", "cargo")).unwrap(), Remembered::Added(_)));
        let states: Vec<_> = store.history("/repo", "build").unwrap().into_iter().map(|f| f.state).collect();
        assert_eq!(states, [FactState::Forgotten, FactState::Current]);
    }

    #[test]
    fn recall_ranks_by_relevance_and_filters_project_and_category() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("tokenizer", "o200k_base via tiktoken")).unwrap();
        store.remember(&fact("cache", "the tokenizer output is cached per file")).unwrap();
        store.remember(&NewFact { category: "style", ..fact("naming", "snake_case everywhere") }).unwrap();
        store.remember(&NewFact { project: "/other", ..fact("tokenizer", "cl100k") }).unwrap();

        let keys = |facts: Vec<Fact>| facts.into_iter().map(|f| f.key).collect::<Vec<_>>();
        assert_eq!(keys(store.recall("/repo", "tokenizer", None, 10).unwrap()), ["tokenizer", "cache"]);
        assert_eq!(keys(store.recall("/repo", "tokenizer", None, 1).unwrap()), ["tokenizer"]);
        assert_eq!(keys(store.recall("/repo", "snake", Some("style"), 10).unwrap()), ["naming"]);
        assert!(store.recall("/repo", "snake", Some("arch"), 10).unwrap().is_empty());
        // Prefix terms: "token" finds "tokenizer".
        assert_eq!(store.recall("/repo", "token", None, 10).unwrap().len(), 2);
        // The category is searchable too.
        assert_eq!(keys(store.recall("/repo", "style", None, 10).unwrap()), ["naming"]);
    }

    #[test]
    fn recall_survives_fts_syntax_in_user_queries() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("quote", "foo said bar")).unwrap();
        for query in [
            "foo\"bar OR (",
            "\"",
            "(((",
            "AND OR NOT",
            "NEAR(foo bar)",
            "key:value",
            "*",
            "foo*",
            "-foo +bar",
            "^foo",
            "'; DROP TABLE facts; --",
            "",
            "   ",
        ] {
            store.recall("/repo", query, None, 10).unwrap_or_else(|e| panic!("query {query:?} failed: {e}"));
        }
        assert_eq!(store.recall("/repo", "foo\"bar OR (", None, 10).unwrap().len(), 1);
        assert_eq!(match_expression("foo\"bar OR ("), Some("\"foo\"* OR \"bar\"* OR \"or\"*".to_owned()));
        assert_eq!(match_expression("(( ))"), None);
    }

    #[test]
    fn recall_without_words_returns_the_latest_facts() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("a", "one")).unwrap();
        store.remember(&fact("b", "two")).unwrap();
        let keys: Vec<_> = store.recall("/repo", "?!", None, 10).unwrap().into_iter().map(|f| f.key).collect();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn list_orders_by_category_then_key() {
        let (_dir, mut store) = temp_store();
        store.remember(&NewFact { category: "z", ..fact("a", "1") }).unwrap();
        store.remember(&NewFact { category: "a", ..fact("b", "2") }).unwrap();
        store.remember(&NewFact { category: "a", ..fact("a2", "3") }).unwrap();
        let keys: Vec<_> = store.facts("/repo", None).unwrap().into_iter().map(|f| f.key).collect();
        assert_eq!(keys, ["a2", "b", "a"]);
        assert_eq!(store.facts("/repo", Some("z")).unwrap().len(), 1);
    }

    #[test]
    fn bad_input_is_refused() {
        let (_dir, mut store) = temp_store();
        for confidence in [-0.1, 1.5, f64::NAN] {
            let error = store.remember(&NewFact { confidence, ..fact("k", "v") }).unwrap_err();
            assert!(matches!(error, Error::InvalidInput(_)), "{error}");
        }
        assert!(store.remember(&fact("", "v")).is_err());
        assert!(store.history("/repo", "k").unwrap().is_empty());
    }
}

//! Project knowledge: facts an agent learned about a project, keyed per project, with history.
//!
//! A key has at most one current fact. Remembering a new value (or category) for it supersedes the
//! current one, which stays queryable through [`Store::history`]; remembering the same value again
//! confirms it; forgetting marks it forgotten but keeps it. Nothing is ever deleted, so an agent's
//! mistaken overwrite can always be traced and undone.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result, non_empty, sql_limit};
use crate::terms::{infix_terms, search_terms, terms_expression};
use crate::{Store, now_ms};

/// The category of a new key's fact when none is given.
pub const DEFAULT_CATEGORY: &str = "general";
/// The confidence of a new key's fact when none is given.
pub const DEFAULT_CONFIDENCE: f64 = 0.8;

/// The longest key a fact may have, in bytes: a key names the fact in every listing.
pub const MAX_KEY_BYTES: usize = 256;
/// The longest category, in bytes.
pub const MAX_CATEGORY_BYTES: usize = 64;
/// The longest value, in bytes (16 KiB): a fact is a note an agent reads back in one answer, not a
/// file; a longer text belongs in the project, with its path in the value.
pub const MAX_VALUE_BYTES: usize = 16 * 1024;

/// A fact to remember.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewFact<'a> {
    pub project: &'a str,
    /// `None` keeps the current fact's category ([`DEFAULT_CATEGORY`] for a new key): re-remembering
    /// a fact without naming its category must not move it.
    pub category: Option<&'a str>,
    pub key: &'a str,
    pub value: &'a str,
    /// The session that learned the fact, if any.
    pub source_session: Option<&'a str>,
    /// How sure the agent is, from 0 to 1; `None` keeps the current fact's
    /// ([`DEFAULT_CONFIDENCE`] for a new key).
    pub confidence: Option<f64>,
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

/// What [`Store::remember`] did: the key's current fact before and after, so a caller can say
/// what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Remembered {
    /// The current fact before the call; `None` when the key had none (the fact was added).
    pub before: Option<Fact>,
    /// The current fact after the call. The same fact as `before` (same id) when the call only
    /// confirmed it: same value and category, at most a new confidence. Otherwise a new fact, and
    /// `before` is superseded and kept in the history.
    pub after: Fact,
}

impl Remembered {
    /// The id of the current fact after the call.
    pub fn id(&self) -> i64 {
        self.after.id
    }

    /// Whether the call only confirmed the current fact (no new history entry).
    pub fn confirmed(&self) -> bool {
        self.before.as_ref().is_some_and(|before| before.id == self.after.id)
    }
}

const COLUMNS: &str = "f.id, f.project, f.category, f.key, f.value, f.source_session, f.confidence, f.created_ms, \
                       f.confirmed_ms, f.state, f.ended_ms";

impl Store {
    /// Remembers a fact for `(project, key)`: adds it, confirms the current one (same value,
    /// category and confidence: its confirmation time changes in place), or supersedes it, history
    /// keeping the old (see [`Remembered`]). An omitted category or confidence is the current fact's.
    pub fn remember(&mut self, fact: &NewFact<'_>) -> Result<Remembered> {
        non_empty("project", fact.project)?;
        non_empty("key", fact.key)?;
        non_empty("value", fact.value)?;
        at_most("key", fact.key, MAX_KEY_BYTES)?;
        at_most("value", fact.value, MAX_VALUE_BYTES)?;
        if let Some(category) = fact.category {
            non_empty("category", category)?;
            at_most("category", category, MAX_CATEGORY_BYTES)?;
        }
        if let Some(confidence) = fact.confidence.filter(|c| !(0.0..=1.0).contains(c)) {
            return Err(Error::InvalidInput(format!("confidence must be between 0 and 1, got {confidence}")));
        }
        let now = now_ms();
        let tx = self.write()?;
        let before = current(&tx, fact.project, fact.key)?;
        let category = fact.category.or(before.as_ref().map(|old| old.category.as_str())).unwrap_or(DEFAULT_CATEGORY);
        // Kept to the hundredth every answer shows it in: a change too small to show (0.80 →
        // 0.801) is no change, not a history entry that reads "0.80 → 0.80".
        let given = fact.confidence.map(|confidence| (confidence * 100.0).round() / 100.0);
        let confidence = given.or(before.as_ref().map(|old| old.confidence)).unwrap_or(DEFAULT_CONFIDENCE);
        let id = match &before {
            // The same fact again: a confirmation. A new confidence is a change like a new value
            // or category, superseded below so history keeps the old one.
            Some(old) if old.value == fact.value && old.category == category && old.confidence == confidence => {
                tx.execute(
                    "UPDATE facts SET confirmed_ms = max(confirmed_ms, ?2) WHERE id = ?1",
                    params![old.id, now],
                )?;
                old.id
            }
            Some(old) => {
                retire(&tx, old.id, "superseded", now)?;
                insert(&tx, fact, category, confidence, now)?
            }
            None => insert(&tx, fact, category, confidence, now)?,
        };
        let after = by_id(&tx, id)?;
        tx.commit()?;
        Ok(Remembered { before, after })
    }

    /// The current facts of `project` that best match `query`, best first, at most `limit`.
    ///
    /// Ranking is FTS5's bm25 over key, value and category (a key match weighs most), then the
    /// most recently confirmed. The query is plain words, the ones that tell what is looked for
    /// (see [`crate::terms`]), OR-ed. A query without any word returns the most recently
    /// confirmed facts.
    pub fn recall(&self, project: &str, query: &str, category: Option<&str>, limit: usize) -> Result<Vec<Fact>> {
        let limit = sql_limit(limit);
        let terms = search_terms(query);
        let Some(expression) = terms_expression(&terms) else {
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
        let mut facts = query_facts(&self.conn, &sql, params![expression, project, category, limit])?;
        // The index keeps a run of Chinese or Japanese as one word, which FTS5 finds by its start
        // only; the facts holding such a term inside a run (`使用` in `数据库使用`) follow the
        // ranked ones. Only then is every current fact of the project looked at.
        let room = usize::try_from(limit).unwrap_or(usize::MAX).saturating_sub(facts.len());
        if let Some(infixes) = infix_terms(&terms).filter(|_| room > 0) {
            let sql = format!(
                "SELECT {COLUMNS} FROM facts f
                 WHERE f.project = ?1 AND f.state = 'current' AND (?2 IS NULL OR f.category = ?2)
                   AND EXISTS (SELECT 1 FROM json_each(?3) t
                               WHERE instr(f.key, t.value) OR instr(f.value, t.value) OR instr(f.category, t.value))
                 ORDER BY f.confirmed_ms DESC, f.id DESC LIMIT ?4"
            );
            let ranked: std::collections::HashSet<i64> = facts.iter().map(|fact| fact.id).collect();
            // The ranked ones may be among them: enough rows for the room left whichever are.
            let rows = sql_limit(room.saturating_add(ranked.len()));
            let more = query_facts(&self.conn, &sql, params![project, category, infixes, rows])?;
            facts.extend(more.into_iter().filter(|fact| !ranked.contains(&fact.id)).take(room));
        }
        Ok(facts)
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

    /// The categories of the current facts of `project`, sorted.
    pub fn categories(&self, project: &str) -> Result<Vec<String>> {
        let mut statement = self.conn.prepare(
            "SELECT DISTINCT category FROM facts WHERE project = ?1 AND state = 'current' ORDER BY category",
        )?;
        let categories = statement.query_map(params![project], |row| row.get(0))?;
        Ok(categories.collect::<rusqlite::Result<_>>()?)
    }

    /// Every fact ever remembered for `(project, key)`, oldest first, the current one (if any) last.
    pub fn history(&self, project: &str, key: &str) -> Result<Vec<Fact>> {
        let sql = format!("SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.key = ?2 ORDER BY f.id");
        query_facts(&self.conn, &sql, params![project, key])
    }
}

/// Refuses a `field` longer than `max` bytes, saying by how much and what to do instead.
fn at_most(field: &str, text: &str, max: usize) -> Result<()> {
    if text.len() <= max {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "the {field} is {} bytes; a fact's {field} holds at most {max} bytes: shorten it (a long text belongs in a \
         file of the project, with its path in the value)",
        text.len()
    )))
}

fn current(conn: &Connection, project: &str, key: &str) -> Result<Option<Fact>> {
    let sql = format!("SELECT {COLUMNS} FROM facts f WHERE f.project = ?1 AND f.key = ?2 AND f.state = 'current'");
    Ok(conn.query_row(&sql, params![project, key], fact_from_row).optional()?)
}

fn by_id(conn: &Connection, id: i64) -> Result<Fact> {
    let sql = format!("SELECT {COLUMNS} FROM facts f WHERE f.id = ?1");
    Ok(conn.query_row(&sql, params![id], fact_from_row)?)
}

fn insert(conn: &Connection, fact: &NewFact<'_>, category: &str, confidence: f64, now: i64) -> Result<i64> {
    conn.execute(
        "INSERT INTO facts (project, category, key, value, source_session, confidence, created_ms, confirmed_ms, state)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, 'current')",
        params![fact.project, category, fact.key, fact.value, fact.source_session, confidence, now],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::temp_store;

    fn fact<'a>(key: &'a str, value: &'a str) -> NewFact<'a> {
        NewFact { project: "/repo", category: Some("arch"), key, value, source_session: Some("s1"), confidence: None }
    }

    #[test]
    fn remember_adds_confirms_and_supersedes() {
        let (_dir, mut store) = temp_store();
        let added = store.remember(&fact("db", "sqlite in WAL mode")).unwrap();
        assert!(added.before.is_none() && !added.confirmed());
        assert_eq!(added.after.confidence, DEFAULT_CONFIDENCE);
        std::thread::sleep(std::time::Duration::from_millis(3));
        let confirmed = store.remember(&fact("db", "sqlite in WAL mode")).unwrap();
        assert!(confirmed.confirmed() && confirmed.id() == added.id());
        let current = &store.facts("/repo", None).unwrap()[0];
        assert_eq!(current, &confirmed.after);
        assert!(current.confirmed_ms > current.created_ms);
        assert_eq!(store.history("/repo", "db").unwrap().len(), 1, "confirmations add no history");
        // A confidence given that differs is a change, even a lower one: history keeps the old.
        let raised = store.remember(&NewFact { confidence: Some(0.9), ..fact("db", "sqlite in WAL mode") }).unwrap();
        assert!(!raised.confirmed());
        assert_eq!(raised.before.as_ref().map(|f| f.confidence), Some(DEFAULT_CONFIDENCE));
        store.remember(&NewFact { confidence: Some(0.1), ..fact("db", "sqlite in WAL mode") }).unwrap();
        store.remember(&fact("db", "sqlite in WAL mode")).unwrap();
        let confidences: Vec<_> = store.history("/repo", "db").unwrap().iter().map(|f| f.confidence).collect();
        assert_eq!(confidences, [DEFAULT_CONFIDENCE, 0.9, 0.1], "none given keeps it, with no history");
        // A change past the hundredth answers show is none.
        assert!(
            store
                .remember(&NewFact { confidence: Some(0.101), ..fact("db", "sqlite in WAL mode") })
                .unwrap()
                .confirmed()
        );

        let superseded = store.remember(&fact("db", "postgres")).unwrap();
        assert!(!superseded.confirmed());
        assert_eq!(superseded.before.as_ref().map(|f| f.confidence), Some(0.1));
        let history = store.history("/repo", "db").unwrap();
        let states: Vec<_> = history[2..].iter().map(|f| (f.value.as_str(), f.state)).collect();
        assert_eq!(states, [("sqlite in WAL mode", FactState::Superseded), ("postgres", FactState::Current)]);
        assert!(history[2].ended_ms.is_some() && history[3].ended_ms.is_none());
        assert_eq!(history[3].confidence, 0.1, "a new value keeps the confidence it was not given");
        let current: Vec<_> = store.facts("/repo", None).unwrap().into_iter().map(|f| f.value).collect();
        assert_eq!(current, ["postgres"]);
    }

    #[test]
    fn an_omitted_category_or_confidence_is_the_current_facts() {
        let (_dir, mut store) = temp_store();
        let first = NewFact { category: Some("architecture"), confidence: Some(0.9), ..fact("layout", "src/") };
        store.remember(&first).unwrap();
        let again = store.remember(&NewFact { category: None, confidence: None, ..first }).unwrap();
        assert!(again.confirmed(), "the same value without a category is a confirmation");
        assert_eq!((again.after.category.as_str(), again.after.confidence), ("architecture", 0.9));
        let moved = store.remember(&NewFact { category: None, confidence: None, value: "lib/", ..first }).unwrap();
        assert_eq!((moved.after.category.as_str(), moved.after.confidence), ("architecture", 0.9));
        // Naming another category for the same value moves it, and the history keeps where it was.
        let recategorized = store.remember(&NewFact { category: Some("build"), value: "lib/", ..first }).unwrap();
        assert!(!recategorized.confirmed());
        let categories: Vec<_> = store.history("/repo", "layout").unwrap().into_iter().map(|f| f.category).collect();
        assert_eq!(categories, ["architecture", "architecture", "build"]);
        // A new key without them gets the defaults.
        let fresh = store.remember(&NewFact { category: None, ..fact("new", "v") }).unwrap();
        assert_eq!((fresh.after.category.as_str(), fresh.after.confidence), (DEFAULT_CATEGORY, DEFAULT_CONFIDENCE));
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
        assert!(store.remember(&fact("build", "cargo")).unwrap().before.is_none(), "added anew");
        let states: Vec<_> = store.history("/repo", "build").unwrap().into_iter().map(|f| f.state).collect();
        assert_eq!(states, [FactState::Forgotten, FactState::Current]);
    }

    #[test]
    fn recall_ranks_by_relevance_and_filters_project_and_category() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("tokenizer", "o200k_base via tiktoken")).unwrap();
        store.remember(&fact("cache", "the tokenizer output is cached per file")).unwrap();
        store.remember(&NewFact { category: Some("style"), ..fact("naming", "snake_case everywhere") }).unwrap();
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
    fn recall_ranks_by_the_words_that_tell_what_is_looked_for() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("test-cmd", "PYTHONPATH=src python -m pytest tests -q")).unwrap();
        store.remember(&fact("layout", "src layout: attr/ is the implementation, attrs/ re-exports it")).unwrap();
        let keys = |query: &str| -> Vec<String> {
            store.recall("/repo", query, None, 10).unwrap().into_iter().map(|f| f.key).collect()
        };
        // "the", "is", "I" and "do" are in both or neither: only "tests" (and "run") count.
        assert_eq!(keys("how do I run the tests"), ["test-cmd"]);
        // Each holds one of the words in its key (`tests` looks for `test…`): both are found, in
        // whichever order bm25 gives; "the" and "of" find neither.
        let mut both = keys("the layout of the tests");
        both.sort();
        assert_eq!(both, ["layout", "test-cmd"]);
        // A one-letter or two-letter word is no prefix: `i` is not `implementation`, `at` not `attr`.
        assert!(keys("i").is_empty());
        assert!(keys("at").is_empty());
        assert_eq!(keys("att"), ["layout"]);
        // Only function words: they count.
        assert_eq!(keys("is it"), ["layout"]);
    }

    #[test]
    fn recall_finds_a_word_by_its_plural_or_inflected_form() {
        // QA: "tests" found nothing for a key `pluggy.test_cmd` (the index holds `test`, `cmd`).
        let (_dir, mut store) = temp_store();
        store.remember(&fact("pluggy.test_cmd", "PYTHONPATH=src venv/bin/python -m pytest -q testing")).unwrap();
        store.remember(&fact("deps", "the library is vendored")).unwrap();
        let keys = |query: &str| -> Vec<String> {
            store.recall("/repo", query, None, 10).unwrap().into_iter().map(|f| f.key).collect()
        };
        assert_eq!(keys("how to run tests"), ["pluggy.test_cmd"]);
        assert_eq!(keys("tests"), ["pluggy.test_cmd"]);
        assert_eq!(keys("libraries"), ["deps"]);
    }

    #[test]
    fn recall_finds_two_character_words_of_unspaced_scripts() {
        let (_dir, mut store) = temp_store();
        store.remember(&fact("db", "数据库使用 SQLite")).unwrap();
        store.remember(&fact("cfg", "설정은 config.toml에 있다")).unwrap();
        store.remember(&fact("lock", "使用 文件锁")).unwrap();
        let keys = |query: &str| -> Vec<String> {
            store.recall("/repo", query, None, 10).unwrap().into_iter().map(|f| f.key).collect()
        };
        assert_eq!(keys("数据"), ["db"]);
        assert_eq!(keys("설정"), ["cfg"]);
        // Inside a run the index keeps as one word: found by substring, after what the index ranks.
        assert_eq!(keys("使用"), ["lock", "db"]);
        assert_eq!(keys("库使"), ["db"]);
        assert!(keys("使用率").is_empty());
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
        assert_eq!(terms_expression(&search_terms("(( ))")), None);
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
        store.remember(&NewFact { category: Some("z"), ..fact("a", "1") }).unwrap();
        store.remember(&NewFact { category: Some("a"), ..fact("b", "2") }).unwrap();
        store.remember(&NewFact { category: Some("a"), ..fact("a2", "3") }).unwrap();
        let keys: Vec<_> = store.facts("/repo", None).unwrap().into_iter().map(|f| f.key).collect();
        assert_eq!(keys, ["a2", "b", "a"]);
        assert_eq!(store.facts("/repo", Some("z")).unwrap().len(), 1);
        assert_eq!(store.categories("/repo").unwrap(), ["a", "z"]);
        assert!(store.categories("/other").unwrap().is_empty());
    }

    #[test]
    fn bad_input_is_refused() {
        let (_dir, mut store) = temp_store();
        for confidence in [-0.1, 1.5, f64::NAN] {
            let error = store.remember(&NewFact { confidence: Some(confidence), ..fact("k", "v") }).unwrap_err();
            assert!(matches!(error, Error::InvalidInput(_)), "{error}");
        }
        assert!(store.remember(&fact("", "v")).is_err());
        assert!(store.remember(&NewFact { category: Some(" "), ..fact("k", "v") }).is_err());
        assert!(store.history("/repo", "k").unwrap().is_empty());
    }

    #[test]
    fn oversized_keys_values_and_categories_are_refused_naming_the_limit() {
        let (_dir, mut store) = temp_store();
        let value = "v".repeat(MAX_VALUE_BYTES + 1);
        let error = store.remember(&fact("k", &value)).unwrap_err().to_string();
        assert!(error.starts_with("the value is 16385 bytes; a fact's value holds at most 16384 bytes"), "{error}");
        let key = "k".repeat(MAX_KEY_BYTES + 1);
        assert!(store.remember(&fact(&key, "v")).unwrap_err().to_string().contains("at most 256 bytes"));
        let category = "c".repeat(MAX_CATEGORY_BYTES + 1);
        let error = store.remember(&NewFact { category: Some(&category), ..fact("k", "v") }).unwrap_err();
        assert!(error.to_string().contains("a fact's category holds at most 64 bytes"), "{error}");
        assert!(store.facts("/repo", None).unwrap().is_empty());
        // At the limit is fine.
        store.remember(&fact("k", &"v".repeat(MAX_VALUE_BYTES))).unwrap();
    }
}

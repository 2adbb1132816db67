//! ctx_session, ctx_knowledge and the ledger calls: parameter checks, the
//! store calls, and the text an agent reads back.

use lean_ctx_store::{Fact, GainRow, GroupBy, HandoffBudget, NewFact, NoteKind, Period, SessionKey};

use super::{Unrecorded, render};
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::surface::Surface;
// Uncached on purpose: the memo's lock ranks below the store's, which is held here.
use crate::engine::tokens::count_uncached;
use crate::engine::{Caller, Engine};

/// Token budget of a handoff summary.
const HANDOFF_TOKENS: usize = 400;
/// Items of one list a handoff shows by default; a larger `limit` shows more, with a budget
/// grown in step.
const HANDOFF_ITEMS: usize = 10;

/// Items of one list a handoff shows at most, whatever `limit` asks: a handoff fits the items it
/// shows by counting the tokens of each longer prefix of them, which grows with the square.
const HANDOFF_MAX_ITEMS: usize = 100;

/// A handoff's budget for `limit` items per list (0: the default); past [`HANDOFF_MAX_ITEMS`]
/// refused, not cut (a handoff asked for 5,000 showed 100 and said a larger limit shows more).
fn handoff_budget(limit: u32) -> EngineResult<HandoffBudget> {
    let per_section = match usize::try_from(limit) {
        Ok(0) => HANDOFF_ITEMS,
        Ok(limit) if limit <= HANDOFF_MAX_ITEMS => limit,
        _ => {
            return Err(EngineError::invalid(format!(
                "limit {limit} is out of range: a handoff shows 1 to {HANDOFF_MAX_ITEMS} items per list"
            )));
        }
    };
    Ok(HandoffBudget { max_tokens: HANDOFF_TOKENS * per_section.div_ceil(HANDOFF_ITEMS), per_section })
}
const DEFAULT_LIMIT: usize = 20;

pub const SESSION_ACTIONS: &str = "status, task, finding, decision, next, list, load, handoff";
pub const KNOWLEDGE_ACTIONS: &str = "remember, recall, forget, list, history";

#[derive(Debug, Default, Clone)]
pub struct KnowledgeParams {
    pub action: String,
    pub category: String,
    pub key: String,
    pub value: String,
    pub query: String,
    pub confidence: Option<f64>,
    pub limit: u32,
    /// How the answer's advice is worded.
    pub surface: Surface,
}

/// What a session call answers: text, and the session acted on.
pub struct SessionAnswer {
    pub text: String,
    pub session_id: String,
}

/// A listing's `limit`: 0 means [`DEFAULT_LIMIT`].
pub fn limit_or_default(limit: u32) -> usize {
    if limit == 0 { DEFAULT_LIMIT } else { limit as usize }
}

fn require<'a>(what: &str, value: &'a str, action: &str) -> EngineResult<&'a str> {
    let v = value.trim();
    if v.is_empty() {
        return Err(EngineError::invalid(format!("{action} needs a {what}")));
    }
    Ok(v)
}

/// A key or category given: one line of text. One holding a control character (a line break, a
/// NUL) was stored as given and listed with a space for it, so the key `list` showed found no
/// fact.
fn one_line<'a>(what: &str, value: &'a str) -> EngineResult<&'a str> {
    match value.chars().find(|c| c.is_control()) {
        Some(c) => Err(EngineError::invalid(format!(
            "a {what} is one line of text: this one holds the control character U+{:04X}; write a space or leave it out",
            u32::from(c)
        ))),
        None => Ok(value),
    }
}

impl Engine {
    /// One ctx_session action on `session_id`, or, when that is empty, on
    /// the caller's own session.
    ///
    /// Only the writing actions (task, finding, decision, next) create a
    /// session. status, handoff and load of a session that does not exist
    /// answer that it does not exist (`NotFound`, with how to list them),
    /// except for the caller's own session, which exists from its first
    /// record on: before that, status and handoff say nothing is recorded
    /// yet. `load` without `session_id` resumes the project's latest
    /// session other than the caller's.
    pub fn session_action(
        &self,
        caller: &Caller<'_>,
        action: &str,
        value: &str,
        session_id: &str,
        limit: u32,
    ) -> EngineResult<SessionAnswer> {
        let scope = self.scope_of(caller)?;
        let project = scope.root.display().to_string();
        let named = session_id.trim();
        let id = if named.is_empty() { caller.session } else { named };
        let own = id == caller.session;
        self.record_finished_jobs(crate::engine::session::SessionIn { project: &scope.root, id });
        let action = action.trim();
        let answer = |text: String| Ok(SessionAnswer { text, session_id: id.to_string() });
        match action {
            "list" => {
                let mut list = self.memory.with(|s| s.sessions(&project, usize::MAX))?;
                let total = list.len();
                list.truncate(limit_or_default(limit));
                let mut text = render::session_list(&list);
                text.push_str(&render::left_out(total, list.len(), "session"));
                return answer(text);
            }
            "load" if named.is_empty() => {
                let previous = self.memory.with(|s| {
                    let recent = s.sessions(&project, 2)?;
                    Ok(recent.into_iter().find(|info| info.id != caller.session))
                })?;
                return match previous {
                    Some(info) => {
                        let key = SessionKey { project: &project, id: &info.id };
                        let budget = handoff_budget(limit)?;
                        let text = self.memory.with(|s| s.handoff(key, budget, &count_uncached))?;
                        Ok(SessionAnswer { text, session_id: info.id })
                    }
                    None => answer(format!("no earlier session in {project}")),
                };
            }
            _ => {}
        }
        if id.is_empty() {
            return Err(EngineError::invalid("no session: pass session_id (lctx --session ID, or LEAN_CTX_SESSION)"));
        }
        // The same id in another project is another session.
        let key = SessionKey { project: &project, id };
        let text = match action {
            "status" | "" | "load" | "handoff" => {
                let Some(session) = self.memory.with(|s| s.session(key))? else {
                    if own && action != "load" {
                        return answer(render::session_not_started(id, &project));
                    }
                    // Asked from the wrong directory: say where the sessions of that id are.
                    let elsewhere = self.memory.with(|s| s.projects_of_session(id))?;
                    return Err(EngineError::not_found(render::no_session_here(id, &project, &elsewhere)));
                };
                if matches!(action, "status" | "") {
                    render::session_status(&session)
                } else {
                    let budget = handoff_budget(limit)?;
                    self.memory.with(|s| s.handoff(key, budget, &count_uncached))?
                }
            }
            "task" => {
                let (task, secrets) = self.masked(require("value (the task)", value, "task")?);
                self.memory.with(|s| {
                    s.touch_session(key, caller.agent, super::now_ms())?;
                    s.set_task(key, &task)
                })?;
                format!("task set for {id}{}", masked_note(secrets))
            }
            "finding" | "decision" | "next" => {
                let kind = match action {
                    "finding" => NoteKind::Finding,
                    "decision" => NoteKind::Decision,
                    _ => NoteKind::NextStep,
                };
                let (text, secrets) = self.masked(require("value", value, action)?);
                let n = self.memory.with(|s| {
                    s.touch_session(key, caller.agent, super::now_ms())?;
                    s.add_note(key, kind, &text)
                })?;
                let what = if action == "next" { "next step" } else { action };
                format!("{what} #{n} recorded in {id}{}", masked_note(secrets))
            }
            other => {
                return Err(EngineError::invalid(format!(
                    "unknown session action `{other}`; valid: {SESSION_ACTIONS}"
                )));
            }
        };
        answer(text)
    }

    /// One ctx_knowledge action. Knowledge is never queued for state.db's writer, so none of it
    /// waits for what is ([`super::Memory::with_unqueued`]).
    pub fn knowledge_action(&self, caller: &Caller<'_>, p: &KnowledgeParams) -> EngineResult<(String, Vec<Fact>)> {
        let scope = self.scope_of(caller)?;
        let project = scope.root.display().to_string();
        let limit = limit_or_default(p.limit);
        // Memory holds categories and keys masked (see `remember`), so one given to find a fact
        // is masked the same way, and no answer repeats a secret it was given.
        let (category, category_secrets) = match one_line("category", p.category.trim())? {
            "" => (None, 0),
            given => {
                let (masked, secrets) = self.masked(given);
                (Some(masked), secrets)
            }
        };
        let category = category.as_deref();
        let masked_key = |action: &str| {
            require("key", &p.key, action).and_then(|key| one_line("key", key)).map(|key| self.masked(key).0)
        };
        // The facts a listing found, as many as the limit shows and a count of the rest; a
        // category holding no fact at all is named as such, not blamed on a query.
        let listing = |mut facts: Vec<Fact>, empty: &str| -> EngineResult<(String, Vec<Fact>)> {
            let total = facts.len();
            facts.truncate(limit);
            let mut text = render::facts(&facts, empty, render::Values::Cut(p.surface));
            if let Some(category) = category.filter(|_| facts.is_empty()) {
                let categories = self.memory.with_unqueued(|s| s.categories(&project))?;
                if !categories.iter().any(|known| known == category) {
                    text = render::no_facts_in(category, &categories);
                }
            }
            text.push_str(&render::left_out(total, facts.len(), "fact"));
            Ok((text, facts))
        };
        match p.action.trim() {
            "remember" => {
                let key = one_line("key", require("key", &p.key, "remember")?)?;
                let value = require("value", &p.value, "remember")?;
                if p.confidence.is_some_and(|confidence| !(0.0..=1.0).contains(&confidence)) {
                    return Err(EngineError::invalid("confidence must be between 0 and 1"));
                }
                // Stored masked: recall matches words by their start, so a secret kept whole
                // could be read back a character at a time through what matches.
                let (key, key_secrets) = self.masked(key);
                let (value, value_secrets) = self.masked(value);
                let key = key.as_str();
                let fact = NewFact {
                    project: &project,
                    category,
                    key,
                    value: &value,
                    source_session: (!caller.session.is_empty()).then_some(caller.session),
                    confidence: p.confidence,
                };
                let mut text = render::remembered(&self.memory.with_unqueued(|s| s.remember(&fact))?);
                text.push_str(&masked_note(key_secrets + value_secrets + category_secrets));
                Ok((text, Vec::new()))
            }
            "recall" => {
                // A query of no word the index reads (empty, punctuation, emoji) matched every fact,
                // listed as if each were a match (a QA pass).
                if !p.query.chars().any(char::is_alphanumeric) {
                    return Err(EngineError::invalid(format!(
                        "recall needs words to search for, and {} has none (facts are found by their letters and \
                         digits); `list` shows every fact",
                        match p.query.trim() {
                            "" => "the query".to_string(),
                            query => format!("`{query}`"),
                        }
                    )));
                }
                // Every match, so the answer can say how many the limit left out.
                let facts = self.memory.with_unqueued(|s| s.recall(&project, &p.query, category, usize::MAX))?;
                listing(facts, "no matching facts")
            }
            "forget" => {
                let key = masked_key("forget")?;
                if !self.memory.with_unqueued(|s| s.forget(&project, &key))? {
                    return Err(EngineError::not_found(format!(
                        "no current fact `{key}` in this project; `list` shows the keys"
                    )));
                }
                Ok((format!("forgot {key} (history kept)"), Vec::new()))
            }
            "list" => listing(self.memory.with_unqueued(|s| s.facts(&project, category))?, "no facts yet"),
            "history" => {
                let key = masked_key("history")?;
                let facts = self.memory.with_unqueued(|s| s.history(&project, &key))?;
                Ok((render::facts(&facts, &format!("no history for {key}"), render::Values::Whole), facts))
            }
            other => {
                Err(EngineError::invalid(format!("unknown knowledge action `{other}`; valid: {KNOWLEDGE_ACTIONS}")))
            }
        }
    }

    /// `text` as memory keeps it: its secrets masked (when redaction is on), and how many were.
    /// Memory never holds a secret, so no answer, search or listing can give one back.
    fn masked(&self, text: &str) -> (String, u32) {
        self.guard.redaction.apply(&self.config.get(), text.to_string())
    }

    /// The gain report over `period` grouped by `group_by`, or with `days`
    /// above 0 its daily history over that many days ending today; its text
    /// ends with what the ledger is missing, the same events as the third value.
    pub fn gain(
        &self,
        period: &str,
        group_by: &str,
        days: u32,
        utc_offset_secs: i32,
    ) -> EngineResult<(Vec<GainRow>, String, Option<Unrecorded>)> {
        let (rows, mut text) = self.gain_report(period, group_by, days, utc_offset_secs)?;
        // After the report, whose read of the store flushed the writer (once: this takes no
        // second flush): every event counted lost by then is one the report leaves out.
        let unrecorded = self.memory.unrecorded();
        if let Some(lost) = &unrecorded {
            text = format!("{}\n{}", text.trim_end(), lost.note());
        }
        Ok((rows, text, unrecorded))
    }

    fn gain_report(
        &self,
        period: &str,
        group_by: &str,
        days: u32,
        utc_offset_secs: i32,
    ) -> EngineResult<(Vec<GainRow>, String)> {
        if days > 0 {
            if !matches!(period.trim(), "" | "all") || !matches!(group_by.trim(), "" | "none") {
                return Err(EngineError::invalid("days gives one row per day; it takes no period or group_by"));
            }
            let rows = self.memory.with(|s| s.gain_daily(days, super::now_ms(), utc_offset_secs))?;
            let text = render::gain_daily(&rows);
            return Ok((rows, text));
        }
        let period_name = period;
        let period = match period.trim() {
            "today" => Period::Today,
            "week" => Period::Week,
            "all" | "" => Period::All,
            other => return Err(EngineError::invalid(format!("unknown period `{other}`; valid: today, week, all"))),
        };
        let group = match group_by.trim() {
            "tool" => GroupBy::Tool,
            "mode" => GroupBy::Mode,
            "family" => GroupBy::Family,
            "project" => GroupBy::Project,
            "none" | "" => GroupBy::None,
            other => {
                return Err(EngineError::invalid(format!(
                    "unknown grouping `{other}`; valid: tool, mode, family, project, none"
                )));
            }
        };
        let now = super::now_ms();
        let rows = self.memory.with(|s| s.gain(period, group, now, utc_offset_secs))?;
        let name = |given: &str, default: &'static str| {
            if given.trim().is_empty() { default.to_string() } else { given.trim().to_string() }
        };
        let text = render::gain(&rows, &name(period_name, "all"), &name(group_by, "none"));
        Ok((rows, text))
    }

    /// (records, first broken record and why; record 0 when the daily totals are what is broken).
    pub fn verify_ledger(&self) -> EngineResult<(u64, Option<(i64, String)>)> {
        // One walk of the chain: a broken record is an answer, not an error.
        match self.memory.with(|s| Ok(s.verify()))? {
            Ok(n) => Ok((n, None)),
            Err(lean_ctx_store::Error::LedgerBroken { id, reason }) => Ok((0, Some((id, reason.to_string())))),
            Err(totals @ lean_ctx_store::Error::LedgerTotalsBroken { .. }) => Ok((0, Some((0, totals.to_string())))),
            Err(e) => Err(super::store_error(e)),
        }
    }

    /// The reset of `state.db` after corruption that the user has not seen to, if any.
    pub fn memory_reset(&self) -> Option<super::Reset> {
        self.memory.reset()
    }

    /// The writes this process could not make, if any, as of the last flush (`verify_ledger`
    /// flushes).
    pub fn ledger_unrecorded(&self) -> Option<Unrecorded> {
        self.memory.unrecorded()
    }
}

/// What an answer adds when memory stored secrets masked.
fn masked_note(secrets: u32) -> String {
    match secrets {
        0 => String::new(),
        1 => " (a secret in it is stored as [REDACTED:kind])".into(),
        n => format!(" ({n} secrets in it are stored as [REDACTED:kind])"),
    }
}

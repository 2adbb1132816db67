//! The protocol's closed sets (enums) and the engine's names for them.
//!
//! The engine speaks the reference's words (`"signatures"`, `"recall"`,
//! `"week"`), which its own parsers validate; the wire carries enums. An enum
//! value this build does not know (a newer client) is refused as
//! InvalidArgument, never read as the default.

use lean_ctx_proto::v1::{
    FactState, GainGroupBy, GainPeriod, IndexPhase, JobsAction, KnowledgeAction, LineRange, ReadMode, SearchAction,
    SearchSource, SessionAction,
};
use tonic::Status;

use crate::engine::read::mode::Mode;

/// Decodes an enum field, refusing values this build does not know.
pub fn known<E: TryFrom<i32>>(value: i32, field: &str) -> Result<E, Status> {
    E::try_from(value).map_err(|_| {
        Status::invalid_argument(format!(
            "{field} = {value} is not known to this lean-ctxd; the client is newer than the daemon: \
             restart the daemon (`lctx daemon restart`)"
        ))
    })
}

/// The engine's mode string for a requested mode and its ranges (the
/// engine validates the ranges when it parses it).
pub fn mode_text(mode: ReadMode, ranges: &[LineRange]) -> String {
    let mode = match mode {
        ReadMode::Unspecified | ReadMode::Auto => Mode::Auto,
        ReadMode::Full => Mode::Full,
        ReadMode::Lines => Mode::Lines(ranges.iter().map(|r| (r.start, r.end)).collect()),
        ReadMode::Signatures => Mode::Signatures,
        ReadMode::Map => Mode::Map,
        ReadMode::Diff => Mode::Diff,
        ReadMode::Aggressive => Mode::Aggressive,
        ReadMode::Reference => Mode::Reference,
    };
    mode.name()
}

/// The enum and ranges of a mode the engine names in a view.
pub fn mode_of(text: &str) -> (ReadMode, Vec<LineRange>) {
    match Mode::parse(text) {
        Ok(Mode::Full) => (ReadMode::Full, Vec::new()),
        Ok(Mode::Lines(ranges)) => {
            (ReadMode::Lines, ranges.into_iter().map(|(start, end)| LineRange { start, end }).collect())
        }
        Ok(Mode::Signatures) => (ReadMode::Signatures, Vec::new()),
        Ok(Mode::Map) => (ReadMode::Map, Vec::new()),
        Ok(Mode::Diff) => (ReadMode::Diff, Vec::new()),
        Ok(Mode::Aggressive) => (ReadMode::Aggressive, Vec::new()),
        Ok(Mode::Reference) => (ReadMode::Reference, Vec::new()),
        Ok(Mode::Auto) | Err(_) => (ReadMode::Auto, Vec::new()),
    }
}

pub fn session_action(action: SessionAction) -> &'static str {
    match action {
        SessionAction::Unspecified | SessionAction::Status => "status",
        SessionAction::Task => "task",
        SessionAction::Finding => "finding",
        SessionAction::Decision => "decision",
        SessionAction::Next => "next",
        SessionAction::List => "list",
        SessionAction::Load => "load",
        SessionAction::Handoff => "handoff",
    }
}

pub fn knowledge_action(action: KnowledgeAction) -> &'static str {
    match action {
        KnowledgeAction::Unspecified | KnowledgeAction::List => "list",
        KnowledgeAction::Remember => "remember",
        KnowledgeAction::Recall => "recall",
        KnowledgeAction::Forget => "forget",
        KnowledgeAction::History => "history",
    }
}

pub fn gain_period(period: GainPeriod) -> &'static str {
    match period {
        GainPeriod::Unspecified | GainPeriod::All => "all",
        GainPeriod::Today => "today",
        GainPeriod::Week => "week",
    }
}

pub fn gain_group_by(group_by: GainGroupBy) -> &'static str {
    match group_by {
        GainGroupBy::Unspecified | GainGroupBy::None => "none",
        GainGroupBy::Tool => "tool",
        GainGroupBy::Mode => "mode",
        GainGroupBy::Family => "family",
        GainGroupBy::Project => "project",
    }
}

pub fn jobs_action(action: JobsAction) -> &'static str {
    match action {
        JobsAction::Unspecified | JobsAction::List => "list",
        JobsAction::Status => "status",
        JobsAction::Cancel => "cancel",
    }
}

pub fn search_action(action: SearchAction) -> &'static str {
    match action {
        SearchAction::Unspecified | SearchAction::Regex => "regex",
        SearchAction::Bm25 => "bm25",
        SearchAction::Symbol => "symbol",
    }
}

pub fn search_source(source: lean_ctx_search::Source) -> SearchSource {
    match source {
        lean_ctx_search::Source::Scan => SearchSource::Scan,
        lean_ctx_search::Source::Index => SearchSource::Index,
    }
}

pub fn fact_state(state: lean_ctx_store::FactState) -> FactState {
    match state {
        lean_ctx_store::FactState::Current => FactState::Current,
        lean_ctx_store::FactState::Superseded => FactState::Superseded,
        lean_ctx_store::FactState::Forgotten => FactState::Forgotten,
    }
}

/// The phase with its done/total figures; why an index is not ready is in
/// the status's own note.
pub fn index_phase(phase: lean_ctx_search::IndexPhase, files: u64) -> (IndexPhase, u64, u64) {
    use lean_ctx_search::IndexPhase as P;
    match phase {
        P::Opening => (IndexPhase::Opening, 0, 0),
        P::Building { done, total } => (IndexPhase::Building, done, total),
        P::Ready => (IndexPhase::Ready, files, files),
        P::Unavailable { .. } => (IndexPhase::Unavailable, 0, 0),
        P::Closed => (IndexPhase::Closed, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_modes_survive_the_round_trip() {
        let ranges = vec![LineRange { start: 3, end: 9 }, LineRange { start: 20, end: 20 }];
        let text = mode_text(ReadMode::Lines, &ranges);
        assert_eq!(text, "lines:3-9,20-20");
        assert_eq!(mode_of(&text), (ReadMode::Lines, ranges));
        for mode in [ReadMode::Full, ReadMode::Signatures, ReadMode::Map, ReadMode::Diff, ReadMode::Reference] {
            assert_eq!(mode_of(&mode_text(mode, &[])).0, mode);
        }
        assert_eq!(mode_text(ReadMode::Unspecified, &[]), "auto");
    }

    #[test]
    fn unknown_enum_values_are_refused() {
        let err = known::<SessionAction>(99, "action").unwrap_err();
        assert_eq!(err.code(), tonic::Code::InvalidArgument);
        assert!(err.message().contains("action = 99"), "{}", err.message());
        assert_eq!(known::<SessionAction>(2, "action").unwrap(), SessionAction::Task);
    }
}

//! ctx_gain (tokens saved, from the ledger) and the ledger's verification.

use lean_ctx_proto::v1::{GainGroupBy, GainPeriod, GainRequest, RequestContext, VerifyRequest};
use serde_json::json;

use super::{Answer, Result};
use crate::backend::Backend;

pub const PERIODS: [(&str, GainPeriod); 3] =
    [("today", GainPeriod::Today), ("week", GainPeriod::Week), ("all", GainPeriod::All)];

pub const GROUPS: [(&str, GainGroupBy); 5] = [
    ("none", GainGroupBy::None),
    ("tool", GainGroupBy::Tool),
    ("mode", GainGroupBy::Mode),
    ("family", GainGroupBy::Family),
    ("project", GainGroupBy::Project),
];

pub const PERIOD_NAMES: [&str; 3] = super::names(&PERIODS);
pub const GROUP_NAMES: [&str; 5] = super::names(&GROUPS);

/// Empty means all.
pub fn parse_period(name: &str) -> Result<GainPeriod> {
    if name.trim().is_empty() { Ok(GainPeriod::All) } else { super::parse_name("period", name, &PERIODS) }
}

/// Empty means none (one total). A bad value is refused naming the
/// parameter as `parameter`, the way the caller's user writes it
/// (`group_by`, `--by`).
pub fn parse_group_by(parameter: &str, name: &str) -> Result<GainGroupBy> {
    if name.trim().is_empty() { Ok(GainGroupBy::None) } else { super::parse_name(parameter, name, &GROUPS) }
}

/// What a gain report covers: a period grouped by one dimension, or the
/// daily history of the last `days` days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    Period(GainPeriod, GainGroupBy),
    Daily { days: u32 },
}

/// Days a daily history shows unless told otherwise.
pub const DEFAULT_DAYS: u32 = 14;

pub async fn gain(backend: &Backend, ctx: RequestContext, report: Report) -> Result<Answer> {
    let (period, group_by, days) = match report {
        Report::Period(period, group_by) => (period, group_by, 0),
        Report::Daily { days } => (GainPeriod::Unspecified, GainGroupBy::Unspecified, days),
    };
    let request = GainRequest {
        ctx: Some(ctx),
        period: period as i32,
        group_by: group_by as i32,
        utc_offset_secs: crate::options::utc_offset_secs(),
        days,
    };
    let out = backend.ledger().gain(request).await?.into_inner();
    let row_json = |key: &str, events: u64, raw: u64, sent: u64, saved: i64, pct: f64| {
        json!({"key": key, "events": events, "raw_tokens": raw, "sent_tokens": sent, "saved_tokens": saved,
               "saved_pct": pct})
    };
    let rows: Vec<_> = out
        .rows
        .iter()
        .map(|r| row_json(&r.key, r.events, r.raw_tokens, r.sent_tokens, r.saved_tokens, r.saved_pct))
        .collect();
    let (events, raw, sent, saved) = out.rows.iter().fold((0, 0, 0, 0), |(e, r, s, v), row| {
        (e + row.events, r + row.raw_tokens, s + row.sent_tokens, v + row.saved_tokens)
    });
    let pct = if raw == 0 { 0.0 } else { saved as f64 * 100.0 / raw as f64 };
    let (period_name, group_name) = match report {
        Report::Period(..) => {
            (name_of(&PERIODS, period).unwrap_or("all"), name_of(&GROUPS, group_by).unwrap_or("none"))
        }
        Report::Daily { .. } => ("days", "day"),
    };
    let lost = out.unrecorded.unwrap_or_default();
    let json = json!({"period": period_name, "days": days, "group_by": group_name, "rows": rows,
                      "total": row_json("total", events, raw, sent, saved, pct),
                      "unrecorded": {"events": lost.events, "since_ms": lost.since_ms, "error": lost.error}});
    Ok(Answer::ok(out.text, json))
}

fn name_of<E: PartialEq + Copy>(table: &[(&'static str, E)], value: E) -> Option<&'static str> {
    table.iter().find(|(_, v)| *v == value).map(|(n, _)| *n)
}

/// Walks the hash chain; an answer naming the first broken record fails.
pub async fn verify(backend: &Backend, ctx: RequestContext) -> Result<Answer> {
    let out = backend.ledger().verify(VerifyRequest { ctx: Some(ctx) }).await?.into_inner();
    let json = json!({"ok": out.ok, "records": out.records, "broken_id": out.broken_id, "reason": out.reason,
                      "reset": out.reset});
    // A reset after corruption: what is verified starts there, which "ok" alone would hide.
    let reset = if out.reset.is_empty() { String::new() } else { format!("\n{}", out.reset) };
    if out.ok {
        return Ok(Answer::ok(format!("ledger ok: {} records, chain intact{reset}", out.records), json));
    }
    // Record 0: every record chains, but the daily totals gain reports do not match them.
    let text = match out.broken_id {
        0 => format!("ledger broken: {}", out.reason),
        id => format!("ledger broken at record {id}: {}", out.reason),
    } + &reset;
    Ok(Answer { text, is_error: true, exit_code: 1, json })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_take_the_defaults() {
        assert_eq!(parse_period("").unwrap(), GainPeriod::All);
        assert_eq!(parse_group_by("group_by", " ").unwrap(), GainGroupBy::None);
        assert_eq!(parse_group_by("group_by", "family").unwrap(), GainGroupBy::Family);
        assert!(parse_period("month").is_err());
    }
}

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

/// Empty means none (one total).
pub fn parse_group_by(name: &str) -> Result<GainGroupBy> {
    if name.trim().is_empty() { Ok(GainGroupBy::None) } else { super::parse_name("group_by", name, &GROUPS) }
}

pub async fn gain(backend: &Backend, ctx: RequestContext, period: GainPeriod, group_by: GainGroupBy) -> Result<Answer> {
    let request = GainRequest {
        ctx: Some(ctx),
        period: period as i32,
        group_by: group_by as i32,
        utc_offset_secs: crate::options::utc_offset_secs(),
    };
    let out = backend.ledger().gain(request).await?.into_inner();
    let rows: Vec<_> = out
        .rows
        .iter()
        .map(|r| {
            json!({"key": r.key, "events": r.events, "raw_tokens": r.raw_tokens, "sent_tokens": r.sent_tokens,
                   "saved_tokens": r.saved_tokens, "saved_pct": r.saved_pct})
        })
        .collect();
    let period_name = PERIODS.iter().find(|(_, p)| *p == period).map_or("all", |(n, _)| n);
    Ok(Answer::ok(out.text, json!({"period": period_name, "rows": rows})))
}

/// Walks the hash chain; an answer naming the first broken record fails.
pub async fn verify(backend: &Backend, ctx: RequestContext) -> Result<Answer> {
    let out = backend.ledger().verify(VerifyRequest { ctx: Some(ctx) }).await?.into_inner();
    let json = json!({"ok": out.ok, "records": out.records, "broken_id": out.broken_id, "reason": out.reason});
    if out.ok {
        return Ok(Answer::ok(format!("ledger ok: {} records, chain intact", out.records), json));
    }
    Ok(Answer {
        text: format!("ledger broken at record {}: {}", out.broken_id, out.reason),
        is_error: true,
        exit_code: 1,
        json,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_take_the_defaults() {
        assert_eq!(parse_period("").unwrap(), GainPeriod::All);
        assert_eq!(parse_group_by(" ").unwrap(), GainGroupBy::None);
        assert_eq!(parse_group_by("family").unwrap(), GainGroupBy::Family);
        assert!(parse_period("month").is_err());
    }
}

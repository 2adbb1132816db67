//! Gain reports: what the ledger says was saved, over a period, grouped by one dimension.
//!
//! Whole UTC days are summed from the `ledger_daily` rollup (a few rows per day), and only the
//! partial days at the edges of a period that does not start at UTC midnight (a user east or
//! west of Greenwich asking for "today") are read from the raw ledger through its time index.
//! A report over a million events therefore reads thousands of rows, not millions, and is still
//! exact to the millisecond.

use rusqlite::params;

use crate::Store;
use crate::error::{Error, Result};
use crate::ledger::DAY_MS;

/// 9999-12-31 23:59:59.999 UTC; bounds `now` so that the window arithmetic cannot overflow.
const MAX_NOW_MS: i64 = 253_402_300_799_999;

/// Which events a report covers, in the caller's local calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// The local calendar day that contains `now`.
    Today,
    /// The seven local calendar days ending with the one that contains `now`.
    Week,
    /// Every event.
    All,
}

/// The dimension rows are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupBy {
    Tool,
    /// Read mode without its parameters (`lines:1-20` and `lines:80-95` are both `lines`);
    /// events shaped by a shell family have no mode and form the row with key `None`.
    Mode,
    /// Shell command family; events shaped by a read mode form the row with key `None`.
    Family,
    Project,
    /// One row for everything, key `None`.
    None,
}

impl GroupBy {
    /// SQL expression for the key; valid over both `ledger` and `ledger_daily`.
    fn key_sql(self) -> &'static str {
        match self {
            GroupBy::Tool => "tool",
            // The daemon records modes without parameters; older records may carry them.
            GroupBy::Mode => {
                "CASE shape_kind WHEN 'mode' THEN \
                 CASE instr(shape, ':') WHEN 0 THEN shape ELSE substr(shape, 1, instr(shape, ':') - 1) END END"
            }
            GroupBy::Family => "CASE shape_kind WHEN 'family' THEN shape END",
            GroupBy::Project => "project",
            GroupBy::None => "NULL",
        }
    }
}

/// One row of a report. Rows are sorted by `saved_tokens` descending, then key (`None` last), so
/// the same ledger always gives the same report.
#[derive(Debug, Clone, PartialEq)]
pub struct GainRow {
    pub key: Option<String>,
    pub events: u64,
    pub raw_tokens: u64,
    pub sent_tokens: u64,
    /// `raw_tokens - sent_tokens`; negative when the footers cost more than shaping saved.
    pub saved_tokens: i64,
    /// `saved_tokens` as a percentage of `raw_tokens`; 0 when nothing was raw.
    pub saved_pct: f64,
}

/// The parts of a period: whole UTC days `[days.0, days.1)` from the rollup and up to two
/// millisecond ranges `[from, to)` from the raw ledger.
#[derive(Debug, PartialEq, Eq)]
struct Window {
    days: (i64, i64),
    edges: [(i64, i64); 2],
}

impl Window {
    fn new(period: Period, now_ms: i64, utc_offset_s: i32) -> Self {
        let offset_ms = i64::from(utc_offset_s) * 1000;
        let local_midnight = (now_ms + offset_ms).div_euclid(DAY_MS) * DAY_MS - offset_ms;
        let (from, to) = match period {
            Period::All => return Window { days: (i64::MIN, i64::MAX), edges: [(0, 0); 2] },
            Period::Today => (local_midnight, local_midnight + DAY_MS),
            Period::Week => (local_midnight - 6 * DAY_MS, local_midnight + DAY_MS),
        };
        let first_day = from.div_euclid(DAY_MS) + i64::from(from.rem_euclid(DAY_MS) != 0);
        let end_day = to.div_euclid(DAY_MS);
        if first_day >= end_day {
            return Window { days: (0, 0), edges: [(from, to), (0, 0)] };
        }
        Window { days: (first_day, end_day), edges: [(from, first_day * DAY_MS), (end_day * DAY_MS, to)] }
    }
}

impl Store {
    /// Sums the ledger over `period` (relative to `now_ms`, in a calendar `utc_offset_s` seconds
    /// east of UTC), grouped by `group_by`.
    pub fn gain(&self, period: Period, group_by: GroupBy, now_ms: i64, utc_offset_s: i32) -> Result<Vec<GainRow>> {
        check_clock(now_ms, utc_offset_s)?;
        let Window { days, edges: [head, tail] } = Window::new(period, now_ms, utc_offset_s);
        let key = group_by.key_sql();
        let sql = format!(
            "SELECT key, sum(events), sum(raw), sum(sent), sum(raw) - sum(sent) AS saved FROM (
                 SELECT {key} AS key, events, raw_tokens AS raw, sent_tokens AS sent
                 FROM ledger_daily WHERE day >= ?1 AND day < ?2
                 UNION ALL
                 SELECT {key}, 1, raw_tokens, sent_tokens FROM ledger WHERE at_ms >= ?3 AND at_ms < ?4
                 UNION ALL
                 SELECT {key}, 1, raw_tokens, sent_tokens FROM ledger WHERE at_ms >= ?5 AND at_ms < ?6
             ) GROUP BY key ORDER BY saved DESC, key IS NULL, key"
        );
        let mut statement = self.conn.prepare_cached(&sql)?;
        let rows = statement.query_map(params![days.0, days.1, head.0, head.1, tail.0, tail.1], |row| {
            Ok(GainRow::new(row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One row per local calendar day over the `days` days ending with the
    /// one that contains `now_ms`, oldest first, keyed `YYYY-MM-DD`; a day
    /// without events is a row of zeros, so a chart of it has no gaps.
    ///
    /// Read from the raw ledger through its time index: the rollup's UTC
    /// days are not the caller's days unless the offset is zero.
    pub fn gain_daily(&self, days: u32, now_ms: i64, utc_offset_s: i32) -> Result<Vec<GainRow>> {
        check_clock(now_ms, utc_offset_s)?;
        if !(1..=MAX_DAYS).contains(&days) {
            return Err(Error::InvalidInput(format!("days {days} is not between 1 and {MAX_DAYS}")));
        }
        let offset_ms = i64::from(utc_offset_s) * 1000;
        let today = (now_ms + offset_ms).div_euclid(DAY_MS);
        let first = today - i64::from(days) + 1;
        let mut statement = self.conn.prepare_cached(
            "SELECT (at_ms + ?3) / ?4 AS day, count(*), sum(raw_tokens), sum(sent_tokens)
             FROM ledger WHERE at_ms >= ?1 AND at_ms < ?2 GROUP BY day",
        )?;
        let (from, to) = (first * DAY_MS - offset_ms, (today + 1) * DAY_MS - offset_ms);
        let mut sums = std::collections::HashMap::new();
        let rows = statement.query_map(params![from, to, offset_ms, DAY_MS], |row| {
            Ok((row.get::<_, i64>(0)?, (row.get::<_, u64>(1)?, row.get::<_, u64>(2)?, row.get::<_, u64>(3)?)))
        })?;
        for row in rows {
            let (day, day_sums) = row?;
            sums.insert(day, day_sums);
        }
        Ok((first..=today)
            .map(|day| {
                let (events, raw, sent) = sums.get(&day).copied().unwrap_or_default();
                GainRow::new(Some(civil_date(day)), events, raw, sent)
            })
            .collect())
    }
}

/// The longest daily report: a year.
pub const MAX_DAYS: u32 = 366;

impl GainRow {
    fn new(key: Option<String>, events: u64, raw_tokens: u64, sent_tokens: u64) -> GainRow {
        let saved_tokens = raw_tokens as i64 - sent_tokens as i64;
        let saved_pct = if raw_tokens == 0 { 0.0 } else { saved_tokens as f64 * 100.0 / raw_tokens as f64 };
        GainRow { key, events, raw_tokens, sent_tokens, saved_tokens, saved_pct }
    }
}

fn check_clock(now_ms: i64, utc_offset_s: i32) -> Result<()> {
    if !(0..=MAX_NOW_MS).contains(&now_ms) {
        return Err(Error::InvalidInput(format!("now_ms {now_ms} is not between 1970 and 9999")));
    }
    if utc_offset_s.unsigned_abs() >= 86_400 {
        return Err(Error::InvalidInput(format!("utc_offset_s {utc_offset_s} is not within ±24 hours")));
    }
    Ok(())
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (proleptic Gregorian;
/// Howard Hinnant's `civil_from_days`).
fn civil_date(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::{Event, Shape};
    use crate::testutil::temp_store;

    const HOUR: i64 = 3_600_000;
    /// 2025-01-10 12:00 UTC.
    const NOW: i64 = 20_098 * DAY_MS + 12 * HOUR;

    fn event(
        at_ms: i64,
        project: &'static str,
        tool: &'static str,
        shape: Shape<'static>,
        raw: u64,
        sent: u64,
    ) -> Event<'static> {
        Event { at_ms, project, session: None, tool, shape, raw_tokens: raw, sent_tokens: sent }
    }

    fn keyed(rows: &[GainRow]) -> Vec<(Option<&str>, u64, u64, u64, i64)> {
        rows.iter().map(|r| (r.key.as_deref(), r.events, r.raw_tokens, r.sent_tokens, r.saved_tokens)).collect()
    }

    #[test]
    fn window_uses_the_rollup_for_whole_days_and_the_ledger_for_edges() {
        let day = NOW.div_euclid(DAY_MS);
        assert_eq!(
            Window::new(Period::Today, NOW, 0),
            Window {
                days: (day, day + 1),
                edges: [(day * DAY_MS, day * DAY_MS), ((day + 1) * DAY_MS, (day + 1) * DAY_MS)]
            }
        );
        let east = Window::new(Period::Week, NOW, 2 * 3600);
        let from = (day - 6) * DAY_MS - 2 * HOUR;
        let to = (day + 1) * DAY_MS - 2 * HOUR;
        assert_eq!(east, Window { days: (day - 6, day), edges: [(from, (day - 6) * DAY_MS), (day * DAY_MS, to)] });
        let today_east = Window::new(Period::Today, NOW, 2 * 3600);
        assert_eq!(
            today_east,
            Window { days: (0, 0), edges: [(day * DAY_MS - 2 * HOUR, (day + 1) * DAY_MS - 2 * HOUR), (0, 0)] }
        );
    }

    #[test]
    fn groups_sums_and_sorts() {
        let (_dir, mut store) = temp_store();
        store
            .append_batch(&[
                event(NOW, "/a", "ctx_read", Shape::Mode("map"), 1000, 100),
                event(NOW - HOUR, "/a", "ctx_read", Shape::Mode("full"), 500, 500),
                event(NOW - 2 * HOUR, "/b", "ctx_shell", Shape::Family("cargo_test"), 2000, 300),
                event(NOW - 3 * HOUR, "/b", "ctx_read", Shape::Mode("map"), 100, 120),
            ])
            .unwrap();
        let gain = |group_by| store.gain(Period::All, group_by, NOW, 0).unwrap();
        assert_eq!(
            keyed(&gain(GroupBy::Tool)),
            [(Some("ctx_shell"), 1, 2000, 300, 1700), (Some("ctx_read"), 3, 1600, 720, 880)]
        );
        assert_eq!(
            keyed(&gain(GroupBy::Mode)),
            [(None, 1, 2000, 300, 1700), (Some("map"), 2, 1100, 220, 880), (Some("full"), 1, 500, 500, 0)]
        );
        assert_eq!(
            keyed(&gain(GroupBy::Family)),
            [(Some("cargo_test"), 1, 2000, 300, 1700), (None, 3, 1600, 720, 880)]
        );
        assert_eq!(keyed(&gain(GroupBy::Project)), [(Some("/b"), 2, 2100, 420, 1680), (Some("/a"), 2, 1500, 600, 900)]);
        let total = gain(GroupBy::None);
        assert_eq!(keyed(&total), [(None, 4, 3600, 1020, 2580)]);
        assert!((total[0].saved_pct - 2580.0 * 100.0 / 3600.0).abs() < 1e-9);
    }

    #[test]
    fn modes_are_grouped_without_their_parameters() {
        let (_dir, mut store) = temp_store();
        store
            .append_batch(&[
                event(NOW, "/a", "read", Shape::Mode("lines:1-20"), 300, 310),
                event(NOW, "/a", "read", Shape::Mode("lines:80-95,120-"), 200, 205),
                event(NOW, "/a", "read", Shape::Mode("lines"), 100, 102),
                event(NOW, "/a", "read", Shape::Mode("map"), 1000, 100),
            ])
            .unwrap();
        let rows = store.gain(Period::All, GroupBy::Mode, NOW, 0).unwrap();
        assert_eq!(keyed(&rows), [(Some("map"), 1, 1000, 100, 900), (Some("lines"), 3, 600, 617, -17)]);
    }

    #[test]
    fn civil_dates_match_the_calendar() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_098), "2025-01-10");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(-1), "1969-12-31");
        assert_eq!(civil_date(2_932_896), "9999-12-31");
    }

    #[test]
    fn daily_rows_cover_every_local_day_oldest_first() {
        let (_dir, mut store) = temp_store();
        store
            .append_batch(&[
                event(NOW, "/a", "ctx_read", Shape::Mode("map"), 1000, 100),
                event(NOW - 11 * HOUR, "/a", "ctx_read", Shape::Mode("map"), 400, 100),
                event(NOW - 2 * DAY_MS, "/b", "ctx_shell", Shape::Family("git"), 300, 200),
                event(NOW - 9 * DAY_MS, "/b", "ctx_shell", Shape::Family("git"), 999, 1),
            ])
            .unwrap();
        let rows = store.gain_daily(4, NOW, 0).unwrap();
        assert_eq!(
            keyed(&rows),
            [
                (Some("2025-01-07"), 0, 0, 0, 0),
                (Some("2025-01-08"), 1, 300, 200, 100),
                (Some("2025-01-09"), 0, 0, 0, 0),
                (Some("2025-01-10"), 2, 1400, 200, 1200),
            ]
        );
        // Two hours west, NOW - 11 h (01:00 UTC) falls on the local 9th.
        let west = store.gain_daily(2, NOW, -2 * 3600).unwrap();
        assert_eq!(keyed(&west), [(Some("2025-01-09"), 1, 400, 100, 300), (Some("2025-01-10"), 1, 1000, 100, 900)]);
        assert!(matches!(store.gain_daily(0, NOW, 0), Err(Error::InvalidInput(_))));
        assert!(matches!(store.gain_daily(MAX_DAYS + 1, NOW, 0), Err(Error::InvalidInput(_))));
    }

    #[test]
    fn out_of_range_clock_values_are_refused() {
        let (_dir, store) = temp_store();
        assert!(matches!(store.gain(Period::Today, GroupBy::None, -1, 0), Err(Error::InvalidInput(_))));
        assert!(matches!(store.gain(Period::Week, GroupBy::None, i64::MAX, 0), Err(Error::InvalidInput(_))));
        assert!(matches!(store.gain(Period::All, GroupBy::None, NOW, 86_400), Err(Error::InvalidInput(_))));
        assert!(store.gain(Period::Today, GroupBy::None, NOW, -86_399).unwrap().is_empty());
    }

    #[test]
    fn equal_savings_are_ordered_by_key() {
        let (_dir, mut store) = temp_store();
        for tool in ["b", "c", "a"] {
            store.append(&event(NOW, "/p", tool, Shape::Mode("full"), 10, 5)).unwrap();
        }
        let keys: Vec<_> = store.gain(Period::All, GroupBy::Tool, NOW, 0).unwrap().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, [Some("a".into()), Some("b".into()), Some("c".into())]);
    }

    #[test]
    fn ranges_follow_the_local_calendar() {
        let (_dir, mut store) = temp_store();
        let midnight = NOW.div_euclid(DAY_MS) * DAY_MS;
        store
            .append_batch(&[
                event(NOW, "/p", "today", Shape::Mode("m"), 10, 0),
                event(midnight - HOUR, "/p", "late_yesterday", Shape::Mode("m"), 10, 0),
                event(midnight - 3 * HOUR, "/p", "evening_yesterday", Shape::Mode("m"), 10, 0),
                event(midnight - 6 * DAY_MS, "/p", "six_days_ago", Shape::Mode("m"), 10, 0),
                event(midnight - 7 * DAY_MS, "/p", "seven_days_ago", Shape::Mode("m"), 10, 0),
            ])
            .unwrap();
        let tools = |range, offset| {
            let rows = store.gain(range, GroupBy::Tool, NOW, offset).unwrap();
            let mut tools: Vec<_> = rows.into_iter().map(|r| r.key.unwrap()).collect();
            tools.sort();
            tools
        };
        assert_eq!(tools(Period::Today, 0), ["today"]);
        // Two hours east: local midnight is 22:00 UTC yesterday, so 23:00 UTC yesterday is today.
        assert_eq!(tools(Period::Today, 2 * 3600), ["late_yesterday", "today"]);
        // Five hours west: local today began at 05:00 UTC.
        assert_eq!(tools(Period::Today, -5 * 3600), ["today"]);
        assert_eq!(tools(Period::Week, 0), ["evening_yesterday", "late_yesterday", "six_days_ago", "today"]);
        assert_eq!(tools(Period::All, 0).len(), 5);
    }

    #[test]
    fn every_range_and_offset_matches_a_brute_force_sum() {
        let (_dir, mut store) = temp_store();
        // Events every 37 minutes over ten days around NOW, raw and sent varying.
        let events: Vec<_> = (0..400)
            .map(|i| {
                let at = NOW - 8 * DAY_MS + i * 37 * 60_000;
                let tool = ["read", "shell", "search"][i as usize % 3];
                event(at, "/p", tool, Shape::Mode("m"), 100 + i as u64, 30 + (i as u64 * 7) % 90)
            })
            .collect();
        store.append_batch(&events).unwrap();
        for offset_s in [0, 3600, -3600, 5 * 3600 + 1800, -9 * 3600 - 1800, 14 * 3600, -12 * 3600] {
            for range in [Period::Today, Period::Week, Period::All] {
                let offset_ms = i64::from(offset_s) * 1000;
                let midnight = (NOW + offset_ms).div_euclid(DAY_MS) * DAY_MS - offset_ms;
                let within = |at: i64| match range {
                    Period::Today => at >= midnight && at < midnight + DAY_MS,
                    Period::Week => at >= midnight - 6 * DAY_MS && at < midnight + DAY_MS,
                    Period::All => true,
                };
                let expected: Vec<_> = events.iter().filter(|e| within(e.at_ms)).collect();
                let rows = store.gain(range, GroupBy::None, NOW, offset_s).unwrap();
                let (count, raw, sent) = rows.first().map_or((0, 0, 0), |r| (r.events, r.raw_tokens, r.sent_tokens));
                assert_eq!(count, expected.len() as u64, "{range:?} at offset {offset_s}");
                assert_eq!(raw, expected.iter().map(|e| e.raw_tokens).sum::<u64>());
                assert_eq!(sent, expected.iter().map(|e| e.sent_tokens).sum::<u64>());
            }
        }
    }
}

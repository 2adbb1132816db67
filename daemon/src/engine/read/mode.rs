//! Read modes, parsed from the reference's mode strings.

use crate::engine::error::{EngineError, EngineResult};

pub const VALID: &str = "full, lines:N-M[,A-B…], signatures, map, diff, aggressive, reference, auto";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Full,
    /// 1-based inclusive ranges, as asked.
    Lines(Vec<(u32, u32)>),
    Signatures,
    Map,
    Diff,
    Aggressive,
    Reference,
    Auto,
}

impl Mode {
    pub fn parse(text: &str) -> EngineResult<Mode> {
        let text = text.trim();
        Ok(match text {
            "" | "auto" => Mode::Auto,
            "full" => Mode::Full,
            "signatures" => Mode::Signatures,
            "map" => Mode::Map,
            "diff" => Mode::Diff,
            "aggressive" => Mode::Aggressive,
            "reference" => Mode::Reference,
            _ => match text.strip_prefix("lines:") {
                Some(spec) => Mode::Lines(parse_ranges(spec)?),
                None => return Err(EngineError::invalid(format!("unknown mode `{text}`; valid modes: {VALID}"))),
            },
        })
    }

    /// The reference's `start_line` + `limit` window.
    pub fn window(start_line: u32, limit: u32) -> EngineResult<Mode> {
        if start_line == 0 || limit == 0 {
            return Err(EngineError::invalid("start_line and limit start at 1"));
        }
        Ok(Mode::Lines(vec![(start_line, start_line.saturating_add(limit - 1))]))
    }

    /// Whether the "[unchanged]" stub may answer this mode when the session
    /// holds the file's current content whole. Never for an explicit range:
    /// an agent asks for lines because it needs them in front of it (often
    /// right before an edit). Outlines and the reference line are small
    /// views asked for by name; they are always sent.
    pub fn may_stub(&self) -> bool {
        matches!(self, Mode::Full | Mode::Diff | Mode::Auto)
    }

    pub fn name(&self) -> String {
        match self {
            Mode::Full => "full".into(),
            Mode::Lines(ranges) => {
                let parts: Vec<String> = ranges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
                format!("lines:{}", parts.join(","))
            }
            Mode::Signatures => "signatures".into(),
            Mode::Map => "map".into(),
            Mode::Diff => "diff".into(),
            Mode::Aggressive => "aggressive".into(),
            Mode::Reference => "reference".into(),
            Mode::Auto => "auto".into(),
        }
    }
}

fn parse_ranges(spec: &str) -> EngineResult<Vec<(u32, u32)>> {
    let bad = |part: &str| {
        EngineError::invalid(format!("bad line range `{part}`: write lines:N-M (1-based), several joined by commas"))
    };
    let mut ranges = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let start: u32 = a.parse().map_err(|_| bad(part))?;
        let end: u32 = if b.is_empty() { u32::MAX } else { b.parse().map_err(|_| bad(part))? };
        if start == 0 || end < start {
            return Err(bad(part));
        }
        ranges.push((start, end));
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_mode() {
        assert_eq!(Mode::parse("").unwrap(), Mode::Auto);
        assert_eq!(Mode::parse("lines:1-20,80-95").unwrap(), Mode::Lines(vec![(1, 20), (80, 95)]));
        assert_eq!(Mode::parse("lines:7").unwrap(), Mode::Lines(vec![(7, 7)]));
        assert_eq!(Mode::parse("lines:7-").unwrap(), Mode::Lines(vec![(7, u32::MAX)]));
        assert_eq!(Mode::parse("lines:1-20,80-95").unwrap().name(), "lines:1-20,80-95");
        assert_eq!(Mode::window(10, 5).unwrap(), Mode::Lines(vec![(10, 14)]));
    }

    #[test]
    fn rejects_bad_modes_listing_the_valid_ones() {
        let e = Mode::parse("summary").unwrap_err();
        assert!(e.message.contains("valid modes: full, lines:N-M"), "{e}");
        for bad in ["lines:", "lines:0-3", "lines:9-3", "lines:a-b"] {
            assert!(Mode::parse(bad).is_err(), "{bad}");
        }
        assert!(Mode::window(0, 3).is_err());
    }
}

//! Human and JSON renderings of daemon answers.

use std::fmt::Write as _;

use lean_ctx_proto::v1::{Figure, ServedBy, StatusResponse};
use serde_json::json;

use crate::capability::served_by_name;

fn served_by(status: &StatusResponse) -> ServedBy {
    status.meta.as_ref().map_or(ServedBy::Unspecified, |m| m.served_by())
}

/// Prints `text` as a whole number of lines (nothing for empty text).
pub fn print_text(text: &str) {
    crate::out!("{text}");
    if !text.is_empty() && !text.ends_with('\n') {
        crate::outln!();
    }
}

/// `1h 02m 03s`, `2m 03s`, `4s`.
pub fn duration(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m {s:02}s"),
        _ => format!("{h}h {m:02}m {s:02}s"),
    }
}

pub fn status_text(st: &StatusResponse) -> String {
    let mut out = String::new();
    let by = served_by(st);
    let who = match by {
        ServedBy::Daemon => format!("served by the daemon (pid {})", st.pid),
        _ => "served by a fallback lean-ctxd of this client (no daemon)".to_string(),
    };
    let _ = writeln!(out, "lean-ctxd {} — {who} [{}]", st.version, served_by_name(by));
    if !st.socket_path.is_empty() {
        let _ = writeln!(out, "  socket       {}", st.socket_path);
    }
    let _ = writeln!(out, "  uptime       {}", duration(st.uptime_ms / 1000));
    let _ = writeln!(out, "  connections  {}", st.open_connections);
    let _ = writeln!(out, "  sessions     {}", st.sessions);
    let _ = writeln!(out, "  requests     {}", st.requests_served);
    let _ = writeln!(out, "  memory       {:.1} MiB resident", st.rss_bytes as f64 / (1024.0 * 1024.0));
    let idle = if st.idle_timeout_secs == 0 {
        "never (idle timeout 0)".to_string()
    } else {
        format!("after {} without clients", duration(st.idle_timeout_secs))
    };
    let _ = writeln!(out, "  idle exit    {idle}");
    for c in &st.components {
        let figures: Vec<String> = c.figures.iter().map(|f| format!("{}={}", f.name, f.value)).collect();
        let _ = writeln!(out, "  [{}] {}", c.name, figures.join(" "));
    }
    out
}

pub fn status_json(st: &StatusResponse) -> String {
    let components: serde_json::Map<String, serde_json::Value> =
        st.components.iter().map(|c| (c.name.clone(), serde_json::Value::Object(figures_json(&c.figures)))).collect();
    json!({
        // Unspecified: no daemon runs, so nothing served this; a missing value is "".
        "served_by": match served_by(st) { ServedBy::Unspecified => "", by => served_by_name(by) },
        "pid": st.pid,
        "version": st.version,
        "executable_id": st.executable_id,
        "uptime_ms": st.uptime_ms,
        "open_connections": st.open_connections,
        "sessions": st.sessions,
        "requests_served": st.requests_served,
        "rss_bytes": st.rss_bytes,
        "socket_path": st.socket_path,
        "idle_timeout_secs": st.idle_timeout_secs,
        "components": components,
    })
    .to_string()
}

/// A component's figures as one object; a name that repeats (one `index`
/// per open project) holds an array of its values, in order.
fn figures_json(figures: &[Figure]) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    for f in figures {
        let value = typed(&f.value);
        match map.get_mut(&f.name) {
            None => {
                map.insert(f.name.clone(), value);
            }
            Some(serde_json::Value::Array(values)) => values.push(value),
            Some(first) => *first = json!([first.take(), value]),
        }
    }
    map
}

/// A figure as JSON: figures travel as text, but a count is a number and a
/// flag a boolean to a program reading `--json`.
fn typed(value: &str) -> serde_json::Value {
    if let Ok(n) = value.parse::<u64>() {
        json!(n)
    } else if let Ok(n) = value.parse::<i64>() {
        json!(n)
    } else if let Some(x) = value.parse::<f64>().ok().filter(|x| x.is_finite() && value.contains('.')) {
        json!(x)
    } else {
        match value {
            "true" => json!(true),
            "false" => json!(false),
            _ => json!(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_figures_become_arrays() {
        let figure = |name: &str, value: &str| Figure { name: name.into(), value: value.into() };
        let map =
            figures_json(&[figure("indexes", "3"), figure("index", "a"), figure("index", "b"), figure("index", "c")]);
        assert_eq!(serde_json::Value::Object(map), json!({"indexes": 3, "index": ["a", "b", "c"]}));
    }

    #[test]
    fn counts_and_flags_are_typed_and_the_rest_stays_text() {
        let figure = |name: &str, value: &str| Figure { name: name.into(), value: value.into() };
        let figures = [
            figure("files", "120"),
            figure("delta", "-3"),
            figure("ratio", "0.25"),
            figure("redaction", "true"),
            figure("memory", "12.5 MiB"),
            figure("phase", "ready"),
            figure("nan", "NaN"),
        ];
        let map = figures_json(&figures);
        let want = json!({"files": 120, "delta": -3, "ratio": 0.25, "redaction": true, "memory": "12.5 MiB",
                          "phase": "ready", "nan": "NaN"});
        assert_eq!(serde_json::Value::Object(map), want);
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(4), "4s");
        assert_eq!(duration(123), "2m 03s");
        assert_eq!(duration(3723), "1h 02m 03s");
    }
}

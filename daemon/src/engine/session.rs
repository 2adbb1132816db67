//! Sessions the daemon has seen recently, for Status, and [`SessionIn`], the
//! session as what it was sent is kept.
//!
//! A session is named by the client (an MCP connection, a shell, a CLI
//! `--session`); this component only remembers which ones are active. The
//! memory issue adds the persistent session store beside it.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::locks::{self, Mutex};

/// A session as the engine keys what it was sent (file contents, rule
/// files): its id within the project of the call. The same id in two
/// projects (LEAN_CTX_SESSION, set once for every shell) is two sessions,
/// which may be two agents: neither holds what the other was sent, even of
/// a file both projects reach (a project inside another, a user-level rule
/// file), so neither is told it has it.
#[derive(Clone, Copy, Debug)]
pub struct SessionIn<'a> {
    /// The project's root.
    pub project: &'a Path,
    pub id: &'a str,
}

/// A session with no request for this long no longer counts as active.
const ACTIVE_FOR: Duration = Duration::from_secs(30 * 60);
/// Bound on remembered sessions, so a client inventing ids cannot grow memory.
const MAX_TRACKED: usize = 4096;

struct Seen {
    last: Instant,
    requests: u64,
}

pub struct Sessions {
    active: Mutex<HashMap<String, Seen>>,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions { active: Mutex::new(locks::ids::SESSIONS_ACTIVE, HashMap::new()) }
    }
}

impl Sessions {
    /// Records a request of `session_id` (ignored when empty).
    pub fn touch(&self, session_id: &str) {
        if session_id.is_empty() {
            return;
        }
        let now = Instant::now();
        let mut active = self.active.lock();
        if let Some(seen) = active.get_mut(session_id) {
            seen.last = now;
            seen.requests += 1;
            return;
        }
        if active.len() >= MAX_TRACKED {
            active.retain(|_, s| now.duration_since(s.last) < ACTIVE_FOR);
            if active.len() >= MAX_TRACKED
                && let Some(oldest) = active.iter().min_by_key(|(_, s)| s.last).map(|(k, _)| k.clone())
            {
                active.remove(&oldest);
            }
        }
        active.insert(session_id.to_string(), Seen { last: now, requests: 1 });
    }

    /// Number of sessions with a request in the last 30 minutes.
    pub fn active(&self) -> usize {
        let now = Instant::now();
        self.active.lock().values().filter(|s| now.duration_since(s.last) < ACTIVE_FOR).count()
    }

    /// Requests made by one session, 0 if unknown.
    pub fn requests(&self, session_id: &str) -> u64 {
        self.active.lock().get(session_id).map_or(0, |s| s.requests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_distinct_sessions_and_ignores_empty_ids() {
        let s = Sessions::default();
        s.touch("a");
        s.touch("a");
        s.touch("b");
        s.touch("");
        assert_eq!(s.active(), 2);
        assert_eq!(s.requests("a"), 2);
    }

    #[test]
    fn stays_bounded() {
        let s = Sessions::default();
        for i in 0..(MAX_TRACKED + 10) {
            s.touch(&format!("s{i}"));
        }
        assert_eq!(s.active(), MAX_TRACKED);
        assert_eq!(s.requests(&format!("s{}", MAX_TRACKED + 9)), 1);
    }
}

//! Every process a command started, wherever it went. The command's own
//! process is made a child subreaper, so a descendant that detaches (setsid,
//! a double fork) is reparented to it instead of to init and stays findable
//! below it in /proc for as long as the command's process lives. Timeout
//! and cancel end that whole tree, not only the process group.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long ending a tree may keep killing what the tree keeps forking.
const KILL_DEADLINE: Duration = Duration::from_secs(2);

/// Marks the calling process a child subreaper. Runs in the command's
/// process between fork and exec, where only async-signal-safe calls are
/// allowed: this is one system call. The mark survives exec.
pub fn become_subreaper() -> std::io::Result<()> {
    // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer and touches no memory.
    let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) };
    if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// The parent and whether the process has ended (a zombie waiting to be
/// reaped), from the text of /proc/PID/stat. The command name in
/// parentheses may hold spaces and parentheses itself, so fields are
/// counted after the last `)`.
fn parent_and_ended(stat: &str) -> Option<(libc::pid_t, bool)> {
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((parent, matches!(state, "Z" | "X")))
}

/// Descendants of `ancestor` that have not ended, from one scan of /proc.
fn live_descendants(ancestor: libc::pid_t) -> Vec<libc::pid_t> {
    let mut children: HashMap<libc::pid_t, Vec<(libc::pid_t, bool)>> = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else { continue };
        // A process may end between the listing and this read: skip it.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        if let Some((parent, ended)) = parent_and_ended(&stat) {
            children.entry(parent).or_default().push((pid, ended));
        }
    }
    let (mut live, mut below) = (Vec::new(), vec![ancestor]);
    while let Some(pid) = below.pop() {
        for &(child, ended) in children.get(&pid).map_or(&[][..], Vec::as_slice) {
            below.push(child);
            if !ended {
                live.push(child);
            }
        }
    }
    live
}

fn signal(pid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; a negative pid names
    // a process group.
    unsafe { libc::kill(pid, signal) };
}

/// Ends `leader` — the command's process, a subreaper leading its own
/// process group — and everything below it. The leader is stopped first so
/// it starts nothing new and, alive, keeps every orphan of the tree below
/// it; then the descendants are killed round after round until none is
/// left (a round also catches what forked during the last); then the
/// leader's group, the leader included.
pub fn kill_tree(leader: libc::pid_t) {
    signal(leader, libc::SIGSTOP);
    let deadline = Instant::now() + KILL_DEADLINE;
    let mut pause = Duration::from_millis(1);
    loop {
        let live = live_descendants(leader);
        if live.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in live {
            signal(pid, libc::SIGKILL);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
    signal(-leader, libc::SIGKILL);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_after_the_command_name() {
        assert_eq!(parent_and_ended("42 (sleep) S 7 42 42 0"), Some((7, false)));
        assert_eq!(parent_and_ended("43 (a) b (c)) Z 9 1 1"), Some((9, true)));
        assert_eq!(parent_and_ended("garbage"), None);
    }

    #[test]
    fn a_child_is_a_live_descendant_until_it_ends() {
        let own = libc::pid_t::try_from(std::process::id()).unwrap();
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        assert!(live_descendants(own).contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!live_descendants(own).contains(&pid));
    }
}

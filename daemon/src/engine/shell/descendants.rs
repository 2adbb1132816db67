//! Every process a command started, wherever it went. The command's own
//! process is made a child subreaper, so a descendant that detaches (setsid,
//! a double fork) is reparented to it instead of to init and stays findable
//! below it in /proc for as long as the command's process lives. Timeout
//! and cancel end that whole tree, not only the process group. The command
//! also leads a session of its own: once it has ended by itself, what it
//! left running in that session (in any process group: `timeout` and
//! `set -m` make their own) is ended too, where the tree is gone.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long ending a tree may keep killing what the tree keeps forking.
const KILL_DEADLINE: Duration = Duration::from_secs(2);

/// What /proc/PID/stat says of a process.
#[derive(Debug, PartialEq)]
struct Stat {
    parent: libc::pid_t,
    session: libc::pid_t,
    /// Ended, a zombie waiting to be reaped.
    ended: bool,
}

/// The command name in parentheses may hold spaces and parentheses itself,
/// so fields are counted after the last `)`: state, parent, group, session.
fn parse_stat(stat: &str) -> Option<Stat> {
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?;
    let parent = fields.next()?.parse().ok()?;
    let session = fields.nth(1)?.parse().ok()?;
    Some(Stat { parent, session, ended: matches!(state, "Z" | "X") })
}

/// The processes in /proc, with pids only above `above` unless pids have wrapped around past it
/// since (the last pid handed out is below it): everything a command started after its own
/// process is above it, and listing the directory costs a fraction of reading every process's
/// stat (1.7 ms for 78 processes on the 2-core machine, ~0.1 ms for the listing).
fn processes(above: libc::pid_t) -> impl Iterator<Item = (libc::pid_t, Stat)> {
    let last: Option<libc::pid_t> =
        std::fs::read_to_string("/proc/sys/kernel/ns_last_pid").ok().and_then(|text| text.trim().parse().ok());
    let floor = if last.is_some_and(|last| last >= above) { above } else { 0 };
    std::fs::read_dir("/proc").into_iter().flatten().flatten().filter_map(move |entry| {
        let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
        // A process may end between the listing and this read: skip it.
        let stat = (pid > floor).then(|| std::fs::read_to_string(entry.path().join("stat")).ok()).flatten()?;
        Some((pid, parse_stat(&stat)?))
    })
}

/// Descendants of `ancestor` that have not ended, from one scan of /proc.
fn live_descendants(ancestor: libc::pid_t) -> Vec<libc::pid_t> {
    let mut children: HashMap<libc::pid_t, Vec<(libc::pid_t, bool)>> = HashMap::new();
    for (pid, stat) in processes(ancestor) {
        children.entry(stat.parent).or_default().push((pid, stat.ended));
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
    kill_in_rounds(|| live_descendants(leader));
    signal(-leader, libc::SIGKILL);
}

/// Kills what `live` finds, round after round until it finds nothing (a round also catches what
/// forked during the last) or [`KILL_DEADLINE`] has passed.
fn kill_in_rounds(live: impl Fn() -> Vec<libc::pid_t>) {
    let deadline = Instant::now() + KILL_DEADLINE;
    let mut pause = Duration::from_millis(1);
    loop {
        let found = live();
        if found.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in found {
            signal(pid, libc::SIGKILL);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Ends what is left running in the session `leader` led, once `leader` — the command's process,
/// reaped — has ended by itself: its own group, and every other group of the session (a QA pass's
/// `timeout 600 python3 -m http.server … &` outlived the command, `timeout` having made a group of
/// its own). A process that made a session of its own (`setsid -f`, a daemon) is not in it.
pub fn end_session(leader: libc::pid_t) {
    signal(-leader, libc::SIGKILL);
    kill_in_rounds(|| {
        processes(leader).filter(|(_, stat)| stat.session == leader && !stat.ended).map(|(pid, _)| pid).collect()
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_after_the_command_name() {
        assert_eq!(parse_stat("42 (sleep) S 7 42 40 0"), Some(Stat { parent: 7, session: 40, ended: false }));
        assert_eq!(parse_stat("43 (a) b (c)) Z 9 1 1"), Some(Stat { parent: 9, session: 1, ended: true }));
        assert_eq!(parse_stat("garbage"), None);
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

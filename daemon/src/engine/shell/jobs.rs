//! Background commands: started by one call, they run in the daemon and
//! outlive the client that started them; later calls ask for their status,
//! cancel them or list them. A job belongs to the session that started it,
//! an id within a project (see [`SessionIn`]): only that session may ask for
//! its status or cancel it, and its listing holds only its own jobs (a
//! listing of every session's is read-only). Ids
//! are unique across sessions, so an id never names two jobs. Bounded in
//! number, in memory (each output goes through a spool, as a foreground
//! command's does), and in how long finished jobs are kept.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use super::exec::{self, ExecOutcome, ExecParams};
use super::shape::Shaped;
use super::spool::Spool;
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::memory::ms_since_epoch;
use crate::engine::session::SessionIn;
use crate::locks::{self, Mutex};

/// Jobs running at once.
pub const MAX_RUNNING: usize = 8;
/// Finished jobs kept for status queries.
const MAX_FINISHED: usize = 32;
/// How long a finished job stays queryable.
const KEEP_FINISHED: Duration = Duration::from_secs(30 * 60);
/// How long a cancel waits for the job to end before answering that it is
/// still being stopped. Killing a command's tree takes milliseconds; only a
/// process stuck in the kernel (uninterruptible sleep) holds it longer.
pub const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// Outcome of a job, set once by its thread.
type Slot = Arc<OnceLock<Result<ExecOutcome, EngineError>>>;
/// The outcome shaped for the agent, computed once on the first query
/// after the job finished (so it is archived and counted once).
pub type ShapedSlot = Arc<OnceLock<Shaped>>;

/// Who started a job: what shaping its output needs later.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub project: String,
    pub session: String,
    pub agent: String,
    pub raw: bool,
}

impl Origin {
    /// Whether `session` started the job: its id, in the same project (`project` is the root
    /// as displayed, so it is compared displayed: a root that is not UTF-8 still matches itself).
    pub fn is(&self, session: SessionIn<'_>) -> bool {
        self.session == session.id && self.project == session.project.display().to_string()
    }
}

#[derive(Clone)]
struct Job {
    command: String,
    started: SystemTime,
    started_at: Instant,
    cancel: Cancel,
    outcome: Slot,
    finished_at: Arc<OnceLock<Instant>>,
    origin: Origin,
    shaped: ShapedSlot,
    /// Its run is recorded in its session (see [`Jobs::take_unrecorded`]).
    recorded: Arc<AtomicBool>,
}

/// A finished job whose run its session has not recorded yet.
pub struct Finished {
    pub command: String,
    /// `None` when it did not finish (timed out, cancelled).
    pub exit_code: Option<i32>,
    /// When it ended, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    pub origin: Origin,
}

/// What a caller sees of a job.
#[derive(Debug, Clone)]
pub struct JobInfo {
    pub id: u64,
    pub command: String,
    pub started: SystemTime,
    pub elapsed: Duration,
    /// `None` while running.
    pub outcome: Option<Result<ExecOutcome, EngineError>>,
    /// A cancel was asked for (the job may still be stopping).
    pub cancel_requested: bool,
    pub origin: Origin,
    pub shaped: ShapedSlot,
}

pub struct Jobs {
    table: Mutex<(u64, BTreeMap<u64, Job>)>,
    /// [`CANCEL_WAIT`]; shorter in tests.
    cancel_wait: Duration,
}

impl Default for Jobs {
    fn default() -> Self {
        Jobs { table: Mutex::new(locks::ids::SHELL_JOBS, (0, BTreeMap::new())), cancel_wait: CANCEL_WAIT }
    }
}

impl Jobs {
    /// Starts `params` in the background, its output going to `spool`, and
    /// returns its id.
    pub fn start(&self, params: ExecParams, spool: Spool<'static>, origin: Origin) -> EngineResult<u64> {
        exec::validate(&params)?;
        let mut table = self.table.lock();
        prune(&mut table.1);
        let running = table.1.values().filter(|j| j.outcome.get().is_none()).count();
        if running >= MAX_RUNNING {
            return Err(EngineError::new(
                ErrorKind::ResourceExhausted,
                format!("{running} background jobs are running (the limit); wait for one or cancel it"),
            ));
        }
        table.0 += 1;
        let id = table.0;
        let job = Job {
            command: params.command.clone(),
            started: SystemTime::now(),
            started_at: Instant::now(),
            cancel: Cancel::default(),
            outcome: Arc::new(OnceLock::new()),
            finished_at: Arc::new(OnceLock::new()),
            origin,
            shaped: Arc::new(OnceLock::new()),
            recorded: Arc::new(AtomicBool::new(false)),
        };
        let (cancel, outcome, finished_at) = (job.cancel.clone(), job.outcome.clone(), job.finished_at.clone());
        table.1.insert(id, job);
        drop(table);
        std::thread::Builder::new()
            .name(format!("lean-ctxd-job-{id}"))
            .spawn(move || {
                let result = exec::run(&params, spool, &cancel);
                let _ = finished_at.set(Instant::now());
                let _ = outcome.set(result);
            })
            .map_err(|e| EngineError::internal(format!("cannot start a job thread: {e}")))?;
        Ok(id)
    }

    /// Job `id`, if `session` started it.
    pub fn status(&self, id: u64, session: SessionIn<'_>) -> EngineResult<JobInfo> {
        let table = self.table.lock();
        let job = own(&table.1, id, session)?;
        Ok(info(id, job))
    }

    /// Kills job `id` (if `session` started it) with everything it started,
    /// and answers once it has ended — or, after [`CANCEL_WAIT`], with it
    /// still running and `cancel_requested` set. A job that had finished
    /// already is answered as it ended.
    pub fn cancel(&self, id: u64, session: SessionIn<'_>) -> EngineResult<JobInfo> {
        let job = {
            let table = self.table.lock();
            let job = own(&table.1, id, session)?;
            // A job that has ended is answered as it ended, not marked as being cancelled.
            if job.outcome.get().is_none() {
                job.cancel.cancel();
            }
            job.clone()
        };
        // Waited for without the lock: the job's thread never takes it, and
        // other calls must not wait for this one. Answered from the copy, so
        // a job pruned meanwhile is still answered as cancelled.
        let deadline = Instant::now() + self.cancel_wait;
        let mut pause = Duration::from_millis(1);
        while job.outcome.get().is_none() && Instant::now() < deadline {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
        Ok(info(id, &job))
    }

    /// `session`'s kept jobs (every session's with `all_sessions`), oldest
    /// first.
    pub fn list(&self, session: SessionIn<'_>, all_sessions: bool) -> Vec<JobInfo> {
        let mut table = self.table.lock();
        prune(&mut table.1);
        table
            .1
            .iter()
            .filter(|(_, job)| all_sessions || job.origin.is(session))
            .map(|(id, job)| info(*id, job))
            .collect()
    }

    /// `session`'s jobs that have ended since it last asked, each marked recorded: its record is
    /// made when the session's next ctx_session call or job action finds it ended, not when its
    /// output is first asked for (a run never polled was missing from the handoff).
    pub fn take_unrecorded(&self, session: SessionIn<'_>) -> Vec<Finished> {
        let table = self.table.lock();
        let ended = |job: &Job| -> Option<Finished> {
            let (Some(Ok(outcome)), Some(end)) = (job.outcome.get(), job.finished_at.get()) else { return None };
            if job.recorded.swap(true, Ordering::AcqRel) {
                return None;
            }
            Some(Finished {
                command: job.command.clone(),
                exit_code: (!outcome.timed_out && !outcome.cancelled).then_some(outcome.exit_code),
                at_ms: ms_since_epoch(job.started + (*end - job.started_at)),
                origin: job.origin.clone(),
            })
        };
        table.1.values().filter(|job| job.origin.is(session)).filter_map(ended).collect()
    }

    /// (running, kept) for Status.
    pub fn counts(&self) -> (usize, usize) {
        let table = self.table.lock();
        (table.1.values().filter(|j| j.outcome.get().is_none()).count(), table.1.len())
    }
}

/// Job `id` when `session` started it; another session's job is refused
/// as not this session's, never shown or cancelled.
fn own<'t>(jobs: &'t BTreeMap<u64, Job>, id: u64, session: SessionIn<'_>) -> EngineResult<&'t Job> {
    match jobs.get(&id) {
        Some(job) if job.origin.is(session) => Ok(job),
        // The same id started it in another project (LEAN_CTX_SESSION set for every shell).
        Some(job) if job.origin.session == session.id => Err(EngineError::new(
            ErrorKind::PermissionDenied,
            format!(
                "job {id} belongs to this session id in another project ({}): a session is its id within its \
                 project; ask from that project",
                job.origin.project
            ),
        )),
        // Name the way back: an agent whose MCP connection restarted has a new session.
        Some(job) => {
            let (whose, way) = match job.origin.session.as_str() {
                "" => ("no session".to_string(), format!("`lctx jobs cancel {id}` without --session")),
                owner => (format!("session {owner}"), format!("`lctx --session {owner} jobs cancel {id}`")),
            };
            Err(EngineError::new(
                ErrorKind::PermissionDenied,
                format!(
                    "job {id} belongs to another session ({whose}): a session sees and cancels only the jobs it \
                     started; {way} acts as its owner"
                ),
            ))
        }
        None => Err(EngineError::not_found(format!(
            "no job {id} in this daemon: it finished more than 30 minutes ago, never existed, or was started by a \
             daemon that has ended since (its commands are normally ended with it); list this session's jobs \
             (ctx_shell background_action=list, `lctx jobs`)"
        ))),
    }
}

fn info(id: u64, job: &Job) -> JobInfo {
    let elapsed = job.finished_at.get().map_or_else(|| job.started_at.elapsed(), |end| *end - job.started_at);
    JobInfo {
        id,
        command: job.command.clone(),
        started: job.started,
        elapsed,
        outcome: job.outcome.get().cloned(),
        cancel_requested: job.cancel.is_cancelled(),
        origin: job.origin.clone(),
        shaped: job.shaped.clone(),
    }
}

/// Drops finished jobs that are too old, then the oldest finished beyond the cap.
fn prune(jobs: &mut BTreeMap<u64, Job>) {
    jobs.retain(|_, j| j.finished_at.get().is_none_or(|end| end.elapsed() < KEEP_FINISHED));
    let finished: Vec<u64> = jobs.iter().filter(|(_, j)| j.outcome.get().is_some()).map(|(id, _)| *id).collect();
    for id in finished.iter().take(finished.len().saturating_sub(MAX_FINISHED)) {
        jobs.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::engine::shell::spool::{Output, test_spool};

    /// Session `id` in the project jobs started with a default origin have.
    fn at(id: &str) -> SessionIn<'_> {
        SessionIn { project: Path::new(""), id }
    }

    fn params(cmd: &str) -> ExecParams {
        ExecParams {
            command: cmd.into(),
            cwd: std::env::temp_dir(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            timeout: Duration::from_secs(30),
        }
    }

    impl Jobs {
        fn start_plain(&self, p: ExecParams) -> EngineResult<u64> {
            // Small outputs only: the archive directory is never created.
            self.start(p, test_spool(&std::env::temp_dir().join("lctx-jobs-unused")), Origin::default())
        }
    }

    fn wait_done(jobs: &Jobs, id: u64) -> ExecOutcome {
        for _ in 0..1000 {
            if let Some(outcome) = jobs.status(id, at("")).unwrap().outcome {
                return outcome.unwrap();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("job {id} did not finish");
    }

    #[test]
    fn runs_in_the_background_and_reports_its_outcome() {
        let jobs = Jobs::default();
        let id = jobs.start_plain(params("sleep 0.2; echo finished; exit 4")).unwrap();
        assert!(jobs.status(id, at("")).unwrap().outcome.is_none(), "still running");
        let out = wait_done(&jobs, id);
        assert_eq!((out.exit_code, out.output), (4, Output::Whole(b"finished\n".to_vec())));
        assert_eq!(jobs.list(at(""), false).len(), 1);
    }

    #[test]
    fn cancel_answers_once_the_job_has_ended_and_unknown_ids_are_explained() {
        let jobs = Jobs::default();
        let id = jobs.start_plain(params("sleep 30")).unwrap();
        let info = jobs.cancel(id, at("")).unwrap();
        let outcome = info.outcome.expect("cancel waits for the job to end").unwrap();
        assert!(outcome.cancelled && info.cancel_requested);
        assert!(jobs.status(id, at("")).unwrap().outcome.unwrap().unwrap().cancelled);
        assert!(jobs.status(999, at("")).unwrap_err().message.contains("no job 999"));
    }

    #[test]
    fn cancelling_a_finished_job_answers_it_as_it_ended() {
        let jobs = Jobs::default();
        let id = jobs.start_plain(params("exit 3")).unwrap();
        wait_done(&jobs, id);
        let info = jobs.cancel(id, at("")).unwrap();
        let outcome = info.outcome.expect("it had ended").unwrap();
        assert_eq!((outcome.exit_code, outcome.cancelled, info.cancel_requested), (3, false, false));
        assert!(!jobs.status(id, at("")).unwrap().cancel_requested);
    }

    #[test]
    fn a_cancel_that_outlasts_its_wait_says_the_job_is_still_stopping() {
        let jobs = Jobs { cancel_wait: Duration::ZERO, ..Jobs::default() };
        // With no wait the answer nearly always comes before the job's
        // thread has seen the switch; either way it says a cancel was asked.
        let id = jobs.start_plain(params("sleep 30")).unwrap();
        let info = jobs.cancel(id, at("")).unwrap();
        assert!(info.cancel_requested);
        assert!(jobs.status(id, at("")).unwrap().cancel_requested, "status says it is being stopped");
        assert!(wait_done(&jobs, id).cancelled);
    }

    #[test]
    fn a_session_sees_and_cancels_only_its_own_jobs() {
        let jobs = Jobs::default();
        let start = |session: &str| {
            let origin = Origin { session: session.into(), ..Origin::default() };
            jobs.start(params("sleep 30"), test_spool(&std::env::temp_dir().join("lctx-jobs-unused")), origin).unwrap()
        };
        let (a, b) = (start("a"), start("b"));
        assert_ne!(a, b, "ids are unique across sessions");
        let refused = jobs.cancel(a, at("b")).unwrap_err();
        assert_eq!(refused.kind, ErrorKind::PermissionDenied);
        assert!(refused.message.contains("another session"), "{}", refused.message);
        assert_eq!(jobs.status(a, at("")).unwrap_err().kind, ErrorKind::PermissionDenied);
        assert!(jobs.status(a, at("a")).unwrap().outcome.is_none(), "another session's cancel did nothing");
        let ids = |list: Vec<JobInfo>| list.into_iter().map(|j| j.id).collect::<Vec<_>>();
        assert_eq!(ids(jobs.list(at("a"), false)), [a]);
        assert_eq!(ids(jobs.list(at(""), false)), Vec::<u64>::new());
        assert_eq!(ids(jobs.list(at(""), true)), [a, b]);
        jobs.cancel(a, at("a")).unwrap();
        jobs.cancel(b, at("b")).unwrap();
    }

    #[test]
    fn one_session_id_in_two_projects_is_two_sessions() {
        let jobs = Jobs::default();
        let origin = Origin { project: "/work/a".into(), session: "s".into(), ..Origin::default() };
        let id =
            jobs.start(params("sleep 30"), test_spool(&std::env::temp_dir().join("lctx-jobs-unused")), origin).unwrap();
        let (a, b) = (
            SessionIn { project: Path::new("/work/a"), id: "s" },
            SessionIn { project: Path::new("/work/b"), id: "s" },
        );
        // Another project's `lctx jobs` does not list it, nor may it cancel it (it did: one id, one session).
        assert!(jobs.list(b, false).is_empty());
        let refused = jobs.cancel(id, b).unwrap_err();
        assert_eq!(refused.kind, ErrorKind::PermissionDenied);
        assert!(refused.message.contains("another project (/work/a)"), "{}", refused.message);
        assert!(jobs.status(id, a).unwrap().outcome.is_none(), "still running");
        assert_eq!(jobs.list(a, false).len(), 1);
        jobs.cancel(id, a).unwrap();
    }

    #[test]
    fn the_number_of_running_jobs_is_bounded() {
        let jobs = Jobs::default();
        let ids: Vec<_> = (0..MAX_RUNNING).map(|_| jobs.start_plain(params("sleep 30")).unwrap()).collect();
        assert_eq!(jobs.start_plain(params("true")).unwrap_err().kind, ErrorKind::ResourceExhausted);
        for id in ids {
            jobs.cancel(id, at("")).unwrap();
        }
    }
}

//! ctx_shell as the engine sees it: run (foreground or background), shape,
//! and job queries that shape a finished job's output once.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use lean_ctx_common::stamp::Stamp;
use lean_ctx_guard::permissions::Verdict;

use super::exec::{self, ExecOutcome, ExecParams};
use super::jobs::{JobInfo, Origin};
use super::shape::Shaped;
use super::spool::Spool;
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::guard;
use crate::engine::project::{Scope, root_markers};
use crate::engine::session::SessionIn;
use crate::engine::{Caller, Engine};

#[derive(Debug, Clone, Default)]
pub struct RunParams {
    pub command: String,
    /// The caller's environment, as the line starts in it.
    pub env: BTreeMap<String, String>,
    /// The variables the caller set for this command, over `env`: the permission check reads
    /// them as the line's exports (the caller's own environment, a user's LESSOPEN or PATH, is
    /// not the agent's doing).
    pub given: BTreeMap<String, String>,
    /// Milliseconds; 0 means the default (120 s).
    pub timeout_ms: u64,
    pub raw: bool,
    /// The working directory, relative to the request's cwd; empty: that cwd.
    pub workdir: String,
}

impl RunParams {
    fn exec_params(&self, cwd: std::path::PathBuf) -> ExecParams {
        let timeout = if self.timeout_ms == 0 { exec::DEFAULT_TIMEOUT } else { Duration::from_millis(self.timeout_ms) };
        ExecParams {
            command: self.command.clone(),
            cwd,
            env: self.environment().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            timeout,
        }
    }

    /// The command's environment: the caller's, with the variables it set over it.
    fn environment(&self) -> impl Iterator<Item = (&str, &str)> {
        let inherited = self.env.iter().filter(|(name, _)| !self.given.contains_key(*name));
        inherited.chain(&self.given).map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// `raw=true`, or `LEAN_CTX_RAW=1` in the caller's environment.
    fn wants_raw(&self) -> bool {
        self.raw || self.environment().any(|(name, value)| name == "LEAN_CTX_RAW" && value == "1")
    }
}

/// The answer to [`Engine::check_command`].
pub struct CommandCheck {
    pub verdict: Verdict,
    /// Set when no rule at all applies in the caller's cwd: every command
    /// there is allowed while each file keeps the stamp it had before the
    /// rules were read.
    pub allowed_while_unchanged: Vec<(PathBuf, Stamp)>,
}

/// One job with its output shaped once it finished.
pub struct JobView {
    pub info: JobInfo,
    pub shaped: Option<Result<Shaped, EngineError>>,
    /// The caller's session started it (in the caller's project).
    pub yours: bool,
}

impl Engine {
    /// Runs a command to completion; `cancel` stops it early (a client that
    /// went away).
    pub fn run_command(
        &self,
        caller: &Caller<'_>,
        p: &RunParams,
        cancel: &Cancel,
    ) -> EngineResult<(ExecOutcome, Shaped)> {
        let scope = self.scope(caller, &self.config.get())?;
        let workdir = self.permitted_workdir(&scope, p)?;
        let config = self.config.get();
        let spool = Spool::new(self.archive_dir(), Box::new(|text| self.guard.redaction.apply(&config, text)));
        let outcome = exec::run(&p.exec_params(workdir), spool, cancel)?;
        let project = scope.root.display().to_string();
        let shaped = self.shape_outcome(caller, &project, &p.command, &outcome, p.wants_raw(), true);
        Ok((outcome, shaped))
    }

    pub fn start_job(&self, caller: &Caller<'_>, p: &RunParams) -> EngineResult<u64> {
        let scope = self.scope(caller, &self.config.get())?;
        let workdir = self.permitted_workdir(&scope, p)?;
        let origin = Origin {
            project: scope.root.display().to_string(),
            session: caller.session.to_string(),
            agent: caller.agent.to_string(),
            raw: p.wants_raw(),
        };
        // The job outlives this call: it gets a redactor of its own (cheap to
        // build) and the config as it is now.
        let (redaction, config) = (guard::redaction::Redaction::default(), self.config.get());
        let spool = Spool::new(self.archive_dir(), Box::new(move |text| redaction.apply(&config, text)));
        self.jobs.start(p.exec_params(workdir), spool, origin)
    }

    /// Whether the user's rules let `command` run in the caller's cwd when
    /// the caller runs it itself (lctx-shell in an agent's shell). The user's
    /// ask rules are Claude Code's (no other source has them): inside Claude
    /// Code's own shell tool it has put them to the user already, so they do
    /// not refuse there; elsewhere nobody can ask, so they refuse like a deny.
    /// lean-ctx's own ask about an edit of the files rules are read from is
    /// no rule of Claude Code's, which has not asked about it: it refuses.
    pub fn check_command(&self, caller: &Caller<'_>, command: &str) -> EngineResult<CommandCheck> {
        let first = self.scope(caller, &self.config.get())?;
        let inputs = self.permission_inputs(&first);
        // Stamped before the rules are read: a change after this is seen by
        // the client as a changed stamp, never hidden behind the answer.
        let stamps: Vec<Stamp> = inputs.iter().map(|p| Stamp::of(p)).collect();
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let rules = self.permission_rules(&scope, &config);
        let verdict = rules.permissions.check_shell(command, &scope.workdir("")?);
        let asked_by_host = guard::rules::Host::from_agent(caller.agent) == Some(guard::rules::Host::ClaudeCode);
        let verdict = match verdict {
            Verdict::Ask { .. } if asked_by_host && !rules.permissions.asks_for_its_own_files(&verdict) => {
                Verdict::Allow
            }
            verdict => verdict,
        };
        // Only a request whose cwd needed no resolving names the directory
        // the promise is about as the client will look it up, and only
        // paths that go over the wire unchanged can be stamped again there.
        let promise = rules.permissions.is_empty()
            && caller.project_root.is_none()
            && scope.cwd == std::path::Path::new(caller.cwd)
            && inputs.iter().all(|p| p.to_str().is_some())
            && self.permission_inputs(&scope) == inputs;
        let allowed_while_unchanged = if promise { inputs.into_iter().zip(stamps).collect() } else { Vec::new() };
        Ok(CommandCheck { verdict, allowed_while_unchanged })
    }

    /// Every file whose change could change the rules for commands in the
    /// scope's cwd: the settings files, the config, the `.git` entries that
    /// decide the project, and this daemon's executable.
    fn permission_inputs(&self, scope: &Scope) -> Vec<PathBuf> {
        let mut inputs = guard::permissions::settings_files(self.guard.home(), &scope.root).to_vec();
        inputs.push(self.config.file().to_path_buf());
        inputs.extend(root_markers(&scope.cwd, &scope.root));
        // A new build may read rules from more places: its binary's stamp
        // retires answers an older one gave.
        inputs.extend(std::env::current_exe().ok());
        inputs
    }

    /// The command's working directory, once the user's rules allow the
    /// command there.
    fn permitted_workdir(&self, scope: &Scope, p: &RunParams) -> EngineResult<std::path::PathBuf> {
        let workdir = scope.workdir(&p.workdir)?;
        let rules = self.permission_rules(scope, &self.config.get());
        // What the caller set for the command is the line's as much as its `VAR=value` words are.
        let env: Vec<(String, String)> = p.given.iter().map(|(name, value)| (name.clone(), value.clone())).collect();
        let verdict = rules.permissions.check_shell_with_env(&p.command, &workdir, &env);
        guard::permissions::enforce(verdict, "ctx_shell")?;
        Ok(workdir)
    }

    /// status | cancel | list, of the caller's session's jobs; `all_sessions`
    /// lists every session's, the others' without their output. A finished job's output goes
    /// with the first answer after it ended; `status` and `cancel` send it again (booked again),
    /// `list` does not: an agent polling `list` paid for every finished job's output each time.
    pub fn job_action(
        &self,
        caller: &Caller<'_>,
        action: &str,
        id: u64,
        all_sessions: bool,
    ) -> EngineResult<Vec<JobView>> {
        let scope = self.scope(caller, &self.config.get())?;
        let session = SessionIn { project: &scope.root, id: caller.session };
        let infos = match action.trim() {
            "status" | "" => vec![self.jobs.status(id, session)?],
            "cancel" => vec![self.jobs.cancel(id, session)?],
            "list" => self.jobs.list(session, all_sessions),
            other => {
                return Err(EngineError::invalid(format!("unknown job action `{other}`; valid: status, cancel, list")));
            }
        };
        self.record_finished_jobs(session);
        let again = action.trim() != "list";
        Ok(infos
            .into_iter()
            .map(|info| match info.origin.is(session) {
                true => self.job_view(info, again),
                false => JobView { info, shaped: None, yours: false },
            })
            .collect())
    }

    /// Records in `session` each of its background jobs found ended since its last call: a test
    /// run never polled was missing from the handoff's last test runs.
    pub(in crate::engine) fn record_finished_jobs(&self, session: SessionIn<'_>) {
        for ended in self.jobs.take_unrecorded(session) {
            let o = &ended.origin;
            let caller = Caller { session: &o.session, agent: &o.agent, ..Caller::default() };
            let command = self.masked_command(&ended.command);
            let run = (command.as_str(), ended.exit_code, super::shape::command_kind(&command));
            self.memory.ran(&caller, &o.project, run, ended.at_ms);
        }
    }

    /// The caller's own job, with its output when it has ended: shaped and booked on the first
    /// answer after that, sent again only when `again`.
    fn job_view(&self, info: JobInfo, again: bool) -> JobView {
        let o = &info.origin;
        let caller = Caller { session: &o.session, agent: &o.agent, ..Caller::default() };
        let shaped = match &info.outcome {
            Some(Ok(outcome)) => {
                let mut first = false;
                let shaped = info.shaped.get_or_init(|| {
                    first = true;
                    // A job's output is shown under its job line, nothing after it.
                    self.shape_outcome(&caller, &o.project, &info.command, outcome, o.raw, false)
                });
                match (first, again) {
                    (true, _) => Some(Ok(shaped.clone())),
                    (false, true) => {
                        self.account_resent(&caller, &o.project, shaped);
                        Some(Ok(shaped.clone()))
                    }
                    (false, false) => None,
                }
            }
            Some(Err(e)) => Some(Err(e.clone())),
            None => None,
        };
        JobView { info, shaped, yours: true }
    }
}

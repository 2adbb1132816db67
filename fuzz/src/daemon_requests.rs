//! `daemon_requests`: every request the daemon serves, decoded from
//! arbitrary bytes with prost and handed to the very service implementations
//! the daemon routes to, in-process, against a sandbox `LEAN_CTX_HOME` and a
//! sandbox project.
//!
//! Input: one byte choosing the call, then the request message's encoding.
//!
//! The request context is kept inside the sandbox: its cwd and project root
//! are taken relative to the project (`..` and roots dropped), since a
//! client may legitimately name any directory as its project and the
//! fuzzer must not read or edit the user's files. A command to run is
//! replaced by a `printf` of its text, so the fuzzer runs nothing of its
//! own choosing. Beyond "no panic", every call must answer (a response or a
//! Status) within a minute, and no read, search, glob, tree or index answer
//! may carry the content of the file outside the project that the project
//! links to (`sandbox::SECRET`).

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use lean_ctx_common::paths::Dirs;
use lean_ctx_proto::v1::control_server::Control;
use lean_ctx_proto::v1::file_context_server::FileContext;
use lean_ctx_proto::v1::ledger_server::Ledger;
use lean_ctx_proto::v1::memory_server::Memory;
use lean_ctx_proto::v1::search_server::Search;
use lean_ctx_proto::v1::shell_server::Shell;
use lean_ctx_proto::v1::*;
use lean_ctxd::engine::Engine;
use lean_ctxd::server::context::ContextService;
use lean_ctxd::server::control::ControlService;
use lean_ctxd::server::host::Host;
use lean_ctxd::server::memory::MemoryService;
use lean_ctxd::server::search::SearchService;
use lean_ctxd::server::shell::ShellService;
use prost::Message;
use tonic::Request;

/// Longer than any call here may take: a call that does not answer by then
/// is a hang, reported as a crash.
const ANSWER_WITHIN: Duration = Duration::from_secs(60);

struct World {
    runtime: tokio::runtime::Runtime,
    project: PathBuf,
    control: ControlService,
    context: ContextService,
    memory: MemoryService,
    search: SearchService,
    shell: ShellService,
}

static WORLD: LazyLock<World> = LazyLock::new(|| {
    let dir = crate::sandbox::dir("daemon");
    let project = crate::sandbox::project(&dir);
    let engine = Arc::new(Engine::new(Dirs::under(&dir.join("home"))));
    let host = Arc::new(Host::one_client());
    World {
        runtime: tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("cannot start the runtime"),
        control: ControlService::new(engine.clone(), host.clone()),
        context: ContextService::new(engine.clone(), host.clone()),
        memory: MemoryService::new(engine.clone(), host.clone()),
        search: SearchService::new(engine.clone(), host.clone()),
        shell: ShellService::new(engine, host),
        project,
    }
});

/// Decodes the message and keeps its context in the sandbox; `None`: the
/// bytes are no such message.
fn decode<M: Message + Default + HasContext>(bytes: &[u8], project: &Path) -> Option<M> {
    let mut message = M::decode(bytes).ok()?;
    if let Some(ctx) = message.ctx() {
        confine(ctx, project);
    }
    Some(message)
}

trait HasContext {
    fn ctx(&mut self) -> Option<&mut RequestContext>;
}

macro_rules! has_context {
    ($($message:ty),*) => {
        $(impl HasContext for $message {
            fn ctx(&mut self) -> Option<&mut RequestContext> {
                self.ctx.as_mut()
            }
        })*
    };
}

has_context!(
    HelloRequest,
    StatusRequest,
    ShutdownRequest,
    PingRequest,
    ReadRequest,
    EditRequest,
    RulesRequest,
    SessionRequest,
    KnowledgeRequest,
    GainRequest,
    VerifyRequest,
    SearchRequest,
    GlobRequest,
    TreeRequest,
    IndexRequest,
    IndexStatusRequest,
    ExecRequest,
    CompressRequest,
    ExpandRequest,
    JobsRequest,
    CheckRequest
);

fn confine(ctx: &mut RequestContext, project: &Path) {
    ctx.cwd = within(project, &ctx.cwd);
    if let Some(root) = &mut ctx.project_root
        && !root.is_empty()
    {
        *root = within(project, root);
    }
}

/// `path` taken relative to `project`, without `..` or a root.
fn within(project: &Path, path: &str) -> String {
    let mut joined = project.to_path_buf();
    joined.extend(Path::new(path).components().filter_map(|c| match c {
        Component::Normal(part) => Some(part),
        _ => None,
    }));
    joined.to_string_lossy().into_owned()
}

/// The answer, as text to look for the secret in; `Err` answers carry their
/// message.
type Answer = Result<String, tonic::Status>;

fn shown<T: std::fmt::Debug>(result: Result<tonic::Response<T>, tonic::Status>) -> Answer {
    result.map(|r| format!("{:?}", r.into_inner()))
}

pub fn run(data: &[u8]) {
    let Some((&choice, bytes)) = data.split_first() else { return };
    let w = &*WORLD;
    let p = w.project.as_path();
    // `$adjust` bounds what would only slow the fuzzer down (see `harmless`).
    macro_rules! call {
        ($service:expr, $method:ident, $message:ty) => {
            call!($service, $method, $message, |_: &mut $message| {})
        };
        ($service:expr, $method:ident, $message:ty, $adjust:expr) => {{
            let Some(mut message) = decode::<$message>(bytes, p) else { return };
            $adjust(&mut message);
            let ctx = message.ctx.clone();
            (ctx, w.runtime.block_on(async { within_deadline($service.$method(Request::new(message))).await }))
        }};
    }
    let (ctx, answer): (Option<RequestContext>, Answer) = match choice % 21 {
        0 => call!(w.control, hello, HelloRequest),
        1 => call!(w.control, status, StatusRequest),
        2 => call!(w.control, shutdown, ShutdownRequest),
        3 => call!(w.control, ping, PingRequest, |m: &mut PingRequest| m.delay_ms = m.delay_ms.min(5)),
        4 => call!(w.context, read, ReadRequest),
        5 => call!(w.context, edit, EditRequest),
        6 => call!(w.context, rules, RulesRequest),
        7 => call!(w.memory, session, SessionRequest),
        8 => call!(w.memory, knowledge, KnowledgeRequest),
        9 => call!(w.memory, gain, GainRequest),
        10 => call!(w.memory, verify, VerifyRequest),
        11 => call!(w.search, search, SearchRequest),
        12 => call!(w.search, glob, GlobRequest),
        13 => call!(w.search, tree, TreeRequest),
        14 => call!(w.search, index, IndexRequest),
        15 => call!(w.search, index_status, IndexStatusRequest),
        16 => call!(w.shell, exec, ExecRequest, harmless),
        17 => call!(w.shell, compress, CompressRequest),
        18 => call!(w.shell, expand, ExpandRequest),
        19 => call!(w.shell, jobs, JobsRequest),
        _ => call!(w.shell, check, CheckRequest),
    };
    // Answers made of files' content; the others echo what the client sent
    // (commands, knowledge, sessions) and may carry anything.
    if matches!(choice % 21, 4 | 6 | 11..=15) {
        check_confined(p, ctx.as_ref(), &answer);
    }
}

async fn within_deadline<T: std::fmt::Debug>(
    call: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Answer {
    match tokio::time::timeout(ANSWER_WITHIN, call).await {
        Ok(result) => shown(result),
        Err(_) => panic!("no answer within {ANSWER_WITHIN:?}"),
    }
}

/// The command becomes a `printf` of its own text: the request's other
/// fields (environment, directory, timeout, background) stay the fuzzer's.
fn harmless(exec: &mut ExecRequest) {
    let quoted = exec.command.replace('\'', r"'\''");
    exec.command = format!("printf '%s\\n' '{quoted}'");
}

/// No file answer leaks `outside/secret.txt` to a request whose cwd and project
/// lie in the project — unless an edit wrote that text into the project
/// itself.
fn check_confined(project: &Path, ctx: Option<&RequestContext>, answer: &Answer) {
    let text = match answer {
        Ok(text) => text.as_str(),
        Err(status) => status.message(),
    };
    let secret = crate::sandbox::SECRET.trim_end();
    if !text.contains(secret) {
        return;
    }
    let in_project = |path: &str| Path::new(path).canonicalize().is_ok_and(|p| p.starts_with(project));
    let Some(ctx) = ctx else { return };
    let root_inside = ctx.project_root.as_deref().is_none_or(|r| r.is_empty() || in_project(r));
    if in_project(&ctx.cwd) && root_inside && !holds(project, secret) {
        panic!("the answer carries the content of a file outside the project:\n{text}");
    }
}

/// Whether any file in `dir` (not following symlinks) contains `needle`.
fn holds(dir: &Path, needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| match entry.file_type() {
        Ok(t) if t.is_dir() => holds(&entry.path(), needle),
        Ok(t) if t.is_file() => std::fs::read(entry.path()).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle)),
        _ => false,
    })
}

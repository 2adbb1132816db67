//! One interface over both ways of being served: the daemon, or the engine
//! running in this process when no daemon can be had.
//!
//! Both sides implement the same generated service trait, so a command
//! written against [`Backend::control`] or [`Backend::context`] behaves
//! identically either way.

use std::sync::Arc;

use lean_ctx_proto::v1::control_client::ControlClient;
use lean_ctx_proto::v1::control_server::Control;
use lean_ctx_proto::v1::file_context_client::FileContextClient;
use lean_ctx_proto::v1::file_context_server::FileContext;
use lean_ctx_proto::v1::ledger_client::LedgerClient;
use lean_ctx_proto::v1::ledger_server::Ledger;
use lean_ctx_proto::v1::memory_client::MemoryClient;
use lean_ctx_proto::v1::memory_server::Memory;
use lean_ctx_proto::v1::search_client::SearchClient;
use lean_ctx_proto::v1::search_server::Search;
use lean_ctx_proto::v1::shell_client::ShellClient;
use lean_ctx_proto::v1::shell_server::Shell;
use lean_ctx_proto::v1::{
    CompressRequest, CompressResponse, EditRequest, EditResponse, ExecRequest, ExecResponse, ExpandRequest,
    ExpandResponse, GainRequest, GainResponse, GlobRequest, GlobResponse, HelloRequest, HelloResponse, IndexRequest,
    IndexResponse, IndexStatusRequest, JobsRequest, JobsResponse, KnowledgeRequest, KnowledgeResponse, PingRequest,
    PingResponse, ReadRequest, ReadResponse, SearchRequest, SearchResponse, ServedBy, SessionRequest, SessionResponse,
    ShutdownRequest, ShutdownResponse, StatusRequest, StatusResponse, TreeRequest, TreeResponse, VerifyRequest,
    VerifyResponse,
};
use lean_ctxd::engine::Engine;
use lean_ctxd::server::context::ContextService;
use lean_ctxd::server::control::ControlService;
use lean_ctxd::server::host::Host;
use lean_ctxd::server::memory::MemoryService;
use lean_ctxd::server::search::SearchService;
use lean_ctxd::server::shell::ShellService;
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

use crate::daemon::{self, MAX_MESSAGE};
use crate::options::ClientOptions;

pub struct Backend {
    control: Arc<dyn Control>,
    context: Arc<dyn FileContext>,
    memory: Arc<dyn Memory>,
    ledger: Arc<dyn Ledger>,
    shell: Arc<dyn Shell>,
    search: Arc<dyn Search>,
    pub served_by: ServedBy,
    /// Why this client serves itself, when it does.
    pub fallback_reason: Option<String>,
}

impl Backend {
    /// The daemon (started or restarted as needed), else the in-process
    /// engine. Never fails: the reason for a fallback travels along.
    pub async fn connect(opts: &ClientOptions) -> Backend {
        if opts.no_daemon {
            return Backend::local(opts, None);
        }
        match daemon::ensure(opts).await {
            Ok(d) => Backend::remote(d.channel()),
            Err(why) => Backend::local(opts, Some(why)),
        }
    }

    pub fn remote(channel: Channel) -> Backend {
        let remote = Arc::new(Remote {
            control: ControlClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
            context: FileContextClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
            memory: MemoryClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
            ledger: LedgerClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
            shell: ShellClient::new(channel.clone())
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
            search: SearchClient::new(channel)
                .max_decoding_message_size(MAX_MESSAGE)
                .max_encoding_message_size(MAX_MESSAGE),
        });
        Backend {
            control: remote.clone(),
            context: remote.clone(),
            memory: remote.clone(),
            ledger: remote.clone(),
            shell: remote.clone(),
            search: remote,
            served_by: ServedBy::Daemon,
            fallback_reason: None,
        }
    }

    /// The engine in this process. Cross-process safety then rests on the
    /// OS file locks and SQLite's locking (LOCK_ORDERING.md).
    pub fn local(opts: &ClientOptions, reason: Option<String>) -> Backend {
        let engine = Arc::new(Engine::new(opts.dirs.clone()));
        let host = Arc::new(Host::new(ServedBy::Local, None, None));
        Backend {
            control: Arc::new(ControlService::new(engine.clone(), host.clone())),
            context: Arc::new(ContextService::new(engine.clone(), host.clone())),
            memory: Arc::new(MemoryService::new(engine.clone(), host.clone())),
            ledger: Arc::new(MemoryService::new(engine.clone(), host.clone())),
            shell: Arc::new(ShellService::new(engine.clone(), host.clone())),
            search: Arc::new(SearchService::new(engine, host)),
            served_by: ServedBy::Local,
            fallback_reason: reason,
        }
    }

    pub fn control(&self) -> &dyn Control {
        self.control.as_ref()
    }

    pub fn context(&self) -> &dyn FileContext {
        self.context.as_ref()
    }

    pub fn memory(&self) -> &dyn Memory {
        self.memory.as_ref()
    }

    pub fn ledger(&self) -> &dyn Ledger {
        self.ledger.as_ref()
    }

    pub fn shell(&self) -> &dyn Shell {
        self.shell.as_ref()
    }

    pub fn search(&self) -> &dyn Search {
        self.search.as_ref()
    }
}

/// The daemon's services seen through the server traits, so commands are
/// written once for both backends.
struct Remote {
    control: ControlClient<Channel>,
    context: FileContextClient<Channel>,
    memory: MemoryClient<Channel>,
    ledger: LedgerClient<Channel>,
    shell: ShellClient<Channel>,
    search: SearchClient<Channel>,
}

#[tonic::async_trait]
impl Control for Remote {
    async fn hello(&self, request: Request<HelloRequest>) -> Result<Response<HelloResponse>, Status> {
        self.control.clone().hello(request).await
    }

    async fn status(&self, request: Request<StatusRequest>) -> Result<Response<StatusResponse>, Status> {
        self.control.clone().status(request).await
    }

    async fn shutdown(&self, request: Request<ShutdownRequest>) -> Result<Response<ShutdownResponse>, Status> {
        self.control.clone().shutdown(request).await
    }

    async fn ping(&self, request: Request<PingRequest>) -> Result<Response<PingResponse>, Status> {
        self.control.clone().ping(request).await
    }
}

#[tonic::async_trait]
impl FileContext for Remote {
    async fn read(&self, request: Request<ReadRequest>) -> Result<Response<ReadResponse>, Status> {
        self.context.clone().read(request).await
    }

    async fn edit(&self, request: Request<EditRequest>) -> Result<Response<EditResponse>, Status> {
        self.context.clone().edit(request).await
    }
}

#[tonic::async_trait]
impl Memory for Remote {
    async fn session(&self, request: Request<SessionRequest>) -> Result<Response<SessionResponse>, Status> {
        self.memory.clone().session(request).await
    }

    async fn knowledge(&self, request: Request<KnowledgeRequest>) -> Result<Response<KnowledgeResponse>, Status> {
        self.memory.clone().knowledge(request).await
    }
}

#[tonic::async_trait]
impl Ledger for Remote {
    async fn gain(&self, request: Request<GainRequest>) -> Result<Response<GainResponse>, Status> {
        self.ledger.clone().gain(request).await
    }

    async fn verify(&self, request: Request<VerifyRequest>) -> Result<Response<VerifyResponse>, Status> {
        self.ledger.clone().verify(request).await
    }
}

#[tonic::async_trait]
impl Shell for Remote {
    async fn exec(&self, request: Request<ExecRequest>) -> Result<Response<ExecResponse>, Status> {
        self.shell.clone().exec(request).await
    }

    async fn compress(&self, request: Request<CompressRequest>) -> Result<Response<CompressResponse>, Status> {
        self.shell.clone().compress(request).await
    }

    async fn expand(&self, request: Request<ExpandRequest>) -> Result<Response<ExpandResponse>, Status> {
        self.shell.clone().expand(request).await
    }

    async fn jobs(&self, request: Request<JobsRequest>) -> Result<Response<JobsResponse>, Status> {
        self.shell.clone().jobs(request).await
    }
}

#[tonic::async_trait]
impl Search for Remote {
    async fn search(&self, request: Request<SearchRequest>) -> Result<Response<SearchResponse>, Status> {
        self.search.clone().search(request).await
    }

    async fn glob(&self, request: Request<GlobRequest>) -> Result<Response<GlobResponse>, Status> {
        self.search.clone().glob(request).await
    }

    async fn tree(&self, request: Request<TreeRequest>) -> Result<Response<TreeResponse>, Status> {
        self.search.clone().tree(request).await
    }

    async fn index(&self, request: Request<IndexRequest>) -> Result<Response<IndexResponse>, Status> {
        self.search.clone().index(request).await
    }

    async fn index_status(&self, request: Request<IndexStatusRequest>) -> Result<Response<IndexResponse>, Status> {
        self.search.clone().index_status(request).await
    }
}

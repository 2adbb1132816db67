//! `lctx session`, `lctx knowledge`, `lctx gain`, `lctx ledger verify`.

use clap::{Args, Subcommand};
use lean_ctx_proto::v1::{GainRequest, KnowledgeRequest, SessionRequest, VerifyRequest};
use serde_json::json;

use super::CmdResult;
use super::render::print_text;
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct SessionArgs {
    /// status | task | finding | decision | next | list | load | handoff
    action: String,
    /// The text for task, finding, decision and next.
    value: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum KnowledgeCmd {
    /// Store a fact; a new value for a key supersedes the old one (kept in history).
    Remember {
        key: String,
        value: String,
        #[arg(short, long, default_value = "general")]
        category: String,
        #[arg(long)]
        confidence: Option<f64>,
    },
    /// Find facts by free text, best first.
    Recall {
        query: String,
        #[arg(short, long)]
        category: Option<String>,
        #[arg(short = 'n', long, default_value_t = 20)]
        limit: u32,
    },
    /// Retire a fact (its history is kept).
    Forget { key: String },
    /// Current facts of this project.
    List {
        #[arg(short, long)]
        category: Option<String>,
    },
    /// Every value a key has had.
    History { key: String },
}

#[derive(Args, Debug)]
pub struct GainArgs {
    #[arg(long, conflicts_with_all = ["week", "all"])]
    today: bool,
    #[arg(long, conflicts_with = "all")]
    week: bool,
    #[arg(long)]
    all: bool,
    /// tool | mode | family | project
    #[arg(long, value_name = "DIMENSION")]
    by: Option<String>,
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand, Debug)]
pub enum LedgerCmd {
    /// Walk the hash chain; name the first broken record.
    Verify,
}

pub async fn session(args: SessionArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let request = SessionRequest {
        ctx: Some(opts.context()),
        action: args.action,
        value: args.value.unwrap_or_default(),
        session_id: String::new(),
    };
    let out =
        backend.memory().session(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?.into_inner();
    println!("{}", out.text);
    Ok(())
}

pub async fn knowledge(cmd: KnowledgeCmd, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let mut request = KnowledgeRequest { ctx: Some(opts.context()), ..Default::default() };
    match cmd {
        KnowledgeCmd::Remember { key, value, category, confidence } => {
            request.action = "remember".into();
            (request.key, request.value, request.category, request.confidence) = (key, value, category, confidence);
        }
        KnowledgeCmd::Recall { query, category, limit } => {
            request.action = "recall".into();
            (request.query, request.category, request.limit) = (query, category.unwrap_or_default(), limit);
        }
        KnowledgeCmd::Forget { key } => (request.action, request.key) = ("forget".into(), key),
        KnowledgeCmd::List { category } => {
            (request.action, request.category) = ("list".into(), category.unwrap_or_default())
        }
        KnowledgeCmd::History { key } => (request.action, request.key) = ("history".into(), key),
    }
    let out =
        backend.memory().knowledge(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?.into_inner();
    println!("{}", out.text);
    Ok(())
}

pub async fn gain(args: GainArgs, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let period = if args.today {
        "today"
    } else if args.week {
        "week"
    } else {
        "all"
    };
    let request = GainRequest {
        ctx: Some(opts.context()),
        period: period.into(),
        group_by: args.by.unwrap_or_else(|| "none".into()),
        utc_offset_secs: crate::options::utc_offset_secs(),
    };
    let out = backend.ledger().gain(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?.into_inner();
    if args.json {
        let rows: Vec<_> = out
            .rows
            .iter()
            .map(|r| {
                json!({"key": r.key, "events": r.events, "raw_tokens": r.raw_tokens, "sent_tokens": r.sent_tokens,
                       "saved_tokens": r.saved_tokens, "saved_pct": r.saved_pct})
            })
            .collect();
        println!("{}", json!({"period": period, "rows": rows}));
    } else {
        print_text(&out.text);
    }
    Ok(())
}

pub async fn ledger(cmd: LedgerCmd, opts: &ClientOptions) -> CmdResult {
    let LedgerCmd::Verify = cmd;
    let backend = super::connect(opts).await?;
    let out = backend
        .ledger()
        .verify(tonic::Request::new(VerifyRequest { ctx: Some(opts.context()) }))
        .await
        .map_err(|s| backend.explain(&s))?
        .into_inner();
    if out.ok {
        println!("ledger ok: {} records, chain intact", out.records);
        Ok(())
    } else {
        Err(format!("ledger broken at record {}: {}", out.broken_id, out.reason))
    }
}

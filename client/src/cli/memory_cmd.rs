//! `lctx session`, `lctx knowledge`, `lctx gain`, `lctx ledger verify`:
//! adapters over [`capability::memory`] and [`capability::gain`].

use clap::{Args, Subcommand};
use lean_ctx_proto::v1::{GainPeriod, KnowledgeAction, SessionAction};

use super::{Exit, Failure, emit, failure};
use crate::capability::{self, gain, memory};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct SessionArgs {
    /// status | task | finding | decision | next | list | load | handoff
    action: String,
    /// The text for task, finding, decision and next; for status, load and handoff, the session to
    /// show (default: yours for status and handoff, the latest other one for load).
    value: Option<String>,
    /// With list: at most this many sessions, newest first (default 20); with handoff or load: at most this
    /// many items of each list (default 10). The answer says how many it left out.
    #[arg(short = 'n', long, value_parser = clap::value_parser!(u32).range(1..))]
    limit: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

#[derive(Subcommand, Debug)]
pub enum KnowledgeCmd {
    /// Store a fact; a new value for a key supersedes the old one (kept in history).
    Remember {
        /// A short name for the fact, unique in the project.
        key: String,
        /// The fact itself.
        value: String,
        /// A group for the fact (build, style, …); default: the fact's current one, `general` for a new key.
        #[arg(short, long)]
        category: Option<String>,
        /// How sure you are, 0 to 1; default: the fact's current confidence, 0.8 for a new key.
        #[arg(long, value_parser = confidence)]
        confidence: Option<f64>,
    },
    /// Find facts by free text, best first.
    Recall {
        /// Words to look for.
        query: String,
        /// Only facts of this category.
        #[arg(short, long)]
        category: Option<String>,
        /// At most this many facts.
        #[arg(short = 'n', long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        limit: u32,
    },
    /// Retire a fact (its history is kept).
    Forget {
        /// The fact's key.
        key: String,
    },
    /// Current facts of this project.
    List {
        /// Only facts of this category.
        #[arg(short, long)]
        category: Option<String>,
        /// At most this many facts (default 20); the answer says how many it left out.
        #[arg(short = 'n', long, value_parser = clap::value_parser!(u32).range(1..))]
        limit: Option<u32>,
    },
    /// Every value a key has had.
    History {
        /// The fact's key.
        key: String,
    },
}

#[derive(Args, Debug)]
pub struct GainArgs {
    /// Only today (your local day).
    #[arg(long, conflicts_with_all = ["week", "all"])]
    today: bool,
    /// The last seven days.
    #[arg(long, conflicts_with = "all")]
    week: bool,
    /// Everything recorded (the default).
    #[arg(long)]
    all: bool,
    /// tool | mode | family | project
    #[arg(long, value_name = "DIMENSION")]
    by: Option<String>,
    /// A bar chart of the saving of each of the last days (see --days).
    #[arg(long, conflicts_with_all = ["today", "week", "all", "by"])]
    daily: bool,
    /// How many days --daily shows, ending today (default 14, at most 366).
    #[arg(long, value_name = "N", requires = "daily", value_parser = clap::value_parser!(u32).range(1..=366))]
    days: Option<u32>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand, Debug)]
pub enum LedgerCmd {
    /// Walk the hash chain; name the first broken record.
    Verify {
        /// Machine-readable output (docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

/// A confidence is a number from 0 to 1; anything else is a usage error.
fn confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("`{text}` is not a confidence; give a number from 0 to 1")),
    }
}

pub async fn session(args: SessionArgs, opts: &ClientOptions) -> Exit {
    let action = memory::parse_session_action(&args.action).map_err(super::usage)?;
    let limited = matches!(action, SessionAction::List | SessionAction::Handoff | SessionAction::Load);
    if args.limit.is_some() && !limited {
        return Err(Failure::Usage("--limit belongs to `lctx session list`, `handoff` and `load`".into()));
    }
    let value = args.value.unwrap_or_default();
    // status, load and handoff take no text: their VALUE names the session to show.
    let (value, session_id) = match action {
        SessionAction::Status | SessionAction::Load | SessionAction::Handoff => (String::new(), value),
        _ => (value, String::new()),
    };
    refused(args.action.trim(), action, &value, &session_id, &opts.session_id).map_err(Failure::Usage)?;
    let session = memory::SessionArgs { action, value, session_id, limit: args.limit.unwrap_or(0) };
    let backend = super::connect(opts).await?;
    let answer = memory::session(&backend, opts.context(), session).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

/// Why `lctx session ACTION` makes no request, said with the CLI's own names: a note without its
/// text, a VALUE `list` has no use for, or no session when no VALUE, `--session` or
/// `$LEAN_CTX_SESSION` names one.
fn refused(name: &str, action: SessionAction, text: &str, shown: &str, session: &str) -> Result<(), String> {
    let writes =
        matches!(action, SessionAction::Task | SessionAction::Finding | SessionAction::Decision | SessionAction::Next);
    if writes && text.trim().is_empty() {
        return Err(format!("`lctx session {name}` needs its text: lctx session {name} TEXT"));
    }
    if action == SessionAction::List && !text.trim().is_empty() {
        return Err(format!("`lctx session list` takes no VALUE (`{text}`): it lists this project's sessions"));
    }
    let reads_one = matches!(action, SessionAction::Status | SessionAction::Handoff);
    if (writes || reads_one) && shown.trim().is_empty() && session.trim().is_empty() {
        let named = if reads_one { format!("name one (`lctx session {name} ID`), ") } else { String::new() };
        return Err(format!(
            "`lctx session {name}` needs a session: {named}pass --session ID or set LEAN_CTX_SESSION; \
             `lctx session list` shows this project's sessions"
        ));
    }
    Ok(())
}

pub async fn knowledge(cmd: KnowledgeCmd, opts: &ClientOptions) -> Exit {
    let mut args = memory::KnowledgeArgs {
        action: KnowledgeAction::List,
        category: String::new(),
        key: String::new(),
        value: String::new(),
        query: String::new(),
        confidence: None,
        limit: 0,
    };
    match cmd {
        KnowledgeCmd::Remember { key, value, category, confidence } => {
            args.action = KnowledgeAction::Remember;
            (args.key, args.value, args.category, args.confidence) =
                (key, value, category.unwrap_or_default(), confidence);
        }
        KnowledgeCmd::Recall { query, category, limit } => {
            args.action = KnowledgeAction::Recall;
            (args.query, args.category, args.limit) = (query, category.unwrap_or_default(), limit);
        }
        KnowledgeCmd::Forget { key } => (args.action, args.key) = (KnowledgeAction::Forget, key),
        KnowledgeCmd::List { category, limit } => {
            (args.category, args.limit) = (category.unwrap_or_default(), limit.unwrap_or(0));
        }
        KnowledgeCmd::History { key } => (args.action, args.key) = (KnowledgeAction::History, key),
    }
    let backend = super::connect(opts).await?;
    let answer = memory::knowledge(&backend, opts.context(), args).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

pub async fn gain(args: GainArgs, opts: &ClientOptions) -> Exit {
    let period = if args.today {
        GainPeriod::Today
    } else if args.week {
        GainPeriod::Week
    } else {
        GainPeriod::All
    };
    let report = if args.daily {
        gain::Report::Daily { days: args.days.unwrap_or(gain::DEFAULT_DAYS) }
    } else {
        let group_by = gain::parse_group_by("--by", args.by.as_deref().unwrap_or_default()).map_err(super::usage)?;
        gain::Report::Period(period, group_by)
    };
    let backend = super::connect(opts).await?;
    let answer = capability::gain::gain(&backend, opts.context(), report).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, args.json))
}

pub async fn ledger(cmd: LedgerCmd, opts: &ClientOptions) -> Exit {
    let LedgerCmd::Verify { json } = cmd;
    let backend = super::connect(opts).await?;
    let answer = gain::verify(&backend, opts.context()).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, json))
}

//! The engine's error: a kind that maps onto a gRPC status code, and a
//! message that tells the user what to do.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    FailedPrecondition,
    /// Busy right now; retrying later may succeed.
    Unavailable,
    /// The caller left (its call was dropped) before the work was done.
    Cancelled,
    /// The work reached its deadline before it was done.
    DeadlineExceeded,
    Internal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub kind: ErrorKind,
    pub message: String,
}

impl EngineError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        EngineError { kind, message: message.into() }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound, message)
    }

    pub fn denied(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::PermissionDenied, message)
    }

    pub fn precondition(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::FailedPrecondition, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

/// A graph question (a ranking, callers) stopped part way because its caller left.
impl From<lean_ctx_graph::Interrupted> for EngineError {
    fn from(_: lean_ctx_graph::Interrupted) -> Self {
        Self::new(ErrorKind::Cancelled, "cancelled by the client: the graph question was left unfinished")
    }
}

pub type EngineResult<T> = Result<T, EngineError>;

//! Engine errors as gRPC statuses.

use tonic::Status;

use crate::engine::error::{EngineError, ErrorKind};

pub fn engine_status(e: EngineError) -> Status {
    let code = match e.kind {
        ErrorKind::InvalidArgument => tonic::Code::InvalidArgument,
        ErrorKind::NotFound => tonic::Code::NotFound,
        ErrorKind::PermissionDenied => tonic::Code::PermissionDenied,
        ErrorKind::ResourceExhausted => tonic::Code::ResourceExhausted,
        ErrorKind::FailedPrecondition => tonic::Code::FailedPrecondition,
        ErrorKind::Unavailable => tonic::Code::Unavailable,
        ErrorKind::Cancelled => tonic::Code::Cancelled,
        ErrorKind::DeadlineExceeded => tonic::Code::DeadlineExceeded,
        ErrorKind::Internal => tonic::Code::Internal,
    };
    Status::new(code, e.message)
}

pub fn missing_context() -> Status {
    Status::invalid_argument("the request carries no RequestContext (ctx); clients must send cwd and session")
}

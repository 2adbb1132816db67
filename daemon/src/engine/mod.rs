//! The engine: every component of lean-ctxd, independent of transport.
//!
//! The gRPC services in `server` are thin mappings onto these methods, and
//! the clients' in-process fallback builds the very same engine, so the
//! daemon and the fallback share one behaviour.

pub mod config;
pub mod paths;
pub mod session;

use config::ConfigStore;
use paths::Dirs;
use session::Sessions;

/// Figures one component reports in Status, as (name, value) pairs.
pub struct ComponentFigures {
    pub name: &'static str,
    pub figures: Vec<(&'static str, String)>,
}

pub struct Engine {
    pub dirs: Dirs,
    pub config: ConfigStore,
    pub sessions: Sessions,
}

impl Engine {
    pub fn new(dirs: Dirs) -> Engine {
        let config = ConfigStore::open(dirs.config_file());
        Engine { dirs, config, sessions: Sessions::default() }
    }

    /// Per-component figures, sorted by component name.
    pub fn components(&self) -> Vec<ComponentFigures> {
        let config_state = match self.config.error() {
            None => "ok".to_string(),
            Some(e) => format!("error: {e} (serving the last good configuration)"),
        };
        let config = self.config.get();
        vec![
            ComponentFigures {
                name: "config",
                figures: vec![
                    ("file", self.config.file().display().to_string()),
                    ("state", config_state),
                    ("idle_timeout_secs", config.idle_timeout_secs.to_string()),
                ],
            },
            ComponentFigures { name: "sessions", figures: vec![("active", self.sessions.active().to_string())] },
        ]
    }
}

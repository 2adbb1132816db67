//! A temporary project with its own engine, shared by the engine-level
//! tests. Each test file uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use lean_ctxd::engine::edit::{EditOutcome, EditParams};
use lean_ctxd::engine::error::EngineError;
use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::read::{ReadParams, View};
use lean_ctxd::engine::{Caller, Engine};

pub struct Project {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub engine: Engine,
}

impl Project {
    pub fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("proj/.git")).unwrap();
        let root = dir.path().join("proj").canonicalize().unwrap();
        let engine = Engine::new(Dirs::under(&dir.path().join("home")));
        Project { _dir: dir, root, engine }
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.root.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    pub fn text(&self, name: &str) -> String {
        std::fs::read_to_string(self.root.join(name)).unwrap()
    }

    pub fn caller<'a>(&'a self, session: &'a str) -> Caller<'a> {
        Caller { cwd: self.root.to_str().unwrap(), session, agent: "test", ..Caller::default() }
    }

    pub fn project(&self) -> String {
        self.root.display().to_string()
    }

    pub fn read(&self, session: &str, path: &str, mode: &str, fresh: bool) -> View {
        self.try_read(session, path, mode, fresh).unwrap()
    }

    pub fn try_read(&self, session: &str, path: &str, mode: &str, fresh: bool) -> Result<View, EngineError> {
        let params = ReadParams { paths: vec![path.into()], mode: mode.into(), fresh, ..Default::default() };
        self.read_with(session, &params)
    }

    pub fn read_with(&self, session: &str, params: &ReadParams) -> Result<View, EngineError> {
        let mut views = self.engine.read(&self.caller(session), params)?;
        views.remove(0)
    }

    pub fn edit(&self, session: &str, path: &str, old: &str, new: &str) -> Result<EditOutcome, EngineError> {
        let params =
            EditParams { path: path.into(), old_string: old.into(), new_string: new.into(), ..EditParams::default() };
        self.engine.edit(&self.caller(session), &params)
    }
}

/// A small deterministic generator, so a failing sequence can be replayed
/// from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `lines` one-line Rust functions whose values depend on `version`.
pub fn code(version: usize, lines: usize) -> String {
    (0..lines).map(|i| format!("fn item_{i}() -> u32 {{ {} }}\n", (i * 7 + version) % 1000)).collect()
}

/// Changes one byte and restores the mtime: same size, same mtime,
/// different content.
pub fn change_in_place(path: &Path) {
    let mtime = std::fs::metadata(path).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    let i = bytes.iter().position(u8::is_ascii_digit).unwrap();
    bytes[i] = if bytes[i] == b'9' { b'0' } else { bytes[i] + 1 };
    std::fs::write(path, &bytes).unwrap();
    std::fs::File::options().write(true).open(path).unwrap().set_modified(mtime).unwrap();
}

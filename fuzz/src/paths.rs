//! `paths`: how the engine resolves request paths (`Scope` of
//! `daemon/src/engine/project.rs`) and opens them (`open_confined` of
//! `common/src/confined.rs`), against a project with symlinks into and out
//! of it and a symlink loop.
//!
//! Input: one byte choosing the request's cwd (the project root or a
//! directory in it), then the path as given by a client.
//!
//! Beyond "no panic": whatever is resolved or opened lies in the project.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use lean_ctx_common::confined::open_confined;
use lean_ctxd::engine::project::Scope;

static ROOT: LazyLock<PathBuf> = LazyLock::new(|| crate::sandbox::project(&crate::sandbox::dir("paths")));

const CWDS: [&str; 3] = ["", "src", "src/sub"];

pub fn run(data: &[u8]) {
    let Some((&choice, input)) = data.split_first() else { return };
    let root = &*ROOT;
    let cwd = root.join(CWDS[usize::from(choice) % CWDS.len()]);
    let cwd = cwd.to_str().expect("the sandbox path is UTF-8");
    let scope = Scope::new(cwd, None, &[]).expect("the fuzz project is a valid scope");
    assert_eq!(&scope.root, root, "the project root is not the repository");
    let input = String::from_utf8_lossy(input);

    let inside = |what: &str, path: &Path| {
        assert!(path.starts_with(root), "{what}({input:?}) gave {}, outside the project", path.display());
    };
    if let Ok(path) = scope.resolve_existing(&input) {
        inside("resolve_existing", &path);
        if let Ok((_, real)) = open_confined(&path, |p| p.starts_with(root)) {
            inside("open_confined", &real);
        }
    }
    if let Ok(opened) = scope.open_existing(&input) {
        inside("open_existing", &opened.path);
        inside("open_existing (real)", &opened.real);
    }
    if let Ok(path) = scope.resolve_new(&input) {
        inside("resolve_new", &path);
    }
    if let Ok(dir) = scope.workdir(&input) {
        inside("workdir", &dir);
    }
    if let Ok(dir) = scope.index_root(&input) {
        inside("index_root", &dir);
    }
    // A name as given, not canonical: open_confined must still refuse what
    // lies outside, whatever the name goes through.
    if !input.contains('\0')
        && let Ok((_, real)) = open_confined(&Path::new(cwd).join(&*input), |p| p.starts_with(root))
    {
        inside("open_confined (as given)", &real);
    }
}

//! `host_config`: `lctx setup`'s edits of the hosts' JSONC, TOML and YAML
//! files (`common/src/jsonc.rs`, `client/src/setup/toml_hosts.rs`, `yaml/`), through
//! the public `plan` on a file holding the fuzzer's text.
//!
//! Input: one byte choosing the host and scope, then the file's content.
//!
//! Beyond "no panic": an install followed by an install changes nothing and
//! finds our entry; a removal followed by a removal changes nothing and
//! finds none.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use lctx::setup::{self, Action, Env, HOSTS, Scope};

struct World {
    env: Env,
    mcp: PathBuf,
}

static WORLD: LazyLock<World> = LazyLock::new(|| {
    let dir = crate::sandbox::dir("host-config");
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).expect("cannot create the fuzz project");
    std::fs::write(project.join(".git/HEAD"), "ref: refs/heads/main\n").expect("cannot write the fuzz project");
    let env = Env::plain(dir.join("home"), project);
    World { env, mcp: dir.join("bin/lctx-mcp") }
});

pub fn run(data: &[u8]) {
    let Some((&choice, content)) = data.split_first() else { return };
    let host = &HOSTS[usize::from(choice) % HOSTS.len()];
    let scope = if choice >= 128 { Scope::Project } else { Scope::User };
    let world = &*WORLD;
    let Ok(file) = setup::config_file(host, &world.env, scope) else { return };
    write(&file, content);
    let install = Action::Install(&world.mcp);

    if let Ok(plan) = setup::plan(host, &world.env, scope, install)
        && let Some(after) = &plan.after
    {
        write(&file, after.as_bytes());
        let again = setup::plan(host, &world.env, scope, install).expect("an installed file does not parse");
        assert!(again.after.is_none(), "{}: a second install changes the file again:\n{}", host.id, again.diff());
        assert!(again.previous.is_some(), "{}: the installed entry is not found", host.id);
    }
    write(&file, content);
    if let Ok(plan) = setup::plan(host, &world.env, scope, Action::Remove)
        && let Some(after) = &plan.after
    {
        write(&file, after.as_bytes());
        let again = setup::plan(host, &world.env, scope, Action::Remove).expect("a file after removal does not parse");
        assert!(again.after.is_none(), "{}: a second removal changes the file again:\n{}", host.id, again.diff());
        assert!(again.previous.is_none(), "{}: the removed entry is still found", host.id);
    }
}

fn write(file: &Path, content: &[u8]) {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).expect("cannot create the host's config dir");
    }
    std::fs::write(file, content).expect("cannot write the host's config file");
}

//! Read-only roots: dependency and toolchain sources outside the project
//! that an agent may read (to follow a definition into a crate, a Go module,
//! a Python package) but never edit.
//!
//! Found without running anything (no `python`, `go env` or `npm prefix`):
//! - cargo: `$CARGO_HOME/registry` and `$CARGO_HOME/git` (default `~/.cargo`);
//! - rustup: `$RUSTUP_HOME/toolchains/*/lib/rustlib/src` (default `~/.rustup`);
//! - Go: `$GOMODCACHE`, else the first `$GOPATH` entry's `pkg/mod`, else
//!   `~/go/pkg/mod`; and `$GOROOT/src` when `GOROOT` is set;
//! - Python: the active environment's `lib/python*/site-packages`
//!   (`$VIRTUAL_ENV`, `$CONDA_PREFIX`); with none active, the user's
//!   `~/.local/lib/python*/site-packages`, `/usr/lib/python3/dist-packages`
//!   and `/usr/local/lib/python3*/{dist,site}-packages`;
//! - npm's global packages: `$NPM_CONFIG_PREFIX/lib/node_modules`,
//!   `~/.npm-global/lib/node_modules`, `/usr/local/lib/node_modules`,
//!   `/usr/lib/node_modules`;
//! - `configured` (lean-ctx's `read_only_paths`), `~` expanded.
//!
//! Only existing directories are kept, canonicalized, deduplicated and
//! sorted. Empty or relative environment values and configured paths are
//! ignored. `/`, the home directory and any directory holding it are
//! dropped whatever asks for them: making them read-only roots would open
//! every file of the user to reading.

use std::fs;
use std::path::{Path, PathBuf};

/// Directories of dependency and toolchain sources that may be read without
/// `allow_paths` and are never editable. `env` looks up environment
/// variables (injected for tests).
pub fn read_only_roots(home: &Path, env: &dyn Fn(&str) -> Option<String>, configured: &[String]) -> Vec<PathBuf> {
    collect(home, env, configured, Path::new("/"))
}

/// [`read_only_roots`] with the system directories (`/usr/…`) under `system`.
fn collect(home: &Path, env: &dyn Fn(&str) -> Option<String>, configured: &[String], system: &Path) -> Vec<PathBuf> {
    let var = |name: &str| env(name).map(PathBuf::from).filter(|path| path.is_absolute());
    let mut candidates = Vec::new();

    let cargo = var("CARGO_HOME").unwrap_or_else(|| home.join(".cargo"));
    candidates.push(cargo.join("registry"));
    candidates.push(cargo.join("git"));
    let rustup = var("RUSTUP_HOME").unwrap_or_else(|| home.join(".rustup"));
    candidates.extend(subdirs(&rustup.join("toolchains"), "").map(|toolchain| toolchain.join("lib/rustlib/src")));

    let gopath = env("GOPATH")
        .and_then(|list| list.split(':').map(PathBuf::from).find(|path| path.is_absolute()))
        .map(|gopath| gopath.join("pkg/mod"));
    candidates.push(var("GOMODCACHE").or(gopath).unwrap_or_else(|| home.join("go/pkg/mod")));
    candidates.extend(var("GOROOT").map(|goroot| goroot.join("src")));

    let environments: Vec<PathBuf> = ["VIRTUAL_ENV", "CONDA_PREFIX"].into_iter().filter_map(var).collect();
    if environments.is_empty() {
        candidates.extend(python_packages(&home.join(".local/lib"), "python", "site-packages"));
        candidates.push(system.join("usr/lib/python3/dist-packages"));
        for packages in ["dist-packages", "site-packages"] {
            candidates.extend(python_packages(&system.join("usr/local/lib"), "python3", packages));
        }
    } else {
        for environment in environments {
            candidates.extend(python_packages(&environment.join("lib"), "python", "site-packages"));
        }
    }

    for name in ["NPM_CONFIG_PREFIX", "npm_config_prefix"] {
        candidates.extend(var(name).map(|prefix| prefix.join("lib/node_modules")));
    }
    candidates.push(home.join(".npm-global/lib/node_modules"));
    candidates.push(system.join("usr/local/lib/node_modules"));
    candidates.push(system.join("usr/lib/node_modules"));

    for path in configured {
        let path = path.trim();
        let expanded = match path.strip_prefix('~') {
            Some("") => home.to_path_buf(),
            Some(rest) if rest.starts_with('/') => home.join(rest.trim_start_matches('/')),
            _ => PathBuf::from(path),
        };
        if expanded.is_absolute() {
            candidates.push(expanded);
        }
    }

    let home = fs::canonicalize(home).unwrap_or_else(|_| home.to_path_buf());
    let mut roots: Vec<PathBuf> = candidates
        .into_iter()
        .filter_map(|candidate| fs::canonicalize(candidate).ok())
        .filter(|root| root.is_dir() && !home.starts_with(root))
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

/// `<lib>/<prefix>*/<packages>` for each `<prefix>*` directory in `lib`.
fn python_packages<'a>(lib: &Path, prefix: &'a str, packages: &'a str) -> impl Iterator<Item = PathBuf> + 'a {
    subdirs(lib, prefix).map(move |version| version.join(packages))
}

/// The entries of `dir` whose names start with `prefix`, sorted.
fn subdirs<'a>(dir: &Path, prefix: &'a str) -> impl Iterator<Item = PathBuf> + 'a {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(prefix))
        .map(|entry| entry.path())
        .collect();
    entries.sort();
    entries.into_iter()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    struct Machine {
        _dir: tempfile::TempDir,
        base: PathBuf,
        home: PathBuf,
        system: PathBuf,
    }

    impl Machine {
        fn new() -> Machine {
            let dir = tempfile::tempdir().unwrap();
            let base = dir.path().canonicalize().unwrap();
            let home = base.join("home/me");
            let system = base.join("sys");
            fs::create_dir_all(&home).unwrap();
            fs::create_dir_all(&system).unwrap();
            Machine { _dir: dir, base, home, system }
        }

        fn dir(&self, path: &Path) -> PathBuf {
            fs::create_dir_all(path).unwrap();
            path.to_path_buf()
        }

        fn roots(&self, vars: &[(&str, String)], configured: &[&str]) -> Vec<PathBuf> {
            let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            let env = move |name: &str| vars.get(name).cloned();
            let configured: Vec<String> = configured.iter().map(|s| s.to_string()).collect();
            collect(&self.home, &env, &configured, &self.system)
        }
    }

    #[test]
    fn defaults_under_home_and_system() {
        let m = Machine::new();
        let mut expected = vec![
            m.dir(&m.home.join(".cargo/registry")),
            m.dir(&m.home.join(".cargo/git")),
            m.dir(&m.home.join(".rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src")),
            m.dir(&m.home.join(".rustup/toolchains/nightly/lib/rustlib/src")),
            m.dir(&m.home.join("go/pkg/mod")),
            m.dir(&m.home.join(".local/lib/python3.12/site-packages")),
            m.dir(&m.system.join("usr/lib/python3/dist-packages")),
            m.dir(&m.system.join("usr/local/lib/python3.11/dist-packages")),
            m.dir(&m.system.join("usr/local/lib/python3.11/site-packages")),
            m.dir(&m.home.join(".npm-global/lib/node_modules")),
            m.dir(&m.system.join("usr/local/lib/node_modules")),
            m.dir(&m.system.join("usr/lib/node_modules")),
        ];
        // Present but not sources: not roots.
        m.dir(&m.home.join(".rustup/toolchains/broken"));
        m.dir(&m.home.join(".cargo/bin"));
        m.dir(&m.system.join("usr/local/lib/perl5/site-packages"));
        expected.sort();
        assert_eq!(m.roots(&[], &[]), expected);
    }

    #[test]
    fn environment_variables_take_over() {
        let m = Machine::new();
        let cargo = m.base.join("opt/cargo");
        let rustup = m.base.join("opt/rustup");
        let venv = m.base.join("work/.venv");
        let conda = m.base.join("conda/envs/ml");
        let npm = m.base.join("opt/npm");
        let goroot = m.base.join("usr/local/go");
        let gopath = m.base.join("gopath");
        let mut expected = vec![
            m.dir(&cargo.join("registry")),
            m.dir(&rustup.join("toolchains/1.89/lib/rustlib/src")),
            m.dir(&gopath.join("pkg/mod")),
            m.dir(&goroot.join("src")),
            m.dir(&venv.join("lib/python3.12/site-packages")),
            m.dir(&conda.join("lib/python3.10/site-packages")),
            m.dir(&npm.join("lib/node_modules")),
        ];
        // Defaults that the variables replace, and user packages outside the active environment.
        m.dir(&m.home.join(".cargo/registry"));
        m.dir(&m.home.join("go/pkg/mod"));
        m.dir(&m.home.join(".local/lib/python3.12/site-packages"));
        m.dir(&m.system.join("usr/lib/python3/dist-packages"));
        expected.sort();
        let vars = [
            ("CARGO_HOME", cargo.display().to_string()),
            ("RUSTUP_HOME", rustup.display().to_string()),
            ("GOPATH", format!("relative/ignored:{}:{}/second", gopath.display(), m.base.display())),
            ("GOROOT", goroot.display().to_string()),
            ("VIRTUAL_ENV", venv.display().to_string()),
            ("CONDA_PREFIX", conda.display().to_string()),
            ("NPM_CONFIG_PREFIX", npm.display().to_string()),
        ];
        assert_eq!(m.roots(&vars, &[]), expected);
        // GOMODCACHE wins over GOPATH.
        let cache = m.dir(&m.base.join("modcache"));
        let roots = m.roots(&[("GOMODCACHE", cache.display().to_string()), vars[2].clone()], &[]);
        assert!(roots.contains(&cache) && !roots.contains(&gopath.join("pkg/mod")));
    }

    #[test]
    fn empty_and_relative_variables_are_ignored() {
        let m = Machine::new();
        let registry = m.dir(&m.home.join(".cargo/registry"));
        let roots = m.roots(&[("CARGO_HOME", String::new()), ("VIRTUAL_ENV", "venv".to_string())], &[]);
        assert_eq!(roots, [registry]);
    }

    #[test]
    fn configured_paths_with_tilde_symlinks_deduplicated() {
        let m = Machine::new();
        let vendor = m.dir(&m.home.join("src/vendor"));
        let shared = m.dir(&m.base.join("shared/lib"));
        std::os::unix::fs::symlink(&shared, m.home.join("link")).unwrap();
        let roots =
            m.roots(&[], &["~/src/vendor", &shared.display().to_string(), "~/link", "~/missing", "relative/dir", ""]);
        assert_eq!(roots, [vendor, shared]);
    }

    #[test]
    fn root_home_and_its_parents_are_never_roots() {
        let m = Machine::new();
        let parent = m.home.parent().unwrap().display().to_string();
        let roots = m.roots(&[("CARGO_HOME", "/".to_string())], &["/", "~", "~/", &parent, "/.."]);
        assert!(roots.is_empty(), "{roots:?}");
        assert!(read_only_roots(&m.home, &|_| None, &["/".to_string()]).iter().all(|root| root != Path::new("/")));
    }
}

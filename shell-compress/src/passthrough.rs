//! Interactive programs and servers: their output is not a result to compress, so it is returned untouched.

use crate::detect::{has_flag, has_short};
use crate::family::{Families, Family};

/// Never compressed: `compress` returns the output before any rule runs.
pub(crate) static PASSTHROUGH: Family = Family::new("passthrough", "vim src/main.rs", |_, _| {});

/// Programs that are interactive or run until stopped, as programs or in some modes; the modules of tools
/// with watch modes (`jest --watch`, `cargo watch`) answer passthrough for those themselves.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        let first_arg = args.first().map(String::as_str);
        let interactive = match program {
            "tail" => has_flag(args, &["-f", "-F", "--follow"]),
            "journalctl" => has_flag(args, &["-f", "--follow"]),
            "dmesg" => has_flag(args, &["-w", "--follow"]),
            "ping" => !has_short(args, 'c'),
            "node" | "deno" | "irb" | "lua" | "ruby" | "R" | "julia" if args.is_empty() => true,
            "php" => args.is_empty() || has_flag(args, &["-S", "-a"]),
            "flask" => first_arg == Some("run"),
            "rails" => matches!(first_arg, Some("s" | "server" | "c" | "console")),
            "vite" => matches!(first_arg, None | Some("dev" | "serve" | "preview")),
            "next" | "nuxt" | "astro" => matches!(first_arg, Some("dev" | "start" | "preview")),
            "hugo" | "jekyll" | "ng" | "webpack" => matches!(first_arg, Some("server" | "serve")),
            name => is_interactive(name),
        };
        interactive.then_some(&PASSTHROUGH)
    },
    members: &[&PASSTHROUGH],
};

/// Programs that take over the terminal or run until stopped: their output is not a result to compress.
fn is_interactive(name: &str) -> bool {
    matches!(
        name,
        "vim"
            | "vi"
            | "nvim"
            | "view"
            | "nano"
            | "pico"
            | "emacs"
            | "micro"
            | "hx"
            | "helix"
            | "joe"
            | "less"
            | "more"
            | "most"
            | "man"
            | "info"
            | "top"
            | "htop"
            | "btop"
            | "atop"
            | "iotop"
            | "nvtop"
            | "glances"
            | "watch"
            | "ssh"
            | "mosh"
            | "telnet"
            | "ftp"
            | "sftp"
            | "tmux"
            | "screen"
            | "zellij"
            | "psql"
            | "mysql"
            | "mariadb"
            | "sqlite3"
            | "redis-cli"
            | "mongo"
            | "mongosh"
            | "ipython"
            | "bpython"
            | "ptpython"
            | "ghci"
            | "iex"
            | "erl"
            | "pry"
            | "fzf"
            | "lazygit"
            | "tig"
            | "nnn"
            | "ranger"
            | "mc"
            | "vifm"
            | "ncdu"
            | "gdb"
            | "lldb"
            | "nodemon"
            | "uvicorn"
            | "gunicorn"
            | "hypercorn"
            | "http-server"
            | "live-server"
            | "serve"
            | "webpack-dev-server"
    )
}

//! Shell completions and man pages, generated from a program's clap
//! definition so they can never list a command or flag the program lacks.
//! `lctx` and `lctx-shell` both offer them (`completions`, `man`).

use std::path::Path;

use clap::ValueEnum;

/// The shells completions are generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

impl Shell {
    pub fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
        }
    }
}

/// The completion script of `cmd` for `shell`.
pub fn completions(mut cmd: clap::Command, shell: Shell) -> String {
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    match shell {
        Shell::Bash => clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, name, &mut script),
        Shell::Zsh => clap_complete::generate(clap_complete::Shell::Zsh, &mut cmd, name, &mut script),
        Shell::Fish => clap_complete::generate(clap_complete::Shell::Fish, &mut cmd, name, &mut script),
    }
    String::from_utf8_lossy(&script).into_owned()
}

/// The man page of `cmd` itself (section 1), as roff.
pub fn man_page(cmd: clap::Command) -> Result<String, String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page).map_err(|e| format!("cannot render the man page: {e}"))?;
    Ok(String::from_utf8_lossy(&page).into_owned())
}

/// Writes one page per command and subcommand into `dir` (`lctx.1`,
/// `lctx-read.1`, `lctx-knowledge-remember.1`, …), creating it, and returns
/// how many pages it wrote.
pub fn man_pages(cmd: clap::Command, dir: &Path) -> Result<usize, String> {
    fn write(cmd: &clap::Command, dir: &Path, written: &mut usize) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            write(sub, dir, written)?;
        }
        clap_mangen::Man::new(cmd.clone()).generate_to(dir)?;
        *written += 1;
        Ok(())
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Built, every subcommand knows its full name (`lctx-knowledge-remember`),
    // which names its page; `help` is no command of its own.
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut written = 0;
    write(&cmd, dir, &mut written).map_err(|e| format!("cannot write the man pages to {}: {e}", dir.display()))?;
    Ok(written)
}

/// Prints completions or man pages: what `lctx completions`/`lctx man` and
/// their `lctx-shell` twins do.
pub fn print(cmd: clap::Command, what: Generate) -> Result<(), String> {
    match what {
        Generate::Completions { shell } => crate::out!("{}", completions(cmd, shell)),
        Generate::Man { dir: None } => crate::out!("{}", man_page(cmd)?),
        Generate::Man { dir: Some(dir) } => {
            let name = cmd.get_name().to_string();
            let count = man_pages(cmd, &dir)?;
            crate::outln!("wrote {count} man pages ({name}.1 and one per subcommand) to {}", dir.display());
        }
    }
    Ok(())
}

/// The two generating subcommands, flattened into a program's own.
#[derive(clap::Subcommand, Debug)]
pub enum Generate {
    /// Print the completion script for bash, zsh or fish (bash: save it as ~/.local/share/bash-completion/completions/NAME).
    Completions {
        /// The shell the script is for.
        shell: Shell,
    },
    /// Print the man page, or with --dir write one page per subcommand there.
    Man {
        /// Write NAME.1 and NAME-SUBCOMMAND.1 pages into this directory instead of printing.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

//! What a command of a line sets for the commands after it (a variable's
//! value, the working directory), seen as the shell sees it: only by the
//! later commands running in the same environment or one nested in it
//! (not after a subshell, a substitution, a pipeline's stage or a list in
//! the background that set it has ended), and for certain only when the
//! command setting it could not be skipped (`&&`, `||`, `if`…). See
//! [`lean_ctx_shell_syntax::Command::env`].

/// Where a command runs: its environment chain and whether it may be skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) env: Vec<u32>,
    pub(crate) conditional: bool,
}

impl Place {
    /// Whether what a command at `self` sets is seen by one running in `env`.
    fn seen_in(&self, env: &[u32]) -> bool {
        env.starts_with(&self.env)
    }
}

/// The settings of one thing along a line, in order.
#[derive(Debug)]
pub(crate) struct Settings<T> {
    sets: Vec<Set<T>>,
}

#[derive(Debug)]
struct Set<T> {
    place: Place,
    value: T,
}

/// The last setting a command sees.
pub(crate) struct Seen<'a, T> {
    pub(crate) value: &'a T,
    /// The command setting it could not be skipped; else the value is this
    /// one or one before it.
    pub(crate) certain: bool,
}

impl<T> Default for Settings<T> {
    fn default() -> Self {
        Settings { sets: Vec::new() }
    }
}

impl<T> Settings<T> {
    /// Notes a setting made by a command at `place`. Settings made in
    /// environments that this command is outside of have ended with them:
    /// no later command sees them, so they are dropped, and the ones kept
    /// each enclose the next.
    pub(crate) fn set(&mut self, place: &Place, value: T) {
        while self.sets.last().is_some_and(|set| !set.place.seen_in(&place.env)) {
            self.sets.pop();
        }
        self.sets.push(Set { place: place.clone(), value });
    }

    /// The last setting a command running in `env` sees, if any.
    pub(crate) fn seen(&self, env: &[u32]) -> Option<Seen<'_, T>> {
        let set = self.sets.iter().rev().find(|set| set.place.seen_in(env))?;
        Some(Seen { value: &set.value, certain: !set.place.conditional })
    }

    /// The settings a command running in `env` sees, the last first: what
    /// the value may be is one of them up to the first certain one, or
    /// what it held before them all.
    pub(crate) fn seen_back(&self, env: &[u32]) -> impl Iterator<Item = Seen<'_, T>> {
        let seen = self.sets.iter().rev().filter(move |set| set.place.seen_in(env));
        seen.map(|set| Seen { value: &set.value, certain: !set.place.conditional })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(env: &[u32], conditional: bool) -> Place {
        Place { env: env.to_vec(), conditional }
    }

    #[test]
    fn a_setting_is_seen_in_its_environment_and_those_nested_in_it() {
        let mut settings = Settings::default();
        settings.set(&at(&[], false), "line");
        settings.set(&at(&[1], false), "subshell");
        let value = |env: &[u32]| settings.seen(env).map(|seen| (*seen.value, seen.certain));
        assert_eq!(value(&[1, 2]), Some(("subshell", true)));
        assert_eq!(value(&[3]), Some(("line", true)));
        assert_eq!(value(&[]), Some(("line", true)));
        settings.set(&at(&[], true), "maybe");
        assert_eq!(settings.seen(&[]).map(|seen| (*seen.value, seen.certain)), Some(("maybe", false)));
        assert_eq!(settings.sets.len(), 2, "the subshell's setting ended with it");
        assert!(Settings::<()>::default().seen(&[]).is_none());
    }
}

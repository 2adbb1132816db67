//! Stopping a long question part way. A ranking resolves every reference of the project and a
//! callers answer every site of a name: seconds on a large project, during which the daemon
//! holds a read of the graph. Whoever asked may leave (an agent's cancelled call); these
//! questions look between steps and stop, keeping nothing of what they did.

/// Says, when asked between steps, whether whoever asked has gone.
#[derive(Clone, Copy)]
pub struct Interrupt<'a>(&'a dyn Fn() -> bool);

/// A question stopped part way: its answer was not worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

fn never() -> bool {
    false
}

impl<'a> Interrupt<'a> {
    /// For a question nobody can leave: a test, a benchmark.
    pub const NEVER: Interrupt<'static> = Interrupt(&never);

    pub fn new(gone: &'a dyn Fn() -> bool) -> Interrupt<'a> {
        Interrupt(gone)
    }

    pub fn check(self) -> Result<(), Interrupted> {
        if (self.0)() { Err(Interrupted) } else { Ok(()) }
    }
}

//! Percentiles over measured durations.

use std::time::Duration;

pub struct Summary {
    pub p50: Duration,
    pub p99: Duration,
    pub min: Duration,
    pub n: usize,
}

/// Nearest-rank percentiles; `samples` must not be empty.
pub fn summarize(mut samples: Vec<Duration>) -> Summary {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1];
    Summary { p50: at(0.50), p99: at(0.99), min: samples[0], n: samples.len() }
}

pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

pub fn us(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

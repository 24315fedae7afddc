//! `--mlir-timing`: wall time per phase, printed in mlir-opt's report layout.

use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Timing {
    phases: Vec<(&'static str, Duration)>,
}

impl Timing {
    /// Adds the time of `f` to phase `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        let d = t.elapsed();
        match self.phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, acc)) => *acc += d,
            None => self.phases.push((name, d)),
        }
        r
    }

    /// The report, with `total` the whole run's wall time ("Rest" is the remainder).
    pub fn report(&self, total: Duration) -> String {
        let t = total.as_secs_f64().max(1e-9);
        let mut s = String::new();
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("                         ... Execution time report ...\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str(&format!("  Total Execution Time: {:.4} seconds\n\n", t));
        s.push_str("  ----Wall Time----  ----Name----\n");
        let mut rest = t;
        for (n, d) in &self.phases {
            let x = d.as_secs_f64();
            rest -= x;
            s.push_str(&format!("  {:8.4} ({:5.1}%)  {}\n", x, 100.0 * x / t, n));
        }
        let rest = rest.max(0.0);
        s.push_str(&format!("  {:8.4} ({:5.1}%)  Rest\n", rest, 100.0 * rest / t));
        s.push_str(&format!("  {:8.4} ({:5.1}%)  Total\n", t, 100.0));
        s
    }
}

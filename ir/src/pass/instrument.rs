//! Instrumentation of a pass pipeline: IR dumps around passes, a timing report
//! (tree or list, in mlir-opt's layout) and per-pass statistics.

use std::time::Duration;

/// Which passes get their IR printed, and how.
#[derive(Clone, Debug, Default)]
pub struct IrPrinting {
    pub before: Vec<String>,
    pub after: Vec<String>,
    pub before_all: bool,
    pub after_all: bool,
    /// Only after passes that changed the IR.
    pub after_change: bool,
    /// After a pass that failed.
    pub after_failure: bool,
    /// Print the whole module rather than the op the pass ran on.
    pub module_scope: bool,
}

impl IrPrinting {
    pub fn wants_before(&self, arg: &str) -> bool {
        self.before_all || self.before.iter().any(|p| p == arg)
    }
    pub fn wants_after(&self, arg: &str) -> bool {
        self.after_all || self.after_change || self.after.iter().any(|p| p == arg)
    }
    pub fn any(&self) -> bool {
        self.before_all || self.after_all || self.after_change || self.after_failure || !self.before.is_empty() || !self.after.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimingDisplay {
    #[default]
    List,
    Tree,
}

/// Wall time per path of names (`["'func.func' Pipeline", "CSE"]`), summed over runs.
#[derive(Default, Debug)]
pub struct PassTiming {
    entries: Vec<(Vec<String>, Duration)>,
}

impl PassTiming {
    /// Adds every entry of `other` (a pipeline's timing) to this report.
    pub fn merge(&mut self, other: &PassTiming) {
        for (p, d) in &other.entries {
            // Leaves only: `add` accumulates into the ancestors again.
            let is_leaf = !other.entries.iter().any(|(q, _)| q.len() > p.len() && q.starts_with(p));
            if is_leaf {
                self.add(p, *d);
            }
        }
    }

    /// Times `f` as the top-level phase `name`.
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let t = std::time::Instant::now();
        let r = f();
        self.add(&[name.to_string()], t.elapsed());
        r
    }

    pub fn add(&mut self, path: &[String], d: Duration) {
        // Every prefix is a node of the tree; add the time to the leaf and its ancestors
        // that are pipelines (they have no time of their own).
        for k in 1..=path.len() {
            let p = &path[..k];
            match self.entries.iter_mut().find(|(q, _)| q.as_slice() == p) {
                Some((_, t)) => *t += d,
                None => self.entries.push((p.to_vec(), d)),
            }
        }
    }

    /// The report, in mlir-opt's layout; `total` is the run's wall time.
    pub fn report(&self, total: Duration, display: TimingDisplay) -> String {
        let t = total.as_secs_f64().max(1e-9);
        let mut s = String::new();
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("                         ... Execution time report ...\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str(&format!("  Total Execution Time: {:.4} seconds\n\n", t));
        s.push_str("  ----Wall Time----  ----Name----\n");
        let line = |s: &mut String, x: f64, indent: usize, name: &str| {
            s.push_str(&format!("  {:8.4} ({:5.1}%)  {}{}\n", x, 100.0 * x / t, "  ".repeat(indent), name));
        };
        let top: f64 = self.entries.iter().filter(|(p, _)| p.len() == 1).map(|(_, d)| d.as_secs_f64()).sum();
        match display {
            TimingDisplay::Tree => {
                // Depth-first in first-seen order.
                fn rec(s: &mut String, entries: &[(Vec<String>, Duration)], prefix: &[String], line: &dyn Fn(&mut String, f64, usize, &str)) {
                    for (p, d) in entries.iter().filter(|(p, _)| p.len() == prefix.len() + 1 && p.starts_with(prefix)) {
                        line(s, d.as_secs_f64(), prefix.len(), p.last().unwrap());
                        rec(s, entries, p, line);
                    }
                }
                rec(&mut s, &self.entries, &[], &line);
            }
            TimingDisplay::List => {
                // Leaves aggregated by name, slowest first.
                let mut agg: Vec<(String, f64)> = vec![];
                for (p, d) in &self.entries {
                    let is_leaf = !self.entries.iter().any(|(q, _)| q.len() > p.len() && q.starts_with(p));
                    if !is_leaf {
                        continue;
                    }
                    let name = p.last().unwrap().clone();
                    match agg.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, x)) => *x += d.as_secs_f64(),
                        None => agg.push((name, d.as_secs_f64())),
                    }
                }
                agg.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
                for (n, x) in agg {
                    line(&mut s, x, 0, &n);
                }
            }
        }
        let rest = (t - top).max(0.0);
        line(&mut s, rest, 0, "Rest");
        line(&mut s, t, 0, "Total");
        s
    }
}

/// Counters of passes, by path of pipeline and pass names.
#[derive(Default, Debug)]
pub struct Statistics {
    current: Vec<(&'static str, &'static str, u64)>,
    report: Vec<(Vec<String>, Vec<(&'static str, &'static str, u64)>)>,
}

impl Statistics {
    pub fn add(&mut self, name: &'static str, desc: &'static str, n: u64) {
        match self.current.iter_mut().find(|(k, _, _)| *k == name) {
            Some((_, _, v)) => *v += n,
            None => self.current.push((name, desc, n)),
        }
    }
    /// Files the counters of the pass that just ran under `path`.
    pub(crate) fn finish_pass(&mut self, path: &[String]) {
        let cur = std::mem::take(&mut self.current);
        match self.report.iter_mut().find(|(p, _)| p.as_slice() == path) {
            Some((_, v)) => {
                for (k, d, n) in cur {
                    match v.iter_mut().find(|(k2, _, _)| *k2 == k) {
                        Some((_, _, m)) => *m += n,
                        None => v.push((k, d, n)),
                    }
                }
            }
            None => self.report.push((path.to_vec(), cur)),
        }
    }
    /// The value of a statistic of the pass at `path` (for tests).
    pub fn get(&self, path: &[&str], name: &str) -> Option<u64> {
        self.report
            .iter()
            .find(|(p, _)| p.len() == path.len() && p.iter().zip(path).all(|(a, b)| a == b))
            .and_then(|(_, v)| v.iter().find(|(k, _, _)| *k == name).map(|x| x.2))
    }
    pub fn is_empty(&self) -> bool {
        self.report.is_empty()
    }

    /// `--mlir-pass-statistics`, in mlir-opt's pipeline display.
    pub fn report(&self) -> String {
        let mut s = String::new();
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("                         ... Pass statistics report ...\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        let mut printed: Vec<Vec<String>> = vec![];
        for (path, stats) in &self.report {
            for k in 1..path.len() {
                let prefix = path[..k].to_vec();
                if !printed.contains(&prefix) {
                    s.push_str(&format!("{}{}\n", "  ".repeat(k - 1), prefix[k - 1]));
                    printed.push(prefix);
                }
            }
            let indent = "  ".repeat(path.len() - 1);
            s.push_str(&format!("{}{}\n", indent, path.last().unwrap()));
            for (name, desc, v) in stats {
                s.push_str(&format!("{}  (S) {} {} - {}\n", indent, v, name, desc));
            }
        }
        s
    }
}

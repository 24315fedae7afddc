//! `npu-run onnx-tests DIR`: ONNX's node tests, each in a child process of
//! its own (a crash or a hang fails that test, not the run), against a
//! manifest of the tests expected to pass, with a markdown report.

use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
pub struct TestArgs {
    /// The node test directory (e.g. ~/.cache/npu/onnx-1.22.0/node).
    dir: PathBuf,
    /// Tests expected to pass, one per line: a listed test that fails fails the run
    /// (without a manifest, any failing test does).
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// Rewrite the manifest with the tests that pass now (and --known-failures with why the others fail).
    #[arg(long = "update-manifest")]
    update_manifest: bool,
    /// With --update-manifest: write every failing test and its reason here.
    #[arg(long = "known-failures")]
    known_failures: Option<PathBuf>,
    /// Only tests whose name contains this (repeatable).
    #[arg(long)]
    filter: Vec<String>,
    /// Only the test of exactly this name (repeatable).
    #[arg(long = "test")]
    tests: Vec<String>,
    /// Seconds one test may take (compile and run); past it the test fails as "timeout".
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Write a markdown report: pass rates per op, then every test's outcome and wall time.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Tests run at once, each in its own process (a crash fails one test, not the run).
    #[arg(short = 'j', default_value_t = 2)]
    jobs: usize,
    /// Print every test's outcome.
    #[arg(short = 'v')]
    verbose: bool,
    /// Run one test in this process and print its outcome (used by the runner).
    #[arg(long, hide = true)]
    single: bool,
    #[arg(short = 'O', default_value_t = 1)]
    opt: usize,
}

fn test_dirs(dir: &Path, filters: &[String], exact: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {}", dir.display(), e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.join("model.onnx").exists())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            (filters.is_empty() || filters.iter().any(|f| n.contains(f.as_str()))) && (exact.is_empty() || exact.iter().any(|t| *t == n))
        })
        .collect();
    v.sort();
    if let Some(t) = exact.iter().find(|t| !v.iter().any(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == t.as_str()))) {
        return Err(format!("no node test named '{}' in {}", t, dir.display()));
    }
    Ok(v)
}

/// Runs one test in a child process (a crash or a hang fails that test, not the
/// run), killed after `timeout` seconds; its last stdout line is `PASS`,
/// `FAIL: ...` or `ERROR: ...`. Returns the outcome and the wall time.
fn run_child(dir: &Path, opt: usize, timeout: f64) -> (crate::node_test::Outcome, f64) {
    use crate::node_test::Outcome;
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return (Outcome::Error(format!("could not find npu-run: {}", e)), 0.0),
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["onnx-tests", "--single", "-O", &opt.to_string()]).arg(dir);
    let deadline = std::time::Duration::try_from_secs_f64(timeout.max(0.0)).unwrap_or(std::time::Duration::MAX);
    let crate::child::Finished { status, stdout, stderr, secs } = match crate::child::run(cmd, deadline) {
        Ok(f) => f,
        Err(e) => return (Outcome::Error(e), 0.0),
    };
    let Some(status) = status else {
        return (Outcome::Error(format!("timeout: still running after {} s", timeout)), secs);
    };
    let line = stdout.lines().last().unwrap_or("").to_string();
    let o = if line == "PASS" {
        Outcome::Pass
    } else if let Some(r) = line.strip_prefix("FAIL: ") {
        Outcome::Fail(r.to_string())
    } else if let Some(r) = line.strip_prefix("ERROR: ") {
        Outcome::Error(r.to_string())
    } else {
        Outcome::Error(format!("crashed ({}): {}", status, stderr.lines().last().unwrap_or("")))
    };
    (o, secs)
}

pub fn run_tests(a: TestArgs) -> Result<bool, String> {
    use crate::node_test::Outcome;
    if a.single {
        let o = crate::node_test::run_node_test(&a.dir, a.opt);
        match o {
            Outcome::Pass => println!("PASS"),
            Outcome::Fail(r) => println!("FAIL: {}", r.replace('\n', " | ")),
            Outcome::Error(r) => println!("ERROR: {}", r.replace('\n', " | ")),
        }
        return Ok(true);
    }
    let dirs = test_dirs(&a.dir, &a.filter, &a.tests)?;
    if dirs.is_empty() {
        return Err(format!("no node tests (directories with model.onnx) in {}", a.dir.display()));
    }
    let manifest: Vec<String> = match &a.manifest {
        Some(p) if p.exists() => std::fs::read_to_string(p)
            .map_err(|e| format!("{}: {}", p.display(), e))?
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.to_string())
            .collect(),
        _ => vec![],
    };
    let name = |i: usize| dirs[i].file_name().unwrap().to_string_lossy().to_string();
    let jobs = a.jobs.max(1);
    let results = std::sync::Mutex::new(Vec::new());
    let progress = std::sync::Mutex::new(TestProgress::new(dirs.len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if i >= dirs.len() {
                    break;
                }
                let (o, secs) = run_child(&dirs[i], a.opt, a.timeout);
                let mut r = results.lock().unwrap();
                r.push((i, o, secs));
                let failed = r.iter().filter(|x| x.1 != Outcome::Pass).count();
                progress.lock().unwrap().finished(&name(i), failed);
            });
        }
    });
    progress.into_inner().unwrap().clear();
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let (mut passed, mut failed) = (0, 0);
    let mut regressions = Vec::new();
    let mut newly = Vec::new();
    let mut per_op: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (i, o, _) in &results {
        let n = name(*i);
        let pass = *o == Outcome::Pass;
        if pass {
            passed += 1;
        } else {
            failed += 1;
        }
        // Failures are named: all of them without a manifest, else the manifest's.
        if a.verbose || (!pass && (a.manifest.is_none() || manifest.contains(&n))) {
            match o {
                Outcome::Pass => println!("PASS  {}", n),
                Outcome::Fail(r) => println!("FAIL  {}: {}", n, r),
                Outcome::Error(r) => println!("ERROR {}: {}", n, r),
            }
        }
        if !pass && manifest.contains(&n) {
            regressions.push(n.clone());
        }
        if pass && !manifest.contains(&n) {
            newly.push(n.clone());
        }
        if a.report.is_some() {
            let e = per_op.entry(crate::node_test::test_op(&dirs[*i])).or_default();
            e.0 += pass as usize;
            e.1 += 1;
        }
    }
    let mut slowest: Vec<(f64, String)> = results.iter().map(|(i, _, t)| (*t, name(*i))).collect();
    slowest.sort_by(|x, y| y.0.total_cmp(&x.0));
    slowest.truncate(10);
    if let Some(p) = &a.report {
        let mut md = String::from("# CPU path: ONNX node tests per op\n\nGenerated by `npu-run onnx-tests DIR --report FILE`; do not edit.\n\n| op | passed | tests | rate |\n|---|---|---|---|\n");
        for (op, (p_, t)) in &per_op {
            md.push_str(&format!("| {} | {} | {} | {:.0}% |\n", op, p_, t, 100.0 * *p_ as f64 / *t as f64));
        }
        md.push_str(&format!("\nTotal: {} of {} ({:.1}%).\n", passed, passed + failed, 100.0 * passed as f64 / (passed + failed) as f64));
        md.push_str("\n## Every test\n\nWall time: compile and run in a child process, with the machine's other work beside it.\n\n| test | outcome | seconds |\n|---|---|---|\n");
        for (i, o, t) in &results {
            let what = match o {
                Outcome::Pass => "pass",
                Outcome::Fail(_) => "wrong result",
                Outcome::Error(r) if r.starts_with("timeout") => "timeout",
                Outcome::Error(_) => "error",
            };
            md.push_str(&format!("| {} | {} | {:.2} |\n", name(*i), what, t));
        }
        driver::write_output(p.to_str().unwrap_or_default(), md.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
    }
    if a.update_manifest {
        if let Some(p) = &a.manifest {
            let mut list: Vec<String> = results.iter().filter(|(_, o, _)| *o == Outcome::Pass).map(|(i, ..)| name(*i)).collect();
            list.sort();
            let text = format!("# ONNX node tests that pass on the CPU path (npu-run onnx-tests --update-manifest).\n{}\n", list.join("\n"));
            driver::write_output(p.to_str().unwrap_or_default(), text.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
        }
        if let Some(p) = &a.known_failures {
            let mut text = String::from("# ONNX node tests the CPU path does not pass yet, and why (npu-run onnx-tests --update-manifest --known-failures).\n");
            for (i, o, _) in &results {
                let why = match o {
                    Outcome::Pass => continue,
                    Outcome::Fail(r) => format!("wrong result: {}", r),
                    Outcome::Error(r) => r.clone(),
                };
                // One line each, without the machine-specific paths.
                let why = why.replace(&format!("{}/", a.dir.display()), "");
                text.push_str(&format!("{}: {}\n", name(*i), why.chars().take(300).collect::<String>()));
            }
            driver::write_output(p.to_str().unwrap_or_default(), text.as_bytes()).map_err(|e| format!("{}: {}", p.display(), e))?;
        }
    } else if !newly.is_empty() && a.manifest.is_some() {
        println!("{} test(s) pass that the manifest does not list (add them with --update-manifest): {}", newly.len(), newly.join(", "));
    }
    if !regressions.is_empty() {
        println!("{} manifest test(s) failed: {}", regressions.len(), regressions.join(", "));
    }
    if results.len() > 1 {
        println!("slowest: {}", slowest.iter().map(|(t, n)| format!("{} {:.1}s", n, t)).collect::<Vec<_>>().join(", "));
    }
    println!("{} passed, {} failed", passed, failed);
    // With a manifest, only its tests must pass; without one, every test run.
    Ok(a.update_manifest || if a.manifest.is_some() { regressions.is_empty() } else { failed == 0 })
}

/// Progress on stderr: a bar with the running test's name on a terminal, else
/// a plain line every ten seconds.
struct TestProgress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    done: usize,
    last_line: Instant,
}

impl TestProgress {
    pub fn new(total: usize) -> TestProgress {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(total as u64);
            b.set_style(indicatif::ProgressStyle::with_template("[{pos}/{len}] {elapsed_precise} {wide_msg}").expect("a valid template"));
            b
        });
        TestProgress { bar, total, done: 0, last_line: Instant::now() }
    }
    pub fn finished(&mut self, name: &str, failed: usize) {
        self.done += 1;
        match &self.bar {
            Some(b) => {
                b.set_position(self.done as u64);
                b.set_message(format!("{} ({} failed)", name, failed));
            }
            None if self.last_line.elapsed().as_secs() >= 10 || self.done == self.total => {
                eprintln!("[{}/{}] {} ({} failed so far)", self.done, self.total, name, failed);
                self.last_line = Instant::now();
            }
            None => {}
        }
    }
    pub fn clear(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

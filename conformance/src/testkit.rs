//! The backend test kit: ONNX's node tests of the ops a backend's capability
//! table claims (`Backend::capabilities`), each run through the backend's
//! `*-run --target NAME,cpu` against ONNX's expected outputs, one named test
//! per case. A vendor's test harness is a few lines (see
//! `examples/vendor-acme/tests/node_tests.rs`); npu16's is
//! `tools/tests/npu_node_tests.rs`. Only tests the CPU path passes are chosen
//! (`test/onnx/cpu-node.manifest`, compiled in), so a failure is the
//! backend's: it took an op it computes wrongly, or its fallback broke the model.

use onnx::ops;
use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The node tests the CPU path passes (the framework's manifest at build time).
const CPU_PASSING: &str = include_str!("../../test/onnx/cpu-node.manifest");

/// Where ONNX's node tests are: `ONNX_NODE_TESTS`, or `scripts/setup.sh`'s
/// download under `NPU_CACHE` (default `~/.cache/npu`).
pub fn onnx_node_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ONNX_NODE_TESTS") {
        return PathBuf::from(d);
    }
    let cache = std::env::var("NPU_CACHE").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/npu"));
    cache.join("onnx-1.22.0/node")
}

/// The node tests the CPU path passes, in the manifest's order.
pub fn cpu_passing() -> Vec<&'static str> {
    CPU_PASSING.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

/// The ops of a node test's model (`onnx.<OpType>`; other domains as `domain.OpType`).
pub fn model_ops(test: &Path) -> Result<Vec<String>, String> {
    let path = test.join("model.onnx");
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let model = onnx_translate::proto::decode_model(bytes::Bytes::from(bytes)).map_err(|e| format!("{}: {}", path.display(), e))?;
    let nodes = model.graph.iter().flat_map(|g| g.node.iter());
    Ok(nodes
        .map(|n| {
            let domain = n.domain.as_deref().filter(|d| !d.is_empty() && *d != "ai.onnx").unwrap_or("onnx");
            format!("{}.{}", domain, n.op_type.as_deref().unwrap_or(""))
        })
        .collect())
}

/// The node tests (among those the CPU path passes) whose every op is one
/// `b` claims, or a Constant: the models the backend could run whole.
pub fn claimed_tests(b: &dyn backend::Backend) -> Result<Vec<String>, String> {
    let claimed: Vec<&str> = b.capabilities().iter().map(|c| c.op).collect();
    if claimed.is_empty() {
        return Err(format!("backend '{}' lists no capabilities (Backend::capabilities)", b.name()));
    }
    let dir = onnx_node_dir();
    let mut out = vec![];
    for t in cpu_passing() {
        let ops = model_ops(&dir.join(t)).map_err(|e| format!("{} (scripts/setup.sh fetches ONNX's node tests)", e))?;
        if !ops.is_empty() && ops.iter().all(|o| o == ops::Constant::NAME || claimed.contains(&o.as_str())) && ops.iter().any(|o| o != ops::Constant::NAME) {
            out.push(t.to_string());
        }
    }
    Ok(out)
}

/// How to run a node test through a backend.
#[derive(Clone, Debug)]
pub struct NodeTestRun {
    /// The vendor's `*-run` (`env!("CARGO_BIN_EXE_acme-run")`).
    pub exe: PathBuf,
    /// The backend list (`acme,cpu`).
    pub target: String,
    /// More flags (npu16 adds `--check-reference`).
    pub args: Vec<String>,
    /// Past this the test fails as a timeout (its process killed).
    pub timeout: Duration,
}

impl NodeTestRun {
    pub fn new(exe: impl Into<PathBuf>, target: &str) -> NodeTestRun {
        NodeTestRun { exe: exe.into(), target: target.to_string(), args: vec![], timeout: Duration::from_secs(60) }
    }

    /// Runs `test` (a node test's folder): the model with its weights bound as
    /// constants (`--bind weights`, so a backend can hold them), compared with
    /// its first data set. Returns the run's stdout; a failure says why, with the output.
    pub fn run(&self, test: &Path) -> Result<String, String> {
        let mut cmd = Command::new(&self.exe);
        cmd.arg(test.join("model.onnx")).args(["--target", &self.target, "--bind", "weights", "--test-data"]).arg(test.join("test_data_set_0")).args(&self.args);
        let crate::child::Finished { status, stdout, stderr, .. } = crate::child::run(cmd, self.timeout)?;
        match status {
            None => Err(format!("timeout: more than {:.0} s", self.timeout.as_secs_f64())),
            Some(s) if s.success() => Ok(stdout),
            Some(_) => Err(format!("fails with --target {}:\n{}\n{}", self.target, stdout, stderr)),
        }
    }

    /// One named trial per test (`<prefix>::<test>`), each also checked by
    /// `check` on the run's stdout (which backend ran what).
    pub fn trials(&self, prefix: &str, tests: &[String], check: fn(&str, &str) -> Result<(), String>) -> Vec<Trial> {
        let dir = onnx_node_dir();
        tests
            .iter()
            .map(|t| {
                let (run, path, name) = (self.clone(), dir.join(t), t.clone());
                Trial::test(format!("{}::{}", prefix, t), move || -> Result<(), Failed> {
                    let stdout = run.run(&path)?;
                    check(&name, &stdout).map_err(Failed::from)
                })
            })
            .collect()
    }
}

/// A `check` for [`NodeTestRun::trials`] that asks nothing more than a pass.
pub fn passes(_test: &str, _stdout: &str) -> Result<(), String> {
    Ok(())
}

/// One trial per case of `b.capability_cases()` (`<prefix>::case::<name>`):
/// the case's model (ONNX text) runs through `exe --target NAME,cpu` and must
/// match the CPU path's outputs, and each of its `op`s must be placed on the
/// backend, or refused with the case's reason code (and so run on the CPU).
pub fn capability_trials(exe: &Path, b: &dyn backend::Backend, prefix: &str) -> Vec<Trial> {
    let name = b.name().to_string();
    b.capability_cases()
        .into_iter()
        .map(|case| {
            let (exe, name) = (exe.to_path_buf(), name.clone());
            Trial::test(format!("{}::case::{}", prefix, case.name), move || run_case(&exe, &name, &case).map_err(Failed::from))
        })
        .collect()
}

fn run_case(exe: &Path, backend: &str, case: &backend::CapabilityCase) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("npu-testkit-{}", std::process::id())).join(backend).join(case.name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
    // A model without a header gets one: IR version 8, the default domain at opset 17.
    let src = if case.model.trim_start().starts_with('<') { case.model.to_string() } else { format!("<ir_version: 8, opset_import: [\"\" : 17]>\n{}", case.model) };
    let model = onnx_translate::text::parse_model(&src).map_err(|e| {
        let (line, col) = onnx_translate::text::line_col(&src, e.pos);
        format!("the case's model does not parse at {}:{}: {}", line, col, e.message)
    })?;
    let path = dir.join("model.onnx");
    std::fs::write(&path, onnx_translate::proto::encode_model(&model)).map_err(|e| e.to_string())?;
    let (cpu, report) = (dir.join("cpu"), dir.join("report.json"));
    let run = |args: &[&std::ffi::OsStr]| -> Result<String, String> {
        let mut cmd = Command::new(exe);
        cmd.arg(&path).args(["--seed", "1", "--bind", "weights"]).args(args);
        let f = crate::child::run(cmd, Duration::from_secs(60))?;
        match f.status {
            Some(s) if s.success() => Ok(f.stdout),
            _ => Err(format!("{} {:?}:\n{}\n{}", exe.display(), args, f.stdout, f.stderr)),
        }
    };
    run(&["--target".as_ref(), "cpu".as_ref(), "--output-dir".as_ref(), cpu.as_os_str()])?;
    let target = format!("{},cpu", backend);
    run(&["--target".as_ref(), target.as_ref(), "--compare".as_ref(), cpu.as_os_str(), "--report-json".as_ref(), report.as_os_str()])?;
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).map_err(|e| format!("{}: {}", report.display(), e))?).map_err(|e| e.to_string())?;
    let placed: Vec<&serde_json::Value> = json["placements"].as_array().map(|a| a.iter().filter(|p| p["op"] == case.op).collect()).unwrap_or_default();
    if placed.is_empty() {
        return Err(format!("no {} in the placement report:\n{}", case.op, json["placements"]));
    }
    for p in placed {
        let (on, code, node) = (p["backend"].as_str().unwrap_or(""), p["reason_code"].as_str(), p["node"].as_str().unwrap_or(""));
        match case.refused {
            None if on != backend => return Err(format!("{} \"{}\" should run on {}, it runs on {} ({})", case.op, node, backend, on, code.unwrap_or("no reason"))),
            Some(r) if on == backend || code != Some(r.code()) => {
                return Err(format!("{} \"{}\" should fall back with [{}], it runs on {} ({})", case.op, node, r.code(), on, code.unwrap_or("no reason")))
            }
            _ => {}
        }
    }
    // A case that runs compiles whole: no op of it falls back because its partition did not compile.
    if case.refused.is_none() {
        if let Some(p) = json["placements"].as_array().into_iter().flatten().find(|p| p["reason_code"] == "compile-failed") {
            return Err(format!("{} \"{}\" fell back: its partition did not compile (run the case's model with -v for the error)", p["op"], p["node"].as_str().unwrap_or("")));
        }
    }
    // Kept when the case fails, for a look; removed when it passes.
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

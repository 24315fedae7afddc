//! The backend test kit: ONNX's node tests of the ops a backend's capability
//! table claims (`Backend::capabilities`), each run through the backend's
//! `*-run --target NAME,cpu` against ONNX's expected outputs, one named test
//! per case. A vendor's test harness is a few lines (see
//! `examples/vendor-acme/tests/node_tests.rs`); npu16's is
//! `tools/tests/npu_node_tests.rs`. Only tests the CPU path passes are chosen
//! (`test/onnx/cpu-node.manifest`, compiled in), so a failure is the
//! backend's: it took an op it computes wrongly, or its fallback broke the model.

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
    let model = onnx::proto::decode_model(bytes::Bytes::from(bytes)).map_err(|e| format!("{}: {}", path.display(), e))?;
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
        if !ops.is_empty() && ops.iter().all(|o| o == "onnx.Constant" || claimed.contains(&o.as_str())) && ops.iter().any(|o| o != "onnx.Constant") {
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

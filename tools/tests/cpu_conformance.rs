//! ONNX's node tests on the CPU path, one named test per case: every test in
//! test/onnx/cpu-node.manifest must pass (`cargo test -- test_cast_FLOAT_to_FLOAT8E5M2`
//! runs one); the known failures are listed as ignored (`-- --ignored NAME`
//! runs one anyway). Each runs through `npu-run onnx-tests --test NAME`, in
//! its own process with its time limit.
//!
//! And the proof that the runner can fail: for every element type, a passing
//! node test whose expected output has one element corrupted must be reported
//! as failed (`corrupted_output::<TYPE>`), while its unchanged copy passes.
//!
//! To re-derive the manifest, the known failures and docs/cpu-node-tests.md:
//! `scripts/update-node-manifest.sh`.

mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use onnx_translate::proto::data_type as dt;
use runtime::HostTensor;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every element type the CPU path runs: each must have a corrupted-output check.
const ELEMENT_TYPES: &[i32] = &[
    dt::FLOAT,
    dt::DOUBLE,
    dt::FLOAT16,
    dt::BFLOAT16,
    dt::INT8,
    dt::INT16,
    dt::INT32,
    dt::INT64,
    dt::UINT8,
    dt::UINT16,
    dt::UINT32,
    dt::UINT64,
    dt::BOOL,
    dt::FLOAT8E4M3FN,
    dt::FLOAT8E4M3FNUZ,
    dt::FLOAT8E5M2,
    dt::FLOAT8E5M2FNUZ,
    dt::FLOAT8E8M0,
    dt::FLOAT4E2M1,
    dt::INT4,
    dt::UINT4,
    dt::INT2,
    dt::UINT2,
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn manifest() -> Vec<String> {
    let p = root().join("test/onnx/cpu-node.manifest");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e)).lines().map(|l| l.trim()).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// Runs `npu-run onnx-tests DIR -v [ARGS]` and returns its stdout, or the failure.
fn onnx_tests(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_npu-run")).arg("onnx-tests").arg(dir).arg("-v").args(args).output().map_err(|e| format!("could not run npu-run: {}", e))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(stdout)
    } else {
        Err(format!("{}{}", stdout, String::from_utf8_lossy(&out.stderr)))
    }
}

fn node_test(name: &str) -> Result<(), Failed> {
    let out = onnx_tests(&common::onnx_node_dir(), &["--test", name])?;
    if out.lines().any(|l| l == format!("PASS  {}", name)) {
        Ok(())
    } else {
        Err(out.into())
    }
}

/// The expected outputs of a test's first data set.
fn outputs(test: &Path) -> Vec<PathBuf> {
    (0..).map(|i| test.join(format!("test_data_set_0/output_{}.pb", i))).take_while(|p| p.exists()).collect()
}

/// Changes one element so that no comparison may take it as equal: the low
/// bit of an integer, bool or 8-/4-bit float code (of an element that is not
/// NaN, since NaN codes compare equal), the top exponent bit of a wider float.
fn corrupt(t: &mut HostTensor) -> Result<usize, String> {
    let n = t.numel();
    let i = match runtime::tensor::mini_format(t.dtype) {
        Some(f) => t.data.as_ref()[..n].iter().position(|&c| !f.decode(c).is_nan()).ok_or("every element is NaN")?,
        None => 0,
    };
    let bytes = t.data.as_mut();
    match t.dtype {
        dt::FLOAT16 | dt::BFLOAT16 => bytes[i * 2 + 1] ^= 0x40,
        dt::FLOAT => bytes[i * 4 + 3] ^= 0x40,
        dt::DOUBLE => bytes[i * 8 + 7] ^= 0x40,
        _ => {
            let w = runtime::tensor::dtype_size(t.dtype).ok_or("no element size")?;
            bytes[i * w] ^= 1;
        }
    }
    Ok(i)
}

fn copy_test(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    std::fs::copy(from.join("model.onnx"), to.join("model.onnx")).map_err(|e| e.to_string())?;
    let set = to.join("test_data_set_0");
    std::fs::create_dir_all(&set).map_err(|e| e.to_string())?;
    for e in std::fs::read_dir(from.join("test_data_set_0")).map_err(|e| e.to_string())?.flatten() {
        std::fs::copy(e.path(), set.join(e.file_name())).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A passing test with an output of `dtype` (with elements), and that output's file.
fn pick(tests: &[String], dtype: i32) -> Option<(String, PathBuf)> {
    let dir = common::onnx_node_dir();
    tests.iter().find_map(|t| {
        let out = outputs(&dir.join(t)).into_iter().find(|p| HostTensor::read_file(p).is_ok_and(|h| h.dtype == dtype && h.numel() > 0))?;
        Some((t.clone(), out))
    })
}

fn corrupted_output(type_name: &str, test: &str, output: &Path) -> Result<(), Failed> {
    let scratch = root().join("target/corrupted-output").join(type_name);
    let _ = std::fs::remove_dir_all(&scratch);
    let src = common::onnx_node_dir().join(test);
    let (orig, bad) = (format!("{}_original", test), format!("{}_corrupted", test));
    copy_test(&src, &scratch.join(&orig))?;
    copy_test(&src, &scratch.join(&bad))?;
    let file = scratch.join(&bad).join("test_data_set_0").join(output.file_name().unwrap());
    let mut t = HostTensor::read_file(&file)?;
    let at = corrupt(&mut t)?;
    std::fs::write(&file, onnx_translate::proto::encode_tensor(&t.to_proto("corrupted"))).map_err(|e| e.to_string())?;
    // Both copies run; the corrupted one makes the run fail.
    let out = match onnx_tests(&scratch, &[]) {
        Ok(o) => return Err(format!("the run passed although {} has element {} corrupted:\n{}", output.display(), at, o).into()),
        Err(o) => o,
    };
    let _ = std::fs::remove_dir_all(&scratch);
    if !out.lines().any(|l| l == format!("PASS  {}", orig)) {
        return Err(format!("the unchanged copy of {} did not pass:\n{}", test, out).into());
    }
    if !out.lines().any(|l| l.starts_with(&format!("FAIL  {}: ", bad))) {
        return Err(format!("the copy of {} with element {} of {} corrupted was not reported as a wrong result:\n{}", test, at, output.display(), out).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let passing = manifest();
    let mut trials: Vec<Trial> = common::onnx_node_tests()
        .into_iter()
        .map(|name| {
            let known_failure = !passing.contains(&name);
            let n = name.clone();
            Trial::test(name, move || node_test(&n)).with_ignored_flag(known_failure)
        })
        .collect();
    for &dtype in ELEMENT_TYPES {
        let type_name = onnx::types::data_type_name(dtype).to_string();
        let passing = passing.clone();
        // Picked when the check runs, not for every filtered invocation of the harness.
        trials.push(Trial::test(format!("corrupted_output::{}", type_name), move || match &pick(&passing, dtype) {
            Some((test, output)) => corrupted_output(&type_name, test, output),
            None => Err(format!("no node test in the manifest has an output of type {} to corrupt", type_name).into()),
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

//! `npu-quantize`: post-training quantization of a float ONNX model into a
//! QDQ model that ONNX Runtime and both of our paths run
//! (`runtime::calibrate`, `runtime::qdq`), with its accuracy against the
//! float model on the calibration set printed.

use clap::Parser;
use runtime::calibrate::{self, Method};
use runtime::qdq;
use runtime::{CompileOptions, HostTensor};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Quantize a float ONNX model to int8 (QDQ) from calibration inputs")]
struct Cli {
    /// The float model (.onnx).
    model: PathBuf,
    /// Calibration inputs: a folder of .npy or .pb files, one sample each (a
    /// one-input model), or of sub-folders, one sample each, holding NAME.npy
    /// per input (or ONNX's input_K.pb).
    #[arg(long)]
    calibrate: PathBuf,
    /// How each activation's range is chosen from its calibration values.
    #[arg(long, default_value = "minmax", value_parser = ["minmax", "percentile", "entropy"])]
    method: String,
    /// Weights quantized per output channel (else per tensor).
    #[arg(long)]
    per_channel: bool,
    /// Activations with zero points 0 (else each with its own).
    #[arg(long)]
    symmetric_activations: bool,
    /// Where the QDQ model is written.
    #[arg(short = 'o', long)]
    output: PathBuf,
}

type Sample = HashMap<String, HostTensor>;

/// The calibration samples of `dir` for a model with inputs `inputs`.
fn samples(dir: &Path, inputs: &[String]) -> Result<Vec<Sample>, String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), e))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let tensor_file = |p: &Path| p.extension().is_some_and(|e| e == "npy" || e == "pb");
    let mut out = vec![];
    for p in entries {
        if p.is_dir() {
            let mut s = Sample::new();
            for (k, name) in inputs.iter().enumerate() {
                let npy = p.join(format!("{}.npy", name));
                let pb = p.join(format!("input_{}.pb", k));
                let f = if npy.exists() { npy } else if pb.exists() { pb } else { return Err(format!("{}: no {}.npy or input_{}.pb", p.display(), name, k)) };
                s.insert(name.clone(), HostTensor::read_file(&f)?);
            }
            out.push(s);
        } else if tensor_file(&p) {
            if inputs.len() != 1 {
                return Err(format!("{}: a file per sample is for a model with one input; this one has {} (use a folder per sample)", p.display(), inputs.len()));
            }
            out.push(Sample::from([(inputs[0].clone(), HostTensor::read_file(&p)?)]));
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no calibration inputs (.npy, .pb, or folders of them)", dir.display()));
    }
    Ok(out)
}

/// Every output of `model` on every sample.
fn outputs(model: &[u8], samples: &[Sample]) -> Result<Vec<Vec<HostTensor>>, String> {
    let c = runtime::compile(model, None, &samples[0], &CompileOptions::default())?;
    samples
        .iter()
        .map(|s| {
            let inputs: Sample = s.iter().filter(|(k, _)| c.runtime_inputs().any(|i| &i.name == *k)).map(|(k, v)| (k.clone(), v.clone())).collect();
            c.run(&inputs)
        })
        .collect()
}

fn quantize(cli: &Cli) -> Result<(), String> {
    let bytes = std::fs::read(&cli.model).map_err(|e| format!("{}: {}", cli.model.display(), e))?;
    let mut model = onnx_translate::proto::decode_model(bytes::Bytes::from(bytes.clone())).map_err(|e| format!("{}: {}", cli.model.display(), e))?;
    // BatchNormalizations folded into their Convs first (the float model is unchanged in value).
    qdq::fold_batch_norms(&mut model)?;
    let g = model.graph.as_ref().ok_or("the model has no graph")?;
    let inits: std::collections::HashSet<&str> = g.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
    let inputs: Vec<String> = g.input.iter().filter_map(|i| i.name.clone()).filter(|n| !inits.contains(n.as_str())).collect();
    let data = samples(&cli.calibrate, &inputs)?;
    let method = Method::parse(&cli.method)?;
    let options = qdq::Options { per_channel: cli.per_channel, symmetric_activations: cli.symmetric_activations };
    let plan = qdq::plan(&model, &options)?;
    if plan.activations.is_empty() {
        return Err(format!("nothing to quantize: the model has none of {}", qdq::QUANTIZED_OPS.join(", ")));
    }
    let ranges = calibrate::ranges(&model, &plan.activations, &data, method)?;
    let q = qdq::write(&model, &plan, &ranges, &options)?;
    let qbytes = onnx_translate::proto::encode_model(&q);
    // Check that it runs before anything is written.
    let (float_out, int8_out) = (outputs(&bytes, &data)?, outputs(&qbytes, &data)?);
    std::fs::write(&cli.output, &qbytes).map_err(|e| format!("{}: {}", cli.output.display(), e))?;
    let dequantized = q.graph.as_ref().map(|g| g.node.iter().filter(|n| n.op_type.as_deref() == Some("DequantizeLinear")).count()).unwrap_or(0);
    // Each activation has one DequantizeLinear; the rest dequantize weights and biases.
    println!("quantized {} activations, {} weights and biases by {} over {} samples -> {}", plan.activations.len(), dequantized - plan.activations.len(), cli.method, data.len(), cli.output.display());
    println!("accuracy on the calibration set (int8 against float):");
    let names: Vec<String> = g.output.iter().filter_map(|o| o.name.clone()).collect();
    for (k, name) in names.iter().enumerate() {
        let (mut max, mut sum, mut n, mut range) = (0f64, 0f64, 0usize, 0f64);
        for (f, i) in float_out.iter().zip(&int8_out) {
            let (a, b) = (f[k].to_f64()?, i[k].to_f64()?);
            for (x, y) in a.iter().zip(&b) {
                let d = (x - y).abs();
                max = max.max(d);
                sum += d;
                n += 1;
                range = range.max(x.abs());
            }
        }
        println!("  {:<20} max abs error {:.4e}, mean abs error {:.4e} (largest |float| {:.4e})", name, max, sum / n.max(1) as f64, range);
    }
    Ok(())
}

pub fn quantize_main(name: &'static str) -> ExitCode {
    let cli = Cli::parse();
    match quantize(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: error: {}", name, e);
            ExitCode::FAILURE
        }
    }
}

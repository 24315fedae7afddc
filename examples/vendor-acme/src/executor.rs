//! ACME's executor: a converted partition becomes a list of array and vector
//! steps over numbered buffers, run on a model of the hardware that computes
//! in f32 and counts cycles (an A x A weight-stationary array: K cycles per
//! A x A output tile plus the fill; the vector unit does its lanes a cycle;
//! A and the lanes from the hardware description, 32 by default).

use backend::codec::{Reader, Writer};
use backend::{Counters, Executable, LayerRow};
use ir::{Body, OpId, Value};
use std::collections::HashMap;

enum Step {
    MatMul { a: usize, b: usize, out: usize, m: usize, k: usize, n: usize },
    Add { a: usize, b: usize, out: usize },
    Relu { x: usize, out: usize },
}

/// The sizes the cycle counts read (from the hardware description).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machine {
    pub array: u64,
    pub lanes: u64,
    /// The weight buffer: a product whose B is larger does not compile.
    pub weight_bytes: u64,
}

/// One compiled partition.
pub struct Program {
    machine: Machine,
    steps: Vec<(String, Step)>,
    /// Buffer sizes in elements; the first `inputs` buffers are the arguments.
    sizes: Vec<usize>,
    constants: Vec<(usize, Vec<f32>)>,
    inputs: usize,
    outputs: Vec<usize>,
}

impl Program {
    /// Reads the acme ops of partition `f` (after `convert_partition`).
    pub fn build(body: &Body, f: OpId, machine: Machine) -> Result<Program, String> {
        let entry = body.entry_block(f).ok_or("a partition without a body")?;
        let mut buf: HashMap<Value, usize> = HashMap::new();
        let mut sizes = vec![];
        let numel = |v: Value| body.value_type(v).shape().map(|s| s.iter().product::<i64>() as usize).ok_or("a tensor of unknown shape");
        for &a in body.block_args(entry) {
            buf.insert(a, sizes.len());
            sizes.push(numel(a)?);
        }
        let inputs = sizes.len();
        let (mut steps, mut constants, mut outputs) = (vec![], vec![], vec![]);
        for op in body.block_ops(entry) {
            let o = body.op(op);
            let name = body.name(op);
            if name.as_str() == func::ops::RETURN {
                outputs = o.operands().iter().map(|v| buf.get(v).copied().ok_or("a result computed outside the partition")).collect::<Result<_, _>>()?;
                continue;
            }
            let out = sizes.len();
            let r = o.result(0);
            buf.insert(r, out);
            sizes.push(numel(r)?);
            let arg = |i: usize| buf.get(&o.operand(i)).copied().ok_or_else(|| format!("{}: operand {} is not in the partition", name.as_str(), i));
            let step = match name.as_str() {
                "onnx.Constant" => {
                    let v = onnx::infer::const_f64s(body, r).ok_or("a constant ACME cannot read")?;
                    constants.push((out, v.into_iter().map(|x| x as f32).collect()));
                    continue;
                }
                "acme.matmul" => {
                    let dims = |v: Value| body.value_type(v).shape().map(|s| s.to_vec()).unwrap_or_default();
                    let (a, b) = (dims(o.operand(0)), dims(o.operand(1)));
                    let bytes = 4 * (b[0] * b[1]) as u64;
                    if bytes > machine.weight_bytes {
                        return Err(format!("{}: {} bytes of weights do not fit the {}-byte weight buffer", name.as_str(), bytes, machine.weight_bytes));
                    }
                    Step::MatMul { a: arg(0)?, b: arg(1)?, out, m: a[0] as usize, k: a[1] as usize, n: b[1] as usize }
                }
                "acme.add" => Step::Add { a: arg(0)?, b: arg(1)?, out },
                "acme.relu" => Step::Relu { x: arg(0)?, out },
                other => return Err(format!("ACME cannot run '{}'", other)),
            };
            steps.push((o.loc.node_name().unwrap_or_else(|| name.as_str().to_string()), step));
        }
        Ok(Program { machine, steps, sizes, constants, inputs, outputs })
    }
}

impl Program {
    /// The program as text: its buffers, then one step a line (`acme-translate --mlir-to-acme`).
    pub fn listing(&self) -> String {
        let mut out = String::new();
        let args: Vec<String> = (0..self.inputs).map(|k| format!("b{}[{}]", k, self.sizes[k])).collect();
        out.push_str(&format!("  inputs {}\n", args.join(" ")));
        for (k, v) in &self.constants {
            out.push_str(&format!("  const b{}[{}]\n", k, v.len()));
        }
        for (name, step) in &self.steps {
            let text = match *step {
                Step::MatMul { a, b, out, m, k, n } => format!("matmul b{} b{} -> b{}[{}] ({}x{} by {}x{})", a, b, out, self.sizes[out], m, k, k, n),
                Step::Add { a, b, out } => format!("add b{} b{} -> b{}[{}]", a, b, out, self.sizes[out]),
                Step::Relu { x, out } => format!("relu b{} -> b{}[{}]", x, out, self.sizes[out]),
            };
            out.push_str(&format!("  {:<40} ; {}\n", text, name));
        }
        let outs: Vec<String> = self.outputs.iter().map(|k| format!("b{}", k)).collect();
        out.push_str(&format!("  outputs {}\n", outs.join(" ")));
        out
    }
}

/// The saved form's step codes.
const MATMUL: u64 = 1;
const ADD: u64 = 2;
const RELU: u64 = 3;

impl Program {
    /// The program `save` wrote, checked so that running it cannot index
    /// outside its buffers (the framework's cache checksums entries; this
    /// guards against a saved form from another ACME build).
    pub fn load(bytes: &[u8]) -> Result<Program, String> {
        let mut r = Reader::new(bytes);
        let machine = Machine { array: r.u64()?, lanes: r.u64()?, weight_bytes: r.u64()? };
        if !(1..=1024).contains(&machine.array) || !(1..=4096).contains(&machine.lanes) {
            return Err("a saved ACME program for an array or vector unit ACME does not have".into());
        }
        let sizes = r.usizes()?;
        let inputs = r.usize()?;
        let outputs = r.usizes()?;
        let n_consts = r.count(16)?;
        let mut constants = vec![];
        for _ in 0..n_consts {
            constants.push((r.usize()?, f32s(r.bytes()?)));
        }
        let n_steps = r.count(16)?;
        let mut steps = vec![];
        for _ in 0..n_steps {
            let name = r.string()?;
            let step = match r.u64()? {
                MATMUL => Step::MatMul { a: r.usize()?, b: r.usize()?, out: r.usize()?, m: r.usize()?, k: r.usize()?, n: r.usize()? },
                ADD => Step::Add { a: r.usize()?, b: r.usize()?, out: r.usize()? },
                RELU => Step::Relu { x: r.usize()?, out: r.usize()? },
                code => return Err(format!("an unknown ACME step {}", code)),
            };
            steps.push((name, step));
        }
        r.done()?;
        // At most 2^28 elements in all (a gigabyte of f32): a saved program never asks for more.
        if sizes.iter().try_fold(0usize, |t, n| t.checked_add(*n)).is_none_or(|t| t > 1 << 28) {
            return Err("a saved ACME program with buffers too large".into());
        }
        let size = |k: usize| sizes.get(k).copied().ok_or_else(|| format!("buffer {} of {}", k, sizes.len()));
        let prod = |x: usize, y: usize| x.checked_mul(y).ok_or_else(|| "a product that overflows".to_string());
        let fits = steps.iter().all(|(_, s)| match *s {
            Step::MatMul { a, b, out, m, k, n } => size(a) == prod(m, k) && size(b) == prod(k, n) && size(out) == prod(m, n),
            Step::Add { a, b, out } => size(a).is_ok() && size(a) == size(b) && size(a) == size(out),
            Step::Relu { x, out } => size(x).is_ok() && size(x) == size(out),
        });
        let consts_fit = constants.iter().all(|(k, v)| size(*k) == Ok(v.len()));
        if !fits || !consts_fit || inputs > sizes.len() || outputs.iter().any(|k| *k >= sizes.len()) {
            return Err("a saved ACME program whose steps do not fit its buffers".into());
        }
        Ok(Program { machine, steps, sizes, constants, inputs, outputs })
    }
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

impl Executable for Program {
    fn save(&self) -> Option<Vec<u8>> {
        let mut w = Writer::default();
        w.u64(self.machine.array).u64(self.machine.lanes).u64(self.machine.weight_bytes).usizes(&self.sizes).usize(self.inputs).usizes(&self.outputs);
        w.u64(self.constants.len() as u64);
        for (k, v) in &self.constants {
            w.usize(*k).bytes(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        }
        w.u64(self.steps.len() as u64);
        for (name, step) in &self.steps {
            w.str(name);
            match *step {
                Step::MatMul { a, b, out, m, k, n } => w.u64(MATMUL).usize(a).usize(b).usize(out).usize(m).usize(k).usize(n),
                Step::Add { a, b, out } => w.u64(ADD).usize(a).usize(b).usize(out),
                Step::Relu { x, out } => w.u64(RELU).usize(x).usize(out),
            };
        }
        Some(w.0)
    }

    fn run(&self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<Counters, String> {
        if inputs.len() != self.inputs || outputs.len() != self.outputs.len() {
            return Err(format!("{} inputs and {} outputs given, the program takes {} and {}", inputs.len(), outputs.len(), self.inputs, self.outputs.len()));
        }
        let mut mem: Vec<Vec<f32>> = self.sizes.iter().map(|n| vec![0.0; *n]).collect();
        for (i, b) in inputs.iter().enumerate() {
            if b.len() != 4 * self.sizes[i] {
                return Err(format!("input {} has {} bytes, {} expected", i, b.len(), 4 * self.sizes[i]));
            }
            mem[i] = f32s(b);
        }
        for (k, v) in &self.constants {
            mem[*k] = v.clone();
        }
        let mut c = Counters::default();
        for (name, step) in &self.steps {
            let (cycles, macs, bytes, out, value) = match *step {
                Step::MatMul { a, b, out, m, k, n } => {
                    let (x, w) = (&mem[a], &mem[b]);
                    let mut y = vec![0f32; m * n];
                    for i in 0..m {
                        for p in 0..k {
                            let xv = x[i * k + p];
                            for j in 0..n {
                                y[i * n + j] += xv * w[p * n + j];
                            }
                        }
                    }
                    let a = self.machine.array;
                    let tiles = (m as u64).div_ceil(a) * (n as u64).div_ceil(a);
                    (tiles * k as u64 + a, (m * k * n) as u64, 4 * (m * k + k * n + m * n) as u64, out, y)
                }
                Step::Add { a, b, out } => {
                    let y: Vec<f32> = mem[a].iter().zip(&mem[b]).map(|(p, q)| p + q).collect();
                    ((y.len() as u64).div_ceil(self.machine.lanes), 0, 12 * y.len() as u64, out, y)
                }
                Step::Relu { x, out } => {
                    let y: Vec<f32> = mem[x].iter().map(|v| v.max(0.0)).collect();
                    ((y.len() as u64).div_ceil(self.machine.lanes), 0, 8 * y.len() as u64, out, y)
                }
            };
            mem[out] = value;
            c.cycles += cycles;
            c.macs += macs;
            c.dram_bytes += bytes;
            c.layers.push(LayerRow { name: name.clone(), cycles, macs, dram_bytes: bytes });
        }
        for (o, &k) in outputs.iter_mut().zip(&self.outputs) {
            if o.len() != 4 * mem[k].len() {
                return Err(format!("an output buffer has {} bytes, {} expected", o.len(), 4 * mem[k].len()));
            }
            for (d, v) in o.chunks_exact_mut(4).zip(&mem[k]) {
                d.copy_from_slice(&v.to_le_bytes());
            }
        }
        Ok(c)
    }
}

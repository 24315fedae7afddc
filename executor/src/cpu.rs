//! A model's CPU code, compiled: the JIT's function and what it is called
//! with (the runtime inputs, then the weights, then the outputs), each
//! buffer checked against the compiled signature before the call.

use crate::tensor::HostTensor;
use crate::TensorSpec;
use std::collections::HashMap;

/// A compiled function ready to run.
pub struct CpuCode {
    pub jit: llvm_cpu::Jit,
    pub func: String,
    pub inputs: Vec<TensorSpec>,
    pub outputs: Vec<TensorSpec>,
    /// Inputs whose values were compiled in (they decide shapes): not passed.
    pub bound: Vec<String>,
    pub weights: Vec<HostTensor>,
    /// The messages of the code's run-time checks (`crate::checks`).
    pub checks: Vec<String>,
}

impl CpuCode {
    /// The inputs a caller must pass (those not compiled in).
    pub fn runtime_inputs(&self) -> impl Iterator<Item = &TensorSpec> {
        self.inputs.iter().filter(|i| !self.bound.contains(&i.name))
    }

    /// Runs once; `inputs` by name must match the compiled signature.
    pub fn run(&self, inputs: &HashMap<String, HostTensor>) -> Result<Vec<HostTensor>, String> {
        let mut outs: Vec<HostTensor> = self.outputs.iter().map(|o| HostTensor::zeros(o.dtype, &o.shape)).collect::<Result<_, _>>()?;
        self.run_into(inputs, &mut outs)?;
        Ok(outs)
    }

    pub fn check_inputs(&self, inputs: &HashMap<String, HostTensor>) -> Result<(), String> {
        let expected = || self.runtime_inputs().map(|s| format!("  {}", s)).collect::<Vec<_>>().join("\n");
        for spec in self.runtime_inputs() {
            let t = inputs.get(&spec.name).ok_or_else(|| format!("missing input '{}'; the model expects:\n{}", spec.name, expected()))?;
            if t.dtype != spec.dtype || t.shape != spec.shape {
                let got = TensorSpec { name: spec.name.clone(), dtype: t.dtype, shape: t.shape.clone() };
                return Err(format!("input {} does not match the compiled model; the model expects:\n{}", got, expected()));
            }
        }
        for k in inputs.keys() {
            if !self.inputs.iter().any(|s| &s.name == k) {
                return Err(format!("the model has no input '{}'; it expects:\n{}", k, expected()));
            }
        }
        Ok(())
    }

    /// Runs into preallocated outputs (for timing loops).
    pub fn run_into(&self, inputs: &HashMap<String, HostTensor>, outs: &mut [HostTensor]) -> Result<(), String> {
        self.check_inputs(inputs)?;
        let ins: Vec<&HostTensor> = self.runtime_inputs().map(|spec| &inputs[&spec.name]).collect();
        call(&self.jit, &self.func, &self.checks, &ins, &self.weights, outs)
    }
}

/// Calls `func` with its inputs, then its weights, then its outputs, as the
/// compiled signature orders them; a failed run-time check is the error.
/// The caller has checked every buffer's shape against the signature.
pub(crate) fn call(jit: &llvm_cpu::Jit, func: &str, checks: &[String], ins: &[&HostTensor], weights: &[HostTensor], outs: &mut [HostTensor]) -> Result<(), String> {
    // Input buffers are only read; the JIT's signature takes mutable pointers.
    let mut args: Vec<llvm_cpu::MemRefArg> = ins.iter().copied().chain(weights).map(|t| llvm_cpu::MemRefArg { data: t.data.as_ref().as_ptr() as *mut u8, shape: t.shape.clone() }).collect();
    for o in outs.iter_mut() {
        let shape = o.shape.clone();
        args.push(llvm_cpu::MemRefArg { data: o.data.as_mut_ptr(), shape });
    }
    // SAFETY: every buffer is live for the call and sized by its checked shape.
    crate::checks::guarded(checks, || unsafe { jit.call_memrefs(func, &args) })
}

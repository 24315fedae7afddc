//! The partition graph of an NPU-path compile, for reports (`npu-run
//! --report-html`): the stages that compute (CPU partitions, NPU programs,
//! other backends' partitions), the model's inputs and outputs, and the bytes
//! that flow between them. Host glue (a transpose or reshape between
//! partitions) is looked through: its consumer is linked to its producer.

use crate::npu_path::NpuCompiled;
use executor::plan::Stage;
use crate::TensorSpec;
use std::collections::HashMap;

/// What a node of the graph is.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Input,
    Output,
    /// A partition run by this target (`cpu`, `npu16`, a vendor's backend).
    Partition(String),
}

#[derive(Clone, Debug)]
pub struct GraphNode {
    pub name: String,
    pub kind: NodeKind,
    /// An NPU partition's program (an index into `NpuCompiled::programs`).
    pub program: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    /// The bytes of every value from `from` that `to` reads.
    pub bytes: u64,
}

#[derive(Clone, Debug, Default)]
pub struct PartitionGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

fn bytes(spec: &TensorSpec) -> u64 {
    let n: i64 = spec.shape.iter().map(|d| (*d).max(0)).product();
    n as u64 * crate::tensor::dtype_size(spec.dtype).unwrap_or(0) as u64
}

impl PartitionGraph {
    fn node(&mut self, name: String, kind: NodeKind) -> usize {
        self.nodes.push(GraphNode { name, kind, program: None });
        self.nodes.len() - 1
    }

    /// An edge from the producer of each slot read to `to` (one edge per pair, bytes summed).
    fn link(&mut self, producers: &HashMap<usize, (usize, u64)>, slots: &[usize], to: usize) {
        for s in slots {
            let Some(&(from, b)) = producers.get(s) else { continue };
            match self.edges.iter_mut().find(|e| e.from == from && e.to == to) {
                Some(e) => e.bytes += b,
                None => self.edges.push(GraphEdge { from, to, bytes: b }),
            }
        }
    }
}

impl NpuCompiled {
    /// The stages and the values between them, in the order they run.
    pub fn partition_graph(&self) -> PartitionGraph {
        let mut g = PartitionGraph::default();
        // Each value slot's producing node and its size.
        let mut producers: HashMap<usize, (usize, u64)> = HashMap::new();
        for (spec, slot) in self.inputs.iter().zip(&self.input_slots) {
            let n = g.node(spec.name.clone(), NodeKind::Input);
            producers.insert(*slot, (n, bytes(spec)));
        }
        for st in &self.stages {
            let program = if let Stage::Npu { program, .. } = st { Some(*program) } else { None };
            let (name, target, args, results, specs): (&str, &str, &[usize], &[usize], &[TensorSpec]) = match st {
                Stage::Cpu { func, args, results } => (&self.cpu[*func].name, backend::CPU, args, results, &self.cpu[*func].outputs),
                Stage::Npu { partition, args, results, specs, .. } => (partition, &self.hw.name, args, results, specs),
                Stage::Exec { exe, args, results, specs } => (&self.executables[*exe].partition, &self.executables[*exe].backend, args, results, specs),
                Stage::Transpose { arg, result, .. } | Stage::Reshape { arg, result, .. } => {
                    if let Some(p) = producers.get(arg).copied() {
                        producers.insert(*result, p);
                    }
                    continue;
                }
                Stage::Const { .. } => continue,
            };
            let n = g.node(name.to_string(), NodeKind::Partition(target.to_string()));
            g.nodes[n].program = program;
            g.link(&producers, args, n);
            for (r, spec) in results.iter().zip(specs) {
                producers.insert(*r, (n, bytes(spec)));
            }
        }
        for (spec, slot) in self.outputs.iter().zip(&self.output_slots) {
            let n = g.node(spec.name.clone(), NodeKind::Output);
            g.link(&producers, &[*slot], n);
        }
        g
    }
}

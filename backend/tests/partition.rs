//! The generic partitioner over an ordered list of made-up backends: each op
//! goes to the first backend that takes it, a group is placed whole, the CPU
//! takes the rest, and each fallback keeps the reasons of the backends before.

use backend::partition::{placements, report, Partition};
use backend::{Backend, Reason, Unsupported};
use ir::pass::{OpPassManager, PassManager, PassManagerConfig};
use ir::{Body, OpId};
use std::sync::Arc;

/// Takes the ops it names; groups each `onnx.Relu` with its producer when `fuse`.
struct Takes(&'static str, &'static [&'static str], bool);

impl Backend for Takes {
    fn name(&self) -> &str {
        self.0
    }
    fn supports(&self, body: &Body, op: OpId) -> Result<(), Unsupported> {
        let n = body.name(op);
        if self.1.contains(&n.as_str()) {
            Ok(())
        } else {
            Err(Unsupported::new(Reason::NoLowering, format!("{} does not run {}", self.0, n.as_str())))
        }
    }
    fn group(&self, body: &Body, ops: &[OpId], answers: &mut [Result<(), Unsupported>]) -> Vec<usize> {
        let mut g: Vec<usize> = (0..ops.len()).collect();
        if self.2 {
            for (i, &op) in ops.iter().enumerate() {
                if body.name(op).as_str() == "onnx.Relu" {
                    let producer = body.defining_op(body.op(op).operand(0));
                    match ops.iter().position(|o| Some(*o) == producer) {
                        Some(p) if answers[p].is_ok() => g[i] = p,
                        _ => answers[i] = Err(Unsupported::new(Reason::Fusion, "a lone Relu")),
                    }
                }
            }
        }
        g
    }
}

const MODEL: &str = r#"
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Conv"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("conv")
  %1 = "onnx.Relu"(%0) : (tensor<4xf32>) -> tensor<4xf32> loc("relu")
  %2 = "onnx.Softmax"(%1) : (tensor<4xf32>) -> tensor<4xf32> loc("softmax")
  %3 = "onnx.Neg"(%2) : (tensor<4xf32>) -> tensor<4xf32> loc("neg")
  return %3 : tensor<4xf32>
}
"#;

fn partition(targets: &[&str]) -> (Vec<backend::partition::Placement>, String) {
    backend::register_once(|| Arc::new(Takes("fa", &["onnx.Neg", "onnx.Relu"], true))).unwrap();
    backend::register_once(|| Arc::new(Takes("fb", &["onnx.Conv", "onnx.Relu", "onnx.Neg"], false))).unwrap();
    let mut ctx = ir::Context::new();
    ctx.allow_unregistered = true;
    func::register(&ctx);
    let m = ir::parser::parse_module(&ctx, MODEL, "t.mlir", 1).unwrap_or_else(|d| panic!("{}", d.message));
    let (mut body, module) = (m.body, m.module);
    let mut root = OpPassManager::new("builtin.module");
    root.add_pass(Box::new(Partition { targets: targets.iter().map(|s| s.to_string()).collect(), report: String::new(), dot: String::new(), placement: String::new() }));
    PassManager::new(root, PassManagerConfig::default()).run(&ctx, &mut body, module).unwrap_or_else(|e| panic!("{:?}", e.diagnostics.iter().map(|d| d.message.clone()).collect::<Vec<_>>()));
    let p = placements(&body, module);
    let names: Vec<String> = targets.iter().map(|s| s.to_string()).chain((!targets.contains(&"cpu")).then(|| "cpu".to_string())).collect();
    let r = report(&p, &names);
    (p, r)
}

fn on(p: &[backend::partition::Placement], node: &str) -> (String, Option<Reason>) {
    let x = p.iter().find(|x| x.node == node).unwrap_or_else(|| panic!("no placement for {}", node));
    (x.backend.clone(), x.reason.as_ref().map(|r| r.reason))
}

#[test]
fn first_backend_that_takes_an_op_gets_it() {
    let (p, r) = partition(&["fa", "fb"]);
    // fa refuses the Conv, so its Relu (which fa runs only fused) falls to fb with the Conv.
    assert_eq!(on(&p, "conv"), ("fb".into(), Some(Reason::NoLowering)));
    assert_eq!(on(&p, "relu"), ("fb".into(), Some(Reason::Fusion)));
    assert_eq!(on(&p, "softmax"), ("cpu".into(), Some(Reason::NoLowering)));
    assert_eq!(on(&p, "neg"), ("fa".into(), None));
    let sm = p.iter().find(|x| x.node == "softmax").unwrap();
    assert!(sm.reason.as_ref().unwrap().message.contains("fa: [no-lowering] fa does not run onnx.Softmax; fb: [no-lowering]"), "{:?}", sm.reason);
    assert!(r.ends_with("fa: 1 ops (25.0%) in 1 partitions; fb: 2 ops (50.0%) in 1 partitions; cpu: 1 ops (25.0%) in 1 partitions\n"), "{}", r);
    assert_eq!(p.iter().map(|x| x.partition.as_str()).collect::<Vec<_>>(), ["g_fb0", "g_fb0", "g_cpu0", "g_fa0"]);
}

#[test]
fn a_group_moves_whole_and_the_cpu_alone_takes_all() {
    let (p, _) = partition(&["fb", "fa"]);
    assert_eq!(on(&p, "conv").0, "fb");
    assert_eq!(on(&p, "relu").0, "fb");
    assert_eq!(on(&p, "neg").0, "fb");
    let (p, r) = partition(&["cpu"]);
    assert!(p.iter().all(|x| x.backend == "cpu" && x.reason.is_none()));
    assert_eq!(r, "cpu: 4 ops (100.0%) in 1 partitions\n");
}

/// Groups ops 0 and 1 into a cycle: a malformed grouping must not hang or mis-place.
struct Cyclic;

impl Backend for Cyclic {
    fn name(&self) -> &str {
        "cyclic"
    }
    fn supports(&self, _: &Body, _: OpId) -> Result<(), Unsupported> {
        Ok(())
    }
    fn group(&self, _: &Body, ops: &[OpId], _: &mut [Result<(), Unsupported>]) -> Vec<usize> {
        let mut g: Vec<usize> = (0..ops.len()).collect();
        g.swap(0, 1);
        g
    }
}

#[test]
fn a_group_stays_together_or_falls_back_with_its_reason() {
    backend::register_once(|| Arc::new(Takes("fc", &["onnx.Conv", "onnx.Relu"], true))).unwrap();
    backend::register_once(|| Arc::new(Takes("fd", &["onnx.Conv"], false))).unwrap();
    // fc takes Conv and Relu as one group.
    let (p, _) = partition(&["fc", "fd"]);
    assert_eq!((on(&p, "conv").0, on(&p, "relu").0), ("fc".into(), "fc".into()));
    assert_eq!(p.iter().find(|x| x.node == "conv").unwrap().partition, p.iter().find(|x| x.node == "relu").unwrap().partition);
    // fd takes the Conv first; fc would run the Relu only with it: the Relu goes to the CPU and says why.
    let (p, _) = partition(&["fd", "fc"]);
    assert_eq!(on(&p, "conv").0, "fd");
    assert_eq!(on(&p, "relu"), ("cpu".into(), Some(Reason::NoLowering)));
    let why = p.iter().find(|x| x.node == "relu").unwrap().reason.clone().unwrap().message;
    assert!(why.contains("fc: [fusion] runs only together with conv, which is not placed on fc"), "{}", why);
}

#[test]
fn a_cyclic_grouping_groups_nothing() {
    backend::register_once(|| Arc::new(Cyclic)).unwrap();
    let (p, _) = partition(&["cyclic"]);
    assert!(p.iter().all(|x| x.backend == "cyclic"), "{:?}", p);
}

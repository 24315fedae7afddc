//! The bridge end to end: a loop-level module in generic form is lowered,
//! JIT-compiled, called on real buffers, and also emitted as LLVM IR.

const SAXPY: &str = r#"
"builtin.module"() ({
  "func.func"() <{function_type = (memref<5xf32>, memref<5xf32>, memref<5xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%x: memref<5xf32>, %y: memref<5xf32>, %out: memref<5xf32>):
    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %c1 = "arith.constant"() <{value = 1 : index}> : () -> index
    %c5 = "arith.constant"() <{value = 5 : index}> : () -> index
    %a = "arith.constant"() <{value = 2.5 : f32}> : () -> f32
    "scf.for"(%c0, %c5, %c1) ({
    ^bb1(%i: index):
      %xi = "memref.load"(%x, %i) : (memref<5xf32>, index) -> f32
      %yi = "memref.load"(%y, %i) : (memref<5xf32>, index) -> f32
      %m = "arith.mulf"(%a, %xi) : (f32, f32) -> f32
      %e = "math.erf"(%m) : (f32) -> f32
      %s = "arith.addf"(%e, %yi) : (f32, f32) -> f32
      "memref.store"(%s, %out, %i) : (f32, memref<5xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"#;

fn erf(x: f64) -> f64 {
    // Abramowitz–Stegun 7.1.26 is too coarse; integrate instead (Simpson).
    let n = 2000;
    let h = x / n as f64;
    let f = |t: f64| (-t * t).exp();
    let mut s = f(0.0) + f(x);
    for k in 1..n {
        s += f(k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0 * 2.0 / std::f64::consts::PI.sqrt()
}

#[test]
fn jit_runs_a_loop_with_a_libm_call() {
    let jit = llvm_cpu::Jit::compile(SAXPY, 3).unwrap();
    let (x, y, out) = saxpy(&jit);
    for i in 0..5 {
        let want = erf(2.5 * x[i] as f64) + y[i] as f64;
        assert!((out[i] as f64 - want).abs() < 1e-5, "{}: {} vs {}", i, out[i], want);
    }
    let mut buf = [0f32; 5];
    let args = [llvm_cpu::MemRefArg { data: buf.as_mut_ptr() as *mut u8, shape: vec![5] }];
    assert!(unsafe { jit.call_memrefs("nope", &args) }.is_err());
}

#[test]
fn emits_llvm_ir_and_reports_mlir_errors() {
    let ll = llvm_cpu::emit_llvm_ir(SAXPY).unwrap();
    assert!(ll.contains("define void @main("), "{}", ll);
    assert!(ll.contains("erff"), "erf should be a libm call: {}", ll);
    let bad = SAXPY.replace("\"arith.addf\"(%e, %yi) : (f32, f32) -> f32", "\"arith.addf\"(%e, %yi) : (f32, f32) -> f64");
    let err = llvm_cpu::emit_llvm_ir(&bad).unwrap_err();
    assert!(err.contains("MLIR rejected"), "{}", err);
}

/// Runs `main` of `jit` on the SAXPY inputs: (x, y, out).
fn saxpy(jit: &llvm_cpu::Jit) -> ([f32; 5], [f32; 5], [f32; 5]) {
    let mut x = [0.0f32, 0.1, -0.2, 0.3, 1.0];
    let mut y = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    let mut out = [f32::NAN; 5];
    let args = [
        llvm_cpu::MemRefArg { data: x.as_mut_ptr() as *mut u8, shape: vec![5] },
        llvm_cpu::MemRefArg { data: y.as_mut_ptr() as *mut u8, shape: vec![5] },
        llvm_cpu::MemRefArg { data: out.as_mut_ptr() as *mut u8, shape: vec![5] },
    ];
    unsafe { jit.call_memrefs("main", &args).unwrap() };
    (x, y, out)
}

/// The compile cache's CPU half: the object code of a compile, loaded again
/// (libm resolved from the process), computes the same bits; an object that
/// is not one is an error, not a crash.
#[test]
fn object_code_loads_again_and_computes_the_same() {
    let (jit, object) = llvm_cpu::Jit::compile_keeping_object(SAXPY, 2, &[], &["main"]).unwrap();
    assert!(object.starts_with(b"\x7fELF") || object.len() > 64, "not object code: {} bytes", object.len());
    let loaded = llvm_cpu::Jit::load_object(&object, &[]).unwrap();
    let (a, b) = (saxpy(&jit).2, saxpy(&loaded).2);
    assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
    assert!(a.iter().all(|v| v.is_finite()));
    assert!(!loaded.has_function("nope"));
    assert!(llvm_cpu::Jit::compile_keeping_object(SAXPY, 2, &[], &["nope"]).is_err());
    let garbage = llvm_cpu::Jit::load_object(b"not an object file at all", &[]);
    let bad = garbage.map(|j| j.has_function("main"));
    assert!(matches!(bad, Err(_) | Ok(false)), "garbage loaded as code");
}

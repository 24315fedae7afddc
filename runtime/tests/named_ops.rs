//! The named structured ops run: tensor-level IR through the CPU pipeline
//! (generalize, fuse, bufferize, loops, MLIR, JIT) on random inputs, checked
//! against references computed here in f64.

use runtime::HostTensor;

fn random(shape: &[i64], seed: u64) -> HostTensor {
    HostTensor::random(onnx_translate::proto::data_type::FLOAT, shape, seed).unwrap()
}

/// Compiles `src` (one function `@f` with tensor arguments and one tensor
/// result), runs it on `inputs`, returns the result's elements.
fn run(src: &str, inputs: &[&HostTensor], out_shape: &[i64]) -> Vec<f64> {
    let ctx = runtime::context();
    let mut p = ir::parser::parse_module(&ctx, src, "test.mlir", 1).unwrap_or_else(|e| panic!("{}", e.message));
    ir::verifier::verify(&ctx, &p.body, p.module).unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| d.message.clone()).collect::<Vec<_>>()));
    driver::pipelines::run(&ctx, &mut p.body, p.module, driver::pipelines::CPU_PIPELINE).unwrap();
    let text = llvm_cpu::to_mlir_text(&ctx, &p.body, p.module);
    // The runtime's hooks (the intermediates' arena) bound as `npu-run` binds them.
    let jit = llvm_cpu::Jit::compile_with_symbols(&text, 2, &runtime::checks::jit_symbols()).unwrap();
    let mut out = HostTensor::zeros(onnx_translate::proto::data_type::FLOAT, out_shape).unwrap();
    let mut args: Vec<llvm_cpu::MemRefArg> = inputs.iter().map(|t| llvm_cpu::MemRefArg { data: t.data.as_ref().as_ptr() as *mut u8, shape: t.shape.clone() }).collect();
    args.push(llvm_cpu::MemRefArg { data: out.data.as_mut_ptr(), shape: out_shape.to_vec() });
    unsafe { jit.call_memrefs("f", &args).unwrap() };
    out.to_f64().unwrap()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-4 + 1e-4 * w.abs(), "element {}: {} vs expected {}", i, g, w);
    }
}

#[test]
fn conv_2d_nhwc_hwcf() {
    let (x, w) = (random(&[1, 6, 5, 3], 1), random(&[3, 2, 3, 4], 2));
    let src = r#"func.func @f(%x: tensor<1x6x5x3xf32>, %w: tensor<3x2x3x4xf32>) -> tensor<1x4x4x4xf32> {
      %z = arith.constant 0.0 : f32
      %e = "tensor.empty"() : () -> tensor<1x4x4x4xf32>
      %i = "tensor.fill"(%z, %e) : (f32, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
      %c = "tensor.conv_2d_nhwc_hwcf"(%x, %w, %i) : (tensor<1x6x5x3xf32>, tensor<3x2x3x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
      return %c : tensor<1x4x4x4xf32>
    }"#;
    let got = run(src, &[&x, &w], &[1, 4, 4, 4]);
    let (xv, wv) = (x.to_f64().unwrap(), w.to_f64().unwrap());
    let mut want = vec![0.0; 64];
    for oh in 0..4 {
        for ow in 0..4 {
            for f in 0..4 {
                let mut s = 0.0;
                for kh in 0..3 {
                    for kw in 0..2 {
                        for c in 0..3 {
                            s += xv[((oh + kh) * 5 + ow + kw) * 3 + c] * wv[((kh * 2 + kw) * 3 + c) * 4 + f];
                        }
                    }
                }
                want[(oh * 4 + ow) * 4 + f] = s;
            }
        }
    }
    close(&got, &want);
}

#[test]
fn broadcast_reduce_transpose_and_slices() {
    let (a, v) = (random(&[4, 6], 3), random(&[6], 4));
    // (transpose(a + broadcast(v)))[1.., ::2] summed over dim 1, then max-reduced.
    let src = r#"func.func @f(%a: tensor<4x6xf32>, %v: tensor<6xf32>) -> tensor<3xf32> {
      %e = "tensor.empty"() : () -> tensor<4x6xf32>
      %b = "tensor.broadcast"(%v, %e) <{dimensions = array<i64: 0>}> : (tensor<6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
      %e2 = "tensor.empty"() : () -> tensor<4x6xf32>
      %s = "tensor.generic"(%a, %b, %e2) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
      ^bb0(%x: f32, %y: f32, %o: f32):
        %r = arith.addf %x, %y : f32
        "tensor.yield"(%r) : (f32) -> ()
      }) : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
      %e3 = "tensor.empty"() : () -> tensor<6x4xf32>
      %t = "tensor.transpose"(%s, %e3) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
      %e4 = "tensor.empty"() : () -> tensor<3x4xf32>
      %sl = "tensor.extract_slice"(%t, %e4) <{static_offsets = array<i64: 1, 0>, static_strides = array<i64: 2, 1>}> : (tensor<6x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
      %ninf = arith.constant 0xFF800000 : f32
      %e5 = "tensor.empty"() : () -> tensor<3xf32>
      %i = "tensor.fill"(%ninf, %e5) : (f32, tensor<3xf32>) -> tensor<3xf32>
      %m = "tensor.reduce"(%sl, %i) <{dimensions = array<i64: 1>, kind = "max"}> : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<3xf32>
      return %m : tensor<3xf32>
    }"#;
    let got = run(src, &[&a, &v], &[3]);
    let (av, vv) = (a.to_f64().unwrap(), v.to_f64().unwrap());
    // t[j][i] = a[i][j] + v[j]; rows j = 1, 3, 5; max over i.
    let want: Vec<f64> = [1usize, 3, 5].iter().map(|&j| (0..4).map(|i| av[i * 6 + j] + vv[j]).fold(f64::NEG_INFINITY, f64::max)).collect();
    close(&got, &want);
}

#[test]
fn batch_matmul_then_insert_slice() {
    let (a, b) = (random(&[2, 3, 4], 5), random(&[2, 4, 5], 6));
    let src = r#"func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x5x5xf32> {
      %z = arith.constant 0.0 : f32
      %e = "tensor.empty"() : () -> tensor<2x3x5xf32>
      %i = "tensor.fill"(%z, %e) : (f32, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
      %m = "tensor.batch_matmul"(%a, %b, %i) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
      %one = arith.constant 1.0 : f32
      %e2 = "tensor.empty"() : () -> tensor<2x5x5xf32>
      %o = "tensor.fill"(%one, %e2) : (f32, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
      %r = "tensor.insert_slice"(%m, %o) <{static_offsets = array<i64: 0, 1, 0>}> : (tensor<2x3x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
      return %r : tensor<2x5x5xf32>
    }"#;
    let got = run(src, &[&a, &b], &[2, 5, 5]);
    let (av, bv) = (a.to_f64().unwrap(), b.to_f64().unwrap());
    let mut want = vec![1.0; 50];
    for z in 0..2 {
        for i in 0..3 {
            for j in 0..5 {
                want[z * 25 + (i + 1) * 5 + j] = (0..4).map(|k| av[z * 12 + i * 4 + k] * bv[z * 20 + k * 5 + j]).sum();
            }
        }
    }
    close(&got, &want);
}

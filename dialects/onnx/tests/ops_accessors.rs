//! The generated typed accessors (`onnx::ops`) read what the IR holds:
//! operands by position and name, absent optional operands, variadic operands
//! and results, attributes with and without the schema's defaults.

use onnx::ops::{Cast, Clip, Concat, Conv, Split};

const IR: &str = r#"
func.func @f(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<1x4x3x3xf32> {
  %none = "onnx.NoValue"() : () -> none
  %conv = "onnx.Conv"(%x, %w, %none) <{kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, none) -> tensor<1x4x3x3xf32>
  %lo = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %clip = "onnx.Clip"(%a, %lo, %none) : (tensor<2x3xf32>, tensor<f32>, none) -> tensor<2x3xf32>
  %cat = "onnx.Concat"(%a, %b, %clip) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
  %s:2 = "onnx.Split"(%a, %none) <{axis = 0 : i64, num_outputs = 2 : i64}> : (tensor<2x3xf32>, none) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %cast = "onnx.Cast"(%a) <{to = 6 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %sc = "onnx.ml.Scaler"(%a) <{offset = array<f32: 0.1, 0.2, 0.3>, scale = array<f32: 2.0, 0.5, 1.0>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %conv : tensor<1x4x3x3xf32>
}
"#;

#[test]
fn accessors_read_what_the_ir_holds() {
    let ctx = ir::Context::new();
    func::register(&ctx);
    onnx::register(&ctx);
    let m = ir::parser::parse_module(&ctx, IR, "t.mlir", 1).unwrap_or_else(|d| panic!("{}", d.message));
    let b = &m.body;
    let ops = b.walk_preorder(m.module);
    let find = |name: &str| *ops.iter().find(|o| b.name(**o).as_str() == name).unwrap_or_else(|| panic!("no {}", name));
    let entry = b.region_blocks(b.op(find("func.func")).regions()[0])[0];
    let args = b.block_args(entry).to_vec();

    let conv = Conv::of(b, find(Conv::NAME)).expect("an onnx.Conv");
    assert_eq!((conv.x(b), conv.w(b)), (args[0], args[1]));
    assert_eq!(conv.b(b), None, "an absent bias (onnx.NoValue) reads as none");
    assert_eq!(conv.group(b), 1, "the schema's default");
    assert_eq!(conv.auto_pad(b), "NOTSET");
    assert_eq!(conv.strides(b), Some(vec![1, 1]));
    assert_eq!(conv.pads(b), None);
    assert_eq!(conv.y(b), b.op(conv.op()).result(0));
    assert!(Conv::of(b, find(Clip::NAME)).is_none(), "another op is not a Conv");

    let clip = Clip::of(b, find(Clip::NAME)).unwrap();
    assert!(clip.min(b).is_some());
    assert_eq!(clip.max(b), None);

    let cat = Concat::of(b, find(Concat::NAME)).unwrap();
    assert_eq!(cat.inputs(b).len(), 3);
    assert_eq!(cat.axis(b), Some(1));

    let split = Split::of(b, find(Split::NAME)).unwrap();
    assert_eq!(split.outputs(b).len(), 2);
    assert_eq!(split.num_outputs(b), Some(2));
    assert_eq!(split.axis(b), 0);

    let cast = Cast::of(b, find(Cast::NAME)).unwrap();
    assert_eq!(cast.to(b), Some(6));
    assert_eq!(cast.saturate(b), 1);
}

/// Builds the ops of `IR` with the generated builders and compares them with
/// the parsed ones: the same properties (so the builders encode attributes as
/// the parser and the importer do), the operands the accessors read, and ops
/// the verifier takes (which also checks their element types).
#[test]
fn builders_make_what_the_parser_reads() {
    use onnx::ops::{CastAttrs, ConcatAttrs, ConvAttrs, Slice, SplitAttrs};
    let ctx = ir::Context::new();
    func::register(&ctx);
    onnx::register(&ctx);
    let mut m = ir::parser::parse_module(&ctx, IR, "t.mlir", 1).unwrap_or_else(|d| panic!("{}", d.message));
    let ops = m.body.walk_preorder(m.module);
    let find = |b: &ir::Body, name: &str| *ops.iter().find(|o| b.name(**o).as_str() == name).unwrap_or_else(|| panic!("no {}", name));
    let parsed: Vec<ir::OpId> = [Conv::NAME, Clip::NAME, Concat::NAME, Split::NAME, Cast::NAME, onnx::ops::ml::Scaler::NAME].iter().map(|n| find(&m.body, n)).collect();
    let ret = find(&m.body, "func.return");
    let entry = m.body.region_blocks(m.body.op(find(&m.body, "func.func")).regions()[0])[0];
    let args = m.body.block_args(entry).to_vec();
    let ty = |b: &ir::Body, op: ir::OpId| b.op(op).results().iter().map(|r| b.value_type(*r).clone()).collect::<Vec<_>>();
    let (conv_t, clip_t, cat_t, split_t, cast_t) = (ty(&m.body, parsed[0]), ty(&m.body, parsed[1]), ty(&m.body, parsed[2]), ty(&m.body, parsed[3]), ty(&m.body, parsed[4]));
    let lo = m.body.op(parsed[1]).operand(1);
    let mut b = onnx::builder::Builder::new(&ctx, &mut m.body, ir::InsertPoint::Before(ret), ir::Location::unknown());

    let conv = Conv::build(&mut b, args[0], args[1], None, &conv_t, &ConvAttrs { kernel_shape: Some(vec![3, 3]), strides: Some(vec![1, 1]), ..Default::default() });
    let clip = Clip::build(&mut b, args[2], Some(lo), None, &clip_t);
    let clipped = clip.output(b.body);
    let cat = Concat::build(&mut b, &[args[2], args[3], clipped], &cat_t, &ConcatAttrs { axis: Some(1) });
    let split = Split::build(&mut b, args[2], None, &split_t, &SplitAttrs { axis: Some(0), num_outputs: Some(2) });
    let cast = Cast::build(&mut b, args[2], &cast_t, &CastAttrs { to: Some(6), ..Default::default() });
    let scaler_attrs = onnx::ops::ml::ScalerAttrs { offset: Some(vec![0.1, 0.2, 0.3]), scale: Some(vec![2.0, 0.5, 1.0]) };
    let scaler = onnx::ops::ml::Scaler::build(&mut b, args[2], &clip_t, &scaler_attrs);
    let built = [conv.op(), clip.op(), cat.op(), split.op(), cast.op(), scaler.op()];
    let body = &m.body;
    for (p, q) in parsed.iter().zip(&built) {
        let props = |o: ir::OpId| body.op(o).properties.iter().map(|(k, v)| (k.as_str().to_string(), v.clone())).collect::<Vec<_>>();
        assert_eq!(props(*q), props(*p), "{}: the built op's properties are the parsed op's", body.name(*p));
        assert_eq!(ty(body, *q), ty(body, *p));
    }
    ir::verifier::verify(&ctx, body, m.module).unwrap_or_else(|d| panic!("{}", d[0].message));
    assert_eq!(body.op(conv.op()).operands().len(), 2, "a trailing absent input is left out");
    assert_eq!((conv.x(body), conv.w(body), conv.b(body)), (args[0], args[1], None));
    assert_eq!((clip.min(body), clip.max(body)), (Some(lo), None));
    assert_eq!(cat.inputs(body).len(), 3);

    // An absent optional input before a given one is an onnx.NoValue.
    let mut b = onnx::builder::Builder::new(&ctx, &mut m.body, ir::InsertPoint::Before(ret), ir::Location::unknown());
    let (zero, one) = (b.i64s(&[0]), b.i64s(&[1]));
    let slice = Slice::build(&mut b, args[2], zero, one, None, Some(one), &split_t[..1]);
    let body = &m.body;
    assert_eq!(body.op(slice.op()).operands().len(), 5);
    assert_eq!((slice.axes(body), slice.steps(body)), (None, Some(one)));
    assert_eq!(body.name(body.defining_op(body.op(slice.op()).operand(3)).unwrap()).as_str(), "onnx.NoValue");
    ir::verifier::verify(&ctx, body, m.module).unwrap_or_else(|d| panic!("{}", d[0].message));

    // Built after an op, a Reshape's shape constant still comes before it.
    let mut b = onnx::builder::Builder::new(&ctx, &mut m.body, ir::InsertPoint::After(parsed[4]), ir::Location::unknown());
    let to = b.i64s(&[2, 3]);
    let r = onnx::ops::Reshape::build(&mut b, args[2], to, &clip_t, &Default::default());
    assert_eq!(m.body.op(r.op()).operand(1), to);
    ir::verifier::verify(&ctx, &m.body, m.module).unwrap_or_else(|d| panic!("{}", d[0].message));
}

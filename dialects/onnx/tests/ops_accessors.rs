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
  %cat = "onnx.Concat"(%a, %b, %clip) <{axis = 1 : si64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x9xf32>
  %s:2 = "onnx.Split"(%a, %none) <{axis = 0 : si64, num_outputs = 2 : si64}> : (tensor<2x3xf32>, none) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %cast = "onnx.Cast"(%a) <{to = 6 : si64}> : (tensor<2x3xf32>) -> tensor<2x3xi32>
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

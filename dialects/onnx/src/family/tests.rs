//! The registry's own consistency: names that are operators, each op in one
//! family, hooks that name their family's ops, and the dialect reading them.

use super::*;
use std::collections::HashSet;

#[test]
fn every_op_is_an_operator_in_one_family() {
    let ops: HashMap<&str, u32> = crate::table::latest().into_iter().map(|o| (o.name, o.max_inputs)).collect();
    let mut seen = HashSet::new();
    for f in FAMILIES {
        for op in f.ops {
            assert!(ops.contains_key(op), "family {} names '{}', which is no operator", f.name, op);
            assert!(seen.insert(*op), "'{}' is in two families (the second is {})", op, f.name);
        }
    }
}

#[test]
fn hooks_name_their_familys_ops() {
    let ops: HashMap<&str, u32> = crate::table::latest().into_iter().map(|o| (o.name, o.max_inputs)).collect();
    for f in FAMILIES {
        for (what, listed) in [
            ("folds", f.folds.iter().map(|e| e.0).collect::<Vec<_>>()),
            ("patterns", f.patterns.iter().map(|e| e.0).collect()),
            ("shape_operands", f.shape_operands.iter().map(|e| e.0).collect()),
        ] {
            let mut once = HashSet::new();
            for op in listed {
                assert!(f.ops.contains(&op), "family {}'s {} name '{}', which is not one of its ops", f.name, what, op);
                assert!(once.insert(op), "family {}'s {} name '{}' twice", f.name, what, op);
            }
        }
        for (op, positions) in f.shape_operands {
            assert!(positions.iter().all(|p| (*p as u32) < ops[op]), "{}'s shape operands {:?} are not all inputs", op, positions);
        }
    }
}

#[test]
fn the_dialect_finds_hooks_by_op() {
    let def = |n: &str| crate::dialect::ops().iter().find(|d| d.name == n).unwrap();
    assert!(def("onnx.Transpose").fold.is_some() && def("onnx.Transpose").canonicalize.is_some());
    assert!(def("onnx.Mul").canonicalize.is_some(), "the channel scale folds into a Conv");
    assert!(def("onnx.Conv").fold.is_none() && def("onnx.Sin").canonicalize.is_none());
    assert_eq!(hooks("onnx.Slice").map(|h| h.shape_operands), Some(&[1, 2, 3, 4][..]));
    assert_eq!(hooks("Conv").map(|h| h.family.name), Some("nn"));
    assert!(is_shape_operand("onnx.Reshape", 1) && !is_shape_operand("onnx.Reshape", 0));
    assert!(hooks("onnx.NoValue").is_none());
}

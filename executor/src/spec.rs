//! What a compiled function takes and gives, checked at every call.

use ir::types::DYNAMIC;

/// A model input or output: name, ONNX dtype and static shape.
#[derive(Clone, Debug)]
pub struct TensorSpec {
    pub name: String,
    pub dtype: i32,
    pub shape: Vec<i64>,
}

impl std::fmt::Display for TensorSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let dims: Vec<String> = self.shape.iter().map(|d| if *d == DYNAMIC { "?".into() } else { d.to_string() }).collect();
        write!(f, "{}: {}[{}]", self.name, onnx::types::data_type_name(self.dtype), dims.join(", "))
    }
}

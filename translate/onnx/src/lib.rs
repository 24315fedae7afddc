//! ONNX models to and from the `onnx` dialect (as MLIR keeps translations
//! apart from dialects): the protobuf messages, the importer
//! (`npu-translate --import-onnx`: model-local functions inlined, old opset
//! forms normalized, sparse tensors made dense), the exporter
//! (`--export-onnx`) and the `.onnxtext` reader.

pub mod convert;
pub mod export;
pub mod functions;
pub mod import;
pub mod normalize;
pub mod proto;
pub mod sparse;
pub mod text;

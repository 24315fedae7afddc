//! Conformance: ONNX's node tests as the judge of a path. `node_test` runs
//! one test (compile for its inputs, run on the CPU, compare every output);
//! `suite` runs a directory of them in child processes against a manifest
//! (`npu-run onnx-tests`); `testkit` runs the tests of the ops a backend
//! claims through its `*-run`, one named test per case, for our backends and
//! a vendor's alike.

mod child;
pub mod node_test;
pub mod suite;
pub mod testkit;

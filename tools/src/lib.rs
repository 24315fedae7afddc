//! The command-line tools as library entry points, so that a vendor's
//! `acme-run` and `acme-translate` are a few lines (register, then call
//! `run_main` / `translate_main` with its translations). The backend test kit
//! and the node-test runner are the `conformance` crate's.
//! What runs models (`run_main`, `quantize_main`) needs the CPU code generator
//! and comes with the `cpu` feature; `translate_main` without it writes
//! everything but the CPU's object code. The drivers without LLVM
//! (`opt_main`, the registries, the pipelines) are in the `driver` crate.

#[cfg(feature = "cpu")]
pub mod npu_report;
#[cfg(feature = "cpu")]
mod perf_report;
#[cfg(feature = "cpu")]
mod progress;
#[cfg(feature = "cpu")]
mod quantize_main;
#[cfg(feature = "cpu")]
pub mod report_html;
#[cfg(feature = "cpu")]
mod roofline_plot;
#[cfg(feature = "cpu")]
mod run_main;
#[cfg(feature = "cpu")]
mod run_summary;
mod translate_main;

#[cfg(feature = "cpu")]
pub use quantize_main::quantize_main;
#[cfg(feature = "cpu")]
pub use run_main::run_main;
pub use translate_main::{translate_main, TranslateTool};

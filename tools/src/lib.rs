//! The command-line tools that need the CPU code generator, as library entry
//! points, so that a vendor's `acme-run` and `acme-translate` are a few lines
//! (register, then call `run_main` / `translate_main` with its translations);
//! the backend test kit. The drivers without LLVM (`opt_main`,
//! the dialect registry) are in the `driver` crate.

mod child;
pub mod npu_report;
mod progress;
mod quantize_main;
pub mod report_html;
mod node_tests_main;
mod run_main;
mod run_summary;
pub mod testkit;
mod translate_main;

pub use quantize_main::quantize_main;
pub use run_main::run_main;
pub use translate_main::{translate_main, TranslateTool};

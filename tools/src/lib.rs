//! The command-line tools that need the CPU code generator, as library entry
//! points, so that a vendor's `acme-run` is a few lines (register, then call
//! `run_main`); the backend test kit. The drivers without LLVM (`opt_main`,
//! the dialect registry) are in the `driver` crate.

mod child;
pub mod npu_report;
mod run_main;
pub mod testkit;

pub use run_main::run_main;

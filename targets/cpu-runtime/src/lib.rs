//! The run-time library compiled CPU code calls (as MLIR's runner utils and
//! OpenMP's runtime are to theirs): [`parallel::parallel_for`] and the thread
//! pool behind it, the failed-check hook ([`checks`]), the profiling hooks
//! ([`profile`]) and the intermediates' arena ([`arena`]). The names the code calls them by are `cpu_target::abi`'s;
//! [`symbols`] binds every one for the JIT. No IR and no LLVM: whatever runs
//! compiled code links this, however it compiled it.

pub mod arena;
pub mod checks;
pub mod parallel;
pub mod profile;
mod thread_pool;

use cpu_target::abi;

/// Every hook compiled code may call, by the name it calls it by.
pub fn symbols() -> Vec<(&'static str, *mut ())> {
    vec![
        (abi::PROFILE_ENTER, profile::enter as *mut ()),
        (abi::PROFILE_EXIT, profile::exit as *mut ()),
        (abi::CHECK_FAILED, checks::failed as *mut ()),
        (abi::PARALLEL_FOR, parallel::parallel_for as *mut ()),
        (abi::ARENA_PUSH_SYMBOL, arena::push as *mut ()),
        (abi::ARENA_POP, arena::pop as *mut ()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name of the ABI is bound once; a failed check is recorded once,
    /// its first value kept, and cleared.
    #[test]
    fn binds_every_hook_once_and_records_failures() {
        let s = symbols();
        let mut names: Vec<&str> = s.iter().map(|(n, _)| *n).collect();
        names.sort();
        let mut abi_names = vec![abi::PARALLEL_FOR, abi::CHECK_FAILED, abi::PROFILE_ENTER, abi::PROFILE_EXIT, abi::ARENA_PUSH_SYMBOL, abi::ARENA_POP];
        assert_eq!(abi::ARENA_PUSH_SYMBOL, format!("_mlir_ciface_{}", abi::ARENA_PUSH), "MLIR's C interface names the push");
        abi_names.sort();
        assert_eq!(names, abi_names);
        let hook = s.iter().find(|(n, _)| *n == abi::CHECK_FAILED).unwrap().1;
        let hook: extern "C" fn(i64, i64, i64) = unsafe { std::mem::transmute(hook) };
        checks::clear();
        hook(3, 0, 7);
        assert_eq!(checks::take(), None, "a check that held records nothing");
        hook(3, 2, 7);
        hook(4, 1, 9);
        assert_eq!(checks::take(), Some((3, 7)), "the first failure is kept");
        assert_eq!(checks::take(), None);
    }
}

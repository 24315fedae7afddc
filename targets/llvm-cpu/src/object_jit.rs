//! Object code the JIT compiled once, loaded again without MLIR or LLVM's
//! optimizer (the compile cache's CPU half): LLVM's ORC LLJIT links the
//! object in this process, resolving libc/libm from the process and the host
//! functions the module declares from the table it is given. The C API is
//! LLVM's own (llvm-c/LLJIT.h, llvm-c/Orc.h), linked in with MLIR's libraries.

use std::ffi::{c_char, c_void, CStr, CString};

#[repr(C)]
struct Opaque {
    _private: [u8; 0],
}
type LLJit = *mut Opaque;
type Error = *mut Opaque;
type JitDylib = *mut Opaque;
type Generator = *mut Opaque;
type StringPoolEntry = *mut Opaque;
type MaterializationUnit = *mut Opaque;
type MemoryBuffer = *mut Opaque;

#[repr(C)]
struct SymbolFlags {
    generic: u8,
    target: u8,
}

#[repr(C)]
struct EvaluatedSymbol {
    address: u64,
    flags: SymbolFlags,
}

#[repr(C)]
struct SymbolPair {
    name: StringPoolEntry,
    sym: EvaluatedSymbol,
}

/// `LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable`.
const EXPORTED_CALLABLE: u8 = 1 | 4;

extern "C" {
    fn LLVMOrcCreateLLJIT(result: *mut LLJit, builder: *mut c_void) -> Error;
    fn LLVMOrcDisposeLLJIT(j: LLJit) -> Error;
    fn LLVMOrcLLJITGetMainJITDylib(j: LLJit) -> JitDylib;
    fn LLVMOrcLLJITGetGlobalPrefix(j: LLJit) -> c_char;
    fn LLVMOrcLLJITMangleAndIntern(j: LLJit, name: *const c_char) -> StringPoolEntry;
    fn LLVMOrcLLJITAddObjectFile(j: LLJit, jd: JitDylib, buf: MemoryBuffer) -> Error;
    fn LLVMOrcLLJITLookup(j: LLJit, result: *mut u64, name: *const c_char) -> Error;
    fn LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(result: *mut Generator, prefix: c_char, filter: *mut c_void, ctx: *mut c_void) -> Error;
    fn LLVMOrcJITDylibAddGenerator(jd: JitDylib, g: Generator);
    fn LLVMOrcAbsoluteSymbols(syms: *mut SymbolPair, n: usize) -> MaterializationUnit;
    fn LLVMOrcJITDylibDefine(jd: JitDylib, mu: MaterializationUnit) -> Error;
    fn LLVMCreateMemoryBufferWithMemoryRangeCopy(data: *const c_char, len: usize, name: *const c_char) -> MemoryBuffer;
    fn LLVMGetErrorMessage(e: Error) -> *mut c_char;
    fn LLVMDisposeErrorMessage(m: *mut c_char);
}

#[cfg(target_arch = "x86_64")]
extern "C" {
    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
}

#[cfg(target_arch = "aarch64")]
extern "C" {
    fn LLVMInitializeAArch64TargetInfo();
    fn LLVMInitializeAArch64Target();
    fn LLVMInitializeAArch64TargetMC();
    fn LLVMInitializeAArch64AsmPrinter();
}

pub(crate) fn init_native() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: LLVM's target registration functions take no arguments and may run once per process.
    ONCE.call_once(|| unsafe {
        #[cfg(target_arch = "x86_64")]
        {
            LLVMInitializeX86TargetInfo();
            LLVMInitializeX86Target();
            LLVMInitializeX86TargetMC();
            LLVMInitializeX86AsmPrinter();
        }
        #[cfg(target_arch = "aarch64")]
        {
            LLVMInitializeAArch64TargetInfo();
            LLVMInitializeAArch64Target();
            LLVMInitializeAArch64TargetMC();
            LLVMInitializeAArch64AsmPrinter();
        }
    });
}

/// An LLVM error as text (and the error consumed).
fn check(e: Error, what: &str) -> Result<(), String> {
    if e.is_null() {
        return Ok(());
    }
    // SAFETY: a non-null LLVMErrorRef; LLVMGetErrorMessage consumes it.
    unsafe {
        let m = LLVMGetErrorMessage(e);
        let s = CStr::from_ptr(m).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(m);
        Err(format!("{}: {}", what, s))
    }
}

/// An object file linked into this process.
pub(crate) struct ObjectJit {
    jit: LLJit,
}

impl Drop for ObjectJit {
    fn drop(&mut self) {
        // SAFETY: the LLJIT was created by LLVMOrcCreateLLJIT and is disposed once.
        let _ = check(unsafe { LLVMOrcDisposeLLJIT(self.jit) }, "disposing the JIT");
    }
}

impl ObjectJit {
    /// Links `objects` (which may call each other's functions) into this process.
    pub(crate) fn load(objects: &[&[u8]], symbols: &[(&str, *mut ())]) -> Result<ObjectJit, String> {
        init_native();
        let mut jit: LLJit = std::ptr::null_mut();
        // SAFETY: the C API's documented sequence: create, add a process symbol
        // generator and absolute symbols to the main JITDylib, add the object
        // (the buffer is copied and owned by LLVM from then on).
        unsafe {
            check(LLVMOrcCreateLLJIT(&mut jit, std::ptr::null_mut()), "creating the JIT")?;
            let this = ObjectJit { jit };
            let jd = LLVMOrcLLJITGetMainJITDylib(jit);
            let mut generator: Generator = std::ptr::null_mut();
            check(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&mut generator, LLVMOrcLLJITGetGlobalPrefix(jit), std::ptr::null_mut(), std::ptr::null_mut()), "process symbols")?;
            LLVMOrcJITDylibAddGenerator(jd, generator);
            let symbols: Vec<(&str, *mut ())> = symbols.iter().copied().chain(crate::builtins::symbols()).collect();
            {
                let names: Vec<CString> = symbols.iter().map(|(n, _)| CString::new(*n).map_err(|_| format!("symbol name {:?} holds a NUL", n))).collect::<Result<_, _>>()?;
                let mut pairs: Vec<SymbolPair> = names
                    .iter()
                    .zip(&symbols)
                    .map(|(n, (_, p))| SymbolPair { name: LLVMOrcLLJITMangleAndIntern(jit, n.as_ptr()), sym: EvaluatedSymbol { address: *p as u64, flags: SymbolFlags { generic: EXPORTED_CALLABLE, target: 0 } } })
                    .collect();
                let mu = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
                check(LLVMOrcJITDylibDefine(jd, mu), "host symbols")?;
            }
            for object in objects {
                let name = c"object";
                let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(object.as_ptr() as *const c_char, object.len(), name.as_ptr());
                check(LLVMOrcLLJITAddObjectFile(jit, jd, buf), "loading the object")?;
            }
            Ok(this)
        }
    }

    /// The address of `name`, or null when the object does not define it
    /// (or it cannot be linked: an unresolved symbol fails the lookup).
    pub(crate) fn lookup(&self, name: &str) -> Result<*mut c_void, String> {
        let c = CString::new(name).map_err(|_| format!("symbol name {:?} holds a NUL", name))?;
        let mut addr = 0u64;
        // SAFETY: a live LLJIT and a NUL-terminated name.
        check(unsafe { LLVMOrcLLJITLookup(self.jit, &mut addr, c.as_ptr()) }, &format!("looking up {}", name))?;
        Ok(addr as *mut c_void)
    }
}

extern "C" {
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
}

/// The host CPU as LLVM sees it (name and features): what the JIT's object
/// code is compiled for, so a compile cache shared between machines keys on it.
pub fn host_cpu() -> String {
    static CPU: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    // SAFETY: both return a string LLVM allocates, released with LLVMDisposeMessage.
    CPU.get_or_init(|| unsafe {
        let take = |p: *mut c_char| {
            if p.is_null() {
                return String::new();
            }
            let s = CStr::from_ptr(p).to_string_lossy().into_owned();
            LLVMDisposeMessage(p);
            s
        };
        format!("{} {}", take(LLVMGetHostCPUName()), take(LLVMGetHostCPUFeatures()))
    })
    .clone()
}

extern "C" {
    fn LLVMDisposeMessage(m: *mut c_char);
}

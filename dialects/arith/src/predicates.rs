//! Comparison predicates, in the order of their integer encoding upstream.

pub const CMPI_PREDICATES: &[&str] = &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];

pub const CMPF_PREDICATES: &[&str] =
    &["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"];

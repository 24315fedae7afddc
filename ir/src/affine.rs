//! Affine maps, as the tensor dialect's indexing maps need them:
//! `affine_map<(d0, d1)[s0] -> (d1, d0 + s0 * 2)>`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    Dim(u32),
    Sym(u32),
    Const(i64),
    Add(Box<AffineExpr>, Box<AffineExpr>),
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    Mod(Box<AffineExpr>, Box<AffineExpr>),
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
}

impl AffineExpr {
    /// Evaluates with the given dimension and symbol values; `None` on division by zero or overflow.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        use AffineExpr::*;
        Some(match self {
            Dim(i) => *dims.get(*i as usize)?,
            Sym(i) => *syms.get(*i as usize)?,
            Const(c) => *c,
            Add(a, b) => a.eval(dims, syms)?.checked_add(b.eval(dims, syms)?)?,
            Mul(a, b) => a.eval(dims, syms)?.checked_mul(b.eval(dims, syms)?)?,
            Mod(a, b) => {
                let d = b.eval(dims, syms)?;
                if d == 0 {
                    return None;
                }
                a.eval(dims, syms)?.rem_euclid(d)
            }
            FloorDiv(a, b) => {
                let d = b.eval(dims, syms)?;
                if d == 0 {
                    return None;
                }
                a.eval(dims, syms)?.div_euclid(d) - if d < 0 && a.eval(dims, syms)?.rem_euclid(d) != 0 { 1 } else { 0 }
            }
            CeilDiv(a, b) => {
                let d = b.eval(dims, syms)?;
                if d == 0 {
                    return None;
                }
                let n = a.eval(dims, syms)?;
                -((-n).div_euclid(d))
            }
        })
    }

    /// `(d, c)` when this is `d + c` or `c + d` of one dim and a constant, or
    /// `d` alone (`c` 0): an index an output may be written at (a slice or
    /// the interior of a padded buffer).
    pub fn dim_plus_const(&self) -> Option<(u32, i64)> {
        use AffineExpr::*;
        match self {
            Dim(d) => Some((*d, 0)),
            Add(a, b) => match (&**a, &**b) {
                (Dim(d), Const(c)) | (Const(c), Dim(d)) => Some((*d, *c)),
                _ => None,
            },
            _ => None,
        }
    }

    fn is_binary(&self) -> bool {
        !matches!(self, AffineExpr::Dim(_) | AffineExpr::Sym(_) | AffineExpr::Const(_))
    }

    fn fmt_strong(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_binary() && !self.is_negation() {
            write!(f, "({})", self)
        } else {
            write!(f, "{}", self)
        }
    }

    fn is_negation(&self) -> bool {
        matches!(self, AffineExpr::Mul(a, b) if !a.is_binary() && **b == AffineExpr::Const(-1))
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use AffineExpr::*;
        match self {
            Dim(i) => write!(f, "d{}", i),
            Sym(i) => write!(f, "s{}", i),
            Const(c) => write!(f, "{}", c),
            Add(a, b) => {
                write!(f, "{}", a)?;
                match &**b {
                    Mul(x, c) if matches!(**c, Const(k) if k < 0 && k != i64::MIN) => {
                        let Const(k) = **c else { unreachable!() };
                        f.write_str(" - ")?;
                        x.fmt_strong(f)?;
                        if k != -1 {
                            write!(f, " * {}", -k)?;
                        }
                        Ok(())
                    }
                    Const(k) if *k < 0 && *k != i64::MIN => write!(f, " - {}", -k),
                    Add(..) => write!(f, " + ({})", b),
                    _ => write!(f, " + {}", b),
                }
            }
            Mul(a, b) if **b == Const(-1) && !a.is_binary() => write!(f, "-{}", a),
            Mul(a, b) | Mod(a, b) | FloorDiv(a, b) | CeilDiv(a, b) => {
                let op = match self {
                    Mul(..) => "*",
                    Mod(..) => "mod",
                    FloorDiv(..) => "floordiv",
                    _ => "ceildiv",
                };
                a.fmt_strong(f)?;
                write!(f, " {} ", op)?;
                b.fmt_strong(f)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    pub num_dims: u32,
    pub num_syms: u32,
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    pub fn identity(n: u32) -> AffineMap {
        AffineMap { num_dims: n, num_syms: 0, results: (0..n).map(AffineExpr::Dim).collect() }
    }
    /// `(d0, .., dn-1) -> (d[perm[0]], ..)`.
    pub fn permutation(perm: &[u32]) -> AffineMap {
        AffineMap { num_dims: perm.len() as u32, num_syms: 0, results: perm.iter().map(|&p| AffineExpr::Dim(p)).collect() }
    }
    pub fn is_identity(&self) -> bool {
        self.num_syms == 0
            && self.results.len() == self.num_dims as usize
            && self.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }
    /// Applies the map to concrete dimension and symbol values.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|e| e.eval(dims, syms)).collect()
    }
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("(")?;
        for i in 0..self.num_dims {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "d{}", i)?;
        }
        f.write_str(")")?;
        if self.num_syms > 0 {
            f.write_str("[")?;
            for i in 0..self.num_syms {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "s{}", i)?;
            }
            f.write_str("]")?;
        }
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", e)?;
        }
        f.write_str(")")
    }
}

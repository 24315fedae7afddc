//! `--split-input-file`: chunks separated by a `// -----` line. Each chunk keeps
//! its first line number so diagnostics point into the whole file.

/// The chunks and the 1-based line each starts on.
pub fn split_input(src: &str) -> Vec<(String, u32)> {
    let mut chunks = vec![];
    let mut cur = String::new();
    let mut start = 1u32;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        if line.trim_end() == "// -----" {
            chunks.push((std::mem::take(&mut cur), start));
            start = i as u32 + 2;
            // Keep line numbers: the separator line becomes an empty line of the next chunk? No:
            // the next chunk starts right after it, at line i+2.
        } else {
            cur.push_str(line);
        }
    }
    chunks.push((cur, start));
    chunks
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_line_numbers() {
        let c = super::split_input("a\n// -----\nb\nc\n// -----\nd");
        assert_eq!(c, vec![("a\n".into(), 1), ("b\nc\n".into(), 3), ("d".into(), 6)]);
    }
}

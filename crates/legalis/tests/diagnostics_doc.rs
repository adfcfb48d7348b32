//! Keeps `docs/diagnostics.md` true to the code files: every code constant
//! has a row with the right name and severity, and every row has a constant.
//!
//! The code files are read as text, not through a list written here, so a
//! code added to either file fails this test until the doc gains its row.

use std::collections::BTreeMap;

const CODE_FILES: [(&str, &str); 7] = [
    (
        "crates/legalis/src/codes.rs",
        include_str!("../src/codes.rs"),
    ),
    (
        "crates/front/src/codes.rs",
        include_str!("../../front/src/codes.rs"),
    ),
    (
        "crates/sysval/src/codes.rs",
        include_str!("../../sysval/src/codes.rs"),
    ),
    (
        "crates/legalize-glsl/src/codes.rs",
        include_str!("../../legalize-glsl/src/codes.rs"),
    ),
    (
        "crates/legalize-varying/src/codes.rs",
        include_str!("../../legalize-varying/src/codes.rs"),
    ),
    (
        "crates/emit/src/codes.rs",
        include_str!("../../emit/src/codes.rs"),
    ),
    (
        "crates/bind/src/codes.rs",
        include_str!("../../bind/src/codes.rs"),
    ),
];
const DOC: &str = include_str!("../../../docs/diagnostics.md");

/// What one code says about itself: its constant and its severity.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    constant: String,
    severity: String,
}

/// `pub const NAME: u32 = 12345;` lines; a code is a warning when its doc
/// comment says `(warning`, as the codes files mark them.
fn codes_in(file: &str, text: &str) -> BTreeMap<String, Entry> {
    let mut codes = BTreeMap::new();
    let mut doc = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(comment) = line.strip_prefix("///") {
            doc.push_str(comment);
            continue;
        }
        if let Some(declaration) = line.strip_prefix("pub const ") {
            let parsed = declaration
                .split_once(": u32 = ")
                .and_then(|(name, value)| {
                    Some((name, value.strip_suffix(';')?.parse::<u32>().ok()?))
                });
            let Some((name, value)) = parsed else {
                panic!("{file}: cannot read `{line}`");
            };
            let severity = if doc.contains("(warning") {
                "warning"
            } else {
                "error"
            };
            let entry = Entry {
                constant: name.to_string(),
                severity: severity.to_string(),
            };
            let previous = codes.insert(format!("E{value:05}"), entry);
            assert!(previous.is_none(), "{file}: E{value:05} is defined twice");
        }
        doc.clear();
    }
    codes
}

/// Table rows `| E12345 | severity | `NAME` | meaning |`.
fn codes_in_doc() -> BTreeMap<String, Entry> {
    let mut codes = BTreeMap::new();
    for line in DOC.lines().filter(|line| line.starts_with("| E")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, code, severity, constant, ..] = cells.as_slice() else {
            panic!("docs/diagnostics.md: short row `{line}`");
        };
        let entry = Entry {
            constant: constant.trim_matches('`').to_string(),
            severity: severity.to_string(),
        };
        let previous = codes.insert(code.to_string(), entry);
        assert!(
            previous.is_none(),
            "docs/diagnostics.md: {code} has two rows"
        );
    }
    codes
}

#[test]
fn every_code_is_documented_and_every_documented_code_exists() {
    let mut in_code = BTreeMap::new();
    for (file, text) in CODE_FILES {
        for (code, entry) in codes_in(file, text) {
            assert!(
                !in_code.contains_key(&code),
                "{code} is defined in two files"
            );
            in_code.insert(code, entry);
        }
    }
    let in_doc = codes_in_doc();
    let undocumented: Vec<&String> = in_code
        .keys()
        .filter(|code| !in_doc.contains_key(*code))
        .collect();
    let stale: Vec<&String> = in_doc
        .keys()
        .filter(|code| !in_code.contains_key(*code))
        .collect();
    assert!(
        undocumented.is_empty(),
        "codes missing from docs/diagnostics.md: {undocumented:?}"
    );
    assert!(
        stale.is_empty(),
        "docs/diagnostics.md lists codes no file defines: {stale:?}"
    );
    for (code, entry) in &in_code {
        assert_eq!(
            &in_doc[code], entry,
            "{code}: the doc row disagrees with the codes file"
        );
    }
}

#[test]
fn the_parser_of_this_test_reads_what_it_should() {
    let text = "/// Something (warning).\npub const A: u32 = 31000;\n\npub const B: u32 = 1;\n";
    let codes = codes_in("t.rs", text);
    assert_eq!(codes.len(), 2);
    assert_eq!(codes["E31000"].severity, "warning");
    assert_eq!(codes["E00001"].constant, "B");
    assert_eq!(codes["E00001"].severity, "error");
}

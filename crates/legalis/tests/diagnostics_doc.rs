//! Keeps `docs/diagnostics.md` true to the code files: every code constant
//! has a row with the right name and severity, and every row has a constant;
//! and the internal errors are one set three ways: the codes marked
//! `(internal)` in the code files, the rows that say "a bug in Legalis"
//! and `legalis::codes::INTERNAL`, the list every test and fuzz target
//! reads.
//!
//! The code files are read as text, not through a list written here, so a
//! code added to either file fails this test until the doc gains its row,
//! and an internal code added anywhere fails it until the list has it.

use std::collections::{BTreeMap, BTreeSet};

const CODE_FILES: [(&str, &str); 7] = [
    (
        "crates/legalis/src/codes.rs",
        include_str!("../src/codes.rs"),
    ),
    (
        "crates/ir/src/codes.rs",
        include_str!("../../ir/src/codes.rs"),
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
        "crates/legalize/src/codes.rs",
        include_str!("../../legalize/src/codes.rs"),
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

/// The words of a doc row that mark an internal error.
const INTERNAL_IN_DOC: &str = "a bug in Legalis";

/// What one code says about itself: its constant, its severity and whether
/// it is an internal error.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    constant: String,
    severity: String,
    internal: bool,
}

/// `pub const NAME: u32 = 12345;` lines; a code is a warning when its doc
/// comment says `(warning`, and an internal error when it says
/// `(internal)`, as the codes files mark them. Constants of other types
/// are not codes.
fn codes_in(file: &str, text: &str) -> BTreeMap<String, Entry> {
    let mut codes = BTreeMap::new();
    let mut doc = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(comment) = line.strip_prefix("///") {
            doc.push_str(comment);
            continue;
        }
        if let Some(declaration) = line
            .strip_prefix("pub const ")
            .filter(|declaration| declaration.contains(": u32 "))
        {
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
                internal: doc.contains("(internal)"),
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
        let [_, code, severity, constant, meaning, ..] = cells.as_slice() else {
            panic!("docs/diagnostics.md: short row `{line}`");
        };
        let entry = Entry {
            constant: constant.trim_matches('`').to_string(),
            severity: severity.to_string(),
            internal: meaning.contains(INTERNAL_IN_DOC),
        };
        let previous = codes.insert(code.to_string(), entry);
        assert!(
            previous.is_none(),
            "docs/diagnostics.md: {code} has two rows"
        );
    }
    codes
}

/// Every code of every codes file.
fn codes_in_files() -> BTreeMap<String, Entry> {
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
    in_code
}

#[test]
fn every_code_is_documented_and_every_documented_code_exists() {
    let in_code = codes_in_files();
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
    let text = "/// Something (warning).\npub const A: u32 = 31000;\n\npub const B: u32 = 1;\n\
        /// A bug\n/// (internal): never expected.\npub const C: u32 = 49000;\n\
        /// Not a code.\npub const D: &[u32] = &[1];\n";
    let codes = codes_in("t.rs", text);
    assert_eq!(codes.len(), 3);
    assert_eq!(codes["E31000"].severity, "warning");
    assert_eq!(codes["E00001"].constant, "B");
    assert_eq!(codes["E00001"].severity, "error");
    assert!(!codes["E00001"].internal && !codes["E31000"].internal);
    assert!(codes["E49000"].internal);
    assert_eq!(codes["E49000"].severity, "error");
}

/// The internal errors: marked `(internal)` in the code files, "a bug in
/// Legalis" in the doc (checked row by row above) and the library's list,
/// the same set. Severity is "error" for each.
#[test]
fn the_internal_errors_are_the_marked_codes_and_the_library_list() {
    let marked: BTreeSet<String> = codes_in_files()
        .into_iter()
        .filter(|(_, entry)| entry.internal)
        .inspect(|(code, entry)| {
            assert_eq!(entry.severity, "error", "{code}: an internal warning");
        })
        .map(|(code, _)| code)
        .collect();
    let listed: BTreeSet<String> = legalis::codes::INTERNAL
        .iter()
        .map(|code| format!("E{code:05}"))
        .collect();
    assert_eq!(
        listed.len(),
        legalis::codes::INTERNAL.len(),
        "legalis::codes::INTERNAL lists a code twice"
    );
    assert_eq!(
        marked, listed,
        "the codes marked (internal) in the code files (left) and legalis::codes::INTERNAL (right) differ"
    );
    let in_doc: BTreeSet<String> = codes_in_doc()
        .into_iter()
        .filter(|(_, entry)| entry.internal)
        .map(|(code, _)| code)
        .collect();
    assert_eq!(
        in_doc, listed,
        "the rows of docs/diagnostics.md that say \"{INTERNAL_IN_DOC}\" (left) and legalis::codes::INTERNAL (right) differ"
    );
    for code in legalis::codes::INTERNAL {
        assert!(legalis::codes::is_internal(*code));
    }
}

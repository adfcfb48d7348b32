//! The preprocessor, lexer, parser and checker (no target): no panic, no
//! internal error.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    legalis::fuzz::pipeline(data, None);
});

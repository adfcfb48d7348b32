//! Source to metal output, through the facade: no panic, no internal error.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    legalis::fuzz::pipeline(data, Some(legalis::Target::Metal));
});

//! The library as a Rust user meets it: `Target`'s `Display`/`FromStr`,
//! `try_compile`'s `Result` and its `Error`, which renders the diagnostics
//! the command line prints and gives them as data.

use legalis::{Request, Target};

#[test]
fn every_target_name_reads_back() {
    for target in Target::ALL {
        let name = target.to_string();
        assert_eq!(name, target.name());
        assert_eq!(name.parse::<Target>(), Ok(target));
    }
    assert_eq!("spirv-assembly".parse::<Target>(), Ok(Target::SpirvAsm));
    let unknown = "hlsl".parse::<Target>().unwrap_err();
    let message = unknown.to_string();
    assert!(message.starts_with("unknown target 'hlsl'; targets: glsl spirv"));
    let boxed: Box<dyn std::error::Error> = Box::new(unknown);
    assert!(boxed.source().is_none());
}

#[test]
fn an_error_renders_what_the_command_line_prints_and_keeps_the_data() {
    let source = "[shader(\"vertex\")]\nfloat4 main() : SV_Position { return undefined_name; }\n";
    let request = Request::builder("bad.slang", source)
        .target(Target::Glsl)
        .build();
    let compiled = legalis::compile(&request);
    assert!(compiled.has_errors());
    let rendered = legalis::render::render_human(
        "bad.slang",
        &compiled.source_text,
        &compiled.diagnostics,
        false,
    );
    let error = legalis::try_compile(&request).unwrap_err();
    assert_eq!(error.to_string(), rendered.trim_end());
    assert_eq!(error.diagnostics(), compiled.diagnostics.as_slice());
    assert_eq!(error.path(), "bad.slang");
    assert_eq!(error.source_text(), source);
    let as_dyn: &dyn std::error::Error = &error;
    assert!(as_dyn.to_string().contains("error["));
}

#[test]
fn warnings_alone_are_a_success_that_keeps_them() {
    // `-fvk-use-scalar-layout` means nothing for WGSL: warning E00010.
    let source = "[shader(\"fragment\")]\nfloat4 main() : SV_Target { return 1; }\n";
    let policy = legalis::Policy {
        buffer_layout: legalis::ir::BufferLayout::Scalar,
        ..legalis::Policy::default()
    };
    let request = Request::builder("warn.slang", source)
        .target(Target::Wgsl)
        .policy(policy)
        .build();
    let compiled = legalis::try_compile(&request).expect("warnings are not errors");
    assert!(
        compiled
            .diagnostics
            .iter()
            .any(|d| d.code_str() == "E00010" && !d.is_error()),
        "{:?}",
        compiled.diagnostics
    );
    let output = compiled.output.expect("code was written");
    assert!(output.text().is_some_and(|wgsl| wgsl.contains("@fragment")));
}

#[test]
fn spirv_is_bytes_not_text() {
    let source = "[shader(\"fragment\")]\nfloat4 main() : SV_Target { return 1; }\n";
    let request = Request::builder("f.slang", source)
        .target(Target::Spirv)
        .build();
    let output = legalis::try_compile(&request).unwrap().output.unwrap();
    assert_eq!(&output.bytes[..4], &0x0723_0203_u32.to_le_bytes());
    assert_eq!(output.text(), None);
}

//! `Threads::CallingThread`: a compilation that starts no thread and needs
//! no more stack than a main thread's usual 8 MiB, even for the deepest
//! nesting the front end accepts, on every target. One test in this binary
//! so that nothing else starts the worker pool first.

use legalis::{Request, Target, Threads};

/// The names of this process's threads that are Legalis workers.
fn worker_threads() -> Vec<String> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("Linux has /proc/self/task");
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .filter(|name| name.starts_with("legalis-front"))
        .collect()
}

/// The deepest shaders the front end accepts: 126 nested blocks (127 with
/// the function body), 126 nested parentheses and a 251-term sum (the
/// limits are 128 levels of nesting and 256 nested operations after
/// parsing; the bad-input catalogue has the refusals).
fn deepest_accepted() -> Vec<String> {
    let vertex = |body: String| {
        format!(
            "[shader(\"vertex\")]\nfloat4 main(float4 p : POSITION) : SV_Position\n{{\n{body}\n}}\n"
        )
    };
    vec![
        vertex(format!(
            "{}float x = p.x;{}\n    return float4(1, 0, 0, 1);",
            "{".repeat(126),
            "}".repeat(126)
        )),
        vertex(format!(
            "    float x = {}p.x{};\n    return float4(x, 0, 0, 1);",
            "(".repeat(126),
            ")".repeat(126)
        )),
        vertex(format!(
            "    float x = p.x{};\n    return float4(x, 0, 0, 1);",
            " + p.y".repeat(250)
        )),
    ]
}

#[test]
fn calling_thread_starts_no_worker_and_fits_a_main_thread_stack() {
    let sources = deepest_accepted();
    let compiled = std::thread::Builder::new()
        .name("caller".into())
        .stack_size(8 << 20)
        .spawn(move || {
            let mut runs = 0;
            for source in &sources {
                for target in [Target::Glsl, Target::Spirv, Target::Wgsl, Target::Metal] {
                    let request = Request::builder("deep.slang", source.as_str())
                        .target(target)
                        .threads(Threads::CallingThread)
                        .build();
                    let compiled = legalis::try_compile(&request)
                        .unwrap_or_else(|error| panic!("{target}: {error}"));
                    assert!(compiled.output.is_some(), "{target}: no code");
                    runs += 1;
                }
            }
            runs
        })
        .expect("a thread starts")
        .join()
        .expect("no panic and no stack overflow on the caller's 8 MiB");
    assert_eq!(compiled, 12, "every source on every target ran");
    assert_eq!(worker_threads(), Vec::<String>::new());

    // The check can see workers: the default starts them.
    let request = Request::builder("deep.slang", deepest_accepted()[0].as_str())
        .target(Target::Glsl)
        .build();
    assert!(legalis::try_compile(&request).is_ok());
    assert!(!worker_threads().is_empty(), "the default uses the pool");
}

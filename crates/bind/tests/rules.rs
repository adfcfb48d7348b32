//! The binding rules and checks on small modules from the front end.

use legalis_bind::{
    Kind, MetalTable, Options, Place, Plan, Planned, Shift, Target, codes, plan, render_json,
    render_text,
};
use legalis_ir::RegisterClass;
use legalis_legalize::Family;

fn module(src: &str) -> legalis_ir::Module {
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    match out.module {
        Some(module) => module,
        None => panic!("front end rejects the source: {:?}", out.diagnostics),
    }
}

fn planned(src: &str, target: Target, options: &Options) -> Planned {
    plan(&module(src), 0, target, options)
}

fn place(plan: &Plan, name: &str) -> Place {
    plan.resources
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no resource `{name}`"))
        .place
}

fn set_binding(set: u32, binding: u32) -> Place {
    Place::Descriptor { set, binding }
}

fn codes_of(p: &Planned) -> Vec<u32> {
    p.diagnostics.iter().map(|d| d.code).collect()
}

const KINDS: &str = "
    [[vk::binding(0, 0)]] Texture2D<float4> a;
    Texture2D<float4> b : register(t1, space2);
    Texture2D<float4> c;
    float plain;
    RWStructuredBuffer<uint> rw;
    SamplerState s : register(s3);
    [shader(\"compute\")] [numthreads(1, 1, 1)]
    void main() { rw[0] = uint(plain) + uint(a.Load(int3(0, 0, 0)).x + b.Load(int3(0, 0, 0)).x + c.SampleLevel(s, float2(0, 0), 0).x); }";

#[test]
fn vulkan_is_vk_binding_then_register_then_declaration_order() {
    let p = planned(KINDS, Target::Vulkan, &Options::default());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let plan = &p.plan;
    assert_eq!(place(plan, "a"), set_binding(0, 0));
    assert_eq!(place(plan, "b"), set_binding(2, 1));
    assert_eq!(place(plan, "_Globals"), set_binding(0, 1));
    assert_eq!(place(plan, "c"), set_binding(0, 2));
    assert_eq!(place(plan, "rw"), set_binding(0, 4));
    assert_eq!(place(plan, "s"), set_binding(0, 3));
    assert_eq!(plan.resources[0].kind, Kind::Globals);
    let rw = plan.resources.iter().find(|r| r.name == "rw").unwrap();
    assert_eq!(rw.kind, Kind::RwStructuredBuffer);
    assert_eq!(rw.reason, "automatic: next free binding in set 0");
}

#[test]
fn shifts_apply_per_class_and_space_and_the_last_wins() {
    let options = Options {
        shifts: vec![
            Shift {
                class: RegisterClass::T,
                space: None,
                amount: 5,
            },
            Shift {
                class: RegisterClass::T,
                space: Some(2),
                amount: 100,
            },
            Shift {
                class: RegisterClass::S,
                space: Some(1),
                amount: 50,
            },
        ],
        bind_globals: Some((9, 4)),
    };
    let p = planned(KINDS, Target::Vulkan, &options);
    let plan = &p.plan;
    // vk::binding is never shifted.
    assert_eq!(place(plan, "a"), set_binding(0, 0));
    assert_eq!(place(plan, "b"), set_binding(2, 101));
    let b = plan.resources.iter().find(|r| r.name == "b").unwrap();
    assert_eq!(b.reason, "register t1 space2 + t-shift 100");
    // The s-shift names space 1; `s` is in space 0.
    assert_eq!(place(plan, "s"), set_binding(0, 3));
    assert_eq!(place(plan, "_Globals"), set_binding(4, 9));
    assert_eq!(place(plan, "c"), set_binding(0, 1));
    // `all` and a later option of one space: the later wins there.
    let later = Options {
        shifts: vec![
            Shift {
                class: RegisterClass::T,
                space: Some(2),
                amount: 100,
            },
            Shift {
                class: RegisterClass::T,
                space: None,
                amount: 7,
            },
        ],
        bind_globals: None,
    };
    assert_eq!(
        place(&planned(KINDS, Target::Vulkan, &later).plan, "b"),
        set_binding(2, 8)
    );
}

#[test]
fn wgsl_moves_a_taken_pair_to_the_next_free_binding() {
    let src = "Texture2D<float4> t : register(t0); SamplerState s : register(s0);
        [shader(\"fragment\")] float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }";
    let vulkan = planned(src, Target::Vulkan, &Options::default());
    assert_eq!(place(&vulkan.plan, "s"), set_binding(0, 0));
    assert_eq!(codes_of(&vulkan), [codes::VULKAN_BINDING_COLLISION]);
    let wgsl = planned(src, Target::Wgsl, &Options::default());
    assert!(wgsl.diagnostics.is_empty());
    assert_eq!(place(&wgsl.plan, "t"), set_binding(0, 0));
    assert_eq!(place(&wgsl.plan, "s"), set_binding(0, 1));
    let s = wgsl.plan.resources.iter().find(|r| r.name == "s").unwrap();
    assert!(s.reason.contains("is `t`'s"), "{}", s.reason);
}

#[test]
fn metal_numbers_each_table_and_skips_what_the_entry_point_does_not_use() {
    let src = "Texture2D<float4> t : register(t2); Texture2D<float4> unused;
        SamplerState s : register(s1); cbuffer C : register(b0) { float4 k; };
        StructuredBuffer<float4> sb : register(t0); float g;
        [shader(\"fragment\")] float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv) * k * g + sb[0]; }";
    let p = planned(src, Target::Metal, &Options::default()).plan;
    let metal = |table, index| Place::Metal { table, index };
    assert_eq!(place(&p, "t"), metal(MetalTable::Texture, 2));
    assert_eq!(place(&p, "s"), metal(MetalTable::Sampler, 1));
    assert_eq!(place(&p, "C"), metal(MetalTable::Buffer, 0));
    // t0 fits the buffer table but C holds buffer(0): the next free one,
    // after _Globals.
    assert_eq!(place(&p, "_Globals"), metal(MetalTable::Buffer, 1));
    assert_eq!(place(&p, "sb"), metal(MetalTable::Buffer, 2));
    assert_eq!(place(&p, "unused"), Place::None);
}

#[test]
fn cuda_takes_used_resources_in_declaration_order_then_globals() {
    let src = "RWStructuredBuffer<float> a; StructuredBuffer<float> unused; StructuredBuffer<float> b; float g;
        [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { a[0] = b[0] * g; }";
    let p = planned(src, Target::Cuda, &Options::default()).plan;
    assert_eq!(place(&p, "a"), Place::KernelParameter(0));
    assert_eq!(place(&p, "b"), Place::KernelParameter(1));
    assert_eq!(place(&p, "_Globals"), Place::KernelParameter(2));
    assert_eq!(place(&p, "unused"), Place::None);
    // An OptiX program: members of LaunchParams; `scene` is not used.
    let optix = "RaytracingAccelerationStructure scene; RWStructuredBuffer<float> out_; float g;
        [shader(\"raygeneration\")] void main() { out_[0] = g; }";
    let p = planned(optix, Target::Cuda, &Options::default()).plan;
    assert_eq!(place(&p, "out_"), Place::LaunchParams(0));
    assert_eq!(place(&p, "_Globals"), Place::LaunchParams(1));
    assert_eq!(place(&p, "scene"), Place::None);
}

fn limit_source(textures: u32, samplers: u32, cbuffers: u32) -> String {
    let mut src = format!("Texture2D<float4> t[{textures}]; SamplerState s[{samplers}];\n");
    let mut sum = String::from("float4(0, 0, 0, 0)");
    for i in 0..cbuffers {
        src.push_str(&format!("cbuffer C{i} {{ float4 c{i}; }};\n"));
        sum.push_str(&format!(" + c{i}"));
    }
    src.push_str(&format!(
        "RWStructuredBuffer<float4> o;
        [shader(\"compute\")] [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID)
        {{ o[0] = t[id.x % {textures}].SampleLevel(s[id.x % {samplers}], float2(0, 0), 0) + {sum}; }}"
    ));
    src
}

#[test]
fn limits_hold_at_their_boundary_and_fail_one_past_it() {
    let check = |t, s, b| {
        codes_of(&planned(
            &limit_source(t, s, b),
            Target::Vulkan,
            &Options::default(),
        ))
    };
    assert!(check(128, 16, 14).is_empty());
    assert_eq!(check(129, 16, 14), [codes::TOO_MANY_SHADER_RESOURCES]);
    assert_eq!(check(128, 17, 14), [codes::TOO_MANY_SAMPLERS]);
    assert_eq!(check(128, 16, 15), [codes::TOO_MANY_CONSTANT_BUFFERS]);
    // The limits hold on every target.
    let metal = planned(&limit_source(129, 1, 1), Target::Metal, &Options::default());
    assert_eq!(codes_of(&metal), [codes::TOO_MANY_SHADER_RESOURCES]);
}

#[test]
fn wrong_register_classes_are_refused_once_each() {
    let src = "Texture2D<float4> t : register(b0); SamplerState s : register(t0);
        RWTexture2D<float4> w : register(t1); cbuffer C : register(t2) { float4 k; };
        [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { w[uint2(0, 0)] = t.SampleLevel(s, float2(0, 0), 0) * k; }";
    let p = planned(src, Target::Vulkan, &Options::default());
    assert_eq!(codes_of(&p), [codes::REGISTER_CLASS_MISMATCH; 4]);
    assert!(p.has_errors());
}

#[test]
fn overlaps_count_array_lengths_and_only_used_resources() {
    let src = |decls: &str, uses: &str| {
        format!(
            "{decls} RWStructuredBuffer<float4> o : register(u0);
            [shader(\"compute\")] [numthreads(1, 1, 1)] void main() {{ o[0] = {uses}; }}"
        )
    };
    let array = src(
        "Texture2D<float4> a[3] : register(t1); Texture2D<float4> b : register(t3);",
        "a[0].Load(int3(0, 0, 0)) + b.Load(int3(0, 0, 0))",
    );
    let p = planned(&array, Target::Wgsl, &Options::default());
    assert_eq!(codes_of(&p), [codes::OVERLAPPING_REGISTERS]);
    assert!(p.diagnostics[0].message.contains("`b`"));
    let next = array.replace("register(t3)", "register(t4)");
    assert!(
        planned(&next, Target::Vulkan, &Options::default())
            .diagnostics
            .is_empty()
    );
    let unused = src(
        "Texture2D<float4> a : register(t1); Texture2D<float4> b : register(t1);",
        "float4(0, 0, 0, 0)",
    );
    assert!(
        planned(&unused, Target::Vulkan, &Options::default())
            .diagnostics
            .is_empty()
    );
    let vk = src(
        "[[vk::binding(2, 1)]] Texture2D<float4> a; [[vk::binding(2, 1)]] Texture2D<float4> b;",
        "a.Load(int3(0, 0, 0)) + b.Load(int3(0, 0, 0))",
    );
    let p = planned(&vk, Target::Metal, &Options::default());
    assert_eq!(codes_of(&p), [codes::OVERLAPPING_VK_BINDINGS]);
    // A texture and a sampler at one binding: a combined image sampler.
    let combined = src(
        "[[vk::binding(2, 1)]] Texture2D<float4> a; [[vk::binding(2, 1)]] SamplerState s;",
        "a.SampleLevel(s, float2(0, 0), 0)",
    );
    for target in [Target::Vulkan, Target::Wgsl] {
        assert!(
            planned(&combined, target, &Options::default())
                .diagnostics
                .is_empty()
        );
    }
}

#[test]
fn a_shift_separates_classes_that_would_collide() {
    let src = "Texture2D<float4> t : register(t0); SamplerState s : register(s0);
        [shader(\"fragment\")] float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }";
    let shifted = Options {
        shifts: vec![Shift {
            class: RegisterClass::S,
            space: Some(0),
            amount: 16,
        }],
        bind_globals: None,
    };
    let p = planned(src, Target::Vulkan, &shifted);
    assert!(p.diagnostics.is_empty());
    assert_eq!(place(&p.plan, "s"), set_binding(0, 16));
}

#[test]
fn uniform_resource_parameters_become_the_bound_globals() {
    let src = "[shader(\"compute\")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> o, uniform float k) { o[id.x] = k; }";
    let module = module(src);
    // The legalizer inlines the resource argument (its tests check how);
    // the plan binds the global it reads.
    let legalized = legalis_legalize::glsl::Glsl::legalize(&module, 0, &Default::default())
        .unwrap()
        .module;
    let p = plan(&legalized, 0, Target::Vulkan, &Options::default()).plan;
    assert_eq!(place(&p, "o"), set_binding(0, 1));
    assert!(p.get(p.resources[1].global.unwrap()).is_some());
}

#[test]
fn the_dump_is_text_or_versioned_json() {
    let p = planned(KINDS, Target::Vulkan, &Options::default()).plan;
    let text = render_text(&p, "glsl");
    assert!(
        text.starts_with("bindings of `main` (compute) for glsl: 6 resources\n"),
        "{text}"
    );
    assert!(text.contains("  b: texture `Texture2D<float4>`, register(t1, space2)\n    -> set 2, binding 1 (register t1 space2)\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&render_json(&p, "glsl")).unwrap();
    assert_eq!(json["schema"], legalis_bind::SCHEMA);
    assert_eq!(json["resources"][0]["kind"], "globals-block");
    assert_eq!(json["resources"][1]["vk_binding"]["set"], 0);
    assert_eq!(json["resources"][2]["place"]["set"], 2);
}

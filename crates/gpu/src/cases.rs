//! The execution tests, as data: each case's source, entry points,
//! pipeline and the words it must produce, computed here on the CPU from
//! HLSL's meaning of the shader (not from Legalis' output).

use crate::{Draw, Expect, Pipeline, Rays, Scene};

/// One execution test before compilation.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub purpose: &'static str,
    /// The file under `crates/gpu/shaders/`.
    pub file: &'static str,
    pub source: &'static str,
    /// `(entry point, stage name)`, in pipeline order.
    pub entries: &'static [(&'static str, &'static str)],
    pub pipeline: Pipeline,
    pub expect: Vec<Expect>,
    /// Compile with `VertexIdBase::Raw` (`-fvk-raw-vertex-id`): ids are
    /// Vulkan's, not rebased.
    pub raw_vertex_ids: bool,
    /// Compile with `-fvk-widen-16bit-varyings`: 16-bit varyings travel
    /// as 32-bit ones.
    pub widen_16bit: bool,
    /// A negative control: the results must differ from `expect`.
    pub control: bool,
}

/// Every case, in the order the runner runs them.
pub fn all() -> Vec<Case> {
    vec![
        compute_ids(),
        vertex_instance_ids(),
        vertex_instance_ids_raw(),
        varying_widths(),
        varying_half(),
        varying_half_widened(),
        varying_64bit(),
        geometry(),
        geometry_streams(),
        tessellation(),
        mesh(),
        clip_distance(),
        ray_tracing(),
        ray_consolidated(),
        ray_procedural(),
    ]
}

/// A draw of `vertex_count` vertices into one `width` x `height` target.
fn draw(width: u32, height: u32, vertex_count: u32) -> Draw {
    Draw {
        width,
        height,
        targets: 1,
        patch_points: 0,
        buffer_words: 0,
        vertex_count,
        instance_count: 1,
        first_vertex: 0,
        first_instance: 0,
        mesh_groups: [0; 3],
        capture_words: [0; 4],
    }
}

/// Compute ids for a 3 x 2 x 2 dispatch of 5 x 3 x 2 groups.
fn compute_ids() -> Case {
    const GROUPS: [u32; 3] = [3, 2, 2];
    const LOCAL: [u32; 3] = [5, 3, 2];
    let dims = [
        GROUPS[0] * LOCAL[0],
        GROUPS[1] * LOCAL[1],
        GROUPS[2] * LOCAL[2],
    ];
    let threads = (dims[0] * dims[1] * dims[2]) as usize;
    let mut expect = vec![Expect::U(crate::SENTINEL); threads * 16];
    for z in 0..dims[2] {
        for y in 0..dims[1] {
            for x in 0..dims[0] {
                let slot = (x + y * dims[0] + z * dims[0] * dims[1]) as usize;
                let gid = [x / LOCAL[0], y / LOCAL[1], z / LOCAL[2]];
                let gtid = [x % LOCAL[0], y % LOCAL[1], z % LOCAL[2]];
                // HLSL: SV_GroupIndex = z * X * Y + y * X + x of the group thread id.
                let gindex = gtid[2] * LOCAL[0] * LOCAL[1] + gtid[1] * LOCAL[0] + gtid[0];
                let words = [
                    x,
                    y,
                    z,
                    0xC0FFEE,
                    gid[0],
                    gid[1],
                    gid[2],
                    gindex,
                    gtid[0],
                    gtid[1],
                    gtid[2],
                    gindex * 2 + 1,
                    gid[0] + gid[1] * GROUPS[0] + gid[2] * GROUPS[0] * GROUPS[1],
                    gtid[0] + gtid[1] * LOCAL[0] + gtid[2] * LOCAL[0] * LOCAL[1],
                    0,
                    0,
                ];
                for (i, w) in words.into_iter().enumerate() {
                    expect[slot * 16 + i] = Expect::U(w);
                }
            }
        }
    }
    Case {
        name: "compute-ids",
        purpose: "SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID and SV_GroupIndex of every thread \
                  of a 3x2x2 dispatch of [numthreads(5,3,2)] groups",
        file: "compute-ids.slang",
        source: include_str!("../shaders/compute-ids.slang"),
        entries: &[("main", "compute")],
        pipeline: Pipeline::Compute {
            groups: GROUPS,
            words: threads as u32 * 16,
        },
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// `SV_VertexID`/`SV_InstanceID` under firstVertex 7, firstInstance 5.
fn vertex_instance_ids() -> Case {
    const W: u32 = 8;
    const H: u32 = 4;
    let mut expect = Vec::new();
    for y in 0..H {
        for x in 0..W {
            // Triangle x of instance y; the provoking (first) vertex's
            // zero-based id is 3x, whatever the draw's bases.
            expect.extend([3 * x, y, x, y].map(Expect::U));
        }
    }
    Case {
        name: "vertex-instance-ids",
        purpose: "SV_VertexID and SV_InstanceID count from 0 in a draw with firstVertex 7 and \
                  firstInstance 5 (B6 rebasing), through flat varyings",
        file: "vertex-instance-ids.slang",
        source: include_str!("../shaders/vertex-instance-ids.slang"),
        entries: &[("vmain", "vertex"), ("fmain", "fragment")],
        pipeline: Pipeline::Draw(Draw {
            instance_count: H,
            first_vertex: 7,
            first_instance: 5,
            ..draw(W, H, 3 * W)
        }),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// The same draw compiled without rebasing: the ids are Vulkan's
/// (firstVertex + 3x, firstInstance + y), the triangles land elsewhere, and
/// the comparison must fail.
fn vertex_instance_ids_raw() -> Case {
    Case {
        name: "vertex-instance-ids-raw",
        purpose: "negative control: the rebasing draw compiled with -fvk-raw-vertex-id must not \
                  produce the zero-based ids",
        raw_vertex_ids: true,
        widen_16bit: false,
        control: true,
        ..vertex_instance_ids()
    }
}

/// Flattened varyings of several widths, one triangle per pixel.
fn varying_widths() -> Case {
    const W: u32 = 8;
    let mut targets = [Vec::new(), Vec::new(), Vec::new()];
    for k in 0..W {
        let kf = k as f32;
        let bits = (k & 1)
            | ((k & 1) << 1)
            | (((k >> 1) & 1) << 2)
            | (((k >> 2) & 1) << 3)
            | (u32::from(k == 5) << 4);
        targets[0].extend([
            Expect::U((kf * 1.5 - 3.0).to_bits()),
            Expect::F(kf + 0.25),
            Expect::U((-100 * k as i32 - 7) as u32),
            Expect::U(0xF000_0000 + k),
        ]);
        targets[1].extend([
            Expect::U(k * 3),
            Expect::U(0xFFFF_FFFF - k),
            Expect::U(bits),
            Expect::U((k as i32 - 4) as u32),
        ]);
        targets[2].extend([kf * 0.5, -kf, kf + 100.0, 0.125].map(|v: f32| Expect::U(v.to_bits())));
    }
    Case {
        name: "varying-widths",
        purpose: "a vertex output struct with a nested struct, an array, float, int, uint, uint2, \
                  bool and bool3 members arrives intact at the fragment stage",
        file: "varying-widths.slang",
        source: include_str!("../shaders/varying-widths.slang"),
        entries: &[("vmain", "vertex"), ("fmain", "fragment")],
        pipeline: Pipeline::Draw(Draw {
            targets: 3,
            ..draw(W, 1, 3 * W)
        }),
        expect: targets.concat(),
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// `half` varyings (needs storageInputOutput16).
fn varying_half() -> Case {
    const W: u32 = 4;
    let mut expect = Vec::new();
    for k in 0..W {
        let kf = k as f32;
        // Every value is exact in half precision.
        expect.extend([
            Expect::U((kf * 0.5 - 1.0).to_bits()),
            Expect::U((kf + 1024.0).to_bits()),
            Expect::U((-0.0625 * kf).to_bits()),
            Expect::F(kf * 2.0 + 0.5),
        ]);
    }
    Case {
        name: "varying-half",
        purpose: "half and half2 varyings, flat and interpolated, arrive intact at the fragment stage",
        file: "varying-half.slang",
        source: include_str!("../shaders/varying-half.slang"),
        entries: &[("vmain", "vertex"), ("fmain", "fragment")],
        pipeline: Pipeline::Draw(draw(W, 1, 3 * W)),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// The `half` case compiled with `-fvk-widen-16bit-varyings`: the same
/// values arrive through 32-bit interface variables, on a device without
/// 16-bit inputs and outputs too.
fn varying_half_widened() -> Case {
    Case {
        name: "varying-half-widened",
        purpose: "half and half2 varyings widened to 32 bits (-fvk-widen-16bit-varyings) arrive \
                  intact at the fragment stage",
        widen_16bit: true,
        ..varying_half()
    }
}

/// An [instance(2)] geometry shader copying each triangle to row n.
fn geometry() -> Case {
    const W: u32 = 4;
    const H: u32 = 2;
    let mut expect = Vec::new();
    for y in 0..H {
        for x in 0..W {
            // Copy y of triangle x; its provoking vertex is the first
            // appended, input[0], whose vertex id is 3x.
            expect.extend([3 * x, x, y, x + 100 * y].map(Expect::U));
        }
    }
    Case {
        name: "geometry",
        purpose: "SV_PrimitiveID and SV_GSInstanceID of an [instance(2)] geometry shader and a \
                  vertex-stage varying reach the fragment stage through the geometry stage",
        file: "geometry.slang",
        source: include_str!("../shaders/geometry.slang"),
        entries: &[
            ("vmain", "vertex"),
            ("gmain", "geometry"),
            ("fmain", "fragment"),
        ],
        pipeline: Pipeline::Draw(draw(W, H, 3 * W)),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// Two geometry streams captured by transform feedback, stream 0 also
/// rasterized. The capture buffers hold room for more vertices than each
/// stream emits, so a vertex of the other stream captured there shows.
fn geometry_streams() -> Case {
    const W: u32 = 8;
    const TRIANGLES: u32 = 4;
    // Words per captured vertex (the slots' strides: 24, 12 and 16 bytes)
    // and the vertices each capture buffer has room for.
    const STRIDES: [u32; 3] = [6, 3, 4];
    const ROOM: [u32; 3] = [TRIANGLES + 2, 2 * TRIANGLES + 2, 2 * TRIANGLES + 2];
    let f = |v: f32| Expect::U(v.to_bits());
    let mut pixels = vec![Expect::U(crate::SENTINEL); (W * 4) as usize];
    let mut slots: Vec<Vec<Expect>> = (0..3)
        .map(|s| vec![Expect::U(crate::SENTINEL); (STRIDES[s] * ROOM[s]) as usize])
        .collect();
    for k in 0..TRIANGLES {
        let kf = k as f32;
        // Stream 0: one point; SV_PrimitiveID is k, input[2] is vertex
        // 3k + 2 of the draw.
        let id = 10 * k + 3 * k + 2;
        let x = (2.0 * kf + 1.5) / 4.0 - 1.0;
        let pixel = (2 * k + 1) as usize;
        pixels[pixel * 4..pixel * 4 + 4].copy_from_slice(&[
            Expect::U(id),
            f(kf + 0.25),
            f(-kf - 0.5),
            Expect::U(2 * k + 1),
        ]);
        // Slot 0: ID at offset 0, a one-component gap the capture leaves
        // alone, COLOR0.yz, SV_Position.xy.
        let at = (k * STRIDES[0]) as usize;
        slots[0][at] = Expect::U(id);
        slots[0][at + 2..at + 6].copy_from_slice(&[f(kf + 0.25), f(-kf - 0.5), f(x), f(0.0)]);
        // Stream 1: two points, captured in emission order.
        for j in 0..2 {
            let jf = j as f32;
            let vertex = 2 * k + j;
            let at = (vertex * STRIDES[1]) as usize;
            slots[1][at..at + 3].copy_from_slice(&[f(kf), f(jf), f(kf * 2.0 + jf * 0.5)]);
            // Slot 2: TAG.y at 0, WEIGHT at 4; bytes 8..16 of its
            // 16-byte stride are not captured.
            let at = (vertex * STRIDES[2]) as usize;
            slots[2][at..at + 2]
                .copy_from_slice(&[Expect::U(1000 + 2 * k + j), f(kf * 0.5 + jf * 0.125)]);
        }
    }
    Case {
        name: "geometry-streams",
        purpose: "a geometry shader's streams 0 and 1 (PointStream each): transform feedback \
                  captures exactly each stream's vertices as [StreamOutput] declares them (in \
                  place, through copies of parts and of SV_Position, with a gap and an explicit \
                  stride), and only stream 0 is rasterized",
        file: "geometry-streams.slang",
        source: include_str!("../shaders/geometry-streams.slang"),
        entries: &[
            ("vmain", "vertex"),
            ("gmain", "geometry"),
            ("fmain", "fragment"),
        ],
        pipeline: Pipeline::Draw(Draw {
            capture_words: [
                STRIDES[0] * ROOM[0],
                STRIDES[1] * ROOM[1],
                STRIDES[2] * ROOM[2],
                0,
            ],
            ..draw(W, 1, 3 * TRIANGLES)
        }),
        expect: [pixels, slots.concat()].concat(),
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// Quad patches with tessellation factors k + 1 from the patch-constant
/// function.
fn tessellation() -> Case {
    const W: u32 = 4;
    let mut pixels = Vec::new();
    let mut points = vec![Expect::U(crate::SENTINEL); (W * 25) as usize];
    for k in 0..W {
        pixels.extend([k * 100 + 7, k, k, 0].map(Expect::U));
        let f = k + 1;
        for j in 0..=f {
            for i in 0..=f {
                points[(k * 25 + i + j * 5) as usize] = Expect::U(k * 100 + 8);
            }
        }
    }
    Case {
        name: "tessellation",
        purpose: "edge and inside factors k + 1 and a user patch constant written by the hull \
                  stage's patch-constant function reach the tessellator and the domain stage: \
                  the domain points of patch k are exactly (i/F, j/F) for F = k + 1",
        file: "tessellation.slang",
        source: include_str!("../shaders/tessellation.slang"),
        entries: &[
            ("vmain", "vertex"),
            ("hmain", "hull"),
            ("dmain", "domain"),
            ("fmain", "fragment"),
        ],
        pipeline: Pipeline::Draw(Draw {
            patch_points: 4,
            buffer_words: W * 25,
            ..draw(W, 1, 4 * W)
        }),
        expect: [pixels, points].concat(),
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// Two amplification groups of four mesh groups, one triangle each.
fn mesh() -> Case {
    const W: u32 = 8;
    let mut expect = Vec::new();
    for c in 0..W {
        expect.extend([c / 4 * 4, c % 4, c, 0].map(Expect::U));
    }
    Case {
        name: "mesh",
        purpose: "an amplification payload reaches the mesh stage, and a mesh stage's per-vertex \
                  and per-primitive outputs reach the fragment stage",
        file: "mesh.slang",
        source: include_str!("../shaders/mesh.slang"),
        entries: &[
            ("amain", "amplification"),
            ("mmain", "mesh"),
            ("fmain", "fragment"),
        ],
        pipeline: Pipeline::Draw(Draw {
            mesh_groups: [2, 1, 1],
            ..draw(W, 1, 0)
        }),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// The ray-tracing scene: one triangle in the plane z = 0 whose hull
/// covers the columns x < 4 of the rows the rays start in.
const TRIANGLE: [[f32; 3]; 3] = [[0.0, -1.0, 0.0], [4.0, -1.0, 0.0], [0.0, 20.0, 0.0]];

/// An 8 x 2 launch against [`TRIANGLE`].
fn ray_tracing() -> Case {
    const W: u32 = 8;
    const H: u32 = 2;
    let triangle = TRIANGLE;
    let mut expect = Vec::new();
    for y in 0..H {
        for x in 0..W {
            // The ray's origin, projected on the triangle's plane z = 0.
            let (px, py) = (x as f32 + 0.25, y as f32 + 0.25);
            // HLSL's barycentrics are the weights of vertices 1 and 2.
            let u = (px - triangle[0][0]) / (triangle[1][0] - triangle[0][0]);
            let v = (py - triangle[0][1]) / (triangle[2][1] - triangle[0][1]);
            let hit = u >= 0.0 && v >= 0.0 && u + v <= 1.0;
            if hit {
                expect.extend([Expect::F(u), Expect::F(v), Expect::F(2.0), Expect::U(0)]);
                expect.extend([0, 5, 0xFF, W * 100 + H].map(Expect::U));
            } else {
                // Miss: RayTCurrent() is TMax; the hit fields keep their
                // initial values.
                expect.extend(
                    [
                        (-1.0f32).to_bits(),
                        (-1.0f32).to_bits(),
                        100.0f32.to_bits(),
                        1,
                    ]
                    .map(Expect::U),
                );
                expect.extend([77, 77, 77, W * 100 + H].map(Expect::U));
            }
            expect.extend([(x + 10 * y) * 3 + 1, 2.0f32.to_bits(), x, y].map(Expect::U));
        }
    }
    Case {
        name: "ray-tracing",
        purpose: "a ray payload of several fields makes the round trip through closest-hit \
                  (barycentrics, RayTCurrent, PrimitiveIndex, InstanceID, HitKind) and miss, and \
                  callable data through a callable shader",
        file: "ray.slang",
        source: include_str!("../shaders/ray.slang"),
        entries: &[
            ("rgen", "raygeneration"),
            ("miss", "miss"),
            ("chit", "closesthit"),
            ("call", "callable"),
        ],
        pipeline: Pipeline::Rays(Rays {
            launch: [W, H, 1],
            words: W * H * 12,
            scene: Scene::Triangle(triangle),
            custom_index: 5,
        }),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// Three clip planes from a float2 and a float clip-distance output.
fn clip_distance() -> Case {
    const W: u32 = 8;
    let mut expect = Vec::new();
    for k in 0..W {
        match k {
            1..=3 => expect.extend([Expect::U(crate::SENTINEL); 4]),
            _ => expect.extend([k, 1, k, 0].map(Expect::U)),
        }
    }
    Case {
        name: "clip-distance",
        purpose: "a float2 SV_ClipDistance0 and a float SV_ClipDistance2 clip by planes 0, 1 \
                  and 2: each of three triangles is clipped by its own plane, the others are drawn",
        file: "clip-distance.slang",
        source: include_str!("../shaders/clip-distance.slang"),
        entries: &[("vmain", "vertex"), ("fmain", "fragment")],
        pipeline: Pipeline::Draw(draw(W, 1, 3 * W)),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// Closest-hit and miss shaders with two `inout` payload parameters.
fn ray_consolidated() -> Case {
    const W: u32 = 8;
    let mut expect = Vec::new();
    for x in 0..W {
        let px = x as f32 + 0.25;
        let u = (px - TRIANGLE[0][0]) / (TRIANGLE[1][0] - TRIANGLE[0][0]);
        let v = (0.25 - TRIANGLE[0][1]) / (TRIANGLE[2][1] - TRIANGLE[0][1]);
        if u + v <= 1.0 {
            expect.extend([Expect::U(1.0f32.to_bits()), Expect::U(2.0f32.to_bits())]);
            expect.extend([Expect::F(3.0), Expect::U(0.25f32.to_bits())]);
            expect.extend([
                Expect::U(10 + x + 100),
                Expect::F(3.0),
                Expect::U(x),
                Expect::U(0),
            ]);
        } else {
            expect.extend([0.0f32, 0.0, 4.0, 1.0].map(|f| Expect::U(f.to_bits())));
            expect.extend([10 + x + 1000, (-1.0f32).to_bits(), x, 0].map(Expect::U));
        }
    }
    Case {
        name: "ray-payload-consolidated",
        purpose: "closest-hit and miss shaders with two inout payload parameters receive the ray \
                  generation shader's one payload and update both (B11)",
        file: "ray-consolidated.slang",
        source: include_str!("../shaders/ray-consolidated.slang"),
        entries: &[
            ("rgen", "raygeneration"),
            ("miss", "miss"),
            ("chit", "closesthit"),
        ],
        pipeline: Pipeline::Rays(Rays {
            launch: [W, 1, 1],
            words: W * 8,
            scene: Scene::Triangle(TRIANGLE),
            custom_index: 0,
        }),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// 64-bit varyings: double, double2, int64_t, uint64_t.
fn varying_64bit() -> Case {
    const W: u32 = 4;
    let mut targets = [Vec::new(), Vec::new()];
    for k in 0..W {
        let i = -i64::from(k) * 10_000_000_000 - 7;
        let u = 0xF000_0000_0000_0000u64 + u64::from(k) * 0x1_0000_0001;
        targets[0].extend([i as u32, (i >> 32) as u32, u as u32, (u >> 32) as u32].map(Expect::U));
        let d = f64::from(k) * 0.1 + 1.0;
        targets[1].extend([1, 1, 1, (d * 1000.0 + 0.5) as u32].map(Expect::U));
    }
    Case {
        name: "varying-64bit",
        purpose: "double, double2, int64_t and uint64_t varyings (flat) arrive intact at the \
                  fragment stage",
        file: "varying-64bit.slang",
        source: include_str!("../shaders/varying-64bit.slang"),
        entries: &[("vmain", "vertex"), ("fmain", "fragment")],
        pipeline: Pipeline::Draw(Draw {
            targets: 2,
            ..draw(W, 1, 3 * W)
        }),
        expect: targets.concat(),
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

/// An intersection shader's attributes through any hit and closest hit.
fn ray_procedural() -> Case {
    const W: u32 = 8;
    let mut expect = Vec::new();
    for x in 0..W {
        let px = x as f32 + 0.25;
        if x < 4 && x != 1 {
            expect.extend([Expect::U(px.to_bits()), Expect::U(0.25f32.to_bits())]);
            expect.extend([Expect::F(3.0), Expect::U(0)]);
            expect.extend([40, 7, x, 0].map(Expect::U));
        } else {
            // Column 1's hit is ignored by the any-hit shader; x >= 4 has
            // none.
            expect.extend(
                [
                    (-1.0f32).to_bits(),
                    (-1.0f32).to_bits(),
                    (-1.0f32).to_bits(),
                    1,
                ]
                .map(Expect::U),
            );
            expect.extend([77, 77, x, 0].map(Expect::U));
        }
    }
    Case {
        name: "ray-procedural",
        purpose: "an intersection shader's hit attributes and hit kind reach the any-hit shader \
                  (which ignores one column's hit) and the closest-hit shader",
        file: "ray-procedural.slang",
        source: include_str!("../shaders/ray-procedural.slang"),
        entries: &[
            ("rgen", "raygeneration"),
            ("miss", "miss"),
            ("chit", "closesthit"),
            ("ahit", "anyhit"),
            ("isect", "intersection"),
        ],
        pipeline: Pipeline::Rays(Rays {
            launch: [W, 1, 1],
            words: W * 8,
            scene: Scene::Aabb([0.0, -1.0, -1.0, 4.0, 20.0, 1.0]),
            custom_index: 0,
        }),
        expect,
        raw_vertex_ids: false,
        widen_16bit: false,
        control: false,
    }
}

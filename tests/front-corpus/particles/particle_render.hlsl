// legalis: -entry VSParticle -stage vertex
// legalis: -entry PSParticle -stage pixel
// Vertex-pulled camera-facing particle quads (no geometry shader).

struct Particle
{
    float3 position;
    float age;
    float3 velocity;
    float lifetime;
    float4 color;
    float size;
    uint seed;
    float2 pad;
};

cbuffer CameraCB : register(b0)
{
    float4x4 view;
    float4x4 proj;
    float3 cameraRight;
    float softness;
    float3 cameraUp;
    float nearZ;
};

StructuredBuffer<Particle> Particles : register(t0);
StructuredBuffer<uint> AliveIndices : register(t1);
Texture2D ParticleAtlas : register(t2);
Texture2D<float> SceneDepth : register(t3);
SamplerState LinearClamp : register(s0);

struct VSOut
{
    float4 pos : SV_POSITION;
    float4 color : COLOR;
    float2 uv : TEXCOORD0;
    float viewDepth : TEXCOORD1;
};

static const float2 kCorners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };

VSOut VSParticle(uint vertexId : SV_VertexID, uint instanceId : SV_InstanceID)
{
    Particle p = Particles[AliveIndices[instanceId]];
    float2 corner = kCorners[vertexId & 3];
    float3 world = p.position + (cameraRight * corner.x + cameraUp * corner.y) * p.size;
    float4 viewPos = mul(view, float4(world, 1.0));
    VSOut o;
    o.pos = mul(proj, viewPos);
    o.color = p.color;
    o.uv = corner * float2(0.5, -0.5) + 0.5;
    o.viewDepth = viewPos.z;
    return o;
}

float4 PSParticle(VSOut input) : SV_TARGET
{
    float4 tex = ParticleAtlas.Sample(LinearClamp, input.uv);
    float sceneZ = SceneDepth.Load(int3(input.pos.xy, 0));
    float fade = saturate((sceneZ - input.viewDepth) * softness);
    float4 c = tex * input.color;
    c.a *= fade;
    if (c.a < 0.003)
        discard;
    return c;
}

// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Heightmap terrain with splat-map blending and triplanar fallback on cliffs.

cbuffer TerrainCB : register(b0)
{
    float4x4 viewProj;
    float2 terrainSize;
    float heightScale;
    float texelSize;
    float4 layerTiling;
    float3 sunDir;
    float cliffThreshold;
};

Texture2D<float> heightMap : register(t0);
Texture2D<float4> splatMap : register(t1);
Texture2DArray<float4> layerAlbedo : register(t2);
SamplerState linearWrap : register(s0);
SamplerState linearClamp : register(s1);

struct VSIn
{
    float2 gridPos : POSITION;
    uint instanceId : SV_InstanceID;
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 worldPos : TEXCOORD0;
    float2 uv : TEXCOORD1;
};

float SampleHeight(float2 uv)
{
    return heightMap.SampleLevel(linearClamp, uv, 0) * heightScale;
}

VSOut VSMain(VSIn v)
{
    uint tilesPerRow = 16;
    float2 tileOffset = float2(v.instanceId % tilesPerRow, v.instanceId / tilesPerRow);
    float2 xz = (v.gridPos + tileOffset) * (terrainSize / tilesPerRow);
    float2 uv = xz / terrainSize;
    float h = SampleHeight(uv);
    VSOut o;
    o.worldPos = float3(xz.x, h, xz.y);
    o.pos = mul(viewProj, float4(o.worldPos, 1.0));
    o.uv = uv;
    return o;
}

float3 ComputeNormal(float2 uv)
{
    float hl = SampleHeight(uv - float2(texelSize, 0));
    float hr = SampleHeight(uv + float2(texelSize, 0));
    float hd = SampleHeight(uv - float2(0, texelSize));
    float hu = SampleHeight(uv + float2(0, texelSize));
    return normalize(float3(hl - hr, 2.0 * texelSize * terrainSize.x, hd - hu));
}

float4 Triplanar(float3 p, float3 n, float layer, float tiling)
{
    float3 w = pow(abs(n), 4.0);
    w /= (w.x + w.y + w.z);
    float4 x = layerAlbedo.Sample(linearWrap, float3(p.zy * tiling, layer));
    float4 y = layerAlbedo.Sample(linearWrap, float3(p.xz * tiling, layer));
    float4 z = layerAlbedo.Sample(linearWrap, float3(p.xy * tiling, layer));
    return x * w.x + y * w.y + z * w.z;
}

float4 PSMain(VSOut i) : SV_Target
{
    float3 n = ComputeNormal(i.uv);
    float4 splat = splatMap.Sample(linearClamp, i.uv);
    float4 albedo = 0;
    [unroll]
    for (int layer = 0; layer < 4; ++layer)
    {
        float2 tuv = i.worldPos.xz * layerTiling[layer];
        albedo += layerAlbedo.Sample(linearWrap, float3(tuv, layer)) * splat[layer];
    }
    [branch]
    if (n.y < cliffThreshold)
    {
        float t = smoothstep(cliffThreshold, cliffThreshold - 0.2, n.y);
        albedo = lerp(albedo, Triplanar(i.worldPos, n, 3, layerTiling.w), t);
    }
    float ndl = saturate(dot(n, -sunDir));
    return float4(albedo.rgb * (0.2 + 0.8 * ndl), 1.0);
}

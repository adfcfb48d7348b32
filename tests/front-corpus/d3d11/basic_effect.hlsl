// legalis: -entry main -stage vertex
// Old-style D3D11 vertex shader: positional semantics and a bare return semantic.

float4x4 WorldViewProj;

float4 main(float4 pos : POSITION) : SV_POSITION
{
    return mul(pos, WorldViewProj);
}

// legalis: -entry main -stage vertex
// Starts with a UTF-8 byte order mark, as Visual Studio writes files.

cbuffer CB : register(b0)
{
    float4x4 gMvp;
};

float4 main(float3 p : POSITION) : SV_Position
{
    return mul(gMvp, float4(p, 1.0f));
}

// legalis: -entry main -stage compute
// GetDimensions in the documented overloads: with and without mip level, uint and float outputs.

Texture1D<float4> gT1 : register(t0);
Texture2D<float4> gT2 : register(t1);
Texture2DArray<float4> gT2A : register(t2);
Texture3D<float4> gT3 : register(t3);
TextureCube<float4> gTC : register(t4);
TextureCubeArray<float4> gTCA : register(t5);
Texture2DMS<float4> gMS : register(t6);
Texture2DMSArray<float4, 4> gMSA : register(t7);
Buffer<float4> gBuf : register(t8);
StructuredBuffer<float4> gSB : register(t9);
ByteAddressBuffer gBAB : register(t10);
RWTexture2D<float4> gRW2 : register(u0);
RWTexture3D<float4> gRW3 : register(u1);
RWBuffer<uint> gRWBuf : register(u2);
RWStructuredBuffer<uint4> gOut : register(u3);

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint w, h, d, levels, elements, samples, count, stride, bytes;
    float fw, fh, fl;
    gT1.GetDimensions(w);
    gT1.GetDimensions(0, w, levels);
    gT2.GetDimensions(w, h);
    gT2.GetDimensions(1, w, h, levels);
    gT2.GetDimensions(fw, fh);
    gT2.GetDimensions(0, fw, fh, fl);
    gT2A.GetDimensions(w, h, elements);
    gT2A.GetDimensions(0, w, h, elements, levels);
    gT3.GetDimensions(w, h, d);
    gT3.GetDimensions(0, w, h, d, levels);
    gTC.GetDimensions(w, h);
    gTC.GetDimensions(0, w, h, levels);
    gTCA.GetDimensions(w, h, elements);
    gMS.GetDimensions(w, h, samples);
    gMSA.GetDimensions(w, h, elements, samples);
    gBuf.GetDimensions(count);
    gSB.GetDimensions(count, stride);
    gBAB.GetDimensions(bytes);
    gRW2.GetDimensions(w, h);
    gRW3.GetDimensions(w, h, d);
    gRWBuf.GetDimensions(count);
    gOut[0] = uint4(w + h + d, levels + elements + samples, count + stride + bytes, (uint)(fw + fh + fl));
}

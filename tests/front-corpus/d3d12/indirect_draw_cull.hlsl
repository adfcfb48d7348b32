// legalis: -entry CSMain -stage compute
// ExecuteIndirect-style command compaction with an append buffer.

struct SceneConstantBuffer
{
    float4 velocity;
    float4 offset;
    float4 color;
    float4x4 projection;
    float4 padding[9];
};

struct IndirectCommand
{
    uint2 cbvAddress;
    uint4 drawArguments;
    uint pad;
};

cbuffer RootConstants : register(b0)
{
    float xOffset;
    float zOffset;
    float cullOffset;
    float commandCount;
};

StructuredBuffer<SceneConstantBuffer> cbv : register(t0);
StructuredBuffer<IndirectCommand> inputCommands : register(t1);
AppendStructuredBuffer<IndirectCommand> outputCommands : register(u0);

#define threadBlockSize 128

[numthreads(threadBlockSize, 1, 1)]
void CSMain(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint index = (groupId.x * threadBlockSize) + groupIndex;

    if (index < commandCount)
    {
        float4 left = float4(-xOffset, 0.0f, zOffset, 1.0f) + cbv[index].offset;
        left = mul(left, cbv[index].projection);
        left /= left.w;

        float4 right = float4(xOffset, 0.0f, zOffset, 1.0f) + cbv[index].offset;
        right = mul(right, cbv[index].projection);
        right /= right.w;

        if (-cullOffset < right.x && left.x < cullOffset)
        {
            outputCommands.Append(inputCommands[index]);
        }
    }
}

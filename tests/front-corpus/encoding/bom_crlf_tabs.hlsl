// legalis: -entry CSMain -stage compute
// UTF-8 BOM plus CRLF line endings plus tabs.
#define GROUP 64
RWStructuredBuffer<float> gData : register(u0);
[numthreads(GROUP, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID)
{
	float v = gData[id.x];
	if (v < 0.0f)
	{
		v = -v;	// absolute value
	}
	gData[id.x] = sqrt(v);
}

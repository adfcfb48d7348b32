// legalis: -entry main -stage vertex
// Tab-indented code, tabs between tokens, trailing whitespace, and a file without a final newline.

struct	VSOut
{
	float4	pos	:	SV_Position;	
	float2	uv	:	TEXCOORD0;   
};

static	const	float2	kQuad[4]	=	{	float2(0,0),	float2(1,0),	float2(0,1),	float2(1,1)	};

VSOut	main(uint	vid	:	SV_VertexID)
{
	VSOut	o;
	o.uv	=	kQuad[vid	&	3];
	o.pos	=	float4(o.uv	*	2.0f	-	1.0f,	0.0f,	1.0f);
	return	o;
}
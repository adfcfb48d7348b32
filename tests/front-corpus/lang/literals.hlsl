// legalis: -entry main -stage fragment
// Every literal spelling a hand-written shader tends to use.

static const uint kHex = 0xFFu;
static const uint kHexUpper = 0X1F;
static const uint kMask = 0x7FFFFFFFu;
static const int kOctal = 017;
static const int kNegative = -42;
static const uint kBig = 4294967295u;
static const float kExp = 1e-3f;
static const float kExpUpper = 2.5E+2;
static const float kTrailingDot = 3.;
static const float kLeadingDot = .25;
static const half kHalfLit = .5h;
static const double kDouble = 2.0L;
static const float kNoSuffixExp = 1e4;
static const int64_t kLong = 9000000000ll;
static const uint64_t kULong = 0xFFFFFFFFFFull;
static const bool kTrue = true;
static const bool kFalse = false;

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float a = kExp * kExpUpper + kTrailingDot - kLeadingDot;
    a += (float)kHalfLit + (float)kDouble;
    a += float(kHex & kHexUpper) / 255.0f;
    a += (float)(kMask >> 30);
    a += (float)kOctal * 0.01f + (float)kNegative * 1.0e-2f;
    a += (kBig == 0xFFFFFFFFu) ? 1.0f : 0.0f;
    a += (float)(kLong >> 32) * 1e-9f;
    a += (float)(uint)(kULong & 0xFFu);
    a += kNoSuffixExp * 0.0001f;
    if (kTrue && !kFalse)
        a *= 0.5f;
    return float4(uv, a, 1.0f);
}

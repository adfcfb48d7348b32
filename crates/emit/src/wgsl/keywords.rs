//! Names a WGSL identifier of the output must not take, as pure data:
//! keywords, reserved words, and the predeclared types and functions the
//! writer prints (a user declaration of the same name would shadow them).

pub const RESERVED: &[&str] = &[
    // Keywords.
    "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default",
    "diagnostic", "discard", "else", "enable", "false", "fn", "for", "if", "let", "loop",
    "override", "requires", "return", "struct", "switch", "true", "var", "while",
    // Reserved words.
    "NULL", "Self", "abstract", "active", "alignas", "alignof", "as", "asm", "asm_fragment",
    "async", "attribute", "auto", "await", "become", "binding_array", "cast", "catch", "class",
    "co_await", "co_return", "co_yield", "coherent", "column_major", "common", "compile",
    "compile_fragment", "concept", "const_cast", "consteval", "constexpr", "constinit", "crate",
    "debugger", "decltype", "delete", "demote", "demote_to_helper", "do", "dynamic_cast", "enum",
    "explicit", "export", "extends", "extern", "external", "fallthrough", "filter", "final",
    "finally", "friend", "from", "fxgroup", "get", "goto", "groupshared", "highp", "impl",
    "implements", "import", "inline", "instanceof", "interface", "layout", "lowp", "macro",
    "macro_rules", "match", "mediump", "meta", "mod", "module", "move", "mut", "mutable",
    "namespace", "new", "nil", "noexcept", "noinline", "nointerpolation", "non_coherent",
    "noncoherent", "noperspective", "null", "nullptr", "of", "operator", "package", "packoffset",
    "partition", "pass", "patch", "pixelfragment", "precise", "precision", "premerge", "priv",
    "protected", "pub", "public", "readonly", "ref", "regardless", "register", "reinterpret_cast",
    "require", "resource", "restrict", "self", "set", "shared", "sizeof", "smooth", "snorm",
    "static", "static_assert", "static_cast", "std", "subroutine", "super", "target", "template",
    "this", "thread_local", "throw", "trait", "try", "type", "typedef", "typeid", "typename",
    "typeof", "union", "unless", "unorm", "unsafe", "unsized", "use", "using", "varying",
    "virtual", "volatile", "wgsl", "where", "with", "writeonly", "yield",
    // Predeclared types and type generators.
    "bool", "f16", "f32", "i32", "u32", "vec2", "vec3", "vec4", "mat2x2", "mat2x3", "mat2x4",
    "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4", "array", "atomic", "ptr",
    "sampler", "sampler_comparison", "texture_1d", "texture_2d", "texture_2d_array",
    "texture_3d", "texture_cube", "texture_cube_array", "texture_multisampled_2d",
    "texture_depth_2d", "texture_depth_2d_array", "texture_depth_cube",
    "texture_depth_cube_array", "texture_depth_multisampled_2d", "texture_storage_1d",
    "texture_storage_2d", "texture_storage_2d_array", "texture_storage_3d", "function",
    "private", "workgroup", "uniform", "storage", "read", "write", "read_write",
    // Predeclared functions the writer prints.
    "abs", "acos", "all", "any", "arrayLength", "asin", "atan", "atan2", "bitcast", "ceil",
    "clamp", "cos", "cosh", "countOneBits", "cross", "degrees", "determinant", "distance", "dot",
    "dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine", "exp", "exp2",
    "faceForward", "firstLeadingBit", "firstTrailingBit", "floor", "fma", "fract", "fwidth",
    "inverseSqrt", "ldexp", "length", "log", "log2", "max", "min", "mix", "normalize", "pow",
    "radians", "reflect", "refract", "reverseBits", "round", "saturate", "select", "sign", "sin",
    "sinh", "smoothstep", "sqrt", "step", "storageBarrier", "tan", "tanh", "textureDimensions",
    "textureGather", "textureGatherCompare", "textureLoad", "textureNumLayers",
    "textureNumLevels", "textureNumSamples", "textureSample", "textureSampleBias",
    "textureSampleCompare", "textureSampleCompareLevel", "textureSampleGrad",
    "textureSampleLevel", "textureStore", "transpose", "trunc", "workgroupBarrier",
    "textureBarrier",
];

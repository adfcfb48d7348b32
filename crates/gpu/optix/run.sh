#!/bin/sh
# Builds and runs the OptiX execution test staged in this folder
# (crates/gpu/src/optix.rs stages it): every Legalis CUDA output to PTX,
# then our host program, both with this machine's nvcc, against the OptiX
# headers in $OPTIX_INCLUDE (default: ./include). Needs the NVIDIA driver
# (libcuda, libnvoptix). Exit status: the host program's (0 all passed,
# 1 a mismatch, 2 no device or a setup failure).
set -e
cd "$(dirname "$0")"
include=${OPTIX_INCLUDE:-include}
nvcc=${NVCC:-nvcc}
for cu in raygen isect hitMixed missMixed hitBig missBig; do
    "$nvcc" -ptx -std=c++17 -I "$include" -I . "$cu.cu" -o "$cu.ptx"
done
"$nvcc" -std=c++17 -I "$include" host.cpp -o host -lcuda -ldl
./host

// Part of the Legalis model of Metal's standard library (see metal_stdlib).
#include <metal_stdlib>

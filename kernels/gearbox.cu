// gearbox.cu: the one translation unit nvcc compiles into gearbox.fatbin
// (see gen.go); each family lives in its own file.
#include "bfs.cu"
#include "sssp.cu"
#include "workset.cu"
#include "cc.cu"
#include "narrow.cu"
#include "apsp.cu"
#include "msf.cu"
#include "maxflow.cu"
#include "scc.cu"
#include "paths.cu"

// Package all links every algorithm gearbox ships into the registry
// (algorithms.All): drivers import it for its side effect. A new algorithm
// adds its package's line here.
//
// It may import the algorithm packages; only cmd and tuning import it.
package all

import (
	_ "github.com/gearbox-graph/gearbox/algorithms/apsp"    // apsp
	_ "github.com/gearbox-graph/gearbox/algorithms/bfs"     // bfs
	_ "github.com/gearbox-graph/gearbox/algorithms/cc"      // cc, forest
	_ "github.com/gearbox-graph/gearbox/algorithms/maxflow" // maxflow
	_ "github.com/gearbox-graph/gearbox/algorithms/msf"     // mst
	_ "github.com/gearbox-graph/gearbox/algorithms/scc"     // scc
	_ "github.com/gearbox-graph/gearbox/algorithms/sssp"    // sssp
	_ "github.com/gearbox-graph/gearbox/algorithms/stcon"   // stcon
)

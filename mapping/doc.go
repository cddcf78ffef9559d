// Package mapping provides the thread and block work distributions of the
// runtime, named as on the GPU: thread mapping gives a worker whole
// working-set elements; block mapping splits the neighbourhoods of elements
// across workers by edge count, so one huge vertex is shared by several.
//
// It may import only the standard library.
package mapping

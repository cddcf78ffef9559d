package kernels_test

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/kernels"
)

// printer stands in for the cuda backend's device: it prints each launch.
type printer struct{}

func (printer) LaunchKernel(name string, grid, block int, args []uint64) error {
	fmt.Printf("%s<<<%d, %d>>> %#x\n", name, grid, block, args)
	return nil
}

// A single kernel's launch: the Go parameters mirror the C ones, so a
// wrong count, order, pointee or width does not compile. In the cuda
// backend the pointers come from its typed device allocations.
func ExampleLaunchCCInit() {
	parents := kernels.PtrAt[uint32](0x7000)
	var noHooks kernels.DevPtr[uint64] // null: no forest
	if err := kernels.LaunchCCInit(printer{}, 4, 256, parents, noHooks, 1000); err != nil {
		fmt.Println(err)
	}
	// Output: cc_init<<<4, 256>>> [0x7000 0x0 0x3e8]
}

// A family's launch takes the member, a typed name: a member of another
// family does not compile, and a string converted to the type is refused.
func ExampleLaunchBFSPieces() {
	var (
		off    = kernels.PtrAt[int64](0x1000)
		adj    = kernels.PtrAt[uint32](0x2000)
		level  = kernels.PtrAt[uint32](0x3000)
		upd    = kernels.PtrAt[uint8](0x4000)
		pieces = kernels.PtrAt[uint64](0x5000)
		ctrl   = kernels.PtrAt[kernels.Ctrl](0x6000)
	)
	fmt.Println(kernels.LaunchBFSPieces(printer{}, kernels.BFSPiecesOf(true), 2, 256, off, adj, level, upd, pieces, ctrl))
	fmt.Println(kernels.LaunchBFSPieces(printer{}, kernels.BFSPiecesKernel("bfs_pieces_x"), 2, 256, off, adj, level, upd, pieces, ctrl))
	// Output:
	// bfs_pieces_o<<<2, 256>>> [0x1000 0x2000 0x3000 0x4000 0x5000 0x6000]
	// <nil>
	// kernels: not a member of the kernel family: "bfs_pieces_x" is not a BFSPiecesKernel
}

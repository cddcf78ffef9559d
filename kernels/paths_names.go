package kernels

// Parent passes and st-connectivity (paths.cu).
const (
	BFSParents  = "bfs_parents"
	SSSPParents = "sssp_parents"
	// StconPersist answers one st-connectivity query in persistent
	// launches of PersistThreads threads a block.
	StconPersist = "stcon_persist"
)

// stcon_persist's control block (struct StconCtrl): its size, the path
// vertices it carries back itself (longer paths are left in the free queue
// buffer), and its states.
const (
	StconCtrlBytes  = 1184
	StconPathInline = 256
	StconRunning    = 0
	StconMet        = 1
	StconApart      = 2
)

// PathsNames lists the paths.cu kernels; they are part of Names.
var PathsNames = []string{BFSParents, SSSPParents, StconPersist}

func init() { Names = append(Names, PathsNames...) }

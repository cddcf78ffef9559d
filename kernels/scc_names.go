package kernels

// Strongly-connected-components kernels (scc.cu).
const (
	SCCTrim        = "scc_trim"
	SCCPivot       = "scc_pivot"
	SCCSeed        = "scc_seed"
	SCCReach       = "scc_reach"
	SCCSplitMin    = "scc_split_min"
	SCCSplitApply  = "scc_split_apply"
	SCCColourInit  = "scc_colour_init"
	SCCColourProp  = "scc_colour_prop"
	SCCRoots       = "scc_roots"
	SCCColourApply = "scc_colour_apply"
)

// SCCNone is SCC_NONE in scc.cu: the label of a vertex whose SCC is not
// known yet.
const SCCNone = 0xFFFFFFFF

// SCCNames lists the scc kernels; they are part of Names.
var SCCNames = []string{SCCTrim, SCCPivot, SCCSeed, SCCReach, SCCSplitMin, SCCSplitApply,
	SCCColourInit, SCCColourProp, SCCRoots, SCCColourApply}

func init() { Names = append(Names, SCCNames...) }

package kernels

// Connected-components kernels (cc.cu).
const (
	CCInit      = "cc_init"
	CCCompress  = "cc_compress"
	CCFillSrc   = "cc_fill_src"
	CCSVBitmapT = "cc_sv_bm_t" // bitmap of hidden arcs, thread per vertex
	CCSVBitmapE = "cc_sv_bm_e" // bitmap of hidden arcs, edge-balanced (warp per word)
	CCSVQueue   = "cc_sv_qu"
	CCSVBuildQu = "cc_sv_build_qu"
	CCSVQuToBm  = "cc_sv_qu_to_bm"
	CCLowMin    = "cc_low_min"
	CCLowApply  = "cc_low_apply"
	CCAffRound0 = "cc_aff_round0"
	CCAffRound  = "cc_aff_round"
	CCAffMode   = "cc_aff_mode"
	CCLinkT     = "cc_link_t"
	CCLinkB     = "cc_link_b"
)

// Modes of cc_link_t and cc_link_b (CC_MODE_* in cc.cu).
const (
	CCModeLink = 0 // Afforest's link of the remaining arcs
	CCModeUF   = 1 // union-find with intermediate pointer jumping
)

// CCHeavy is CC_HEAVY in cc.cu: vertices with more arcs to do go to the
// block-per-vertex kernel.
const CCHeavy = 32

// CCNames lists the cc kernels; they are part of Names.
var CCNames = []string{CCInit, CCCompress, CCFillSrc, CCSVBitmapT, CCSVBitmapE, CCSVQueue, CCSVBuildQu,
	CCSVQuToBm, CCLowMin, CCLowApply, CCAffRound0, CCAffRound, CCAffMode, CCLinkT, CCLinkB}

func init() { Names = append(Names, CCNames...) }

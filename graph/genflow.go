package graph

// Max-flow generators, written from the published definitions of the
// DIMACS families (their C programs are not used): deterministic for a
// seed, directed, integer capacities as weights, with terminals.
//
//   - rmf:A:B (GENRMF, Goldfarb & Grigoriadis as distributed with the
//     first DIMACS challenge): B frames, each an AxA grid; every vertex
//     has arcs to its (up to four) grid neighbours in its frame, capacity
//     c2*A*A; vertex i of frame k has an arc to vertex p_k(i) of frame k+1,
//     p_k a random permutation of 0..A*A-1, capacity uniform in [c1, c2];
//     c1 = 1, c2 = 100 (genrmf's usual setting). Source: vertex 0 of the
//     first frame; sink: the last vertex of the last frame. Vertex
//     x + y*A + k*A*A.
//   - rlg:W:H (the Washington generator's random level graph): H levels of
//     W vertices; every vertex of a level but the last has three arcs to
//     vertices of the next level drawn uniformly (repeats merge into one
//     arc of summed capacity in the residual network), capacity uniform in
//     [1, 10000]; the source has an arc to every vertex of the first level
//     and every vertex of the last level one to the sink, capacity 30000
//     (never below what the vertex can pass on). Vertex 2+i+l*W; source 0,
//     sink 1.
//   - vision:W:H (a vision-style segmentation grid): W x H pixels, arcs both
//     ways between 4-neighbours with capacity uniform in [1, 100], and
//     every pixel with an arc from the source and one to the sink, each
//     capacity uniform in [0, 100]. Pixel x+y*W; source W*H, sink W*H+1.

const (
	tagRMF    = 0x726d6600 // "rmf"
	tagRLG    = 0x726c6700 // "rlg"
	tagVision = 0x76697300 // "vis"

	rmfC1, rmfC2 = 1, 100
	rlgMaxCap    = 10000
	rlgDegree    = 3
	visionMaxCap = 100
)

// flowKind reports whether kind is a max-flow generator.
func flowKind(kind string) bool { return kind == "rmf" || kind == "rlg" || kind == "vision" }

func (s GenSpec) flowVertices() int64 {
	w, h := int64(s.W), int64(s.H)
	if s.Kind == "rmf" {
		return w * w * h
	}
	return w*h + 2
}

func (s GenSpec) flowEdges() int64 {
	w, h := int64(s.W), int64(s.H)
	switch s.Kind {
	case "rmf":
		return h*4*w*(w-1) + (h-1)*w*w
	case "rlg":
		return rlgDegree*w*(h-1) + 2*w
	}
	return 2*(w*(h-1)+h*(w-1)) + 2*w*h
}

func (s GenSpec) flowTerminals() (src, sink uint32) {
	if s.Kind == "rmf" {
		return 0, uint32(s.flowVertices() - 1)
	}
	if s.Kind == "rlg" {
		return 0, 1
	}
	return uint32(s.W * s.H), uint32(s.W*s.H + 1)
}

// uniform returns a value in [lo, hi].
func (r *splitmix) uniform(lo, hi uint64) uint64 {
	return lo + (r.next()>>32)*(hi-lo+1)>>32
}

func genFlow(s GenSpec, el *EdgeList, seed uint64) {
	i := 0
	arc := func(u, v int, c uint64) {
		el.Src[i], el.Dst[i], el.Weights[i] = uint32(u), uint32(v), uint32(c)
		i++
	}
	w, h := s.W, s.H
	switch s.Kind {
	case "rmf":
		r := blockRNG(seed, tagRMF, 0)
		a2 := w * w
		in := uint64(rmfC2 * a2)
		perm := make([]int, a2)
		for k := 0; k < h; k++ {
			base := k * a2
			for y := 0; y < w; y++ {
				for x := 0; x < w; x++ {
					v := base + x + y*w
					if x > 0 {
						arc(v, v-1, in)
					}
					if x < w-1 {
						arc(v, v+1, in)
					}
					if y > 0 {
						arc(v, v-w, in)
					}
					if y < w-1 {
						arc(v, v+w, in)
					}
				}
			}
			if k == h-1 {
				break
			}
			for j := range perm {
				perm[j] = j
			}
			for j := a2 - 1; j > 0; j-- {
				o := int(r.uniform(0, uint64(j)))
				perm[j], perm[o] = perm[o], perm[j]
			}
			for j := 0; j < a2; j++ {
				arc(base+j, base+a2+perm[j], r.uniform(rmfC1, rmfC2))
			}
		}
	case "rlg":
		r := blockRNG(seed, tagRLG, 0)
		for l := 0; l < h; l++ {
			for x := 0; x < w; x++ {
				v := 2 + x + l*w
				if l == 0 {
					arc(0, v, rlgDegree*rlgMaxCap)
				}
				if l == h-1 {
					arc(v, 1, rlgDegree*rlgMaxCap)
					continue
				}
				for j := 0; j < rlgDegree; j++ {
					arc(v, 2+(l+1)*w+int(r.uniform(0, uint64(w-1))), r.uniform(1, rlgMaxCap))
				}
			}
		}
	case "vision":
		r := blockRNG(seed, tagVision, 0)
		src, sink := w*h, w*h+1
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := x + y*w
				arc(src, v, r.uniform(0, visionMaxCap))
				arc(v, sink, r.uniform(0, visionMaxCap))
				if x < w-1 {
					arc(v, v+1, r.uniform(1, visionMaxCap))
					arc(v+1, v, r.uniform(1, visionMaxCap))
				}
				if y < h-1 {
					arc(v, v+w, r.uniform(1, visionMaxCap))
					arc(v+w, v, r.uniform(1, visionMaxCap))
				}
			}
		}
	}
	el.Src, el.Dst, el.Weights = el.Src[:i], el.Dst[:i], el.Weights[:i]
}

package decider

import (
	"errors"
	"fmt"
	"strings"
)

// Order says whether the working set is processed in priority order.
type Order uint8

const (
	// Ordered processes the working set level by level (BFS) or by the
	// minimum-distance bucket (SSSP, bucket width Delta).
	Ordered Order = iota
	// Unordered processes every element of the working set each iteration
	// (label-correcting BFS, Bellman-Ford style SSSP).
	Unordered
)

// Mapping says how working-set elements are distributed over workers.
type Mapping uint8

const (
	// Thread mapping gives a worker whole working-set elements.
	Thread Mapping = iota
	// Block mapping splits the elements' neighbourhoods across workers by
	// edge count, so one huge vertex is shared.
	Block
)

// Rep is the working-set representation.
type Rep uint8

const (
	// Bitmap holds one bit per possible element.
	Bitmap Rep = iota
	// Queue holds the element ids in a dense array.
	Queue
)

// Direction is the traversal direction (BFS only).
type Direction uint8

const (
	// Push relaxes the out-edges of the working set (top-down).
	Push Direction = iota
	// Pull scans the in-edges of unvisited vertices against a bitmap
	// frontier (bottom-up, Beamer et al.).
	Pull
)

func (o Order) String() string {
	if o == Unordered {
		return "U"
	}
	return "O"
}

func (m Mapping) String() string {
	if m == Block {
		return "B"
	}
	return "T"
}

func (r Rep) String() string {
	if r == Queue {
		return "QU"
	}
	return "BM"
}

func (d Direction) String() string {
	if d == Pull {
		return "pull"
	}
	return "push"
}

// Variant is one point of the decision space. The eight push variants are
// named as in Li & Becchi, <order>_<mapping>_<working set>, e.g. "O_T_BM" or
// "U_B_QU"; the pull variant (ordered, thread mapping over unvisited
// vertices, bitmap frontier) is named "pull".
type Variant struct {
	Order     Order
	Mapping   Mapping
	Rep       Rep
	Direction Direction
}

// PullVariant is the bottom-up BFS variant.
var PullVariant = Variant{Order: Ordered, Mapping: Thread, Rep: Bitmap, Direction: Pull}

// ErrUnknownVariant is returned (wrapped) by ParseVariant.
var ErrUnknownVariant = errors.New("unknown variant")

// PushVariants returns the eight push variants in a fixed order.
func PushVariants() []Variant {
	var vs []Variant
	for _, o := range []Order{Ordered, Unordered} {
		for _, m := range []Mapping{Thread, Block} {
			for _, r := range []Rep{Bitmap, Queue} {
				vs = append(vs, Variant{Order: o, Mapping: m, Rep: r})
			}
		}
	}
	return vs
}

// AllVariants returns the eight push variants followed by pull.
func AllVariants() []Variant { return append(PushVariants(), PullVariant) }

// String returns the variant's name ("O_T_BM" ... "U_B_QU", or "pull").
func (v Variant) String() string {
	if v.Direction == Pull {
		return "pull"
	}
	return v.Order.String() + "_" + v.Mapping.String() + "_" + v.Rep.String()
}

// MarshalText writes the variant's name (so JSON traces carry names).
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText parses a name written by MarshalText.
func (v *Variant) UnmarshalText(b []byte) error {
	p, err := ParseVariant(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// ValidNames lists every variant name ParseVariant accepts.
func ValidNames() []string {
	var s []string
	for _, v := range AllVariants() {
		s = append(s, v.String())
	}
	return s
}

// ParseVariant parses a variant name, case-insensitively. The error for an
// unknown name wraps ErrUnknownVariant and lists the valid names.
func ParseVariant(s string) (Variant, error) {
	t := strings.TrimSpace(s)
	for _, v := range AllVariants() {
		if strings.EqualFold(t, v.String()) {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("%w %q: valid names are %s", ErrUnknownVariant, s, strings.Join(ValidNames(), ", "))
}

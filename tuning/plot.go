package tuning

import (
	"cmp"
	"fmt"
	"github.com/gearbox-graph/gearbox/internal/atomicfile"
	"image"
	"image/color"
	"image/color/palette"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// PlotSweep plots one knob's sweep for one algorithm as in the paper's
// Figs. 13 and 14: one line per graph, the time score s ranks by (wall or
// device) relative to that line's fastest value against the knob's value
// (T3 in percent of n). Rows of the last pass that swept the knob are
// used. It writes a PNG (or SVG, PDF by the path's extension).
func PlotSweep(rows []TuneRow, p Param, alg Algorithm, s Score, path string) error {
	last := 0
	for _, r := range rows {
		if r.Param == p && r.Algorithm == alg {
			last = max(last, r.Pass)
		}
	}
	if last == 0 {
		return fmt.Errorf("plot %s: no %s rows for it", p, alg)
	}
	type key struct {
		alg   Algorithm
		graph string
	}
	var keys []key
	series := map[key]plotter.XYs{}
	bars := map[key]plotter.YErrors{} // the median's 95% confidence interval
	for _, r := range rows {
		if r.Param != p || r.Pass != last || r.Algorithm != alg {
			continue
		}
		k := key{r.Algorithm, r.Graph}
		if _, ok := series[k]; !ok {
			keys = append(keys, k)
		}
		x := r.Value
		if p == T3 {
			x *= 100
		}
		t := s.Time(r.Measurement)
		if s.norm() == ScoreDevice && t <= 0 {
			return fmt.Errorf("plot %s: %s on %s: %w (a CPU sweep, or a CSV without device_ms); plot with --score wall", p, alg, r.Graph, ErrNoDeviceTime)
		}
		series[k] = append(series[k], plotter.XY{X: x, Y: t.Seconds()})
		lo, hi := medianCI(s.perSource(r.Measurement), 0.95)
		if lo == 0 { // not known: a bar of zero length
			lo, hi = t.Seconds(), t.Seconds()
		}
		bars[k] = append(bars[k], struct{ Low, High float64 }{t.Seconds() - lo, hi - t.Seconds()})
	}
	what := "execution time"
	if s.norm() == ScoreDevice {
		what = "device time"
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("%s: %s vs %s (other knobs at the best so far)", strings.ToUpper(string(alg)), what, p)
	pl.X.Label.Text = string(p)
	if p == T3 {
		pl.X.Label.Text = "T3 (% of n)"
	}
	pl.Y.Label.Text = what + " / fastest on that graph"
	pl.Legend.Top = true
	pl.Legend.Left = false
	pl.Add(plotter.NewGrid())
	var ticks []plot.Tick
	ymax := 1.0
	for i, k := range keys {
		xys, errs := series[k], bars[k]
		order := make([]int, len(xys))
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xys[a].X, xys[b].X) })
		xys, errs = permute(xys, order), permute(errs, order)
		best := xys[0].Y
		for _, xy := range xys {
			best = min(best, xy.Y)
		}
		for j := range xys {
			if best > 0 {
				xys[j].Y /= best
				errs[j].Low /= best
				errs[j].High /= best
			}
			ymax = max(ymax, xys[j].Y+errs[j].High)
			if i == 0 {
				ticks = append(ticks, plot.Tick{Value: xys[j].X, Label: strconv.FormatFloat(xys[j].X, 'g', 4, 64)})
			}
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("plot %s: %w", p, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		s.Color = plotutil.Color(i)
		s.Shape = plotutil.Shape(i)
		eb, err := plotter.NewYErrorBars(errPoints{xys, errs})
		if err != nil {
			return fmt.Errorf("plot %s: %w", p, err)
		}
		eb.Color = plotutil.Color(i)
		pl.Add(l, s, eb)
		pl.Legend.Add(k.graph, l, s)
	}
	// Every swept value gets a tick; headroom above the curves keeps the
	// legend off them.
	pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	if len(ticks) > 1 && ticks[0].Value > 0 && ticks[len(ticks)-1].Value >= 16*ticks[0].Value {
		// Geometric sweeps (delta, T2) read on a log axis.
		pl.X.Scale = plot.LogScale{}
		pl.X.Label.Text += " (log scale)"
	}
	// The legend takes about this fraction of the plot's height at the top.
	legend := 0.05 + 0.035*float64(len(keys))
	if ymax >= 8 {
		// Wide ranges (a bad value 30x slower) read on a log axis.
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Min, pl.Y.Max = 0.95, math.Pow(ymax, 1/(1-legend))
		var yt []plot.Tick
		for v := 1.0; v <= 2*ymax; v *= 2 {
			yt = append(yt, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
		pl.Y.Tick.Marker = plot.ConstantTicks(yt)
		pl.Y.Label.Text += " (log scale)"
	} else {
		pl.Y.Min = 1 - 0.05*(ymax-1)
		pl.Y.Max = 1 + (ymax-1)/(1-legend)
	}
	if err := save(pl, 8*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", p, err)
	}
	return nil
}

// PlotBench draws the adaptive policy against the best and the worst
// static configuration per graph (the paper's Fig. 15) for one algorithm:
// grouped bars of speedup over the serial reference.
func (res *BenchResult) PlotBench(alg Algorithm, path string) error {
	var names []string
	var worst, best, adapt plotter.Values
	for _, s := range res.Summaries {
		if s.Algorithm != alg || s.Adaptive.Runs == 0 {
			continue
		}
		names = append(names, s.Graph)
		// Speedups span orders of magnitude (and fall below 1 on small
		// graphs), so bars show log2(speedup): up = faster than serial.
		worst = append(worst, log2(s.Worst.Speedup))
		best = append(best, log2(s.Best.Speedup))
		adapt = append(adapt, log2(s.Adaptive.Speedup))
	}
	if len(names) == 0 {
		return fmt.Errorf("plot %s: no complete graphs", alg)
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("%s: adaptive vs best and worst static variant", strings.ToUpper(string(alg)))
	pl.Y.Label.Text = "speedup over the serial reference (log scale)"
	pl.Legend.Top = true
	pl.Add(plotter.NewGrid())
	w := vg.Points(14)
	bars := []struct {
		name string
		v    plotter.Values
		c    color.Color
	}{
		{"worst static", worst, color.RGBA{R: 200, G: 80, B: 60, A: 255}},
		{"best static", best, color.RGBA{R: 60, G: 120, B: 200, A: 255}},
		{"adaptive", adapt, color.RGBA{R: 60, G: 160, B: 80, A: 255}},
	}
	for i, b := range bars {
		bc, err := plotter.NewBarChart(b.v, w)
		if err != nil {
			return fmt.Errorf("plot %s: %w", alg, err)
		}
		bc.Color = b.c
		bc.LineStyle.Width = 0
		bc.Offset = vg.Length(i-1) * w
		pl.Add(bc)
		pl.Legend.Add(b.name, bc)
	}
	pl.NominalX(names...)
	lo, hi := 0.0, 1.0
	for _, v := range append(append(slices.Clone(worst), best...), adapt...) {
		lo, hi = min(lo, v), max(hi, v)
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	pl.Y.Min, pl.Y.Max = lo, hi+0.25*(hi-lo)+0.5 // headroom for the legend
	var ticks []plot.Tick
	for k := lo; k <= hi; k++ {
		ticks = append(ticks, plot.Tick{Value: k, Label: speedupLabel(k)})
	}
	pl.Y.Tick.Marker = plot.ConstantTicks(ticks)
	pl.X.Tick.Label.Rotation = 0.35
	pl.X.Tick.Label.XAlign = draw.XRight
	// A line at speedup 1 marks the serial reference.
	ref, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(names)) - 0.5, Y: 0}})
	if err == nil {
		ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		ref.Color = color.Gray{Y: 90}
		pl.Add(ref)
		pl.Legend.Add("serial", ref)
	}
	width := max(6*vg.Inch, vg.Length(len(names))*1.2*vg.Inch)
	if err := save(pl, width, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot %s: %w", alg, err)
	}
	return nil
}

// save writes the plot; a PNG is stored with a 256-colour palette (Plan 9),
// which keeps the anti-aliased lines readable at about a third of the size
// of full colour, so committed results stay small.
func save(pl *plot.Plot, w, h vg.Length, path string) error {
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		wt, err := pl.WriterTo(w, h, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
		if err != nil {
			return err
		}
		return atomicfile.Write(path, func(f io.Writer) error { _, err := wt.WriteTo(f); return err })
	}
	c := vgimg.New(w, h)
	pl.Draw(draw.New(c))
	img := c.Image()
	pal := toPaletted(img)
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return atomicfile.Write(path, func(f io.Writer) error { return enc.Encode(f, pal) })
}

func log2(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Log2(x)
}

// speedupLabel labels a log2 tick: "1x", "4x", "1/8x".
func speedupLabel(k float64) string {
	if k >= 0 {
		return strconv.FormatFloat(math.Exp2(k), 'f', -1, 64) + "x"
	}
	return "1/" + strconv.FormatFloat(math.Exp2(-k), 'f', -1, 64) + "x"
}

// toPaletted maps each pixel to its nearest Plan 9 palette colour, caching
// the lookups: a plot has few distinct colours, and the palette search per
// pixel would dominate the time.
func toPaletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, palette.Plan9)
	cache := map[color.RGBA]uint8{}
	p := color.Palette(palette.Plan9)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := cache[c]
			if !ok {
				i = uint8(p.Index(c))
				cache[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	return out
}

// errPoints gives plotter.NewYErrorBars its points and their bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// permute returns xs in the given order.
func permute[T any](xs []T, order []int) []T {
	out := make([]T, len(xs))
	for j, o := range order {
		out[j] = xs[o]
	}
	return out
}

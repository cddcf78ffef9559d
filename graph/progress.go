package graph

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressMin is the input size above which a progress bar is shown.
const progressMin = 32 << 20

// withProgress counts the bytes read from r on a progress bar written to
// out; done finishes the bar.
func withProgress(r io.Reader, size int64, name string, out io.Writer) (io.Reader, func()) {
	bar := progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(out),
		progressbar.OptionSetDescription("reading "+name),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
	return &progressReader{r: r, bar: bar}, func() { _ = bar.Finish() }
}

type progressReader struct {
	r   io.Reader
	bar *progressbar.ProgressBar
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		_ = p.bar.Add(n)
	}
	return n, err
}

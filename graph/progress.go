package graph

import (
	"io"
)

// withProgress counts the bytes read from r and reports them to fn after
// each read; done reports the final count.
func withProgress(r io.Reader, size int64, fn func(done, total int64)) (io.Reader, func()) {
	p := &progressReader{r: r, total: size, fn: fn}
	return p, func() { fn(p.done, p.total) }
}

type progressReader struct {
	r           io.Reader
	done, total int64
	fn          func(done, total int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.done += int64(n)
		p.fn(p.done, p.total)
	}
	return n, err
}

package algorithms

import (
	"bufio"
	"io"
	"strconv"

	"github.com/gearbox-graph/gearbox/graph"
)

// WriteCSV writes a header "id,<name>" and one "id,value" row per vertex
// 0..n-1, ids in the graph's file ids; a vertex value reports none of gets
// an empty value. Rows are streamed, never held.
func WriteCSV(w io.Writer, ids graph.IDMap, n int, name string, value func(uint32) (uint64, bool)) error {
	return writeLines(w, "id,"+name+"\n", n, func(buf []byte, i int) []byte {
		v := uint32(i)
		buf = strconv.AppendUint(buf, ids.External(v), 10)
		buf = append(buf, ',')
		return appendValue(buf, value, v, "")
	})
}

// WriteJSON writes a JSON array with one object {"id": ..., "<name>":
// ...} per vertex 0..n-1, ids in the graph's file ids, the value null
// where value reports none, one object per line. Streamed, never held.
func WriteJSON(w io.Writer, ids graph.IDMap, n int, name string, value func(uint32) (uint64, bool)) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	key := strconv.Quote(name)
	if _, err := bw.WriteString("["); err != nil {
		return err
	}
	var buf []byte
	for v := 0; v < n; v++ {
		buf = buf[:0]
		if v > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n{\"id\":"...)
		buf = strconv.AppendUint(buf, ids.External(uint32(v)), 10)
		buf = append(buf, ',')
		buf = append(buf, key...)
		buf = append(buf, ':')
		buf = appendValue(buf, value, uint32(v), "null")
		buf = append(buf, '}')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString("\n]\n"); err != nil {
		return err
	}
	return bw.Flush()
}
